"""A torneo played by time, online, on a real server (SQLite and PostgreSQL): the round's table is
a game mesa whose partida the server ends when time is up (a few seconds here, clients that
answer at once, a target out of reach): everybody is told «Tiempo», the hand in play is
finished, the higher score wins, and the result enters the standings by itself; the record
writes the time call and replays to that result. And a mesa by time survives a restart: the
restarted server's clock is the one derived from the partida's stored start, and it calls time."""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING

import httpx

from fichaflow.core import record
from fichaflow.core.partida import time_winner
from fichaflow.core.rules import TARGET_MAX
from fichaflow.server.fairness import verify_record
from fichaflow.torneo import model
from tests.server.kit import (
    Client,
    ServerProcess,
    all_told_partida_over,
    create_mesa,
    get_json,
    join,
)
from tests.torneos.test_api import create, post
from tests.torneos.test_online_swiss import logged, organizer
from tests.torneos.test_players import own_page

if TYPE_CHECKING:  # the fixture's type; pytest provides the fixture itself
    from pathlib import Path

MINUTES = 0.05
"""Three seconds: a few hands of clients that answer at once."""


def told_time_up(client: Client) -> bool:
    """The client was told, in a mesa state, that time was called (the «Tiempo» notice)."""
    return any(
        (m.get("mesa") or {}).get("clock", {}) and m["mesa"]["clock"]["time_up"]
        for m in client.log
        if m["type"] in ("mesa", "welcome")
    )


def test_a_torneo_by_time_ends_its_online_table_when_time_is_up(server: ServerProcess) -> None:
    spec = {
        "name": "Por tiempo",
        "rules": {"preset": "venezuela", "target": TARGET_MAX},
        "length": "time",
        "minutes": MINUTES,
        "rounds": 1,
        "entrants": [
            {"name": "Los Primos", "players": ["Ana", "Beto"]},
            {"name": "Las Tías", "players": ["Carla", "Dora"]},
        ],
    }
    made = create(server, spec)
    code = made["code"]
    assert post(server, f"{code}/rounds").status_code == 201
    online = post(server, f"{code}/rounds/1/mesas")
    assert online.status_code == 201, online.text
    seats = [s for e in ("1", "2") for s in own_page(server, made["players"][e])["seats"]]
    assert len(seats) == 4

    async def play() -> list[Client]:
        clients = [
            Client(server, s["mesa"], s["token"], autoplay=True, seed=i)
            for i, s in enumerate(seats)
        ]
        try:
            for client in clients:
                welcome = await client.connect()
                clock = welcome["mesa"]["clock"]
                assert clock is not None and clock["ends_at"] > 0
            await all_told_partida_over(clients, 120)
        finally:
            for client in clients:
                await client.close()
        return clients

    clients = asyncio.run(play())
    assert all(told_time_up(c) for c in clients)
    view = logged(server, code, 1)
    (line,) = view["record"]["log"]
    assert line["by"] == f"mesa en línea {seats[0]['mesa']}"
    assert "time_up" in line["record"]
    partida = record.replay(record.parse_record(line["record"]))
    assert partida.time_up is not None and max(partida.scores) < TARGET_MAX
    assert partida.winner == time_winner(partida.scores)
    assert line["score"] == list(model.from_partida(line["record"]).score or ())
    assert line["score"][0] != line["score"][1]
    table = organizer(server, code)["standings"]
    winner = max(table, key=lambda s: s["pf"])
    assert (winner["pg"], winner["pf"]) == (1, max(line["score"]))
    assert sorted(s["pg"] for s in table) == [0, 1]


def test_a_restarted_server_calls_time_from_the_stored_start(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'f.sqlite3'}")
    server.start()
    try:
        asyncio.run(restart_scenario(server))
    finally:
        server.stop()


async def restart_scenario(server: ServerProcess) -> None:
    created = await create_mesa(
        server,
        rules={"preset": "venezuela", "target": TARGET_MAX},
        options={"time_minutes": 0.1},
        name="Ana",
        seat=0,
    )
    code = created["code"]
    tokens = [created["token"]]
    for seat, name in enumerate(["Beto", "Carla", "Dora"], 1):
        tokens.append((await join(server, code, name, seat))["token"])
    host = Client(server, code, tokens[0])
    await host.connect()
    await host.send({"type": "start"})
    started = await host.expect("mesa", where=lambda m: m["mesa"]["status"] == "playing")
    ends_at = started["mesa"]["clock"]["ends_at"]
    assert started["mesa"]["clock"]["time_up"] is False
    await host.close()
    server.restart()  # nobody has moved; the clock was only in the first server's memory
    clients = [Client(server, code, t, autoplay=True, seed=i) for i, t in enumerate(tokens)]
    try:
        for client in clients:
            welcome = await client.connect()
            assert abs(welcome["mesa"]["clock"]["ends_at"] - ends_at) < 1
        await all_told_partida_over(clients, 120)
    finally:
        for client in clients:
            await client.close()
    assert any(told_time_up(c) for c in clients)
    saved = await get_json(server, f"/api/mesas/{code}/partidas/1/record")
    parsed = record.loads(json.dumps(saved))
    assert parsed.time_up is not None
    assert verify_record(parsed)
    partida = record.replay(parsed)
    assert partida.winner == time_winner(partida.scores)
    assert max(partida.scores) < TARGET_MAX
    status = httpx.get(f"{server.url}/api/mesas/{code}", timeout=10)
    assert status.status_code == 200 and status.json()["mesa"]["status"] == "partida_over"
