"""A real ``fichaflow serve`` process for the accounts' API tests, on SQLite and on PostgreSQL (a
fresh database per run, when ``FICHAFLOW_TEST_POSTGRES_URL`` is set, in the full run: see
``tests.server.kit.POSTGRESQL``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.kit import POSTGRESQL, ServerProcess, database_server


@pytest.fixture(scope="module", params=["sqlite", POSTGRESQL])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("accounts-server")
    with database_server(request.param, folder, "accounts") as srv:
        yield srv
