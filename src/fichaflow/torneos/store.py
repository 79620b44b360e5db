"""The torneos' tables: a torneo's record without its log (settings, entrants, rounds) and the
results log, one row a line, append-only (a correction is one more line: the engine's audit
trail is the log itself).

Every action is one transaction that checks the torneo's ``version`` is the one it started
from and moves it up by one, so two organizers (or two server processes) acting at once never
both write: the second one's transaction changes nothing and it tries again from what is stored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from fichaflow.storage import Base, reading
from fichaflow.torneo import model

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


class SignupRow(Base):
    """Whether players may register themselves by the torneo's link, and up to how many
    entrants (no row: open, no limit)."""

    __tablename__ = "torneo_signups"

    torneo: Mapped[str] = mapped_column(ForeignKey("torneos.code"), primary_key=True)
    open: Mapped[bool] = mapped_column(Boolean)
    capacity: Mapped[int | None] = mapped_column(Integer, nullable=True)


class AccountRow(Base):
    """The account that registered an entrant by the link (one entrant per account)."""

    __tablename__ = "torneo_accounts"

    torneo: Mapped[str] = mapped_column(ForeignKey("torneos.code"), primary_key=True)
    account: Mapped[str] = mapped_column(String(64), primary_key=True)
    entrant: Mapped[int] = mapped_column(Integer)


class MesaRow(Base):
    """A table played online: its game mesa and the tokens of the mesa's host and of each
    seat (a seat's player reaches theirs by their entrant's key)."""

    __tablename__ = "torneo_mesas"
    __table_args__ = (UniqueConstraint("torneo", "round", "table", name="torneo_mesas_table"),)

    mesa: Mapped[str] = mapped_column(String(CODE_LENGTH), primary_key=True)
    torneo: Mapped[str] = mapped_column(ForeignKey("torneos.code"))
    round: Mapped[int] = mapped_column(Integer)
    table: Mapped[int] = mapped_column(Integer)
    tokens: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SheetRow(Base):
    """A physical table kept in the anotador: its sheet's writing code (``sheet``) and
    read-only one (``watch``), each side's confirmation code, and what each side confirmed
    (the sheet's final score, "100-62"; none until it does)."""

    __tablename__ = "torneo_sheets"
    __table_args__ = (UniqueConstraint("torneo", "round", "table", name="torneo_sheets_table"),)

    sheet: Mapped[str] = mapped_column(String(CODE_LENGTH), primary_key=True)
    watch: Mapped[str] = mapped_column(String(CODE_LENGTH))
    torneo: Mapped[str] = mapped_column(ForeignKey("torneos.code"))
    round: Mapped[int] = mapped_column(Integer)
    table: Mapped[int] = mapped_column(Integer)
    code_a: Mapped[str] = mapped_column(String(CODE_LENGTH))
    code_b: Mapped[str] = mapped_column(String(CODE_LENGTH))
    confirmed_a: Mapped[str | None] = mapped_column(String(CODE_LENGTH), nullable=True)
    confirmed_b: Mapped[str | None] = mapped_column(String(CODE_LENGTH), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True, slots=True)
class Signup:
    open: bool = True
    capacity: int | None = None


@dataclass(frozen=True, slots=True)
class OnlineTable:
    mesa: str
    torneo: str
    round: int
    table: int
    tokens: dict[str, Any]
    """``{"host": token, "seats": [a token per seat], "join_url": the mesa's link}``."""


@dataclass(frozen=True, slots=True)
class Sheet:
    """A torneo table kept in the anotador (:class:`SheetRow`): ``codes`` and ``confirmed``
    by side, ``{"a": …, "b": …}``."""

    sheet: str
    watch: str
    torneo: str
    round: int
    table: int
    codes: dict[str, str]
    confirmed: dict[str, str | None]


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
    engine: Engine,
    code: str,
    version: int,
    record: dict[str, Any],
    lines: list[dict[str, Any]],
    account: tuple[str, int] | None = None,
) -> None:
    """One action, in one transaction: the record's head replaced and the new log ``lines``
    appended after the ``len(record["log"]) - len(lines)`` stored ones, if the stored version is
    still ``version``; else :class:`Conflict`, and nothing is written. ``account`` (account,
    entrant): the account that registered the entrant, kept in the same transaction."""
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
            if account is not None:
                connection.execute(
                    insert(AccountRow).values(torneo=code, account=account[0], entrant=account[1])
                )
    except IntegrityError:
        raise Conflict(code) from None


