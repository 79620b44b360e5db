"""The game's tables in the shared database (:mod:`fichaflow.storage`, which creates and migrates
it at start): written one transaction per accepted action, read back whole to rebuild a mesa.

Writes go through one writer thread with group commit: the actions waiting when it is free are
written together, each in its own savepoint (its own nested transaction, so that one failing
action fails alone), and made durable by a single commit; only then is each action's caller told
it is committed. Many mesas' moves thus share one disk flush without any being told early.
Reads run on a separate small thread pool. A mesa's actions are serialized by its lock, so each
mesa's writes keep their order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import Future
from datetime import UTC, datetime
from typing import Any, Protocol

from sqlalchemy import (
    Connection,
    Engine,
    Row,
    bindparam,
    delete,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import SQLAlchemyError

from fichaflow.core.errors import FichaFlowError
from fichaflow.server import changes as ch
from fichaflow.server.models import HandRow, MesaRow, MoveRow, PartidaRow, PersonRow, SeatRow
from fichaflow.storage import Database, in_chunks, reading

log = logging.getLogger(__name__)

HOLD_SECONDS = 2.0
"""How long the writer keeps its connection between groups: groups that follow each other
within this skip the pool's checkout and its pre-ping (a round trip each); a longer pause
gives the connection back, and the next group takes one the pool has checked."""
LEASE_SECONDS = 30.0
"""How long a server's hold on a mesa lasts unless renewed (``fichaflow serve --lease-seconds``);
it is renewed every third of that."""


def short_error(exc: BaseException) -> str:
    """An error's first line, for the log (a database that is down fails every few seconds:
    one line each, not a traceback)."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _now() -> datetime:
    return datetime.now(UTC)


class StaleMesa(Exception):
    """The database has moved past the mesa this server holds in memory (an action committed
    without its answer arriving), or another server has taken its lease: this memory of the
    mesa may never commit again."""

    def __init__(self, code: str) -> None:
        super().__init__(f"mesa {code} is behind the database")
        self.code = code


def write(connection: Connection, change: ch.Change) -> None:
    """One change as SQL."""
    match change:
        case ch.NewMesa(code, rules, options):
            connection.execute(
                insert(MesaRow).values(
                    code=code, rules=rules, options=options, version=0, created_at=_now()
                )
            )
        case ch.SetMesa(code, rules, options):
            connection.execute(
                update(MesaRow).where(MesaRow.code == code).values(rules=rules, options=options)
            )
        case ch.SetVersion(code, version, fence):
            done = connection.execute(
                update(MesaRow)
                .where(MesaRow.code == code, MesaRow.version == version - 1, MesaRow.fence == fence)
                .values(version=version)
            )
            if done.rowcount != 1:
                raise StaleMesa(code)
        case ch.SetLease(code, owner, fence, until):
            connection.execute(
                update(MesaRow)
                .where(MesaRow.code == code)
                .values(owner=owner, fence=fence, lease_until=until)
            )
        case ch.NewPerson(mesa, pid, name, token_hash, is_host, account):
            connection.execute(
                insert(PersonRow).values(
                    mesa=mesa,
                    id=pid,
                    name=name,
                    token_hash=token_hash,
                    is_host=is_host,
                    account=account,
                )
            )
        case ch.SetAccount(mesa, pid, account):
            connection.execute(
                update(PersonRow)
                .where(PersonRow.mesa == mesa, PersonRow.id == pid)
                .values(account=account)
            )
        case ch.SetQueue(mesa, people):
            connection.execute(
                update(PersonRow).where(PersonRow.mesa == mesa).values(queue_pos=None)
            )
            for position, pid in enumerate(people):
                connection.execute(
                    update(PersonRow)
                    .where(PersonRow.mesa == mesa, PersonRow.id == pid)
                    .values(queue_pos=position)
                )
        case ch.SetSeat(mesa, seat, person, bot):
            connection.execute(delete(SeatRow).where(SeatRow.mesa == mesa, SeatRow.seat == seat))
            connection.execute(insert(SeatRow).values(mesa=mesa, seat=seat, person=person, bot=bot))
        case ch.NewPartida(mesa, number, rules, players, started):
            at = _now() if started is None else datetime.fromtimestamp(started / 1000, UTC)
            connection.execute(
                insert(PartidaRow).values(
                    mesa=mesa, number=number, rules=rules, players=players, started_at=at
                )
            )
        case ch.CallTime(mesa, partida, hand, moves):
            connection.execute(
                update(PartidaRow)
                .where(PartidaRow.mesa == mesa, PartidaRow.number == partida)
                .values(time_up={"hand": hand, "moves": moves})
            )
        case ch.EndPartida(mesa, number, winner):
            connection.execute(
                update(PartidaRow)
                .where(PartidaRow.mesa == mesa, PartidaRow.number == number)
                .values(winner=winner, finished_at=_now())
            )
        case ch.NewHand(mesa, partida, number, seed, commitment, leader):
            connection.execute(
                insert(HandRow).values(
                    mesa=mesa,
                    partida=partida,
                    number=number,
                    seed=seed,
                    commitment=commitment,
                    leader=leader,
                    started_at=_now(),
                )
            )
        case ch.NewMove(mesa, partida, hand, number, seat, notation, timed_out):
            connection.execute(
                insert(MoveRow).values(
                    mesa=mesa,
                    partida=partida,
                    hand=hand,
                    number=number,
                    seat=seat,
                    notation=notation,
                    timed_out=timed_out,
                    created_at=_now(),
                )
            )


