"""The partidas a server kept that may be mined for problemas (``fichaflow problemas
mine-server``), read from its database: the game's records of them, and who played each.

A finished partida is eligible when every seat of it was either a signed-in player whose account
allows its partidas to be used for problemas *now*, when the miner runs (``player_accounts.
problemas``), or a bot. Consent is read at mining time, not at the partida's: the player's choice
today is the one that counts, and a player who stops allowing it has what was mined from their
partidas taken away (:func:`fichaflow.trainer.mined.forget`), so what is stored always has the
leave of everybody who played it. A seat is a signed-in player's when the accounts kept the
partida for that account and seat (``player_partidas``); it is a bot's only when the mesa's
chair is still a bot's with nobody's person on it, the partida's name for the seat is that bot's
and no person of the mesa goes by it. Anything else (a guest, a chair that changed hands) makes
the partida ineligible: a guest's partida is never used.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, inspect, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from fichaflow.accounts.store import allowing
from fichaflow.accounts.tables import PlayedRow
from fichaflow.cli.app import fail
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.record import Record, parse_record
from fichaflow.server import wire
from fichaflow.server.fairness import verify_record
from fichaflow.server.mesa import Mesa
from fichaflow.server.models import PartidaRow, PersonRow, SeatRow
from fichaflow.server.storage import load_mesa
from fichaflow.storage.database import in_chunks, make_engine, reading

NEEDED = ("partidas", "player_partidas", "trainer_mined_puzzles", "trainer_mined_players")
"""The tables the miner reads and writes: a server's database, migrated by ``fichaflow serve``."""
CHUNK = 500
MINING_LOCK = 0x46_46_6D_69_6E_65
"""The PostgreSQL advisory lock a run holds: one miner at a time on a database, however many
servers of a cluster (or people) start one."""


def open_server_db(url: str) -> Engine:
    """An engine on a server's database, or one clear Spanish line and exit status 2; nothing is
    created or changed (an SQLite file that does not exist is not made, the schema is not
    migrated: that is ``fichaflow serve``'s)."""
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        fail(FichaFlowError("cli.problemas_db_url", url=url[:200]))
    shown = parsed.render_as_string(hide_password=True)
    looked: Engine | None = None
    if parsed.get_backend_name() == "sqlite":
        where = parsed.database or ""
        if not where or where == ":memory:" or not Path(where).is_file():
            fail(FichaFlowError("cli.problemas_db_missing", url=shown))
        # looked at read-only first: a file that is not a server's is left as it was
        path = Path(where).resolve().as_uri().replace("file://", "file:", 1)
        looked = create_engine(
            "sqlite://", creator=lambda: sqlite3.connect(f"{path}?mode=ro", uri=True)
        )
    try:
        engine = looked or make_engine(url)
        tables = set(inspect(engine).get_table_names())
        columns = set()
        if "player_accounts" in tables:
            columns = {c["name"] for c in inspect(engine).get_columns("player_accounts")}
    except (SQLAlchemyError, ImportError) as exc:
        detail = str(getattr(exc, "orig", None) or exc).splitlines()[0][:200]
        fail(FichaFlowError("cli.problemas_db", url=shown, detail=detail))
    if not set(NEEDED) <= tables or "problemas" not in columns:
        engine.dispose()
        fail(FichaFlowError("cli.problemas_db_old", url=shown))
    if looked is not None:
        looked.dispose()
        engine = make_engine(url)
    return engine


@contextmanager
def mining_lock(engine: Engine) -> Iterator[bool]:
    """Whether this run may mine: on PostgreSQL, only while no other run holds the database's
    mining lock (held by this run until it ends, and let go if its process dies); on SQLite,
    always (one server per file)."""
    if engine.dialect.name != "postgresql":
        yield True
        return
    with engine.connect() as connection:
        held = bool(
            connection.execute(
                text("SELECT pg_try_advisory_lock(:key)"), {"key": MINING_LOCK}
            ).scalar_one()
        )
        connection.commit()
        try:
            yield held
        finally:
            if held:
                connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MINING_LOCK})
                connection.commit()


@dataclass
class Eligible:
    """The finished partidas not mined yet that every player allows (mesa code, number, the
    accounts that played it), and how many others were left out."""

    partidas: list[tuple[str, int, list[str]]] = field(default_factory=list)
    skipped: int = 0

    @classmethod
    def read(cls, engine: Engine, done: set[tuple[str, int]]) -> Eligible:
        out = cls()
        with reading(engine) as connection:
            finished = connection.execute(
                select(PartidaRow.mesa, PartidaRow.number, PartidaRow.players)
                .where(PartidaRow.finished_at.is_not(None), PartidaRow.winner.is_not(None))
                .order_by(PartidaRow.mesa, PartidaRow.number)
            ).all()
            todo = [p for p in finished if (p.mesa, int(p.number)) not in done]
            mesas = sorted({p.mesa for p in todo})
            played: dict[tuple[str, int], dict[int, str]] = {}
            chairs: dict[str, dict[int, tuple[int | None, str | None]]] = {}
            names: dict[str, set[str]] = {}
            for some in in_chunks(mesas, CHUNK):
                for row in connection.execute(
                    select(
                        PlayedRow.mesa, PlayedRow.partida, PlayedRow.seat, PlayedRow.account
                    ).where(PlayedRow.mesa.in_(some))
                ):
                    key = (row.mesa, int(row.partida))
                    played.setdefault(key, {})[int(row.seat)] = row.account
                for chair in connection.execute(select(SeatRow).where(SeatRow.mesa.in_(some))):
                    seat = (chair.person, chair.bot)
                    chairs.setdefault(chair.mesa, {})[int(chair.seat)] = seat
                for person in connection.execute(
                    select(PersonRow.mesa, PersonRow.name).where(PersonRow.mesa.in_(some))
                ):
                    names.setdefault(person.mesa, set()).add(person.name)
            accounts = sorted({a for seats in played.values() for a in seats.values()})
            allowed: set[str] = set()
            for some in in_chunks(accounts, CHUNK):
                allowed |= allowing(connection, list(some))
        for p in todo:
            number = int(p.number)
            who = played.get((p.mesa, number), {})
            ok = all(
                who[seat] in allowed
                if seat in who
                else _bot(chairs.get(p.mesa, {}).get(seat), seat, name, names.get(p.mesa, set()))
                for seat, name in enumerate(p.players or [])
            )
            if ok and p.players:
                out.partidas.append((p.mesa, number, sorted(set(who.values()))))
            else:
                out.skipped += 1
        return out


def _bot(
    chair: tuple[int | None, str | None] | None, seat: int, name: Any, people: set[str]
) -> bool:
    """Whether the seat was surely a bot's (see the module's words)."""
    if chair is None or chair[0] is not None or not chair[1]:
        return False
    bot = chair[1]
    return name in (bot, f"{bot} {seat + 1}") and name not in people and bot not in people


def record_of(engine: Engine, mesa: str, number: int) -> Record | None:
    """The game's record of partida ``number`` of ``mesa`` (the record ``fichaflow verify``
    checks), checked as it does; None when it is missing or does not check."""
    snap = load_mesa(engine, mesa, number)
    if snap is None or snap.partida is None or snap.partida.number != number:
        return None
    try:
        record = parse_record(wire.record(Mesa.restore(snap)))
        verify_record(record)
    except FichaFlowError:
        return None
    return record
