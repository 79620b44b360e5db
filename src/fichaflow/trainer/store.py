"""The trainer's tables: a signed-in player's puzzle rating, each puzzle's rating, and every
attempt (a guest's with no account: its rating stays in the guest's browser, but the puzzle's
moves all the same).

An attempt is one transaction: the puzzle's (and the account's) rating is read, rated with the
attempt and written back, and the attempt appended, so a failure leaves nothing half-written.
The rows read are locked on PostgreSQL (``FOR UPDATE``), so two attempts at one puzzle at once
both count; SQLite has one writer at a time anyway.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import (
    JSON,
    Boolean,
    Connection,
    DateTime,
    Engine,
    Float,
    Integer,
    String,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from fichaflow.ratings.model import NEW_PLAYER, Rating
from fichaflow.storage import Base, reading

HISTORY: Final = 50
"""How many of a player's latest attempts the history shows."""


class TrainerPlayerRow(Base):
    __tablename__ = "trainer_players"

    account: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer)
    streak: Mapped[int] = mapped_column(Integer, server_default="0")
    streak_best: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class TrainerPuzzleRow(Base):
    __tablename__ = "trainer_puzzles"

    puzzle: Mapped[str] = mapped_column(String(64), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer)
    solved: Mapped[int] = mapped_column(Integer)


class TrainerAttemptRow(Base):
    __tablename__ = "trainer_attempts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account: Mapped[str | None] = mapped_column(String(32), nullable=True)
    puzzle: Mapped[str] = mapped_column(String(64))
    moves: Mapped[list[str]] = mapped_column(JSON)
    correct: Mapped[bool] = mapped_column(Boolean)
    cost: Mapped[int] = mapped_column(Integer)
    before: Mapped[int] = mapped_column(Integer)
    after: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True, slots=True)
class Attempt:
    """What one attempt did: the player's rating before and after, the puzzle's after, and the
    player's streak after it (problemas solved in a row; the best one is a signed-in player's
    only: a guest's is their browser's)."""

    player_before: Rating
    player_after: Rating
    puzzle_after: Rating
    streak: int = 0
    streak_best: int | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """A signed-in player's puzzle rating, running streak and best streak."""

    rating: Rating
    streak: int
    streak_best: int


Rate = Callable[[Rating, Rating, bool], tuple[Rating, Rating]]


def _now() -> datetime:
    return datetime.now(UTC)


def player(engine: Engine, account: str) -> Standing:
    """A signed-in player's puzzle rating and streaks (a new player's when none is kept)."""
    with reading(engine) as connection:
        row = connection.execute(
            select(
                TrainerPlayerRow.mu,
                TrainerPlayerRow.sigma,
                TrainerPlayerRow.attempts,
                TrainerPlayerRow.streak,
                TrainerPlayerRow.streak_best,
            ).where(TrainerPlayerRow.account == account)
        ).first()
    if row is None:
        return Standing(NEW_PLAYER, 0, 0)
    rating = Rating(row.mu, row.sigma, row.attempts)
    return Standing(rating, int(row.streak), int(row.streak_best))


def puzzle_ratings(engine: Engine) -> dict[str, Rating]:
    """Every puzzle rated so far (a puzzle never tried has no row: its starting rating)."""
    with reading(engine) as connection:
        rows = connection.execute(
            select(
                TrainerPuzzleRow.puzzle,
                TrainerPuzzleRow.mu,
                TrainerPuzzleRow.sigma,
                TrainerPuzzleRow.attempts,
            )
        )
        return {r.puzzle: Rating(r.mu, r.sigma, r.attempts) for r in rows}


