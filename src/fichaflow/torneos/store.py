"""The torneos' tables: a torneo's record without its log (settings, entrants, rounds) and the
results log, one row a line, append-only (a correction is one more line: the engine's audit
trail is the log itself).

Every action is one transaction that checks the torneo's ``version`` is the one it started
from and moves it up by one, so two organizers (or two server processes) acting at once never
both write: the second one's transaction changes nothing and it tries again from what is stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Engine, ForeignKey, Integer, String, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from fichaflow.storage import Base

CODE_LENGTH = 32


class TorneoRow(Base):
    """A torneo: ``code`` is the organizer's secret, ``public`` the code of its public pages."""

    __tablename__ = "torneos"

    code: Mapped[str] = mapped_column(String(CODE_LENGTH), primary_key=True)
    public: Mapped[str] = mapped_column(String(CODE_LENGTH), unique=True)
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TorneoResultRow(Base):
    """One line of the results log, numbered from 1 per torneo (the engine's log line)."""

    __tablename__ = "torneo_results"

    torneo: Mapped[str] = mapped_column(ForeignKey("torneos.code"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    line: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True, slots=True)
class Stored:
    code: str
    public: str
    version: int
    record: dict[str, Any]
    """The engine's record (``torneo.model.dump``), its log put back from the log's rows."""


class Conflict(Exception):
    """Someone else changed the torneo since it was read: nothing of this action was written."""


def _now() -> datetime:
    return datetime.now(UTC)


def insert_torneo(engine: Engine, code: str, public: str, record: dict[str, Any]) -> None:
    head = {k: v for k, v in record.items() if k != "log"}
    with engine.begin() as connection:
        connection.execute(
            insert(TorneoRow).values(
                code=code, public=public, record=head, version=0, created_at=_now()
            )
        )


def save(
    engine: Engine, code: str, version: int, record: dict[str, Any], lines: list[dict[str, Any]]
) -> None:
    """One action, in one transaction: the record's head replaced and the new log ``lines``
    appended after the ``len(record["log"]) - len(lines)`` stored ones, if the stored version is
    still ``version``; else :class:`Conflict`, and nothing is written."""
    head = {k: v for k, v in record.items() if k != "log"}
    first = len(record["log"]) - len(lines) + 1
    try:
        with engine.begin() as connection:
            moved = connection.execute(
                update(TorneoRow)
                .where(TorneoRow.code == code, TorneoRow.version == version)
                .values(record=head, version=version + 1)
            )
            if moved.rowcount != 1:
                raise Conflict(code)
            for number, line in enumerate(lines, first):
                connection.execute(
                    insert(TorneoResultRow).values(
                        torneo=code, number=number, line=line, created_at=_now()
                    )
                )
    except IntegrityError:
        raise Conflict(code) from None


def load(engine: Engine, code: str | None = None, public: str | None = None) -> Stored | None:
    """A torneo and its whole log, by the organizer's code or by the public one."""
    with engine.connect() as connection:
        query = select(TorneoRow)
        if code is not None:
            query = query.where(TorneoRow.code == code)
        else:
            query = query.where(TorneoRow.public == public)
        row = connection.execute(query).first()
        if row is None:
            return None
        lines = connection.execute(
            select(TorneoResultRow.line)
            .where(TorneoResultRow.torneo == row.code)
            .order_by(TorneoResultRow.number)
        ).scalars()
        record = {**row.record, "log": list(lines)}
        return Stored(row.code, row.public, row.version, record)


def version_of(engine: Engine, public: str) -> int | None:
    """The version of the torneo with this public code (one small query: what a page that
    follows the standings asks every few seconds)."""
    with engine.connect() as connection:
        found = connection.execute(
            select(TorneoRow.version).where(TorneoRow.public == public)
        ).scalar()
        return None if found is None else int(found)
