"""Problemas mined from the server's own partidas (``fichaflow problemas mine-server``), kept
beside the shipped set: each puzzle with its source partida (mesa code and number), each mined
partida marked (a second run does not solve it again) with the accounts that played it, so that
a player who stops allowing it, or deletes their account, takes its puzzles away
(:func:`forget`). See docs/problemas.md.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Connection, DateTime, Engine, Integer, String, delete, insert, select
from sqlalchemy.orm import Mapped, mapped_column

from fichaflow.problemas import Puzzle
from fichaflow.storage import Base, reading


class MinedPuzzleRow(Base):
    """A puzzle mined from a partida of the server: its JSON (as in ``set.jsonl``)."""

    __tablename__ = "trainer_mined_puzzles"

    puzzle: Mapped[str] = mapped_column(String(64), primary_key=True)
    mesa: Mapped[str] = mapped_column(String(32), index=True)
    partida: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    mined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MinedPartidaRow(Base):
    """A partida of the server already mined, and how many puzzles it gave."""

    __tablename__ = "trainer_mined_partidas"

    mesa: Mapped[str] = mapped_column(String(32), primary_key=True)
    partida: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    made: Mapped[int] = mapped_column(Integer)
    mined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MinedPlayerRow(Base):
    """An account that played a mined partida (its puzzles go with the account's consent)."""

    __tablename__ = "trainer_mined_players"

    mesa: Mapped[str] = mapped_column(String(32), primary_key=True)
    partida: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    account: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)


def mined_partidas(engine: Engine) -> set[tuple[str, int]]:
    """Every partida mined already (mesa code, number)."""
    with reading(engine) as connection:
        rows = connection.execute(select(MinedPartidaRow.mesa, MinedPartidaRow.partida))
        return {(r.mesa, int(r.partida)) for r in rows}


def stored_ids(engine: Engine) -> set[str]:
    with reading(engine) as connection:
        return set(connection.execute(select(MinedPuzzleRow.puzzle)).scalars())


def keep(
    engine: Engine,
    mesa: str,
    partida: int,
    accounts: Iterable[str],
    puzzles: Sequence[Puzzle],
) -> int:
    """One mined partida, in one transaction: its mark, its accounts and its puzzles that are
    not stored yet (an id stored already, from another partida, is left as it is). The answer
    is how many puzzles were added. A partida marked already adds nothing."""
    now = datetime.now(UTC)
    with engine.begin() as connection:
        marked = connection.execute(
            select(MinedPartidaRow.made).where(
                MinedPartidaRow.mesa == mesa, MinedPartidaRow.partida == partida
            )
        ).first()
        if marked is not None:
            return 0
        have = set(
            connection.execute(
                select(MinedPuzzleRow.puzzle).where(
                    MinedPuzzleRow.puzzle.in_([p.id for p in puzzles])
                )
            ).scalars()
        )
        new = [p for p in dict((p.id, p) for p in puzzles).values() if p.id not in have]
        connection.execute(
            insert(MinedPartidaRow).values(mesa=mesa, partida=partida, made=len(new), mined_at=now)
        )
        for account in sorted(set(accounts)):
            connection.execute(
                insert(MinedPlayerRow).values(mesa=mesa, partida=partida, account=account)
            )
        for p in new:
            connection.execute(
                insert(MinedPuzzleRow).values(
                    puzzle=p.id, mesa=mesa, partida=partida, data=p.to_json(), mined_at=now
                )
            )
    return len(new)


def load(engine: Engine, only: Collection[str] | None = None) -> list[Puzzle]:
    """Every stored puzzle (or those of the ids ``only``), oldest first (its JSON read back
    with the same checks as the shipped set's)."""
    query = select(MinedPuzzleRow.data)
    if only is not None:
        query = query.where(MinedPuzzleRow.puzzle.in_(list(only)))
    with reading(engine) as connection:
        rows = connection.execute(
            query.order_by(MinedPuzzleRow.mined_at, MinedPuzzleRow.puzzle)
        ).scalars()
        return [Puzzle.from_json(data) for data in rows]


def forget(connection: Connection, account: str) -> None:
    """The puzzles of every partida the account played, and those partidas' marks (a partida
    whose players all allow it again is mined again): run when the account stops allowing its
    partidas for problemas, and when it is deleted."""
    played = connection.execute(
        select(MinedPlayerRow.mesa, MinedPlayerRow.partida).where(MinedPlayerRow.account == account)
    ).all()
    for mesa, partida in played:
        where = (MinedPuzzleRow.mesa == mesa, MinedPuzzleRow.partida == partida)
        connection.execute(delete(MinedPuzzleRow).where(*where))
        connection.execute(
            delete(MinedPartidaRow).where(
                MinedPartidaRow.mesa == mesa, MinedPartidaRow.partida == partida
            )
        )
        connection.execute(
            delete(MinedPlayerRow).where(
                MinedPlayerRow.mesa == mesa, MinedPlayerRow.partida == partida
            )
        )
