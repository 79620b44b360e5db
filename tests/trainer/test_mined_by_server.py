"""A server mines its own partidas for problemas by itself (``fichaflow serve
--mine-problemas-every``): a partida both players allowed becomes problemas the trainer serves
with nobody running ``fichaflow problemas mine-server``; the run is a child process that does
not outlive its server, stopped or killed; and on PostgreSQL only one run mines a database at a
time, however many servers start one."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, create_engine, text

from fichaflow.cli.server_partidas import MINING_LOCK
from tests.cli.clikit import fichaflow
from tests.cluster.kit import alive, descendants, outliving, wait_for
from tests.server.kit import POSTGRES_ENV, TEST_SEED, ServerProcess, postgres_database
from tests.trainer.test_mined import marked, play_partida, player, puzzles_of, served

EVERY_SECOND = ["--mine-problemas-every", "1"]


@pytest.fixture
def mining_server(tmp_path: Path) -> Iterator[ServerProcess]:
    url = f"sqlite:///{tmp_path / 'fichaflow.sqlite3'}"
    log = tmp_path / "server.log"
    with ServerProcess(url, log=log, seed=TEST_SEED, options=EVERY_SECOND) as srv:
        yield srv


def miners(server: ServerProcess) -> set[int]:
    """The server's mining runs alive now (the processes below it running mine-server)."""
    assert server.process is not None
    found = set()
    for pid in descendants(server.process.pid):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except FileNotFoundError:
            continue
        if b"mine-server" in command and alive(pid):
            found.add(pid)
    return found


@pytest.mark.slow  # a partida played, then mined by the server: about 30 s
def test_the_server_mines_a_finished_partida_by_itself(mining_server: ServerProcess) -> None:
    ana, beto = player(mining_server, True), player(mining_server, True)
    code = play_partida(mining_server, ana, beto, 1)
    wait_for(lambda: marked(mining_server, code) == 1, 120, "the server mined the partida")
    mined = puzzles_of(mining_server, code)
    assert mined, mining_server.log.read_text()
    shown = served(mining_server, mined[0].id)
    assert shown["id"] == mined[0].id and "solution" not in shown
    # a later run does not mine it again
    time.sleep(3)
    assert sorted(p.id for p in puzzles_of(mining_server, code)) == sorted(p.id for p in mined)


@pytest.mark.slow  # two server lives, each caught mining: about 20 s
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["stopped", "killed"])
def test_a_mining_run_does_not_outlive_its_server(tmp_path: Path, stop: signal.Signals) -> None:
    """A run held up by the database (here a lock the test holds on the partidas, as a slow or
    unreachable database would) still ends with its server."""
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set: no PostgreSQL to test against")
    with postgres_database(base, "mineorphan") as url:
        server = ServerProcess(url, log=tmp_path / "server.log", options=EVERY_SECOND)
        server.start()
        holder = create_engine(url)
        try:
            with holder.connect() as connection:
                connection.execute(text("LOCK TABLE partidas IN ACCESS EXCLUSIVE MODE"))
                wait_for(lambda: bool(miners(server)), 60, "the server started a mining run")
                wait_for(lambda: waiting(holder), 60, "the mining run waits on the partidas")
                running = miners(server)
                assert server.process is not None
                server.process.send_signal(stop)
                server.process.wait(30)
                left = outliving(running, 15)
                connection.rollback()
            assert not left, f"a mining run outlived its server: {left}"
        finally:
            server.stop()
            holder.dispose()


def waiting(engine: Engine) -> bool:
    """Whether a session of the database waits for a lock (the mining run, on the partidas)."""
    with engine.connect() as connection:
        query = "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        return bool(connection.execute(text(query)).scalar_one())


def test_only_one_run_mines_a_postgresql_database_at_a_time(tmp_path: Path) -> None:
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set: no PostgreSQL to test against")
    with postgres_database(base, "minelock") as url:
        with ServerProcess(url, log=tmp_path / "server.log", seed=TEST_SEED) as server:
            ana, beto = player(server, True), player(server, True)
            code = play_partida(server, ana, beto, 2)
        holder = create_engine(url)
        try:
            with holder.connect() as connection:  # another node's run, mining now
                connection.execute(text("SELECT pg_advisory_lock(:k)"), {"k": MINING_LOCK})
                busy = fichaflow("problemas", "mine-server", "--db", url, timeout=300)
                assert busy.status == 0, busy.err
                assert busy.out.startswith("Otra ejecución ya está minando"), busy.out
                assert marked(server, code) == 0
                connection.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": MINING_LOCK})
            done = fichaflow("problemas", "mine-server", "--db", url, timeout=300)
            assert done.status == 0, done.err
            assert marked(server, code) == 1 and puzzles_of(server, code), done.out
        finally:
            holder.dispose()
