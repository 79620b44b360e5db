"""Where each server of a cluster is: its name (as in the mesas' leases) and the address its
peers reach it at, in the ``nodes`` table; and which server holds a mesa, with its address."""

from __future__ import annotations

import time

from sqlalchemy import Engine, insert, select, update

from fichaflow.server.models import MesaRow, NodeRow
from fichaflow.storage import reading


def _ms() -> int:
    return int(time.time() * 1000)


def register(engine: Engine, name: str, url: str) -> None:
    """Say that server ``name`` is reached at ``url`` (and is there now)."""
    with engine.begin() as connection:
        done = connection.execute(
            update(NodeRow).where(NodeRow.name == name).values(url=url, seen=_ms())
        )
        if done.rowcount == 0:
            connection.execute(insert(NodeRow).values(name=name, url=url, seen=_ms()))


def holder(engine: Engine, code: str, me: str) -> str | None:
    """The address of the server holding mesa ``code``'s lease, if another than ``me`` holds it
    and it has not run out (None otherwise: free, run out, ours, unknown, or no address)."""
    with reading(engine) as connection:
        row = connection.execute(
            select(NodeRow.url)
            .join(MesaRow, MesaRow.owner == NodeRow.name)
            .where(MesaRow.code == code, MesaRow.owner != me, MesaRow.lease_until >= _ms())
        ).first()
    return None if row is None else str(row[0])
