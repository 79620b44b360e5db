"""The torneos' API on a real server process, on SQLite and on PostgreSQL: the docs' liguilla run
through it gives the docs' standings, a refused action changes nothing, the public copy keeps a
duplicate round's seed until the round is over, and the CSV export is safe to open."""

from __future__ import annotations

import csv
import io
import json
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import httpx

from fichaflow.core.tiles import bits, name
from fichaflow.torneo import model
from fichaflow.torneo.check import check
from fichaflow.torneo.duplicate import check_seed, round_deals
from fichaflow.torneo.standings import standing_json, standings
from tests.torneo.kit import EXAMPLES, doc_table

if TYPE_CHECKING:  # the fixture's type; pytest provides the fixture itself
    from tests.server.kit import ServerProcess

LIGUILLA = json.loads((EXAMPLES / "liguilla.json").read_text(encoding="utf-8"))


def liguilla_spec() -> dict[str, Any]:
    """The JSON an organizer gives ``fichaflow torneo create`` for the docs' liguilla."""
    return {**LIGUILLA["settings"], "entrants": LIGUILLA["entrants"]}


def create(server: ServerProcess, spec: dict[str, Any]) -> dict[str, Any]:
    response = httpx.post(f"{server.url}/api/torneos", json=spec, timeout=30)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def post(server: ServerProcess, path: str, body: Any = None) -> httpx.Response:
    return httpx.post(f"{server.url}/api/torneos/{path}", json=body, timeout=30)


def result(server: ServerProcess, code: str, r: int, t: int, **body: Any) -> httpx.Response:
    return post(server, f"{code}/rounds/{r}/tables/{t}/result", body)


def error_code(response: httpx.Response) -> str:
    error = response.json()["error"]
    assert error["message"] and error["message_en"] and error["message"] != error["message_en"]
    return str(error["code"])


def rows(standing: list[dict[str, Any]]) -> list[list[str]]:
    return [
        [
            str(s["position"]),
            s["name"],
            *(str(s[k]) for k in ("pj", "pg", "pp", "pf", "pc")),
            f"{s['diff']:+d}",
        ]
        for s in standing
    ]


def test_the_docs_liguilla_through_the_api_gives_the_docs_standings(server: ServerProcess) -> None:
    made = create(server, liguilla_spec())
    code, public = made["code"], made["public"]
    assert code != public and made["can_pair"] and made["record"]["rounds"] == []
    seen: set[tuple[int, int]] = set()
    for line in LIGUILLA["log"]:
        key = (line["round"], line["table"])
        if key[1] == 1 and key not in seen:
            paired = post(server, f"{code}/rounds")
            assert paired.status_code == 201, paired.text
            wanted = LIGUILLA["rounds"][key[0] - 1]
            assert paired.json()["round"]["tables"] == wanted["tables"]
        body = {"score": line["score"], "by": line["by"], "note": line.get("note", "")}
        answer = result(server, code, *key, **body, correct=key in seen)
        assert answer.status_code == 200, answer.text
        seen.add(key)
    public_view = httpx.get(f"{server.url}/api/torneos/public/{public}").json()
    assert rows(public_view["standings"]) == doc_table("liguilla")
    assert "code" not in public_view
    [fixed] = public_view["audit"]
    assert (fixed["round"], fixed["table"]) == (5, 3)
    assert fixed["before"] == {"score": [100, 99]} and fixed["after"] == {"score": [100, 95]}
    assert fixed["by"] == "Rosa (árbitra)"
    # the stored record is one the engine re-checks, with the engine's standings
    record = httpx.get(f"{server.url}/api/torneos/export/{code}.json").json()
    torneo = model.load(record)
    report = check(torneo)
    assert report.corrections == 1 and report.results == 15
    assert public_view["standings"] == [standing_json(torneo, s) for s in standings(torneo)]
    assert not public_view["can_pair"]


