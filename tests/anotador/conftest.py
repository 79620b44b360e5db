"""A real ``fichaflow serve`` process for the anotador's API and browser tests, on SQLite and on
PostgreSQL (a fresh database per run, when ``FICHAFLOW_TEST_POSTGRES_URL`` is set, in the full run:
see ``tests.server.kit.POSTGRESQL``)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Generator, Iterator

import pytest

from tests.server.kit import POSTGRESQL, ServerProcess


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


@pytest.fixture(scope="module", params=["sqlite", POSTGRESQL])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("anotador-server")
    log = folder / "server.log"
    if request.param == "sqlite":
        with ServerProcess(f"sqlite:///{folder / 'fichaflow.sqlite3'}", log=log) as srv:
            yield srv
        return
    base = os.environ.get("FICHAFLOW_TEST_POSTGRES_URL")
    if not base:
        pytest.skip("FICHAFLOW_TEST_POSTGRES_URL is not set: no PostgreSQL to test against")
    databases = _postgres_database(base)
    try:
        with ServerProcess(next(databases), log=log) as srv:
            yield srv
    finally:
        databases.close()  # drops the database


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("anotador-browser")
    database = f"sqlite:///{folder / 'fichaflow.sqlite3'}"
    with ServerProcess(database, log=folder / "server.log") as srv:
        yield srv
