"""The database's connection and schema: an engine set up for SQLite or PostgreSQL, the
migrations that bring its schema up to date, and the thread pool the event loop reads through.

The migrations (Alembic, in ``migrations/``) create every service's tables; they are written by
hand as plain DDL, so they import no service's models.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url

T = TypeVar("T")
MIGRATIONS = Path(__file__).parent / "migrations"
CONNECT_TIMEOUT = 5
"""Seconds a new connection to a database server may take before it counts as failed."""
READ_ONLY = "fichaflow_read_only"
"""The execution option that marks a connection of :func:`reading`."""
IDLE_IN_TRANSACTION_MS = 10_000
"""PostgreSQL ends a transaction of ours left idle this long (none is, unless its server is
stopped): its locks would hold up every other server."""


def make_engine(url: str, sqlite_synchronous: str = "FULL") -> Engine:
    """An engine for ``url``; SQLite gets WAL mode, foreign keys, a busy timeout and
    transactions that take the write lock up front, and its folder is created if missing."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        # pre-ping: a connection the database dropped (a restart, an outage) is replaced before
        # use, so the server goes on by itself once the database is back; a connection attempt
        # to a database that does not answer gives up after a few seconds.
        engine = create_engine(
            url,
            pool_size=8,
            max_overflow=4,
            pool_pre_ping=True,
            connect_args={"connect_timeout": CONNECT_TIMEOUT},
        )
        if parsed.get_backend_name() == "postgresql":

            @event.listens_for(engine, "connect")
            def _idle_limit(dbapi_connection: Any, _record: Any) -> None:
                # A server stopped in the middle of a transaction (paused, cut off) must not
                # hold its row locks for ever: the database ends such a transaction.
                cursor = dbapi_connection.cursor()
                cursor.execute(
                    f"SET idle_in_transaction_session_timeout = {IDLE_IN_TRANSACTION_MS}"
                )
                cursor.close()
                dbapi_connection.commit()

        return engine
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        # let SQLAlchemy issue BEGIN itself, so that savepoints work (pysqlite's own
        # transaction handling would get in their way)
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={sqlite_synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        # IMMEDIATE: a transaction takes the write lock when it begins, waiting its turn under
        # the busy timeout. A deferred one that reads first and writes after fails at once with
        # «database is locked» if another connection wrote in between (WAL cannot move its
        # snapshot on), and no busy timeout helps: a move or a sign-up refused for nothing.
        # A transaction that only reads never meets that, and in WAL mode a reader and the
        # writer go on together: it begins deferred, holding no lock.
        read_only = bool(connection.get_execution_options().get(READ_ONLY))
        # A read-only transaction refuses to write (query_only): a write slipped into one would
        # take the lock after all, and fail whenever another connection wrote first. The pragma
        # belongs to the pooled connection, so it is set only when it changes.
        info = connection.connection.info
        if info.get(READ_ONLY, False) != read_only:
            connection.exec_driver_sql(f"PRAGMA query_only = {int(read_only)}")
            info[READ_ONLY] = read_only
        connection.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")

    return engine


@contextmanager
def reading(engine: Engine) -> Iterator[Connection]:
    """A connection for reads only, in one transaction (one snapshot of the database). On SQLite
    it takes no lock: a long read (an export, a torneo's standings) does not hold up the moves
    being stored meanwhile, as a transaction that may write would. The database refuses a write
    in it (SQLite's ``query_only``, PostgreSQL's read-only transaction), so that none slips in."""
    with engine.connect() as connection:
        connection.execution_options(**{READ_ONLY: True})
        if connection.dialect.name == "postgresql":
            connection.execution_options(postgresql_readonly=True)
        yield connection


def in_chunks(items: Sequence[T], size: int) -> Iterator[Sequence[T]]:
    """``items`` a slice of at most ``size`` at a time: a statement's parameters stay within
    what the database takes in one statement."""
    for first in range(0, len(items), size):
        yield items[first : first + size]


MIGRATION_LOCK = 0x46696368  # "Fich": the advisory lock PostgreSQL migrations take


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (creating it on a fresh database)."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Servers of a cluster started together on a fresh database: one migrates, the
            # others wait for it, then find nothing to do (the lock ends with the transaction).
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class Database:
    """The database behind one server, used from the event loop: blocking work on it runs in a
    small pool of threads."""

    def __init__(self, url: str, sqlite_synchronous: str = "FULL") -> None:
        self.url = url
        self.engine = make_engine(url, sqlite_synchronous)
        self._pool = ThreadPoolExecutor(2, thread_name_prefix="fichaflow-db")

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self.engine.dispose()