def test_a_refused_action_changes_nothing_and_says_why_in_spanish(server: ServerProcess) -> None:
    made = create(server, liguilla_spec())
    code, public = made["code"], made["public"]
    assert post(server, f"{code}/rounds").status_code == 201
    before = httpx.get(f"{server.url}/api/torneos/{code}").json()
    tied = result(server, code, 1, 1, score=[100, 100])
    assert tied.status_code == 400 and error_code(tied) == "torneo.tied_score"
    short = result(server, code, 1, 1, score=[90, 80])
    assert error_code(short) == "torneo.short_of_target"
    assert error_code(post(server, f"{code}/rounds")) == "torneo.round_open"
    nowhere = result(server, code, 1, 9, score=[100, 3])
    assert nowhere.status_code == 404 and error_code(nowhere) == "torneo.unknown_table"
    fixing = result(server, code, 1, 1, score=[100, 3], correct=True)
    assert error_code(fixing) == "torneo.nothing_to_correct"
    late = post(server, f"{code}/entrants", {"name": "Nora y Óscar"})
    assert error_code(late) == "torneo.late_fixed_schedule"
    strange = post(server, f"{code}/entrants", {"name": "Nora", "age": 3})
    assert error_code(strange) == "torneo.unknown_key"
    broken = httpx.post(
        f"{server.url}/api/torneos/{code}/rounds/1/tables/1/result",
        content=b"{score",
        headers={"Content-Type": "application/json"},
    )
    assert error_code(broken) == "torneo.body_json"
    listed = httpx.post(f"{server.url}/api/torneos", json=[1, 2])
    assert error_code(listed) == "torneo.request_object"
    as_public = result(server, public, 1, 1, score=[100, 3])
    assert as_public.status_code == 403 and error_code(as_public) == "torneo.read_only"
    unknown = httpx.get(f"{server.url}/api/torneos/nadie")
    assert unknown.status_code == 404 and error_code(unknown) == "torneo.not_found"
    bad_rules = httpx.post(f"{server.url}/api/torneos", json={**liguilla_spec(), "rounds": 0})
    assert bad_rules.status_code == 400 and error_code(bad_rules) == "torneo.bad_number"
    after = httpx.get(f"{server.url}/api/torneos/{code}").json()
    assert after == before
    entered = result(server, code, 1, 1, score=[100, 3])
    assert entered.status_code == 200
    again = result(server, code, 1, 1, score=[100, 5])
    assert again.status_code == 409 and error_code(again) == "torneo.already_entered"
    log = httpx.get(f"{server.url}/api/torneos/{code}").json()["record"]["log"]
    assert [line["score"] for line in log] == [[100, 3]] and log[0]["by"] == "organizador"


def test_results_sent_at_once_for_every_table_are_all_stored(server: ServerProcess) -> None:
    code = create(server, liguilla_spec())["code"]
    assert post(server, f"{code}/rounds").status_code == 201
    scores = {1: [100, 10], 2: [20, 100], 3: [100, 30]}
    with ThreadPoolExecutor(3) as pool:
        answers = list(pool.map(lambda t: result(server, code, 1, t, score=scores[t]), scores))
    assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
    record = httpx.get(f"{server.url}/api/torneos/{code}").json()
    assert {line["table"]: line["score"] for line in record["record"]["log"]} == scores
    assert record["version"] == 4 and record["can_pair"]


def test_a_duplicate_rounds_seed_is_public_only_once_the_round_is_over(
    server: ServerProcess,
) -> None:
    spec = {
        "name": "Duplicado del jueves",
        "rules": "venezuela",
        "rounds": 3,
        "pairing": "swiss",
        "duplicate": 2,
        "entrants": ["Uno", "Dos", "Tres", "Cuatro"],
    }
    made = create(server, spec)
    code, public = made["code"], made["public"]
    paired = post(server, f"{code}/rounds").json()["round"]
    assert len(paired["seed"]) == 64 and len(paired["commitment"]) == 64
    # The director's slips: the organizer's code gives every deal's hands, the public one not.
    slips = httpx.get(f"{server.url}/api/torneos/{code}/rounds/1/deals").json()
    expected = round_deals(paired["seed"], 2)
    assert [d["leader"] for d in slips["deals"]] == [0, 1]
    for slip, deal in zip(slips["deals"], expected, strict=True):
        assert slip["hands"] == [[name(tile) for tile in bits(hand)] for hand in deal.hands]
        assert sorted(tile for hand in slip["hands"] for tile in hand) == sorted(
            name(tile) for tile in range(28)
        )
    hidden = httpx.get(f"{server.url}/api/torneos/{public}/rounds/1/deals")
    assert hidden.status_code == 403 and error_code(hidden) == "torneo.read_only"
    missing = httpx.get(f"{server.url}/api/torneos/{code}/rounds/2/deals")
    assert missing.status_code == 404 and error_code(missing) == "torneo.unknown_round"
    shown = httpx.get(f"{server.url}/api/torneos/public/{public}").json()["record"]["rounds"][0]
    assert "seed" not in shown and shown["commitment"] == paired["commitment"]
    exported = httpx.get(f"{server.url}/api/torneos/export/{public}.json").json()
    assert "seed" not in exported["rounds"][0]
    for table in (1, 2):
        answer = result(server, code, 1, table, deals=[[25, 0], [0, 30]])
        assert answer.status_code == 200, answer.text
    over = httpx.get(f"{server.url}/api/torneos/public/{public}").json()["record"]
    assert over["rounds"][0]["seed"] == paired["seed"]
    assert check_seed(model.load(over).rounds[0])
    plain = create(server, {**spec, "duplicate": 0, "name": "Sin duplicado"})
    post(server, f"{plain['code']}/rounds")
    refused = httpx.get(f"{server.url}/api/torneos/{plain['code']}/rounds/1/deals")
    assert refused.status_code == 409 and error_code(refused) == "torneo.not_duplicate"