def commit(engine: Engine, changes: Iterable[ch.Change]) -> None:
    """Write an accepted action's changes in one transaction."""
    with engine.begin() as connection:
        for change in changes:
            write(connection, change)


class Outcome(Protocol):
    """Where the writer says how an action went: a :class:`concurrent.futures.Future`, or a
    :class:`Promise` for the event loop."""

    def set_result(self, result: None) -> None: ...

    def set_exception(self, exception: BaseException) -> None: ...


class Promise:
    """An action's outcome for an event loop: the writer thread notes it, and the loop learns
    of its whole group at once (:func:`settle`), one wake-up a group rather than one an action."""

    __slots__ = ("error", "future")

    def __init__(self, future: asyncio.Future[None]) -> None:
        self.future = future
        self.error: BaseException | None = None

    def set_result(self, result: None) -> None:
        pass

    def set_exception(self, exception: BaseException) -> None:
        self.error = exception


def settle(promises: Sequence[Promise]) -> None:
    """On the loop: tell each waiting action how it went (one whose caller gave up is left)."""
    for promise in promises:
        if not promise.future.done():
            if promise.error is None:
                promise.future.set_result(None)
            else:
                promise.future.set_exception(promise.error)


def _tell_loops(group: Sequence[Job]) -> None:
    promises: dict[asyncio.AbstractEventLoop, list[Promise]] = {}
    for _changes, outcome in group:
        if isinstance(outcome, Promise):
            promises.setdefault(outcome.future.get_loop(), []).append(outcome)
    for loop, told in promises.items():
        with contextlib.suppress(RuntimeError):  # (a loop closed meanwhile: nobody waits)
            loop.call_soon_threadsafe(settle, told)


Job = tuple[Sequence[ch.Change], Outcome]


_SET_VERSIONS = (
    update(MesaRow)
    .where(
        MesaRow.code == bindparam("mesa_code"),
        MesaRow.version == bindparam("old_version"),
        MesaRow.fence == bindparam("token"),
    )
    .values(version=bindparam("new_version"), lease_until=bindparam("lease_until"))
)
"""Each mesa's new version, written only where the stored version and fencing token are the
ones its actions started from, and its lease renewed with it (built once: it runs with every
group). :func:`_write_sqlite` states the same condition in SQL of its own (SQLAlchemy's VALUES
names its columns in a way SQLite does not read): a change to one is a change to both."""


