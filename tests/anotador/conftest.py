"""A real ``fichaflow serve`` process for the anotador's API and browser tests, on SQLite and on
PostgreSQL (a fresh database per run, when ``FICHAFLOW_TEST_POSTGRES_URL`` is set)."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

SERVE = "from fichaflow.cli import main; main()"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Server:
    """A running server: its base URL, and how to restart it on the same database."""

    url: str
    db: str
    port: int
    log: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVE, "serve", "--port", str(self.port), "--db", self.db,
             "--bot-workers", "1", "--http-limit", "0"],  # tests create mesas fast: no limit
            stdout=self.log.open("ab"),
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.log.read_text()}")
            try:
                if httpx.get(f"{self.url}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"the server did not start: {self.log.read_text()}")

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)

    def restart(self) -> None:
        self.stop()
        self.start()


def _postgres_database(base_url: str) -> Generator[str, None, None]:
    """A fresh database next to the one in ``base_url``, dropped afterwards."""
    import sqlalchemy as sa

    name = f"anotador_{secrets.token_hex(4)}"
    url = sa.engine.make_url(base_url)
    admin = sa.create_engine(url, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(sa.text(f'CREATE DATABASE "{name}"'))
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@contextmanager
def running_server(db: str, folder: Path) -> Iterator[Server]:
    srv = Server(f"http://127.0.0.1:{free_port()}", db, 0, folder / "server.log")
    srv.port = int(srv.url.rsplit(":", 1)[1])
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("anotador-server")
    if request.param == "sqlite":
        with running_server(f"sqlite:///{folder / 'fichaflow.sqlite3'}", folder) as srv:
            yield srv
        return
    base = os.environ.get("FICHAFLOW_TEST_POSTGRES_URL")
    if not base:
        pytest.skip("FICHAFLOW_TEST_POSTGRES_URL is not set: no PostgreSQL to test against")
    databases = _postgres_database(base)
    try:
        with running_server(next(databases), folder) as srv:
            yield srv
    finally:
        databases.close()  # drops the database


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("anotador-browser")
    with running_server(f"sqlite:///{folder / 'fichaflow.sqlite3'}", folder) as srv:
        yield srv
