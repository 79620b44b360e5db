"""A 16-pair Swiss of 5 rounds played online end to end on a real server (SQLite and
PostgreSQL): every round's tables are game mesas that seat that pairing's players (each reaches
their seat's token from their pair's own page), the players are clients that play a legal move
the moment it is their turn, and every result goes into the torneo by itself when its partida
ends (the game tells ``TorneoService.partida_ended``). After round 5 no two pairs met twice,
every pair played five partidas, each result is the score its partida's record replays to, and
the server's standings are the engine's from the exported record.

Kept cheap, so that it runs in the quick set: the smallest target the rules allow (10, usually
one hand) and clients that answer at once; the 40 partidas take seconds, not the minutes that
partidas to 100 would."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from typing import TYPE_CHECKING, Any

import httpx

from fichaflow.core.rules import TARGET_MIN
from fichaflow.torneo import model
from fichaflow.torneo.check import check
from fichaflow.torneo.pairing import meetings
from fichaflow.torneo.standings import standing_json, standings
from tests.server.kit import Client, all_told_partida_over
from tests.torneos.test_api import create, post
from tests.torneos.test_players import own_page

if TYPE_CHECKING:  # the fixture's type; pytest provides the fixture itself
    from tests.server.kit import ServerProcess

PAIRS = 16
ROUNDS = 5
PLAYED_WITHIN = 120.0
"""Seconds for one round's eight partidas to end (each is a hand or two)."""


def organizer(server: ServerProcess, code: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{server.url}/api/torneos/{code}", timeout=30).json()
    return data


async def play_round(server: ServerProcess, seats: list[dict[str, Any]]) -> None:
    """Every seat's player connects with their token and plays to their partida's end."""
    clients = [
        Client(server, s["mesa"], s["token"], autoplay=True, seed=s["round"] * 100 + i)
        for i, s in enumerate(seats)
    ]
    try:
        for client in clients:
            welcome = await client.connect()
            assert welcome["role"] == "player"
        await all_told_partida_over(clients, PLAYED_WITHIN)
    finally:
        for client in clients:
            await client.close()


def logged(server: ServerProcess, code: str, wanted: int, timeout: float = 30) -> dict[str, Any]:
    """The organizer's view once the log has ``wanted`` lines (entered by the game's word)."""
    end = time.monotonic() + timeout
    while True:
        view = organizer(server, code)
        if len(view["record"]["log"]) >= wanted or time.monotonic() > end:
            return view
        time.sleep(0.2)


def test_a_16_pair_swiss_of_5_rounds_played_online_end_to_end(server: ServerProcess) -> None:
    entrants = [
        {"name": f"Pareja {n:02d}", "players": [f"Jugador {n:02d}a", f"Jugador {n:02d}b"]}
        for n in range(1, PAIRS + 1)
    ]
    spec = {
        "name": "Suizo en línea",
        "rules": {"preset": "venezuela", "target": TARGET_MIN},
        "rounds": ROUNDS,
        "pairing": "swiss",
        "entrants": entrants,
    }
    made = create(server, spec)
    code, public = made["code"], made["public"]
    pages = made["players"]
    for number in range(1, ROUNDS + 1):
        paired = post(server, f"{code}/rounds")
        assert paired.status_code == 201, paired.text
        tables = paired.json()["round"]["tables"]
        assert len(tables) == PAIRS // 2 and paired.json()["round"]["byes"] == []
        online = post(server, f"{code}/rounds/{number}/mesas")
        assert online.status_code == 201, online.text
        mesas = [m for m in online.json()["mesas"] if m["round"] == number]
        assert len(mesas) == PAIRS // 2
        # Each pair finds its two seats on its own page; the four of a table are its players.
        seats = [s for e in range(1, PAIRS + 1) for s in own_page(server, pages[str(e)])["seats"]]
        seats = [s for s in seats if s["round"] == number]
        by_table = Counter(s["table"] for s in seats)
        assert by_table == {t["table"]: 4 for t in tables}
        asyncio.run(play_round(server, seats))
        view = logged(server, code, number * PAIRS // 2)
        lines = [line for line in view["record"]["log"] if line["round"] == number]
        assert sorted(line["table"] for line in lines) == [t["table"] for t in tables]
        on_mesa = {m["table"]: m["mesa"] for m in mesas}
        for line in lines:  # nobody typed them: each came from its mesa when it ended
            assert line["by"] == f"mesa en línea {on_mesa[line['table']]}"
            assert line["score"] == list(model.from_partida(line["record"]).score or ())
            assert max(line["score"]) >= TARGET_MIN and line["score"][0] != line["score"][1]

    view = organizer(server, code)
    assert not view["can_pair"] and view["audit"] == []
    exported = httpx.get(f"{server.url}/api/torneos/export/{code}.json", timeout=30).json()
    torneo = model.load(exported)
    assert max(meetings(torneo.rounds).values()) == 1  # no pair met the same rivals twice
    seated = Counter(e for r in torneo.rounds for t in r.tables for e in (*t.a, *t.b))
    assert seated == {e: ROUNDS for e in range(1, PAIRS + 1)}
    report = check(torneo)  # pairs every round again and replays every partida's record
    assert (report.rounds, report.results, report.records) == (ROUNDS, 40, 40)
    # The standings the server shows are the engine's from the record, and they add up.
    assert view["standings"] == [standing_json(torneo, s) for s in standings(torneo)]
    table = view["standings"]
    assert sum(s["pg"] for s in table) == sum(s["pp"] for s in table) == 40
    assert all(s["pj"] == ROUNDS and s["pg"] + s["pp"] == ROUNDS for s in table)
    scored = sum(sum(line["score"]) for line in exported["log"])
    assert sum(s["pf"] for s in table) == sum(s["pc"] for s in table) == scored
    shown = httpx.get(f"{server.url}/api/torneos/public/{public}", timeout=30).json()
    assert shown["standings"] == table