def write_many(
    connection: Connection, changes: Sequence[ch.Change], lease_seconds: float = LEASE_SECONDS
) -> None:
    """Many actions' changes at once: moves in one multi-row insert, each mesa's version set
    once to its last value, anything else one by one, in order. Each mesa's version is written
    only where the stored one is what its first action here started from and its lease's
    fencing token is the one the action holds (one statement for all, each row checked as it is
    locked); if any is not, nothing is written (:class:`StaleMesa`). The same statement renews
    the lease of every mesa it writes: a mesa in play never waits on :func:`renew_leases`."""
    moves = [c for c in changes if isinstance(c, ch.NewMove)]
    versions: dict[str, int] = {}
    start: dict[str, tuple[int, int]] = {}
    for c in changes:
        if isinstance(c, ch.SetVersion):
            versions[c.code] = c.version
            start.setdefault(c.code, (c.version - 1, c.fence))
    for change in changes:
        if not isinstance(change, ch.NewMove | ch.SetVersion):
            write(connection, change)
    if connection.dialect.name == "sqlite" and SQLITE_ONE_STATEMENT:
        _write_sqlite(connection, moves, start, versions, lease_seconds)
        return
    if moves:
        now = _now()
        connection.execute(
            insert(MoveRow),
            [
                {
                    "mesa": m.mesa,
                    "partida": m.partida,
                    "hand": m.hand,
                    "number": m.number,
                    "seat": m.seat,
                    "notation": m.notation,
                    "timed_out": m.timed_out,
                    "created_at": now,
                }
                for m in moves
            ],
        )
    if versions:
        until = _ms() + int(lease_seconds * 1000)
        rows = [
            {
                "mesa_code": code,
                "old_version": old,
                "token": fence,
                "new_version": versions[code],
                "lease_until": until,
            }
            for code, (old, fence) in start.items()
        ]
        if connection.execute(_SET_VERSIONS, rows).rowcount != len(rows):
            # One mesa's memory is behind: the one-by-one retry finds which, and fails it alone.
            raise StaleMesa(next(iter(versions)))


SQLITE_ONE_STATEMENT = sqlite3.sqlite_version_info >= (3, 33)
"""Whether this SQLite can set the group's versions in one statement (UPDATE … FROM, 3.33)."""
_SQLITE_ROWS = 100
"""Rows a statement at most: 800 parameters, within the 999 of SQLite's builds before 3.32."""


def _write_sqlite(
    connection: Connection,
    moves: Sequence[ch.NewMove],
    start: dict[str, tuple[int, int]],
    versions: dict[str, int],
    lease_seconds: float,
) -> None:
    """:func:`write_many`'s moves and versions on SQLite, a statement for up to
    ``_SQLITE_ROWS`` rows.

    Python's sqlite3 runs an ``executemany`` a row at a time, letting go of the GIL for each
    row and taking it back after; while the server's event loop is busy, each taking back waits
    for it, so a group of a dozen moves took tens of milliseconds and every move in it waited
    that long for its broadcast. One statement for the group lets go of the GIL once. (The
    PostgreSQL driver sends an ``executemany`` in one round trip: it keeps the general form.)"""
    stamp = _sqlite_stamp(connection)
    for chunk in in_chunks(moves, _SQLITE_ROWS):
        rows: list[Any] = []
        for m in chunk:
            rows += (m.mesa, m.partida, m.hand, m.number, m.seat, m.notation, m.timed_out, stamp)
        connection.exec_driver_sql(
            "INSERT INTO moves (mesa, partida, hand, number, seat, notation, timed_out, "
            f"created_at) VALUES {','.join(['(?,?,?,?,?,?,?,?)'] * len(chunk))}",
            tuple(rows),
        )
    until = _ms() + int(lease_seconds * 1000)
    written = 0
    for codes in in_chunks(list(start), _SQLITE_ROWS):
        expected: list[Any] = [until]
        for code in codes:
            old, fence = start[code]
            expected += (code, old, fence, versions[code])
        # _SET_VERSIONS' condition; a VALUES list's columns are named column1, column2…:
        # here the code, the version the actions started from, their fencing token and the
        # new version
        written += connection.exec_driver_sql(
            "UPDATE mesas SET version = v.column4, lease_until = ? "
            f"FROM (VALUES {','.join(['(?,?,?,?)'] * len(codes))}) AS v "
            "WHERE mesas.code = v.column1 AND mesas.version = v.column2 "
            "AND mesas.fence = v.column3",
            tuple(expected),
        ).rowcount
    if written != len(start):
        raise StaleMesa(next(iter(versions)))


