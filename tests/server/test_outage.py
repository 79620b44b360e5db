"""A server that survives its database: while PostgreSQL refuses every connection, an action that
cannot be committed is refused with the documented error and shown to nobody, a bot's move and a
new mesa wait or are refused, and once the database is back play goes on, the moves table has no
gap and the mesa replays after a restart as its clients saw it.

Each test makes a PostgreSQL database of its own (on ``FICHAFLOW_TEST_POSTGRES_URL``'s server),
since it cuts that database off."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from tests.server.kit import (
    POSTGRES_ENV,
    TEST_SEED,
    Client,
    ServerProcess,
    contiguous,
    create_mesa,
    history,
    is_spanish_error,
    join,
    last_seq,
    play_turn,
    postgres_database,
    stored_moves,
    until,
)

pytestmark = pytest.mark.slow


@pytest.fixture
def database() -> Iterator[str]:
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set: the outage tests cut off a PostgreSQL database")
    with postgres_database(base, "fichaflow_outage") as url:
        yield url


@contextlib.contextmanager
def outage(url: str) -> Iterator[None]:
    """The database of ``url`` refuses new connections and its open ones are cut, until the
    block ends."""
    name = url.rsplit("/", 1)[1].split("?")[0]
    admin = create_engine(os.environ[POSTGRES_ENV], isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false'))
        connection.execute(
            text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :name"),
            {"name": name},
        )
    try:
        yield
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true'))
        admin.dispose()


async def assert_replays(server: ServerProcess, code: str, seen: dict[str, list[Any]]) -> None:
    """After a restart the mesa comes back: each seat (by its token) is shown the history it
    last saw."""
    server.restart()
    for token, history_seen in seen.items():
        client = Client(server, code, token)
        welcome = await client.connect()
        assert welcome["view"]["history"] == history_seen
        await client.close()


def test_a_move_during_an_outage_is_refused_and_play_goes_on(database: str) -> None:
    server = ServerProcess(database, seed=TEST_SEED)
    server.start()

    async def scenario() -> None:
        created = await create_mesa(server, rules="mano_a_mano", seats=[None, None], seat=0)
        code = created["code"]
        joined = await join(server, code, "Beto", 1)
        host = Client(server, code, created["token"])
        guest = Client(server, code, joined["token"])
        clients = [host, guest]
        for client in clients:
            await client.connect()
        await host.send({"type": "start"})
        await until(lambda: all(c.last_view() is not None for c in clients))
        for _ in range(3):
            await play_turn(clients)
        assert len(stored_moves(database, code)) == 3
        shown = [len(c.log) for c in clients]
        seqs = [last_seq(c) for c in clients]
        mover = next(c for c in clients if (v := c.last_view()) and v["turn"] == c.seat)
        view = mover.last_view()
        assert view is not None
        with outage(database):
            refused = await mover.ask({"type": "play", "move": view["legal"][0]})
            assert is_spanish_error(refused, "server.storage")
            # A new mesa and a newcomer are refused alike: 503 with the documented error.
            async with server.http() as http:
                made = await http.post("/api/mesas", json={"rules": "mano_a_mano"})
                came = await http.post(f"/api/mesas/{code}/join", json={"name": "Cora"})
            for answer in (made, came):
                assert answer.status_code == 503, answer.text
                assert answer.json()["error"]["code"] == "server.storage"
            for client in clients:
                await client.ping()
        # Nobody was shown the refused move (the refusal itself went to its sender only).
        for client, before, seq in zip(clients, shown, seqs, strict=True):
            news = [m for m in client.log[before:] if m["type"] not in ("pong", "error")]
            assert news == [] and last_seq(client) == seq
        # The database is back: the same move now goes through, and play goes on.
        for _ in range(4):
            await play_turn(clients)
        moves = stored_moves(database, code)
        assert contiguous(moves)
        assert len(moves) == 7 == len(history(host)) == len(history(guest))
        seen = {created["token"]: history(host), joined["token"]: history(guest)}
        for client in clients:
            await client.close()
        await assert_replays(server, code, seen)

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


def test_a_bot_to_move_during_an_outage_plays_when_the_database_is_back(database: str) -> None:
    server = ServerProcess(database, seed=TEST_SEED)
    server.start()

    async def scenario() -> None:
        created = await create_mesa(
            server,
            rules="mano_a_mano",
            seats=[None, "tirafichas"],
            seat=0,
            options={"bot_pause_ms": 2000},
        )
        code = created["code"]
        host = Client(server, code, created["token"])
        await host.connect()
        await host.send({"type": "start"})
        await until(lambda: host.last_view() is not None)

        def my_turn() -> bool:
            view = host.last_view()
            return view is not None and view["turn"] == host.seat and bool(view["legal"])

        await until(my_turn)
        await play_turn([host])
        # The bot is now to move, after its pause: cut the database off for 5 seconds under it.
        with outage(database):
            await asyncio.sleep(5)  # the outage's length is the test's subject, not a wait
            log = server.log.read_text()
            assert "could not commit an action at mesa" in log, log[-2000:]
            assert not my_turn()  # the bot's move was not shown
        # Back: the bot plays, and the partida goes on.
        await until(my_turn, 30)
        for _ in range(2):
            await play_turn([host])
            await until(my_turn, 30)
        moves = stored_moves(database, code)
        assert contiguous(moves)
        seen = history(host)
        assert len(moves) == len(seen)
        await host.close()
        await assert_replays(server, code, {created["token"]: seen})

    try:
        asyncio.run(scenario())
    finally:
        server.stop()
