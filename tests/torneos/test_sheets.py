"""A physical table kept in the anotador, on a real server, on SQLite and on PostgreSQL: the
organizer binds an anotador sheet to a round's table (the torneo's rules, the pairing's players
and the pairs' names), the scorekeeper keeps it as usual, and its result goes into the standings
only when both sides confirm it with their own codes or when the organizer approves it; until
then it shows as pending. A wrong code, a side confirming twice, a sheet not finished or a
score that is not the sheet's are refused in Spanish and change nothing; a correction afterwards
is a line of the audit like any other. By time, a sheet is over once it has hands and no tie;
a side whose confirmed score the scorekeeper then changed confirms again."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

import httpx

from fichaflow.torneo import model
from fichaflow.torneo.check import check
from tests.torneos.test_api import create, error_code, post, result

if TYPE_CHECKING:  # the fixture's type; pytest provides the fixture itself
    from tests.server.kit import ServerProcess

SPEC = {
    "name": "Copa del Club Los Samanes",
    "rules": "venezuela",
    "rounds": 2,
    "pairing": "swiss",
    "entrants": [
        {"name": "Ana y Beto", "players": ["Ana", "Beto"]},
        {"name": "Carla y Dani", "players": ["Carla", "Dani"]},
        "Elena y Fede",
        {"name": "Gabi y Hugo", "players": ["Gabi", "Hugo"]},
    ],
}
TRANQUE = {"type": "hand", "end": "tranque", "seat": 0, "pips": [3, 9, 4, 12], "leader": 0}
"""A tranque the side at seats 0 and 2 wins (fewer pips), scoring some of the 28 in play."""


def start(server: ServerProcess) -> dict[str, Any]:
    made = create(server, SPEC)
    paired = post(server, f"{made['code']}/rounds")
    assert paired.status_code == 201, paired.text
    data: dict[str, Any] = paired.json()
    return data


def bind(server: ServerProcess, code: str, table: int) -> dict[str, Any]:
    answer = post(server, f"{code}/rounds/1/tables/{table}/sheet")
    assert answer.status_code == 201, answer.text
    return sheet_of(answer.json(), table)


def sheet_of(view: dict[str, Any], table: int) -> dict[str, Any]:
    found: dict[str, Any] = next(s for s in view["sheets"] if s["table"] == table)
    return found


def keep(server: ServerProcess, sheet: str, action: dict[str, Any]) -> dict[str, Any]:
    """The scorekeeper enters one line on the anotador's sheet, as its page does."""
    body = {"key": uuid.uuid4().hex, "action": action}
    answer = httpx.post(f"{server.url}/api/anotador/mesas/{sheet}/actions", json=body, timeout=30)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def play_to_the_end(server: ServerProcess, sheet: str) -> list[int]:
    """Tranques until side a reaches the target; the sheet's final totals."""
    while True:
        partida = keep(server, sheet, TRANQUE)["state"]["partida"]
        if partida["winner"] is not None:
            totals: list[int] = partida["totals"]
            return totals


def confirm(server: ServerProcess, public: str, table: int, **body: Any) -> httpx.Response:
    path = f"public/{public}/rounds/1/tables/{table}/confirm"
    return post(server, path, body)


