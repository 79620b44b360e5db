"""One owner per live mesa: two real servers on one PostgreSQL database. A server stopped past its
lease (SIGSTOP) loses the mesa to the other, which plays on; woken again (SIGCONT) it can never
commit: the move sent to it is refused, its clients are told to connect again, and the moves
table has no move twice and none lost."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import text

from fichaflow.server import changes as ch
from fichaflow.server import storage
from fichaflow.storage import make_engine, migrate
from tests.server.kit import (
    POSTGRES_ENV,
    TEST_SEED,
    Client,
    ServerProcess,
    contiguous,
    create_mesa,
    history,
    join,
    last_seq,
    play_turn,
    postgres_database,
    stored_moves,
    until,
)

LEASE = "2"  # seconds: the test waits for one to run out


@pytest.fixture
def database() -> Iterator[str]:
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set: two servers share a PostgreSQL database")
    with postgres_database(base, "fichaflow_lease") as url:
        yield url


async def taken_by(server: ServerProcess, code: str) -> bool:
    """Ask ``server`` for the mesa: True once it holds it, False while another server does."""
    async with server.http() as http:
        answer = await http.get(f"/api/mesas/{code}")
    if answer.status_code == 503:
        assert answer.json()["error"]["code"] == "server.elsewhere"
        return False
    assert answer.status_code == 200, answer.text
    return True


@pytest.mark.slow
def test_a_server_stopped_past_its_lease_never_commits_again(database: str) -> None:
    options = ["--lease-seconds", LEASE]
    a = ServerProcess(database, seed=TEST_SEED, options=options)
    b = ServerProcess(database, seed=TEST_SEED, options=options)
    a.start()
    b.start()
    stopped = False

    async def scenario() -> None:
        nonlocal stopped
        created = await create_mesa(a, rules="mano_a_mano", seats=[None, None], seat=0)
        code = created["code"]
        joined = await join(a, code, "Beto", 1)
        tokens = [created["token"], joined["token"]]
        on_a = [Client(a, code, token) for token in tokens]
        for client in on_a:
            await client.connect()
        await on_a[0].send({"type": "start"})
        await until(lambda: all(c.last_view() is not None for c in on_a))
        for _ in range(2):
            await play_turn(on_a)
        # B cannot take a mesa A holds.
        assert not await taken_by(b, code)

        a.process.send_signal(signal.SIGSTOP)  # type: ignore[union-attr]
        stopped = True
        # Once A's lease has run out, B takes the mesa, and the players play on there.
        while not await taken_by(b, code):
            await asyncio.sleep(0.2)
        on_b = [Client(b, code, token) for token in tokens]
        for client in on_b:
            await client.connect()
        assert on_b[0].last_view() is not None
        for _ in range(2):
            await play_turn(on_b)

        # A wakes up: the player A thinks is to move sends A a legal move.
        mover = next(c for c in on_a if (v := c.last_view()) and v["turn"] == c.seat)
        view = mover.last_view()
        assert view is not None
        seen_on_a = [last_seq(c) for c in on_a]
        a.process.send_signal(signal.SIGCONT)  # type: ignore[union-attr]
        stopped = False
        await mover.send({"type": "play", "move": view["legal"][0]})
        # A's clients are told to connect again (1012) and were shown no move of A's.
        await asyncio.wait_for(asyncio.gather(*(c.closed.wait() for c in on_a)), 15)
        for client, seq in zip(on_a, seen_on_a, strict=True):
            assert client.close_code == 1012
            assert last_seq(client) == seq
        said = a.log.read_text()
        assert "another server took its lease" in said or "past this server's memory" in said
        # Asked again, A says the mesa is elsewhere (B holds it and renews it).
        assert not await taken_by(a, code)
        # Play goes on at B; the table holds each move once, none lost.
        await play_turn(on_b)
        moves = stored_moves(database, code)
        assert contiguous(moves)
        assert len(moves) == 5 == len(history(on_b[0])) == len(history(on_b[1]))
        for client in on_b:
            await client.close()

    try:
        asyncio.run(scenario())
    finally:
        if stopped and a.process is not None:
            a.process.send_signal(signal.SIGCONT)
        a.stop()
        b.stop()


@pytest.mark.slow  # two server starts and a kill; the quick set keeps the outage and storage tests
def test_one_server_takes_its_own_mesas_back_at_once_after_a_kill(tmp_path: Path) -> None:
    """With one server (SQLite), a restart after SIGKILL finds every mesa at once: the lease it
    held is its own (the same host and port), so nobody waits for it to run out."""
    path = f"sqlite:///{tmp_path}/one.sqlite3"
    server = ServerProcess(path, seed=TEST_SEED)
    server.start()

    async def scenario() -> None:
        created = await create_mesa(server, rules="mano_a_mano", seats=[None, "tirafichas"])
        code = created["code"]
        server.kill()
        server.start()
        async with server.http() as http:
            answer = await http.get(f"/api/mesas/{code}", timeout=httpx.Timeout(5))
        assert answer.status_code == 200, answer.text

    try:
        asyncio.run(scenario())
    finally:
        server.stop()


def test_renewing_the_leases_never_waits_for_a_mesa_being_committed(database: str) -> None:
    """The lease renewal and the writer both lock mesa rows, each in its own order: if the
    renewal waited for a row the writer holds while the writer waited for one the renewal holds,
    PostgreSQL would break the deadlock only after a second, with every move of the group
    waiting (seen at 500 mesas: moves answered after 1.1 s). The renewal skips a row that is
    locked, and the writer renews the lease of every mesa it commits."""
    engine = make_engine(database)
    migrate(engine)
    for code in ("a", "b"):
        storage.commit(engine, [ch.NewMesa(code, {"preset": "venezuela"}, {})])
        storage.take_mesa(engine, code, "node-1", 30)

    def leases() -> dict[str, int]:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT code, lease_until FROM mesas"))
            return {code: until for code, until in rows}

    before = leases()
    time.sleep(0.05)
    with engine.connect() as committing:
        committing.begin()
        committing.execute(text("SELECT version FROM mesas WHERE code = 'a' FOR UPDATE"))
        renewal = concurrent.futures.ThreadPoolExecutor(1)
        held = renewal.submit(storage.renew_leases, engine, "node-1", 30)
        try:
            assert held.result(20) == {"a": 1, "b": 1}  # it answered while "a" was locked
        finally:
            committing.rollback()
            renewal.shutdown()
    renewed = leases()
    assert renewed["b"] > before["b"]
    assert renewed["a"] == before["a"]  # skipped: its writer renews it
    writer = storage.Writer(engine, lease_seconds=30)
    writer.submit([ch.NewMove("a", 1, 1, 1, 0, "6-6", False), ch.SetVersion("a", 1, 1)]).result(10)
    writer.close()
    assert leases()["a"] > before["a"]  # the commit renewed its mesa's lease
    engine.dispose()