def load(engine: Engine, code: str | None = None, public: str | None = None) -> Stored | None:
    """A torneo and its whole log, by the organizer's code or by the public one."""
    with reading(engine) as connection:
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
    with reading(engine) as connection:
        found = connection.execute(
            select(TorneoRow.version).where(TorneoRow.public == public)
        ).scalar()
        return None if found is None else int(found)


def signup(engine: Engine, code: str) -> Signup:
    with reading(engine) as connection:
        row = connection.execute(select(SignupRow).where(SignupRow.torneo == code)).first()
        return Signup() if row is None else Signup(row.open, row.capacity)


def set_signup(engine: Engine, code: str, value: Signup) -> None:
    with engine.begin() as connection:
        moved = connection.execute(
            update(SignupRow)
            .where(SignupRow.torneo == code)
            .values(open=value.open, capacity=value.capacity)
        )
        if moved.rowcount != 1:
            connection.execute(
                insert(SignupRow).values(torneo=code, open=value.open, capacity=value.capacity)
            )


def entrant_of_account(engine: Engine, code: str, account: str) -> int | None:
    with reading(engine) as connection:
        found = connection.execute(
            select(AccountRow.entrant).where(
                AccountRow.torneo == code, AccountRow.account == account
            )
        ).scalar()
        return None if found is None else int(found)


def _renamed(head: dict[str, Any], number: int, deleted: str) -> tuple[str, str] | None:
    """The record's entrant ``number`` (registered by a deleted account, whose name it bears)
    with that name made ``deleted``: (old player's name, new one), or None if it is not there.
    A pair's registrant is its first player; a name another entrant has gets its number."""
    entrant = next((e for e in head.get("entrants", []) if e.get("id") == number), None)
    if entrant is None:
        return None
    players = list(entrant.get("players") or [])
    old = players[0] if players else entrant["name"]
    taken = {e["name"].casefold() for e in head["entrants"] if e is not entrant}
    new = deleted
    for attempt in (deleted, f"{deleted} {number}"):
        new = attempt
        name = f"{new} y {players[1]}" if len(players) == 2 else new
        if name.casefold() not in taken:
            break
    if players:
        players[0] = new
        entrant["players"] = players
    entrant["name"] = f"{new} y {players[1]}" if len(players) == 2 else new
    return old, new


RenameAt = Callable[[Connection, str, str, str], None]
"""The game's renaming of the people called a name at one of its mesas (mesa code, old name, new
name), handed in by ``app.py``: the torneos do not import the game."""


RenameSheet = Callable[[Connection, str, Mapping[str, str]], None]
"""The anotador's renaming of names on one of its sheets (writing code, old name -> new name),
handed in by ``app.py``: the torneos do not import the anotador."""


