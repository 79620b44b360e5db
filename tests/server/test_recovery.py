"""Nothing accepted is lost: a server killed with SIGKILL in the middle of real play comes back
with every mesa where it was, and its clients reconnect by themselves with their seat tokens."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from fichaflow.core import record
from fichaflow.core.view import hand_view
from fichaflow.server.fairness import verify_record
from tests.server.kit import (
    TEST_SEED,
    Client,
    ServerProcess,
    all_told_partida_over,
    create_mesa,
    get_json,
    join,
    until,
)

TABLES: list[tuple[dict[str, Any], list[str | None]]] = [
    ({"preset": "venezuela", "target": 40}, [None, "tirapuntos", None, "tirafichas"]),
    ({"preset": "mano_a_mano", "target": 30}, [None, None]),
    ({"preset": "tres", "target": 30}, [None, "acuestafichas", "tirafichas"]),
]


def latest_views(client: Client) -> dict[int, dict[str, Any]]:
    """The last view of each hand this client was told about."""
    out: dict[int, dict[str, Any]] = {}
    for message in client.seen:
        view = message.get("view")
        if view is not None and view["hand_number"] >= 1:
            out[view["hand_number"]] = view
    return out


@pytest.mark.slow
def test_a_killed_server_loses_no_accepted_move(database_url: str) -> None:
    server = ServerProcess(database_url, seed=TEST_SEED)
    server.start()

    async def scenario() -> None:
        mesas = []
        for n, (rules, seats) in enumerate(TABLES):
            created = await create_mesa(server, rules=rules, seats=seats, name="Host")
            code = created["code"]
            clients = []
            for seat, bot in enumerate(seats):
                if bot is None:
                    joined = await join(server, code, f"P{seat}", seat)
                    clients.append(
                        Client(server, code, joined["token"], autoplay=True, reconnect=True, seed=n)
                    )
            host = Client(server, code, created["token"], reconnect=True)
            clients.append(host)
            for client in clients:
                await client.connect()
            mesas.append((code, host, clients))
        for _, host, _ in mesas:
            await host.send({"type": "start"})

        def moves_seen() -> int:
            return sum(1 for _, host, _ in mesas for m in host.log if m["type"] == "move")

        await until(lambda: moves_seen() >= 60, 150)
        server.kill()
        told = {
            (code, id(client)): (latest_views(client), max(m.get("seq", 0) for m in client.log))
            for code, _, clients in mesas
            for client in clients
        }
        before = {id(client): client.welcomes for _, _, clients in mesas for client in clients}
        everyone = [client for _, _, clients in mesas for client in clients]
        await until(lambda: all(client.drops for client in everyone))  # all saw it go
        server.start()
        for code, host, _ in mesas:
            try:
                await asyncio.wait_for(host.partida_over.wait(), 150)
            except TimeoutError:
                mesa = (await get_json(server, f"/api/mesas/{code}"))["mesa"]
                seen = [m["type"] for m in host.log[-8:]]
                raise AssertionError(
                    f"mesa {code} did not finish: {mesa['status']}, seats {mesa['seats']}, "
                    f"the host's last messages {seen}; the server said:\n"
                    f"{server.log.read_text()[-4000:]}"
                ) from None
        await all_told_partida_over(everyone)
        for code, _, clients in mesas:
            for client in clients:
                await client.close()
            saved = await get_json(server, f"/api/mesas/{code}/partidas/1/record")
            parsed = record.loads(json.dumps(saved))
            assert verify_record(parsed)
            truth = record.replay(parsed)
            for client in clients:
                # it came back by itself and was given the whole state again
                assert client.welcomes == before[id(client)] + 1
                views, last_seq = told[(code, id(client))]
                welcome = [m for m in client.log if m["type"] == "welcome"][-1]
                assert welcome["seq"] >= last_seq
                # every action it was told about before the kill is in the final record
                for number, view in views.items():
                    hand = truth.played[number - 1].hand
                    full = hand_view(truth.rules, hand, client.seat).to_json()["history"]
                    assert view["history"] == full[: len(view["history"])]

    try:
        asyncio.run(scenario())
    finally:
        server.stop()
