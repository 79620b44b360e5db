"""A real ``fichaflow serve`` process for the anotador's API and browser tests, on SQLite and on
PostgreSQL (a fresh database per run, when ``FICHAFLOW_TEST_POSTGRES_URL`` is set, in the full run:
see ``tests.server.kit.POSTGRESQL``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.kit import POSTGRESQL, ServerProcess, database_server


@pytest.fixture(scope="module", params=["sqlite", POSTGRESQL])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("anotador-server")
    with database_server(request.param, folder, "anotador") as srv:
        yield srv


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("anotador-browser")
    database = f"sqlite:///{folder / 'fichaflow.sqlite3'}"
    with ServerProcess(database, log=folder / "server.log") as srv:
        yield srv