def _sqlite_stamp(connection: Connection) -> Any:
    """Now, as SQLAlchemy stores a ``created_at`` on SQLite (read back by the same type)."""
    kind = MoveRow.__table__.c.created_at.type.dialect_impl(connection.dialect)
    to_sql = kind.bind_processor(connection.dialect)
    return _now() if to_sql is None else to_sql(_now())


def commit_group(
    engine: Engine,
    jobs: Sequence[Job],
    held: Connection | None = None,
    lease_seconds: float = LEASE_SECONDS,
) -> bool:
    """Commit several actions together, then tell each it is durable; False when the first
    try failed (``held``, if given, must then be let go: it may be broken).

    The usual case writes the whole group in one transaction, on ``held`` if given (a
    connection kept from the last group: no checkout, and so no pre-ping round trip). If that
    fails, each action is written again in its own savepoint (its own nested transaction), on a
    connection fresh from the pool (pinged: one the database dropped is replaced), so that an
    action that fails is rolled back alone and only its future gets the error."""
    try:
        if held is None:
            with engine.begin() as connection:
                write_many(connection, _all(jobs), lease_seconds)
        else:
            with held.begin():
                write_many(held, _all(jobs), lease_seconds)
    except Exception:
        _commit_one_by_one(engine, jobs)
        return False
    for _changes, future in jobs:
        future.set_result(None)
    return True


def _all(jobs: Sequence[Job]) -> list[ch.Change]:
    return [c for changes, _future in jobs for c in changes]


def _commit_one_by_one(engine: Engine, jobs: Sequence[Job]) -> None:
    failed: dict[int, BaseException] = {}
    try:
        with engine.begin() as connection:
            for n, (changes, _future) in enumerate(jobs):
                savepoint = connection.begin_nested()
                try:
                    for change in changes:
                        write(connection, change)
                    savepoint.commit()
                except Exception as exc:
                    savepoint.rollback()
                    failed[n] = exc
    except Exception as exc:
        for _changes, future in jobs:
            future.set_exception(exc)
        return
    for n, (_changes, future) in enumerate(jobs):
        if n in failed:
            future.set_exception(failed[n])
        else:
            future.set_result(None)


class Writer:
    """The one thread that writes, committing whatever is waiting as one group."""

    MAX_GROUP = 512

    def __init__(self, engine: Engine, lease_seconds: float = LEASE_SECONDS) -> None:
        self.engine = engine
        self.lease_seconds = lease_seconds
        self._queue: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._loop, name="fichaflow-writer", daemon=True)
        self._thread.start()

    def submit(self, changes: Sequence[ch.Change]) -> Future[None]:
        future: Future[None] = Future()
        self._queue.put((changes, future))
        return future

    async def commit(self, changes: Sequence[ch.Change]) -> None:
        """:meth:`submit` for the event loop: return once ``changes`` are committed."""
        future = asyncio.get_running_loop().create_future()
        self._queue.put((changes, Promise(future)))
        await future

    def _loop(self) -> None:
        held: Connection | None = None  # kept between groups while they come close together
        last = 0.0
        try:
            while True:
                job = self._queue.get()
                if job is None:
                    return
                group = [job]
                while len(group) < self.MAX_GROUP:
                    try:
                        more = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        self._queue.put(None)
                        break
                    group.append(more)
                if held is not None and time.monotonic() - last > HOLD_SECONDS:
                    _let_go(held)
                    held = None
                if held is None:
                    try:
                        held = self.engine.connect()
                    except Exception:
                        held = None  # (the database is away: the group's own tries say so)
                if (
                    not commit_group(self.engine, group, held, self.lease_seconds)
                    and held is not None
                ):
                    _let_go(held)
                    held = None
                _tell_loops(group)
                last = time.monotonic()
        finally:
            if held is not None:
                _let_go(held)

    def close(self) -> None:
        self._queue.put(None)
        self._thread.join(10)


