"""The game's database tables (on the shared :class:`~fichaflow.storage.Base`): mesas, the people
at them, seats, partidas, hands and moves.

A partida is stored as what it is made of (rules, each hand's secret seed and leader, each accepted
move in order); scores, views and results are never stored as truth, they are replayed. Natural
keys (mesa code, partida number, hand number, move number) keep every write a plain insert.
Seat tokens are stored only as SHA-256 hashes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from fichaflow.storage import Base

CODE_LENGTH = 32
HASH_LENGTH = 64
NODE_LENGTH = 64
URL_LENGTH = 512


class MesaRow(Base):
    """A table: its join code, rules, options and the number of actions it has accepted."""

    __tablename__ = "mesas"

    code: Mapped[str] = mapped_column(String(CODE_LENGTH), primary_key=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    owner: Mapped[str | None] = mapped_column(String(NODE_LENGTH), nullable=True)
    """The server holding the mesa's lease (None: nobody; see ``server/lease.py``)."""
    fence: Mapped[int] = mapped_column(Integer, default=0)
    """The lease's fencing token: one more each time a server takes the lease."""
    lease_until: Mapped[int] = mapped_column(BigInteger, default=0)
    """Unix time in milliseconds when the lease runs out unless renewed."""


class PersonRow(Base):
    """Someone who joined a mesa: seated, estar parado (queued) or just holding a token."""

    __tablename__ = "people"

    mesa: Mapped[str] = mapped_column(ForeignKey("mesas.code"), primary_key=True)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str] = mapped_column(String(HASH_LENGTH), unique=True)
    is_host: Mapped[bool] = mapped_column(Boolean, default=False)
    queue_pos: Mapped[int | None] = mapped_column(Integer, nullable=True)
    account: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    """The account of a player who joined signed in (None: a guest). Rated partidas need
    every human at the mesa to have one."""


class SeatRow(Base):
    """A chair: the person who owns it, and the bot playing it (a bot chair, or a substitute
    the host put in for an absent person)."""

    __tablename__ = "seats"

    mesa: Mapped[str] = mapped_column(ForeignKey("mesas.code"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    person: Mapped[int | None] = mapped_column(Integer, nullable=True)
    bot: Mapped[str | None] = mapped_column(String(32), nullable=True)


class PartidaRow(Base):
    __tablename__ = "partidas"

    mesa: Mapped[str] = mapped_column(ForeignKey("mesas.code"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[list[Any]] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    time_up: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """Where time was called in a partida played by time: ``{"hand": …, "moves": …}``."""


class HandRow(Base):
    """A hand's secret seed (revealed at its end), the published commitment and the leader."""

    __tablename__ = "hands"

    mesa: Mapped[str] = mapped_column(String(CODE_LENGTH), primary_key=True)
    partida: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seed: Mapped[str] = mapped_column(String(HASH_LENGTH))
    commitment: Mapped[str] = mapped_column(String(HASH_LENGTH))
    leader: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class MoveRow(Base):
    """One accepted move, in record notation (draws are implied, as in records)."""

    __tablename__ = "moves"

    mesa: Mapped[str] = mapped_column(String(CODE_LENGTH), primary_key=True)
    partida: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    hand: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seat: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(String(16))
    timed_out: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class NodeRow(Base):
    """A server of a cluster and the address its peers reach it at: a server that does not hold
    a mesa relays that mesa's requests and WebSockets to the one that does
    (``server/relay.py``)."""

    __tablename__ = "nodes"

    name: Mapped[str] = mapped_column(String(NODE_LENGTH), primary_key=True)
    """As in a mesa's lease (``MesaRow.owner``)."""
    url: Mapped[str] = mapped_column(String(URL_LENGTH))
    """``http://10.0.0.20:8000``: plain HTTP on the private network (``--advertise``)."""
    seen: Mapped[int] = mapped_column(BigInteger, default=0)
    """Unix time in milliseconds when the server last said it was there."""


class ChatReportRow(Base):
    """A saying of the table talk that somebody reported (``report``, docs/protocol.md): the
    words as they were said, who said them and who reported them, for whoever moderates. Talk
    itself is never stored; a report is the one saying kept. A deleted account's reports, made
    or received, go with it (``server/people.py``)."""

    __tablename__ = "chat_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    mesa: Mapped[str] = mapped_column(String(CODE_LENGTH), index=True)
    saying: Mapped[int] = mapped_column(Integer)
    """The saying's ``id`` in the mesa's talk (they start again when the mesa is reloaded)."""
    text: Mapped[str | None] = mapped_column(String(256), nullable=True)
    phrase: Mapped[str | None] = mapped_column(String(32), nullable=True)
    speaker: Mapped[int] = mapped_column(Integer)
    """The person id at the mesa of who said it."""
    speaker_name: Mapped[str] = mapped_column(String(64))
    speaker_role: Mapped[str] = mapped_column(String(8))
    speaker_account: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    reporter: Mapped[int] = mapped_column(Integer)
    reporter_name: Mapped[str] = mapped_column(String(64))
    reporter_account: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    said_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    reported_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatBlockRow(Base):
    """A signed-in player blocked another account in the table talk: the server sends the
    blocker none of that account's words, at any mesa. (A block involving a guest lasts as long
    as the mesa is in memory.) A deleted account's blocks, made or received, go with it."""

    __tablename__ = "chat_blocks"

    blocker: Mapped[str] = mapped_column(String(32), primary_key=True)
    blocked: Mapped[str] = mapped_column(String(32), primary_key=True, index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
