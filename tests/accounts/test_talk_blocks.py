"""Blocks in the table talk (#16), on SQLite and PostgreSQL: a signed-in player who blocks
another account hears none of its words at the next mesa too (the block is stored); a block of a
guest stays at its mesa; unblocking forgets the stored block; a deleted account takes every
block it made or received with it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, or_, select

from fichaflow.server.models import ChatBlockRow
from tests.accounts.kit import Player, fresh_name
from tests.server.kit import Client, ServerProcess
from tests.server.test_talk import said


@pytest.fixture
def people(server: ServerProcess) -> Iterator[list[Player]]:
    made = [Player(server) for _ in range(2)]
    yield made
    for player in made:
        player.close()


def signed_in(player: Player, path: str, body: dict[str, Any]) -> dict[str, Any]:
    assert player.csrf is not None
    answer = player.http.post(path, json=body, headers={"X-CSRF-Token": player.csrf})
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def mesa_of(server: ServerProcess, ana: Player, beto: Player) -> tuple[str, list[Client]]:
    """A mesa Ana makes signed in, Beto joins signed in and a guest, Caro, joins: their
    clients (not yet connected)."""
    body = {"name": "Ana", "seat": 0, "options": {"bot_pause_ms": 0}}
    made = signed_in(ana, "/api/mesas", body)
    code = made["code"]
    joined = signed_in(beto, f"/api/mesas/{code}/join", {"name": "Beto", "seat": 1})
    caro = httpx.post(f"{server.url}/api/mesas/{code}/join", json={"name": "Caro"}, timeout=10)
    tokens = [made["token"], joined["token"], caro.json()["token"]]
    return code, [Client(server, code, token) for token in tokens]


def blocks_of(server: ServerProcess, *accounts: str) -> list[tuple[str, str]]:
    engine = create_engine(server.database_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                select(ChatBlockRow.blocker, ChatBlockRow.blocked).where(
                    or_(ChatBlockRow.blocker.in_(accounts), ChatBlockRow.blocked.in_(accounts))
                )
            )
            return sorted((r.blocker, r.blocked) for r in rows)
    finally:
        engine.dispose()


def person(client: Client) -> int:
    return int(next(m for m in client.log if m["type"] == "welcome")["you"]["id"])


def test_a_block_between_accounts_holds_at_the_next_mesa(
    server: ServerProcess, people: list[Player]
) -> None:
    ana, beto = people
    ana_id = ana.sign_up(fresh_name("Ana"))["account"]["id"]
    beto_id = beto.sign_up(fresh_name("Beto"))["account"]["id"]
    first, clients = mesa_of(server, ana, beto)

    async def at_the_first() -> None:
        a, b, c = clients
        for client in clients:
            await client.connect()
        await a.send({"type": "block", "person": person(b)})
        await a.expect("blocked", where=lambda m: m["people"] == [person(b)])
        await a.send({"type": "block", "person": person(c)})  # a guest: this mesa only
        await a.expect("blocked", where=lambda m: len(m["people"]) == 2)
        for client in clients:
            await client.close()

    asyncio.run(at_the_first())
    assert blocks_of(server, ana_id) == [(ana_id, beto_id)]
    ana_at_first = clients[0].token
    _, clients = mesa_of(server, ana, beto)

    async def at_the_second() -> None:
        a, b, c = clients
        welcome = await a.connect()
        await b.connect()
        await c.connect()
        assert welcome["blocked"] == [person(b)]  # Beto's account, not the new Caro
        await b.send({"type": "say", "text": "¿me oyes?"})
        await c.send({"type": "say", "text": "yo sí"})
        await said(c, "¿me oyes?")
        await said(a, "yo sí")
        assert "¿me oyes?" not in [m.get("text") for m in a.log if m["type"] == "chat"]
        # Unblocked here, unblocked everywhere.
        await a.send({"type": "block", "person": person(b), "on": False})
        await a.expect("blocked", where=lambda m: m["people"] == [])
        for client in clients:
            await client.close()
        back = Client(server, first, ana_at_first)
        again = await back.connect()
        assert len(again["blocked"]) == 1  # the first mesa's Caro, still in its memory
        await back.close()

    asyncio.run(at_the_second())
    assert blocks_of(server, ana_id) == []

    # Beto blocks Ana; then Ana deletes her account: no block of or by her is left.
    _, clients = mesa_of(server, ana, beto)

    async def at_the_third() -> None:
        a, b, _ = clients
        await a.connect()
        await b.connect()
        await b.send({"type": "block", "person": person(a)})
        await b.expect("blocked", where=lambda m: m["people"] == [person(a)])
        await a.send({"type": "block", "person": person(b)})
        await a.expect("blocked", where=lambda m: m["people"] == [person(b)])
        await a.close()
        await b.close()

    asyncio.run(at_the_third())
    assert blocks_of(server, ana_id) == sorted([(ana_id, beto_id), (beto_id, ana_id)])
    ana.took(ana.delete("/me"))
    assert blocks_of(server, ana_id) == []
