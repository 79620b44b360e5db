"""The players' side of a torneo on a real server, on SQLite and on PostgreSQL: registering
oneself by the torneo's public link (a name and a partner, or one's account), refused in
Spanish when registration is closed, full, or the name or the account is already in; and a
table played online whose mesa seats that pairing's players (each reaches their seat's token
from their own page) and whose result goes into the torneo by itself when the partida ends,
a line of the log like a manual result's."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import httpx

from fichaflow.anotador.router import WATCH_WAIT
from fichaflow.torneo import model
from fichaflow.torneo.check import check
from tests.accounts.kit import Player, fresh_name
from tests.server.kit import Client, all_told_partida_over, until
from tests.torneos.test_api import create, error_code, post, result

if TYPE_CHECKING:  # the fixture's type; pytest provides the fixture itself
    from tests.server.kit import ServerProcess


def register(server: ServerProcess, public: str, **body: Any) -> httpx.Response:
    return httpx.post(f"{server.url}/api/torneos/public/{public}/entrants", json=body, timeout=30)


def own_page(server: ServerProcess, path: str) -> dict[str, Any]:
    """What a player's own page reads, from the page's address the registration gave."""
    query = dict(part.split("=", 1) for part in path.split("?", 1)[1].split("&"))
    url = f"{server.url}/api/torneos/public/{query['p']}/entrants/{query['e']}"
    answer = httpx.get(url, params={"k": query["k"]}, timeout=30)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def test_players_register_by_the_link_until_it_is_full_or_closed(server: ServerProcess) -> None:
    spec = {"name": "Abierto del sábado", "rules": "venezuela", "rounds": 3, "entrants": ["A y B"]}
    made = create(server, spec)
    code, public = made["code"], made["public"]
    assert made["registration"] == {"open": True, "limit": None}
    limited = post(server, f"{code}/registration", {"open": True, "limit": 3})
    assert limited.status_code == 200 and limited.json()["registration"]["limit"] == 3
    joined = register(server, public, name="Nora", partner="Óscar")
    assert joined.status_code == 201, joined.text
    answer = joined.json()
    assert answer["entrant"] == {"id": 2, "name": "Nora y Óscar", "players": ["Nora", "Óscar"]}
    assert "code" not in answer and "players" not in answer  # the organizer's stay theirs
    mine = own_page(server, answer["page"])
    assert mine["entrant"]["name"] == "Nora y Óscar" and mine["seats"] == []
    # The organizer sees the same page's address for every entrant.
    organizer = httpx.get(f"{server.url}/api/torneos/{code}").json()
    assert organizer["players"]["2"] == answer["page"]
    wrong = httpx.get(f"{server.url}/api/torneos/public/{public}/entrants/2", params={"k": "x"})
    assert wrong.status_code == 403 and error_code(wrong) == "torneo.bad_key"
    again = register(server, public, name="Nora", partner="Óscar")
    assert again.status_code == 409 and error_code(again) == "torneo.same_name"
    assert "Nora y Óscar" in again.json()["error"]["message"]
    alone = register(server, public, name="Pía")
    assert alone.status_code == 400 and error_code(alone) == "torneo.partner_needed"
    assert register(server, public, name="Pía", partner="Quique").status_code == 201
    full = register(server, public, name="Rita", partner="Saúl")
    assert full.status_code == 409 and error_code(full) == "torneo.registration_full"
    assert "3 inscritos" in full.json()["error"]["message"]
    post(server, f"{code}/registration", {"open": False})
    post(server, f"{code}/registration", {"open": False, "limit": None})
    closed = register(server, public, name="Rita", partner="Saúl")
    assert closed.status_code == 409 and error_code(closed) == "torneo.registration_closed"
    assert "está cerrada" in closed.json()["error"]["message"]
    shown = httpx.get(f"{server.url}/api/torneos/public/{public}").json()
    assert shown["registration"] == {"open": False, "limit": None}
    assert [e["name"] for e in shown["record"]["entrants"]] == [
        "A y B",
        "Nora y Óscar",
        "Pía y Quique",
    ]
    strange = post(server, f"{code}/registration", {"open": "sí"})
    assert strange.status_code == 400 and error_code(strange) == "torneo.shape"
    as_public = post(server, f"{public}/registration", {"open": True})
    assert as_public.status_code == 403 and error_code(as_public) == "torneo.read_only"
    # A round robin takes nobody once its schedule is fixed by the first round.
    fixed = create(server, {**spec, "pairing": "round_robin", "rounds": 1, "entrants": ["A", "B"]})
    assert post(server, f"{fixed['code']}/rounds").status_code == 201
    late = register(server, fixed["public"], name="Nora", partner="Óscar")
    assert late.status_code == 409 and error_code(late) == "torneo.registration_closed"


def test_a_signed_in_player_registers_with_their_account_once(server: ServerProcess) -> None:
    spec = {"name": "Individual", "rules": "venezuela", "rounds": 3, "format": "individual"}
    public = create(server, {**spec, "entrants": ["Uno", "Dos", "Tres"]})["public"]
    player = Player(server)
    name = fresh_name("Ana")
    player.sign_up(name)
    headers = {"X-CSRF-Token": player.csrf or ""}
    path = f"/api/torneos/public/{public}/entrants"
    joined = player.http.post(path, json={"name": "otra"}, headers=headers)
    assert joined.status_code == 201, joined.text
    assert joined.json()["entrant"] == {"id": 4, "name": name}  # the account's name
    twice = player.http.post(path, json={"name": "otra más"}, headers=headers)
    assert twice.status_code == 409 and error_code(twice) == "torneo.already_registered"
    # Without the session's CSRF token, the request is a guest's: the name typed.
    guest = player.http.post(path, json={"name": "Berta"})
    assert guest.status_code == 201 and guest.json()["entrant"]["name"] == "Berta"
    player.close()


def signed_in_pair(server: ServerProcess, spec: dict[str, Any]) -> tuple[str, str, Player, str]:
    """A torneo of pairs (``spec``, three pairs in) to which a signed-in player registers with
    the partner «Óscar» by the public link, as the fourth: its codes, the player and their name."""
    made = create(server, {**spec, "entrants": ["A y B", "C y D", "E y F"]})
    code, public = made["code"], made["public"]
    player = Player(server)
    name = fresh_name("Ana")
    player.sign_up(name)
    headers = {"X-CSRF-Token": player.csrf or ""}
    path = f"/api/torneos/public/{public}/entrants"
    joined = player.http.post(path, json={"partner": "Óscar"}, headers=headers)
    assert joined.status_code == 201, joined.text
    assert joined.json()["entrant"]["players"] == [name, "Óscar"]
    return code, public, player, name


def test_a_deleted_account_leaves_its_name_in_no_torneo(server: ServerProcess) -> None:
    """A signed-in player registered with their partner by the link: their account's export
    lists the registration; once the account is deleted, the pair keeps its place, and its
    results, but the account's name is «jugador borrado» in every view of the torneo, the
    record and the standings, and in the record of their online table's partida at the game;
    a new account of that name is no registration of it."""
    spec = {"name": "Parejas del club", "rules": {"preset": "venezuela", "target": 10}, "rounds": 3}
    code, public, player, name = signed_in_pair(server, spec)
    exported = player.took(player.get("/export"))
    assert exported["torneos"] == [
        {
            "torneo": public,
            "name": "Parejas del club",
            "entrant": {"id": 4, "name": f"{name} y Óscar", "players": [name, "Óscar"]},
        }
    ]
    paired = post(server, f"{code}/rounds")
    assert paired.status_code == 201, paired.text
    # Their table is played online: its partida's record, in the torneo's log, names them.
    [table] = [t for t in paired.json()["round"]["tables"] if 4 in (*t["a"], *t["b"])]
    online = post(server, f"{code}/rounds/1/tables/{table['table']}/mesa")
    assert online.status_code == 201, online.text
    pages = httpx.get(f"{server.url}/api/torneos/{code}", timeout=30).json()["players"]
    seats = [
        s for e in (*table["a"], *table["b"]) for s in own_page(server, pages[str(e)])["seats"]
    ]
    asyncio.run(play_seats(server, seats))

    def log() -> list[dict[str, Any]]:
        return list(httpx.get(f"{server.url}/api/torneos/{code}").json()["record"]["log"])

    asyncio.run(until(lambda: len(log()) == 1, 30))
    assert name in log()[0]["record"]["players"]
    player.took(player.delete("/me"))
    player.close()
    views = [
        httpx.get(f"{server.url}/api/torneos/{code}", timeout=30),
        httpx.get(f"{server.url}/api/torneos/public/{public}", timeout=30),
        httpx.get(f"{server.url}/api/torneos/export/{code}.json", timeout=30),
        httpx.get(f"{server.url}/api/torneos/export/{code}.csv", timeout=30),
    ]
    for answer in views:
        assert answer.status_code == 200, answer.text
        assert name not in answer.text
        assert "jugador borrado y Óscar" in answer.text
    record = model.load(views[2].json())
    assert record.entrant(4).players == ("jugador borrado", "Óscar")
    # The game's mesa of that table: its partida's record names them no more either.
    mesa = online.json()["mesas"][0]["mesa"]
    played = httpx.get(f"{server.url}/api/mesas/{mesa}/partidas/1/record", timeout=30)
    assert played.status_code == 200 and name not in played.text
    assert "jugador borrado" in played.json()["players"]
    assert len(record.rounds) == 1 and check(record).records == 1
    # The same name signed up again is somebody new: no registration is theirs.
    again = Player(server)
    again.sign_up(name)
    assert again.took(again.get("/export"))["torneos"] == []
    again.close()


async def play_seats(server: ServerProcess, seats: list[dict[str, Any]]) -> None:
    """Each seat's player connects with their token and plays to the partida's end."""
    clients = [Client(server, s["mesa"], s["token"], autoplay=True, seed=s["seat"]) for s in seats]
    for client in clients:
        welcome = await client.connect()
        assert welcome["role"] == "player"
    await all_told_partida_over(clients, 120)
    for client in clients:
        await client.close()


def test_an_online_table_seats_its_players_and_enters_its_own_result(
    server: ServerProcess,
) -> None:
    spec = {
        "name": "Relámpago",
        "rules": {"preset": "venezuela", "target": 10},
        "rounds": 1,
        "pairing": "round_robin",
        "entrants": [
            {"name": "Ana y Beto", "players": ["Ana", "Beto"]},
            {"name": "Carla y Dani", "players": ["Carla", "Dani"]},
            {"name": "Elena y Fede", "players": ["Elena", "Fede"]},
            {"name": "Gabi y Hugo", "players": ["Gabi", "Hugo"]},
        ],
    }
    made = create(server, spec)
    code = made["code"]
    round_1 = post(server, f"{code}/rounds").json()["round"]
    online = post(server, f"{code}/rounds/1/tables/1/mesa")
    assert online.status_code == 201, online.text
    [table] = online.json()["mesas"]
    mesa = table["mesa"]
    assert table["round"] == table["table"] == 1 and table["host"]
    again = post(server, f"{code}/rounds/1/tables/1/mesa")
    assert again.status_code == 409 and error_code(again) == "torneo.mesa_exists"
    # The public sees the mesa (to watch), never a token.
    shown = httpx.get(f"{server.url}/api/torneos/public/{made['public']}").json()
    assert shown["mesas"] == [{"round": 1, "table": 1, "mesa": mesa}]
    # Every chair is its player's: the mesa's state names them, and nobody else may sit.
    state = httpx.get(f"{server.url}/api/mesas/{mesa}").json()["mesa"]
    first = round_1["tables"][0]
    players = made["record"]["entrants"]
    a, b = players[first["a"][0] - 1], players[first["b"][0] - 1]
    wanted = [a["players"][0], b["players"][0], a["players"][1], b["players"][1]]
    assert [s["name"] for s in state["seats"]] == wanted
    stranger = httpx.post(f"{server.url}/api/mesas/{mesa}/join", json={"name": "Zoe", "seat": 0})
    assert stranger.status_code == 400 and stranger.json()["error"]["code"] == "server.seat_taken"
    # Each player reaches their seat from their pair's own page.
    pages = httpx.get(f"{server.url}/api/torneos/{code}").json()["players"]
    seats = [s for e in (a, b) for s in own_page(server, pages[str(e["id"])])["seats"]]
    assert sorted(s["seat"] for s in seats) == [0, 1, 2, 3]
    assert {s["name"] for s in seats} == set(wanted)
    other = own_page(server, pages[str(round_1["tables"][1]["a"][0])])
    assert other["seats"] == []  # table 2 is played at a physical table
    asyncio.run(play_seats(server, seats))

    def log() -> list[dict[str, Any]]:
        record = httpx.get(f"{server.url}/api/torneos/{code}").json()["record"]
        return list(record["log"])

    asyncio.run(until(lambda: bool(log()), 30))  # nobody entered it: it came by itself
    [line] = log()
    partida = httpx.get(f"{server.url}/api/mesas/{mesa}/partidas/1/record").json()
    assert line["score"] == list(model.from_partida(partida).score or ())
    assert line["by"] == f"mesa en línea {mesa}" and line["at"] and line["record"] == partida
    stored = model.load(httpx.get(f"{server.url}/api/torneos/export/{code}.json").json())
    assert check(stored).records == 1  # the partida replays to the score entered
    # A correction of it is an audit line like any other.
    a_won = line["score"][0] > line["score"][1]
    fixed = result(server, code, 1, 1, score=[10, 3] if a_won else [3, 10], correct=True, note="x")
    assert fixed.status_code == 200 and len(fixed.json()["audit"]) == 1
    done = post(server, f"{code}/rounds/1/tables/1/mesa")
    assert done.status_code == 409 and error_code(done) == "torneo.already_entered"


def test_a_deleted_account_leaves_its_name_on_no_anotador_sheet(server: ServerProcess) -> None:
    """The pair a signed-in player registered plays its table on paper, kept on an anotador
    sheet bound to the table: once the account is deleted, the sheet (to write, to watch, its
    exports) names «jugador borrado» where it named the player, its lines and totals stay, the
    mirón waiting for news hears of it at once, and the scorekeeper goes on writing."""
    spec = {"name": "Parejas en papel", "rules": "venezuela", "rounds": 2}
    code, _public, player, name = signed_in_pair(server, spec)
    paired = post(server, f"{code}/rounds")
    assert paired.status_code == 201, paired.text
    [table] = [t for t in paired.json()["round"]["tables"] if 4 in (*t["a"], *t["b"])]
    bound = post(server, f"{code}/rounds/1/tables/{table['table']}/sheet")
    assert bound.status_code == 201, bound.text
    [sheet] = [s for s in bound.json()["sheets"] if s["table"] == table["table"]]
    writer = f"{server.url}/api/anotador/mesas/{sheet['sheet']}"
    tranque = {"type": "hand", "end": "tranque", "seat": 0, "pips": [3, 9, 4, 12], "leader": 0}
    line = httpx.post(f"{writer}/actions", json={"key": "linea-uno-1", "action": tranque})
    assert line.status_code == 200, line.text
    before = httpx.get(writer, timeout=30).json()
    assert name in before["state"]["partida"]["players"]
    assert f"{name} y Óscar" in before["state"]["partida"]["sides"]

    # A mirón waits for the sheet's next change while the account is deleted.
    watch = f"{server.url}/api/anotador/watch/{sheet['watch']}"
    with ThreadPoolExecutor(1) as pool:
        waiting = pool.submit(httpx.get, watch, params={"after": before["version"]}, timeout=60)
        time.sleep(2)  # the mirón's request is in and waiting
        deleted_at = time.monotonic()
        player.took(player.delete("/me"))
        player.close()
        heard = waiting.result().json()
        # Answered with the new name when it was given, not after the wait for news ran out.
        assert time.monotonic() - deleted_at < WATCH_WAIT / 2
    assert heard["state"]["partida"]["players"] == [
        "jugador borrado" if p == name else p for p in before["state"]["partida"]["players"]
    ]
    after = httpx.get(writer, timeout=30).json()
    assert after["state"]["partida"]["players"] == heard["state"]["partida"]["players"]
    assert "jugador borrado y Óscar" in after["state"]["partida"]["sides"]
    assert after["state"]["partida"]["totals"] == before["state"]["partida"]["totals"]
    assert name not in str(after) and name not in str(heard)
    for fmt in ("csv", "json", "html"):
        exported = httpx.get(f"{server.url}/api/anotador/export/{sheet['watch']}/1.{fmt}")
        assert exported.status_code == 200 and "jugador borrado" in exported.text
        assert name not in exported.text
    # The sheet replays as before: the scorekeeper's next line goes on from the same totals.
    more = httpx.post(f"{writer}/actions", json={"key": "linea-dos-2", "action": tranque})
    assert more.status_code == 200, more.text
    totals = more.json()["state"]["partida"]["totals"]
    assert totals[0] > after["state"]["partida"]["totals"][0]