def attempt(
    engine: Engine,
    rate: Rate,
    *,
    account: str | None,
    guest: Rating | None,
    puzzle: str,
    start: Rating,
    moves: Sequence[str],
    solved: bool,
    cost: int,
    guest_streak: int = 0,
) -> Attempt:
    """Rate one finished attempt and keep it. A signed-in player (``account``) is rated from
    their stored rating, and their streak is the stored one, one more for a problema solved,
    back to 0 for one missed (their best is kept); a guest is rated from ``guest`` (what their
    browser sent, already checked), and ``guest_streak`` is their streak after this attempt, as
    their browser counts it. A puzzle with no row yet starts at ``start``."""
    with engine.begin() as connection:
        found = connection.execute(
            select(TrainerPuzzleRow.mu, TrainerPuzzleRow.sigma, TrainerPuzzleRow.attempts)
            .where(TrainerPuzzleRow.puzzle == puzzle)
            .with_for_update()
        ).first()
        puzzle_before = start if found is None else Rating(found.mu, found.sigma, found.attempts)
        kept = None
        if account is not None:
            kept = connection.execute(
                select(
                    TrainerPlayerRow.mu,
                    TrainerPlayerRow.sigma,
                    TrainerPlayerRow.attempts,
                    TrainerPlayerRow.streak,
                    TrainerPlayerRow.streak_best,
                )
                .where(TrainerPlayerRow.account == account)
                .with_for_update()
            ).first()
            before = NEW_PLAYER if kept is None else Rating(kept.mu, kept.sigma, kept.attempts)
            streak = (0 if kept is None else int(kept.streak)) + 1 if solved else 0
            best: int | None = max(streak, 0 if kept is None else int(kept.streak_best))
        else:
            before = guest or NEW_PLAYER
            streak, best = guest_streak, None
        after, puzzle_after = rate(before, puzzle_before, solved)
        values: dict[str, Any] = {
            "mu": puzzle_after.mu,
            "sigma": puzzle_after.sigma,
            "attempts": puzzle_after.partidas,
        }
        if found is None:
            connection.execute(
                insert(TrainerPuzzleRow).values(puzzle=puzzle, solved=int(solved), **values)
            )
        else:
            connection.execute(
                update(TrainerPuzzleRow)
                .where(TrainerPuzzleRow.puzzle == puzzle)
                .values(solved=TrainerPuzzleRow.solved + int(solved), **values)
            )
        if account is not None:
            mine: dict[str, Any] = {
                "mu": after.mu,
                "sigma": after.sigma,
                "attempts": after.partidas,
                "streak": streak,
                "streak_best": best,
                "updated_at": _now(),
            }
            if kept is None:
                connection.execute(insert(TrainerPlayerRow).values(account=account, **mine))
            else:
                connection.execute(
                    update(TrainerPlayerRow)
                    .where(TrainerPlayerRow.account == account)
                    .values(**mine)
                )
        connection.execute(
            insert(TrainerAttemptRow).values(
                account=account,
                puzzle=puzzle,
                moves=list(moves),
                correct=solved,
                cost=cost,
                before=before.shown,
                after=after.shown,
                at=_now(),
            )
        )
    return Attempt(before, after, puzzle_after, streak, best)


def forget(connection: Connection, account: str) -> None:
    """A deleted account's rows: its rating and streaks, and its attempts (the puzzles' ratings
    they moved stay: they are the puzzles', and name nobody)."""
    connection.execute(delete(TrainerAttemptRow).where(TrainerAttemptRow.account == account))
    connection.execute(delete(TrainerPlayerRow).where(TrainerPlayerRow.account == account))


def exported(connection: Connection, account: str) -> dict[str, Any]:
    """A signed-in player's rows, for their account's JSON export (the same rows
    :func:`forget` deletes): their puzzle rating and streaks, and every attempt, oldest first."""
    kept = connection.execute(
        select(TrainerPlayerRow).where(TrainerPlayerRow.account == account)
    ).first()
    attempts = connection.execute(
        select(TrainerAttemptRow)
        .where(TrainerAttemptRow.account == account)
        .order_by(TrainerAttemptRow.id)
    ).all()
    standing = None
    if kept is not None:
        standing = {
            "rating": Rating(kept.mu, kept.sigma, kept.attempts).shown,
            "mu": kept.mu,
            "sigma": kept.sigma,
            "attempts": kept.attempts,
            "streak": kept.streak,
            "streak_best": kept.streak_best,
            "updated_at": _stamp(kept.updated_at),
        }
    return {"problemas": {"player": standing, "attempts": [_attempt_json(a) for a in attempts]}}


def _stamp(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.isoformat(timespec="seconds")


def _attempt_json(row: Any) -> dict[str, Any]:
    """An attempt's row (of ``trainer_attempts``) as the player sees it."""
    return {
        "puzzle": row.puzzle,
        "moves": list(row.moves),
        "correct": bool(row.correct),
        "cost": row.cost,
        "before": row.before,
        "after": row.after,
        "at": _stamp(row.at),
    }


def history(engine: Engine, account: str, limit: int = HISTORY) -> list[dict[str, Any]]:
    """A signed-in player's latest attempts, newest first."""
    with reading(engine) as connection:
        rows = connection.execute(
            select(TrainerAttemptRow)
            .where(TrainerAttemptRow.account == account)
            .order_by(TrainerAttemptRow.id.desc())
            .limit(limit)
        ).all()
        return [_attempt_json(r) for r in rows]