def _let_go(connection: Connection) -> None:
    with contextlib.suppress(Exception):
        connection.close()


def _unix_ms(stamp: datetime) -> float:
    """A stored time as Unix milliseconds (SQLite gives it back without its zone: UTC)."""
    return (stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)).timestamp() * 1000


def _snapshot(connection: Connection, mesa: Row[Any], partida: int | None) -> ch.MesaSnapshot:
    """One mesa with the given partida (its newest by default) ready to replay."""
    code = mesa.code
    people = connection.execute(select(PersonRow).where(PersonRow.mesa == code)).all()
    seats = connection.execute(select(SeatRow).where(SeatRow.mesa == code)).all()
    query = select(PartidaRow).where(PartidaRow.mesa == code)
    if partida is not None:
        query = query.where(PartidaRow.number == partida)
    row = connection.execute(query.order_by(PartidaRow.number.desc()).limit(1)).first()
    partida_snap = None
    hands: list[ch.HandSnapshot] = []
    if row is not None:
        called = row.time_up
        partida_snap = ch.PartidaSnapshot(
            row.number,
            row.rules,
            list(row.players),
            _unix_ms(row.started_at),
            None if called is None else (int(called["hand"]), int(called["moves"])),
        )
        hand_rows = connection.execute(
            select(HandRow)
            .where(HandRow.mesa == code, HandRow.partida == row.number)
            .order_by(HandRow.number)
        ).all()
        moves: dict[int, list[str]] = {}
        last_move: dict[int, datetime] = {}
        for move in connection.execute(
            select(MoveRow.hand, MoveRow.notation, MoveRow.created_at)
            .where(MoveRow.mesa == code, MoveRow.partida == row.number)
            .order_by(MoveRow.hand, MoveRow.number)
        ):
            moves.setdefault(move.hand, []).append(move.notation)
            last_move[move.hand] = move.created_at
        hands = [
            ch.HandSnapshot(
                h.number,
                h.seed,
                h.leader,
                tuple(moves.get(h.number, ())),
                _unix_ms(last_move.get(h.number, h.started_at)),
            )
            for h in hand_rows
        ]
    return ch.MesaSnapshot(
        code=code,
        rules=mesa.rules,
        options=mesa.options,
        version=mesa.version,
        people=tuple(
            ch.PersonSnapshot(p.id, p.name, p.token_hash, p.is_host, p.queue_pos, p.account)
            for p in people
        ),
        seats=tuple(ch.SeatSnapshot(s.seat, s.person, s.bot) for s in seats),
        partida=partida_snap,
        hands=tuple(hands),
    )


def load_mesa(engine: Engine, code: str, partida: int | None = None) -> ch.MesaSnapshot | None:
    with reading(engine) as connection:
        mesa = connection.execute(select(MesaRow).where(MesaRow.code == code)).first()
        return None if mesa is None else _snapshot(connection, mesa, partida)


class MesaElsewhere(Exception):
    """Another server holds this mesa's lease, and it has not run out."""


def _ms() -> int:
    return int(time.time() * 1000)


def take_mesa(
    engine: Engine, code: str, node: str, seconds: float
) -> tuple[ch.MesaSnapshot, int] | None:
    """Take the lease of mesa ``code`` for ``node`` (free, already ``node``'s, or run out) with
    a new fencing token, and read the mesa in the same transaction: its snapshot and the token,
    None if there is no such mesa, :class:`MesaElsewhere` if another server holds it."""
    now = _ms()
    free = or_(MesaRow.owner.is_(None), MesaRow.owner == node, MesaRow.lease_until < now)
    with engine.begin() as connection:
        taken = connection.execute(
            update(MesaRow)
            .where(MesaRow.code == code, free)
            .values(owner=node, fence=MesaRow.fence + 1, lease_until=now + int(seconds * 1000))
        )
        mesa = connection.execute(select(MesaRow).where(MesaRow.code == code)).first()
        if mesa is None:
            return None
        if taken.rowcount != 1:
            raise MesaElsewhere(code)
        return _snapshot(connection, mesa, None), mesa.fence