def forget(
    connection: Connection,
    account: str,
    deleted: str,
    rename_at: RenameAt | None = None,
    rename_sheet: RenameSheet | None = None,
) -> None:
    """A deleted account's registrations: each entrant it registered keeps its place and its
    results in the torneo, but the account's name becomes ``deleted`` (the game's «jugador
    borrado»), in the record, in the records of the online partidas its log keeps and, through
    ``rename_at``, at the game's mesas of its online tables and, through ``rename_sheet``, on
    the anotador sheets of its physical tables; the link between the account and the entrant
    goes."""
    links = connection.execute(
        select(AccountRow.torneo, AccountRow.entrant).where(AccountRow.account == account)
    ).all()
    for code, number in links:
        row = connection.execute(
            select(TorneoRow.record, TorneoRow.version).where(TorneoRow.code == code)
        ).first()
        if row is None:
            continue
        head = dict(row.record)
        head["entrants"] = [dict(e) for e in head.get("entrants", [])]
        before = _entrants(head)
        renamed = _renamed(head, int(number), deleted)
        if renamed is None:
            continue
        old, new = renamed
        connection.execute(
            update(TorneoRow)
            .where(TorneoRow.code == code)
            .values(record=head, version=row.version + 1)
        )
        sat = {  # the tables where the entrant sat, by (round, table)
            (r["number"], t["table"]): model.Table(t["table"], tuple(t["a"]), tuple(t["b"]))
            for r in head.get("rounds", [])
            for t in r.get("tables", [])
            if number in (*t.get("a", []), *t.get("b", []))
        }
        mesas = connection.execute(
            select(MesaRow.mesa, MesaRow.round, MesaRow.table).where(MesaRow.torneo == code)
        ).all()
        for mesa, round_number, table in mesas:
            if rename_at is not None and (round_number, table) in sat:
                rename_at(connection, mesa, old, new)
        if rename_sheet is not None:
            _rename_sheets(
                connection, code, before, _entrants(head), int(number), sat, rename_sheet
            )
        lines = connection.execute(
            select(TorneoResultRow.number, TorneoResultRow.line).where(
                TorneoResultRow.torneo == code
            )
        ).all()
        for line_number, line in lines:
            record = line.get("record")
            if not isinstance(record, dict) or old not in record.get("players", []):
                continue
            players = [new if p == old else p for p in record["players"]]
            connection.execute(
                update(TorneoResultRow)
                .where(TorneoResultRow.torneo == code, TorneoResultRow.number == line_number)
                .values(line={**line, "record": {**record, "players": players}})
            )
    connection.execute(delete(AccountRow).where(AccountRow.account == account))


def _entrants(head: dict[str, Any]) -> dict[int, model.Entrant]:
    """The record's entrants by number, as far as the seats' names need them."""
    return {
        int(e["id"]): model.Entrant(int(e["id"]), e["name"], tuple(e.get("players") or ()))
        for e in head.get("entrants", [])
    }


def _rename_sheets(
    connection: Connection,
    code: str,
    before: dict[int, model.Entrant],
    after: dict[int, model.Entrant],
    number: int,
    sat: dict[tuple[int, int], model.Table],
    rename_sheet: RenameSheet,
) -> None:
    """On the anotador sheet of each physical table where entrant ``number`` sat (``sat``), the
    names its seats and its side had before the renaming (``before``) become the ones they have
    now (``after``): each seat's name as the sheet was made with it (:func:`model.sheet_names`,
    a repeated name numbered by its seat) and the pair's name."""
    renames = {before[number].name: after[number].name}
    sheets = connection.execute(
        select(SheetRow.sheet, SheetRow.round, SheetRow.table).where(SheetRow.torneo == code)
    ).all()
    for sheet, round_number, table_number in sheets:
        table = sat.get((round_number, table_number))
        if table is None:
            continue
        was = model.sheet_names(before.__getitem__, table)
        now = model.sheet_names(after.__getitem__, table)
        seats = {old: new for old, new in zip(was, now, strict=True) if old != new}
        rename_sheet(connection, sheet, {**renames, **seats})


def exported(connection: Connection, account: str) -> dict[str, Any]:
    """A signed-in player's registrations, for their account's JSON export (what
    :func:`forget` renames and unlinks): each torneo's public code and name, and the entrant."""
    rows = connection.execute(
        select(TorneoRow.public, TorneoRow.record, AccountRow.entrant)
        .join(AccountRow, AccountRow.torneo == TorneoRow.code)
        .where(AccountRow.account == account)
        .order_by(TorneoRow.created_at)
    ).all()
    registrations = []
    for public, record, number in rows:
        entrant = next((e for e in record.get("entrants", []) if e.get("id") == number), None)
        name = record.get("settings", {}).get("name")
        registrations.append({"torneo": public, "name": name, "entrant": entrant})
    return {"torneos": registrations}


