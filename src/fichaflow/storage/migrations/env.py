"""Alembic's entry point. The server runs migrations itself at start (see ``storage.migrate``),
handing over its own connection; ``alembic`` from a shell works too with ``sqlalchemy.url`` set.

Revisions are written by hand as plain DDL. The tables are declared by the services above this
layer, which it does not import, so there is no metadata to compare against and Alembic refuses
``--autogenerate`` rather than propose dropping the tables it cannot see."""

from __future__ import annotations

from alembic import context
from sqlalchemy import engine_from_config, pool

config = context.config
target_metadata = None


def run_with(connection: object) -> None:
    context.configure(
        connection=connection,  # type: ignore[arg-type]
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # type: ignore[attr-defined]
    )
    with context.begin_transaction():
        context.run_migrations()


connection = config.attributes.get("connection")
if connection is not None:
    run_with(connection)
else:
    engine = engine_from_config(
        config.get_section(config.config_ini_section, {}),
        prefix="sqlalchemy.",
        poolclass=pool.NullPool,
    )
    with engine.connect() as fresh:
        run_with(fresh)
