"""Real servers for the server tests: ``fichaflow serve`` in a subprocess on a free loopback
port, on SQLite and, in the full run when ``FICHAFLOW_TEST_POSTGRES_URL`` is set, on PostgreSQL
(each run in a schema of its own, dropped at the end)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from fichaflow.server.settings import TEST_SEED_ENV
from tests.server.kit import (
    POSTGRES_ENV,
    POSTGRESQL,
    TEST_SEED,
    ServerProcess,
    postgres_schema_url,
)


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Services run inside a test deal and play their bots from the tests' seed, as the test
    servers do (tests.server.kit.ServerProcess): each deal is ``known_deal(seats)``."""
    monkeypatch.setenv(TEST_SEED_ENV, TEST_SEED)


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """A PostgreSQL URL whose search path is a fresh schema, dropped after the module."""
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set: the PostgreSQL server tests need a database URL")
    schema = f"fichaflow_test_{secrets.token_hex(4)}"
    with postgres_schema_url(base, schema) as url:
        yield url


@pytest.fixture(scope="module", params=["sqlite", POSTGRESQL])
def database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A database for one server: a new SQLite file, or the run's PostgreSQL schema."""
    if request.param == "sqlite":
        folder = tmp_path_factory.mktemp("db")
        yield f"sqlite:///{Path(folder) / 'fichaflow.sqlite3'}"
    else:
        yield request.getfixturevalue("postgres_url")


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[ServerProcess]:
    """One server per test module and database, dealing from the tests' seed; each test makes
    mesas of its own."""
    with ServerProcess(database_url, seed=TEST_SEED) as process:
        yield process