def add_mesa(engine: Engine, table: OnlineTable) -> None:
    """A table's game mesa; :class:`Conflict` if the table has one already."""
    try:
        with engine.begin() as connection:
            connection.execute(
                insert(MesaRow).values(
                    mesa=table.mesa,
                    torneo=table.torneo,
                    round=table.round,
                    table=table.table,
                    tokens=table.tokens,
                    created_at=_now(),
                )
            )
    except IntegrityError:
        raise Conflict(table.torneo) from None


def _online(row: Any) -> OnlineTable:
    return OnlineTable(row.mesa, row.torneo, row.round, row.table, dict(row.tokens))


def mesas_of(engine: Engine, code: str) -> list[OnlineTable]:
    """The torneo's tables played online, by round and table."""
    with reading(engine) as connection:
        rows = connection.execute(
            select(MesaRow).where(MesaRow.torneo == code).order_by(MesaRow.round, MesaRow.table)
        )
        return [_online(row) for row in rows]


def mesa(engine: Engine, code: str) -> OnlineTable | None:
    """The torneo table the game mesa ``code`` is, if any."""
    with reading(engine) as connection:
        row = connection.execute(select(MesaRow).where(MesaRow.mesa == code)).first()
        return None if row is None else _online(row)


def add_sheet(engine: Engine, sheet: Sheet) -> None:
    """A table's anotador sheet; :class:`Conflict` if the table has one already."""
    try:
        with engine.begin() as connection:
            connection.execute(
                insert(SheetRow).values(
                    sheet=sheet.sheet,
                    watch=sheet.watch,
                    torneo=sheet.torneo,
                    round=sheet.round,
                    table=sheet.table,
                    code_a=sheet.codes["a"],
                    code_b=sheet.codes["b"],
                    created_at=_now(),
                )
            )
    except IntegrityError:
        raise Conflict(sheet.torneo) from None


def _sheet(row: Any) -> Sheet:
    return Sheet(
        row.sheet,
        row.watch,
        row.torneo,
        row.round,
        row.table,
        {"a": row.code_a, "b": row.code_b},
        {"a": row.confirmed_a, "b": row.confirmed_b},
    )


def sheets_of(engine: Engine, code: str) -> list[Sheet]:
    """The torneo's tables kept in the anotador, by round and table."""
    with reading(engine) as connection:
        rows = connection.execute(
            select(SheetRow).where(SheetRow.torneo == code).order_by(SheetRow.round, SheetRow.table)
        )
        return [_sheet(row) for row in rows]


def sheet_of(engine: Engine, code: str, round_number: int, table: int) -> Sheet | None:
    with reading(engine) as connection:
        row = connection.execute(
            select(SheetRow).where(
                SheetRow.torneo == code, SheetRow.round == round_number, SheetRow.table == table
            )
        ).first()
        return None if row is None else _sheet(row)


def confirm(engine: Engine, sheet: str, side: str, score: str) -> Sheet | None:
    """Side ``side`` confirms ``score``, in one statement that changes nothing if that side
    had confirmed that score already (then None); else the sheet as it now stands."""
    column = SheetRow.confirmed_a if side == "a" else SheetRow.confirmed_b
    with engine.begin() as connection:
        moved = connection.execute(
            update(SheetRow)
            .where(SheetRow.sheet == sheet, (column.is_(None)) | (column != score))
            .values({column.key: score})
        )
        if moved.rowcount != 1:
            return None
        row = connection.execute(select(SheetRow).where(SheetRow.sheet == sheet)).first()
        return _sheet(row)
