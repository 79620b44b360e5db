"""The anotador's tables: a mesa as it was set up, and its log of actions, append-only.

The sheet is never stored: it is replayed from the log (:func:`fichaflow.anotador.replay`).
Each action row carries the client's idempotency key, unique per mesa, so that an entry sent
twice (a phone that lost the network before hearing back) is stored once. The tables live in
the shared database and are created by its migrations (:mod:`fichaflow.storage`) at start.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import (
    JSON,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from fichaflow.anotador.entries import Action, Change, dump_change, load_change
from fichaflow.anotador.mesa import MesaSetup
from fichaflow.core.names import NAME_MAX
from fichaflow.storage import Base, reading

CODE_LENGTH = 32
KEY_LENGTH = 64


class AnotadorMesaRow(Base):
    """A mesa kept by the anotador: ``code`` is the secret that lets one write, ``watch`` the
    read-only one for the mirones."""

    __tablename__ = "anotador_mesas"

    code: Mapped[str] = mapped_column(String(CODE_LENGTH), primary_key=True)
    watch: Mapped[str] = mapped_column(String(CODE_LENGTH), unique=True)
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class AnotadorActionRow(Base):
    """One accepted action, numbered from 1 per mesa; its number is its id on the sheet."""

    __tablename__ = "anotador_actions"
    __table_args__ = (UniqueConstraint("mesa", "key", name="anotador_actions_key"),)

    mesa: Mapped[str] = mapped_column(ForeignKey("anotador_mesas.code"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    key: Mapped[str] = mapped_column(String(KEY_LENGTH))
    change: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True, slots=True)
class StoredMesa:
    code: str
    watch: str
    mesa: MesaSetup
    actions: tuple[Action, ...]
    keys: tuple[str, ...]


class DuplicateKey(Exception):
    """The idempotency key (or the action's number) was taken meanwhile, by another process."""


def _now() -> datetime:
    return datetime.now(UTC)


def insert_mesa(engine: Engine, code: str, watch: str, mesa: MesaSetup) -> None:
    with engine.begin() as connection:
        connection.execute(
            insert(AnotadorMesaRow).values(
                code=code, watch=watch, setup=mesa.dump(), created_at=_now()
            )
        )


def insert_action(engine: Engine, code: str, number: int, key: str, change: Change) -> None:
    """Append one action in its own transaction; raises :class:`DuplicateKey` if its number or
    key is already stored."""
    try:
        with engine.begin() as connection:
            connection.execute(
                insert(AnotadorActionRow).values(
                    mesa=code,
                    number=number,
                    key=key,
                    change=dump_change(change),
                    created_at=_now(),
                )
            )
    except IntegrityError:
        raise DuplicateKey(key) from None


NAMED: Final = ("players", "queue", "teams")
"""The parts of a mesa's setup that hold names: the seated, the waiting, the sides."""


def rename(connection: Connection, code: str, names: Mapping[str, str]) -> str | None:
    """On the mesa whose writing code is ``code``, each name in ``names`` becomes its value,
    in the caller's transaction: in the setup (seats, queue, sides) and in every queue the log
    set, so the sheet replays as before with the new names (a deleted account's, which a
    torneo's table seated by name). A new name some other person on the sheet has already is
    numbered, «jugador borrado (2)», since a sheet seats nobody twice. Returns the sheet's
    read-only code (None: no such sheet), which names it to other servers without its secret."""
    found = connection.execute(
        select(AnotadorMesaRow.setup, AnotadorMesaRow.watch).where(AnotadorMesaRow.code == code)
    ).first()
    if found is None:
        return None
    setup, watch = found
    logged = connection.execute(
        select(AnotadorActionRow.number, AnotadorActionRow.change).where(
            AnotadorActionRow.mesa == code
        )
    ).all()
    queues = [(number, change) for number, change in logged if change.get("type") == "queue"]
    everyone = [*setup.get("players", []), *setup.get("queue", [])]
    everyone += [name for _, change in queues for name in change.get("queue", [])]
    kept = {name.casefold() for name in everyone if name not in names}
    final = {}
    for old, new in names.items():
        shown, number = new, 1
        while shown.casefold() in kept:
            number += 1
            shown = f"{new[: NAME_MAX - 4].strip()} ({number})"
        final[old] = shown
        kept.add(shown.casefold())
    renamed = {k: [final.get(n, n) for n in setup[k]] for k in NAMED if k in setup}
    connection.execute(
        update(AnotadorMesaRow)
        .where(AnotadorMesaRow.code == code)
        .values(setup={**setup, **renamed})
    )
    for number, change in queues:
        queue = [final.get(n, n) for n in change.get("queue", [])]
        if queue != change.get("queue"):
            connection.execute(
                update(AnotadorActionRow)
                .where(AnotadorActionRow.mesa == code, AnotadorActionRow.number == number)
                .values(change={**change, "queue": queue})
            )
    return str(watch)


def version(engine: Engine, code: str) -> int:
    """How many actions the mesa's log holds as stored now (its sheet's version)."""
    with reading(engine) as connection:
        found = connection.execute(
            select(func.max(AnotadorActionRow.number)).where(AnotadorActionRow.mesa == code)
        ).scalar()
        return int(found or 0)


def load(engine: Engine, code: str | None = None, watch: str | None = None) -> StoredMesa | None:
    """A mesa and its whole log, by its code or by its read-only code."""
    with reading(engine) as connection:
        query = select(AnotadorMesaRow)
        if code is not None:
            query = query.where(AnotadorMesaRow.code == code)
        else:
            query = query.where(AnotadorMesaRow.watch == watch)
        row = connection.execute(query).first()
        if row is None:
            return None
        rows = connection.execute(
            select(AnotadorActionRow)
            .where(AnotadorActionRow.mesa == row.code)
            .order_by(AnotadorActionRow.number)
        ).all()
        actions, keys = [], []
        for action in rows:
            actions.append(Action(str(action.number), load_change(action.change, stored=True)))
            keys.append(action.key)
        return StoredMesa(
            row.code, row.watch, MesaSetup.load(row.setup, stored=True), tuple(actions), tuple(keys)
        )
