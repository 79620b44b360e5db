"""A real ``fichaflow serve`` process for the torneos' API and pages, on SQLite and on PostgreSQL
(a fresh database per run when ``FICHAFLOW_TEST_POSTGRES_URL`` is set, in the full run: see
``tests.server.kit.POSTGRESQL``)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.server.kit import POSTGRES_ENV, POSTGRESQL, ServerProcess, postgres_database


@pytest.fixture(scope="module", params=["sqlite", POSTGRESQL])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("torneos-server")
    log = folder / "server.log"
    if request.param == "sqlite":
        with ServerProcess(f"sqlite:///{folder / 'fichaflow.sqlite3'}", log=log) as srv:
            yield srv
        return
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set: no PostgreSQL to test against")
    with postgres_database(base, "torneos") as url, ServerProcess(url, log=log) as srv:
        yield srv


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("torneos-browser")
    database = f"sqlite:///{folder / 'fichaflow.sqlite3'}"
    with ServerProcess(database, log=folder / "server.log") as srv:
        yield srv