def organizer(server: ServerProcess, code: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{server.url}/api/torneos/{code}", timeout=30).json()
    return data


def public_view(server: ServerProcess, public: str) -> dict[str, Any]:
    answer = httpx.get(f"{server.url}/api/torneos/public/{public}", timeout=30)
    data: dict[str, Any] = answer.json()
    return data


def points_for(view: dict[str, Any]) -> dict[str, int]:
    return {s["name"]: s["pf"] for s in view["standings"]}


def test_a_sheet_bound_to_a_table_feeds_the_standings_when_both_sides_confirm(
    server: ServerProcess,
) -> None:
    made = start(server)
    code, public = made["code"], made["public"]
    table = made["round"]["tables"][0]  # 1 (Ana y Beto) against 2 (Carla y Dani) on side b
    sheet = bind(server, code, 1)
    assert sheet["entered"] is False and sheet["score"] == [0, 0] and sheet["over"] is False
    codes = sheet["codes"]
    assert codes["a"] != codes["b"] and all(len(c) == 6 for c in codes.values())
    # The public sees the sheet to watch it, never its writing code or the sides' codes.
    seen = sheet_of(public_view(server, public), 1)
    assert "codes" not in seen and "sheet" not in seen and seen["watch"] == sheet["watch"]

    # The anotador's sheet is the torneo table's: its rules, the pairing's players, the names.
    kept = httpx.get(f"{server.url}/api/anotador/mesas/{sheet['sheet']}").json()["state"]
    assert kept["rules"] == made["record"]["settings"]["rules"]
    assert kept["name"].startswith("Mesa 1 · Ronda 1 · Copa del Club")
    names = {1: "Ana y Beto", 2: "Carla y Dani"}
    assert kept["partida"]["sides"] == [names[table["a"][0]], names[table["b"][0]]]
    players = {1: ["Ana", "Beto"], 2: ["Carla", "Dani"]}
    a, b = players[table["a"][0]], players[table["b"][0]]
    assert kept["partida"]["players"] == [a[0], b[0], a[1], b[1]]

    # Not finished: nobody can confirm it yet, and nothing changes.
    so_far = keep(server, sheet["sheet"], TRANQUE)["state"]["partida"]["totals"]
    assert 0 < so_far[0] < 100 and so_far[1] == 0
    early = confirm(server, public, 1, code=codes["a"], score=so_far)
    assert early.status_code == 409 and error_code(early) == "torneo.sheet_unfinished"
    assert f"aún no ha terminado (va {so_far[0]} a 0)" in early.json()["error"]["message"]

    final = play_to_the_end(server, sheet["sheet"])
    assert final[0] >= 100 and final[1] == 0
    before = points_for(organizer(server, code))
    pending = sheet_of(organizer(server, code), 1)
    assert pending["score"] == final and pending["over"] and not any(pending["confirmed"].values())

    # The public view does not read every sheet; the page of one table's confirmation does.
    assert sheet_of(public_view(server, public), 1)["score"] is None
    url = f"{server.url}/api/torneos/public/{public}/rounds/1/tables/1/sheet"
    one = httpx.get(url, timeout=30).json()["sheet"]
    assert one["score"] == final and one["over"] and "codes" not in one
    missing = confirm(server, public, 1, code=codes["a"])
    assert missing.status_code == 400 and error_code(missing) == "torneo.confirm_score"
    wrong = confirm(server, public, 1, code="ZZZZZZ", score=final)
    assert wrong.status_code == 403 and error_code(wrong) == "torneo.bad_side_code"
    assert "ninguno de los dos lados de la mesa 1" in wrong.json()["error"]["message"]
    changed = confirm(server, public, 1, code=codes["a"], score=[final[0] - 1, 0])
    assert changed.status_code == 409 and error_code(changed) == "torneo.sheet_changed"
    assert not any(sheet_of(organizer(server, code), 1)["confirmed"].values())

    # One side only: pending, and the standings do not move.
    typed = f" {codes['a'][:3].lower()}-{codes['a'][3:]} "  # as someone types it off paper
    first = confirm(server, public, 1, code=typed, score=final)
    assert first.status_code == 200, first.text
    answer = first.json()
    assert answer["side"] == "a" and answer["sheet"]["confirmed"] == {"a": True, "b": False}
    assert answer["sheet"]["entered"] is False and answer["record"]["log"] == []
    twice = confirm(server, public, 1, code=codes["a"], score=final)
    assert twice.status_code == 409 and error_code(twice) == "torneo.already_confirmed"
    assert "El lado A ya confirmó el" in twice.json()["error"]["message"]
    assert points_for(organizer(server, code)) == before

    # Both sides: the result is the table's, as the sheet says, and the standings change.
    second = confirm(server, public, 1, code=codes["b"], score=final)
    assert second.status_code == 200, second.text
    assert second.json()["sheet"]["entered"] is True
    view = organizer(server, code)
    line = view["record"]["log"][0]
    assert (line["round"], line["table"], line["score"]) == (1, 1, final)
    assert line["by"] == f"planilla {sheet['watch']}: confirmada por los dos lados"
    after = points_for(view)
    assert after[names[table["a"][0]]] == before[names[table["a"][0]]] + final[0]
    late = confirm(server, public, 1, code=codes["b"], score=final)
    assert late.status_code == 409 and error_code(late) == "torneo.already_entered"

    # The organizer can still correct it: a line of the audit, from the sheet's to the new.
    fixed = result(
        server, code, 1, 1, score=[final[0], 12], by="Rosa", note="mano olvidada", correct=True
    )
    assert fixed.status_code == 200, fixed.text
    audit = fixed.json()["audit"]
    assert [(a["before"]["score"], a["after"]["score"], a["by"]) for a in audit] == [
        (final, [final[0], 12], "Rosa")
    ]
    report = check(model.load(organizer(server, code)["record"]))  # raises on a problem
    assert (report.results, report.corrections) == (1, 1)  # one table, corrected once


def test_the_organizer_approves_a_sheet_that_one_side_did_not_confirm(
    server: ServerProcess,
) -> None:
    made = start(server)
    code, public = made["code"], made["public"]
    sheet = bind(server, code, 2)
    again = post(server, f"{code}/rounds/1/tables/2/sheet")
    assert again.status_code == 409 and error_code(again) == "torneo.sheet_exists"
    online = post(server, f"{code}/rounds/1/tables/2/mesa")
    assert online.status_code == 409 and error_code(online) == "torneo.sheet_exists"
    approve = f"{code}/rounds/1/tables/2/sheet/approve"
    keep(server, sheet["sheet"], TRANQUE)
    early = post(server, approve, {})
    assert early.status_code == 409 and error_code(early) == "torneo.sheet_unfinished"
    final = play_to_the_end(server, sheet["sheet"])
    assert confirm(server, public, 2, code=sheet["codes"]["b"], score=final).status_code == 200
    by_public = post(server, f"{public}/rounds/1/tables/2/sheet/approve", {})
    assert by_public.status_code == 403 and error_code(by_public) == "torneo.read_only"
    before = points_for(organizer(server, code))

    approved = post(server, approve, {"by": "Rosa (árbitra)", "note": "el lado a se fue"})
    assert approved.status_code == 200, approved.text
    view = approved.json()
    line = view["record"]["log"][0]
    assert (line["table"], line["score"], line["note"]) == (2, final, "el lado a se fue")
    assert line["by"] == f"planilla {sheet['watch']}: aprobada por Rosa (árbitra)"
    assert sheet_of(view, 2)["entered"] is True
    assert sum(points_for(view).values()) == sum(before.values()) + sum(final)
    twice = post(server, approve, {})
    assert twice.status_code == 409 and error_code(twice) == "torneo.already_entered"
    late = confirm(server, public, 2, code=sheet["codes"]["a"], score=final)
    assert late.status_code == 409 and error_code(late) == "torneo.already_entered"
    assert len(organizer(server, code)["record"]["log"]) == 1


def test_a_sheet_is_refused_where_it_cannot_be_kept(server: ServerProcess) -> None:
    made = start(server)
    code, public = made["code"], made["public"]
    assert result(server, code, 1, 1, score=[100, 40]).status_code == 200
    entered = post(server, f"{code}/rounds/1/tables/1/sheet")
    assert entered.status_code == 409 and error_code(entered) == "torneo.already_entered"
    nowhere = post(server, f"{code}/rounds/1/tables/9/sheet")
    assert nowhere.status_code == 404 and error_code(nowhere) == "torneo.unknown_table"
    by_public = post(server, f"{public}/rounds/1/tables/2/sheet")
    assert by_public.status_code == 403 and error_code(by_public) == "torneo.read_only"
    unbound = confirm(server, public, 2, code="AAAAAA", score=[100, 0])
    assert unbound.status_code == 404 and error_code(unbound) == "torneo.no_sheet"
    odd = confirm(server, public, 2, code="AAAAAA", score=[100, 0], side="a")
    assert odd.status_code == 400 and error_code(odd) == "torneo.unknown_key"
    duplicate = create(server, {**SPEC, "duplicate": 2})
    post(server, f"{duplicate['code']}/rounds")
    refused = post(server, f"{duplicate['code']}/rounds/1/tables/1/sheet")
    assert refused.status_code == 409 and error_code(refused) == "torneo.sheet_duplicate"
    assert organizer(server, duplicate["code"])["sheets"] == []
    assert organizer(server, code)["sheets"] == []


def test_by_time_a_sheet_ends_untied_and_a_stale_confirmation_is_asked_again(
    server: ServerProcess,
) -> None:
    made = create(server, {**SPEC, "length": "time", "minutes": 40})
    code, public = made["code"], made["public"]
    post(server, f"{code}/rounds")
    sheet = bind(server, code, 1)
    codes, kept = sheet["codes"], sheet["sheet"]
    empty = confirm(server, public, 1, code=codes["a"], score=[0, 0])
    assert empty.status_code == 409 and error_code(empty) == "torneo.sheet_unfinished"
    # Time is up after one hand and an adjustment that leaves it tied: one more hand is due.
    keep(server, kept, TRANQUE)
    level = keep(server, kept, {"type": "adjust", "team": 1, "points": 21, "reason": "multa"})
    tied = level["state"]["partida"]["totals"]
    assert tied[0] == tied[1] < 100
    refused = confirm(server, public, 1, code=codes["a"], score=tied)
    assert refused.status_code == 409 and error_code(refused) == "torneo.sheet_unfinished"
    ahead = keep(server, kept, TRANQUE)["state"]["partida"]["totals"]
    assert ahead[0] > ahead[1] and ahead[0] < 100  # short of the target: by time it is over
    assert confirm(server, public, 1, code=codes["a"], score=ahead).status_code == 200
    # The scorekeeper changes the sheet after side a confirmed: a's word was for other points.
    fixed = keep(server, kept, {"type": "adjust", "team": 1, "points": 5, "reason": "recuento"})
    now = fixed["state"]["partida"]["totals"]
    stale = confirm(server, public, 1, code=codes["b"], score=ahead)
    assert stale.status_code == 409 and error_code(stale) == "torneo.sheet_changed"
    second = confirm(server, public, 1, code=codes["b"], score=now)
    assert second.status_code == 200, second.text
    assert second.json()["sheet"]["confirmed"] == {"a": False, "b": True}
    assert organizer(server, code)["record"]["log"] == []  # still pending
    again = confirm(server, public, 1, code=codes["a"], score=now)
    assert again.status_code == 200 and again.json()["sheet"]["entered"] is True
    [line] = organizer(server, code)["record"]["log"]
    assert line["score"] == now