def test_the_csv_export_lists_the_standings_and_no_name_runs_as_a_formula(
    server: ServerProcess,
) -> None:
    spec = {
        "name": "Copa",
        "rules": "venezuela",
        "rounds": 1,
        "pairing": "round_robin",
        "entrants": ["=HYPERLINK(1)", "Ana y Beto"],
    }
    made = create(server, spec)
    post(server, f"{made['code']}/rounds")
    result(server, made["code"], 1, 1, score=[100, 40])
    text = httpx.get(f"{server.url}/api/torneos/export/{made['public']}.csv").text
    table = list(csv.reader(io.StringIO(text)))
    assert table[0] == ["#", "Nombre", "PJ", "PG", "PP", "PF", "PC", "Dif."]
    assert table[1] == ["1", "'=HYPERLINK(1)", "1", "1", "0", "100", "40", "60"]
    assert table[2] == ["2", "Ana y Beto", "1", "0", "1", "40", "100", "-60"]
    english = httpx.get(f"{server.url}/api/torneos/export/{made['public']}.csv?lang=en").text
    assert english.splitlines()[0].startswith("#,Name,")


def test_late_arrivals_and_withdrawals_in_a_swiss(server: ServerProcess) -> None:
    spec = {
        "name": "Suizo",
        "rules": "venezuela",
        "rounds": 3,
        "entrants": ["A", "B", "C", "D"],
    }
    code = create(server, spec)["code"]
    joined = post(server, f"{code}/entrants", {"name": "Eva y Fabio", "players": ["Eva", "Fabio"]})
    assert joined.status_code == 201, joined.text
    assert joined.json()["entrant"] == {"id": 5, "name": "Eva y Fabio", "players": ["Eva", "Fabio"]}
    gone = post(server, f"{code}/entrants/2/withdraw")
    assert gone.status_code == 200
    assert gone.json()["record"]["entrants"][1]["withdrawn"] == 0
    again = post(server, f"{code}/entrants/2/withdraw")
    assert error_code(again) == "torneo.already_withdrawn"
    made = post(server, f"{code}/rounds").json()["round"]
    seated = {e for t in made["tables"] for e in (*t["a"], *t["b"])} | set(made["byes"])
    assert seated == {1, 3, 4, 5}


def test_a_page_that_follows_the_standings_is_told_only_whether_they_changed(
    server: ServerProcess,
) -> None:
    made = create(server, liguilla_spec())
    code, public = made["code"], made["public"]
    url = f"{server.url}/api/torneos/public/{public}"
    assert httpx.get(f"{url}?since=0").json() == {"version": 0, "unchanged": True}
    post(server, f"{code}/rounds")
    moved = httpx.get(f"{url}?since=0").json()
    assert moved["version"] == 1 and len(moved["record"]["rounds"]) == 1
    assert httpx.get(f"{url}?since=1").json() == {"version": 1, "unchanged": True}
    unknown = httpx.get(f"{server.url}/api/torneos/public/nadie?since=0")
    assert unknown.status_code == 404 and error_code(unknown) == "torneo.not_found"