def renew_leases(engine: Engine, node: str, seconds: float) -> dict[str, int]:
    """Renew every lease ``node`` holds; returns them (mesa code: fencing token).

    A row locked at that moment is skipped, not waited for: it is this server's writer
    committing a move, which renews that lease itself (:func:`write_many`), or another server
    taking a lease that ran out. Waiting would lock the rows in another order than the writer's
    group does, and PostgreSQL breaks such a deadlock only after a second, with every move of
    the group waiting."""
    mine = select(MesaRow.code).where(MesaRow.owner == node).with_for_update(skip_locked=True)
    with engine.begin() as connection:
        connection.execute(
            update(MesaRow)
            .where(MesaRow.code.in_(mine.scalar_subquery()))
            .values(lease_until=_ms() + int(seconds * 1000))
        )
        held = connection.execute(select(MesaRow.code, MesaRow.fence).where(MesaRow.owner == node))
        return {code: fence for code, fence in held}


def release_leases(engine: Engine, node: str, leases: dict[str, int]) -> None:
    """Let go of the leases (mesa code: fencing token) ``node`` still holds with those tokens."""
    if not leases:
        return
    with engine.begin() as connection:
        connection.execute(
            update(MesaRow)
            .where(
                MesaRow.code == bindparam("mesa_code"),
                MesaRow.owner == node,
                MesaRow.fence == bindparam("token"),
            )
            .values(owner=None, lease_until=0),
            [{"mesa_code": code, "token": fence} for code, fence in leases.items()],
        )


class Storage(Database):
    """The game's side of the database: the shared :class:`~fichaflow.storage.Database` with the
    one writer thread for the mesas' actions."""

    def __init__(
        self,
        url: str,
        sqlite_synchronous: str = "FULL",
        node: str = "fichaflow",
        lease_seconds: float = LEASE_SECONDS,
    ) -> None:
        super().__init__(url, sqlite_synchronous)
        self.node = node
        """This server's name in the mesas' leases."""
        self.lease_seconds = lease_seconds
        self._writer = Writer(self.engine, lease_seconds)

    async def commit(self, changes: Sequence[ch.Change]) -> None:
        """Return once ``changes`` are durably committed (raise if they could not be)."""
        await self._writer.commit(changes)

    async def load_mesa(self, code: str, partida: int | None = None) -> ch.MesaSnapshot | None:
        """The mesa ``code`` as stored (None if there is none); ``server.storage`` when the
        database cannot be read."""
        try:
            return await self.run(load_mesa, self.engine, code, partida)
        except SQLAlchemyError as exc:
            log.error("could not read mesa %s: %s", code, short_error(exc))
            raise FichaFlowError("server.storage") from None

    def new_lease(self, code: str) -> ch.SetLease:
        """The lease of a mesa this server is creating (its first token is 1)."""
        return ch.SetLease(code, self.node, 1, _ms() + int(self.lease_seconds * 1000))

    async def take_mesa(self, code: str) -> tuple[ch.MesaSnapshot, int] | None:
        """:func:`take_mesa` for this server: ``server.elsewhere`` when another holds the mesa,
        ``server.storage`` when the database cannot be used."""
        try:
            return await self.run(take_mesa, self.engine, code, self.node, self.lease_seconds)
        except MesaElsewhere:
            raise FichaFlowError("server.elsewhere") from None
        except SQLAlchemyError as exc:
            log.error("could not load mesa %s: %s", code, short_error(exc))
            raise FichaFlowError("server.storage") from None

    async def renew_leases(self) -> dict[str, int]:
        return await self.run(renew_leases, self.engine, self.node, self.lease_seconds)

    async def release_leases(self, leases: dict[str, int]) -> None:
        """Best effort: a lease that cannot be let go runs out by itself."""
        try:
            await self.run(release_leases, self.engine, self.node, leases)
        except SQLAlchemyError as exc:
            log.warning("could not let go of %d leases: %s", len(leases), short_error(exc))

    def close(self) -> None:
        self._writer.close()
        super().close()
