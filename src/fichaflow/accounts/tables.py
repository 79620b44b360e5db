"""The accounts' tables. Secrets are never stored as they are: a session's token and a recovery
code are kept as their SHA-256 (both are long random strings, so a fast hash is enough), a
password as its argon2 hash (:mod:`.passwords`), a passkey as its public key."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column
from sqlalchemy.sql import false

from fichaflow.storage import Base

ID_LENGTH = 32
HASH_LENGTH = 64
NAME_LENGTH = 64
CREDENTIAL_LENGTH = 1400
"""A passkey's id as base64url: WebAuthn allows ids up to 1023 bytes (1364 characters)."""


class AccountRow(Base):
    """One player's account: the name others read (the game's name rule), and its key for
    signing in (the name folded to lower case, unique)."""

    __tablename__ = "player_accounts"

    id: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    name_key: Mapped[str] = mapped_column(String(NAME_LENGTH * 2), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(256), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    problemas: Mapped[bool] = mapped_column(Boolean, server_default=false())
    """The player allows their partidas to be mined for problemas (off until they say so)."""


class SessionRow(Base):
    """A signed-in browser: the hash of its cookie's token, and the token its page sends back in
    a header with every change (CSRF)."""

    __tablename__ = "account_sessions"

    token_hash: Mapped[str] = mapped_column(String(HASH_LENGTH), primary_key=True)
    account: Mapped[str] = mapped_column(ForeignKey("player_accounts.id"), index=True)
    csrf: Mapped[str] = mapped_column(String(HASH_LENGTH))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RecoveryCodeRow(Base):
    """One of an account's one-time recovery codes, hashed; it is deleted when used."""

    __tablename__ = "account_recovery_codes"

    account: Mapped[str] = mapped_column(ForeignKey("player_accounts.id"), primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(HASH_LENGTH), primary_key=True)


class PasskeyRow(Base):
    """A passkey (WebAuthn credential) of an account: its id, public key and signature count."""

    __tablename__ = "account_passkeys"

    id: Mapped[str] = mapped_column(String(CREDENTIAL_LENGTH), primary_key=True)
    account: Mapped[str] = mapped_column(ForeignKey("player_accounts.id"), index=True)
    public_key: Mapped[bytes] = mapped_column(LargeBinary)
    sign_count: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class LinkedPersonRow(Base):
    """A person of a mesa (the name a guest sat down with) that is this account's: the guest
    who signs up keeps the mesa they sit at, its partidas with it. A person is one account's at
    most."""

    __tablename__ = "account_people"

    mesa: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    person: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    account: Mapped[str] = mapped_column(ForeignKey("player_accounts.id"))
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    linked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChallengeRow(Base):
    """A WebAuthn ceremony under way: the challenge the server sent, for what (``signup``,
    ``signin``, ``add``), with the name being signed up or the account adding a passkey, until
    it expires (seconds since the epoch)."""

    __tablename__ = "account_challenges"

    id: Mapped[str] = mapped_column(String(HASH_LENGTH), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(16))
    challenge: Mapped[str] = mapped_column(String(128))
    name: Mapped[str | None] = mapped_column(String(NAME_LENGTH), nullable=True)
    account: Mapped[str | None] = mapped_column(String(ID_LENGTH), nullable=True)
    expires_at: Mapped[int] = mapped_column(BigInteger, index=True)


class RatingRow(Base):
    """An account's rating at one mode (openskill's mean and uncertainty, ``ratings.model``) and
    how many rated partidas made it. No row: a new player's rating."""

    __tablename__ = "player_ratings"
    __table_args__ = (Index("player_ratings_mode_mu", "mode", "mu"),)

    account: Mapped[str] = mapped_column(ForeignKey("player_accounts.id"), primary_key=True)
    mode: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    partidas: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PlayedRow(Base):
    """A partida an account played signed in: which seat, where its side finished (0: won),
    and for a rated one the shown rating before and after (the rating's history). What else
    happened is in the partida's record, which the game keeps and the profile replays."""

    __tablename__ = "player_partidas"
    __table_args__ = (Index("player_partidas_account_time", "account", "finished_at"),)

    account: Mapped[str] = mapped_column(ForeignKey("player_accounts.id"), primary_key=True)
    mesa: Mapped[str] = mapped_column(String(ID_LENGTH), primary_key=True)
    partida: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seat: Mapped[int] = mapped_column(Integer)
    mode: Mapped[str] = mapped_column(String(16))
    place: Mapped[int] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean)
    before: Mapped[int | None] = mapped_column(Integer, nullable=True)
    after: Mapped[int | None] = mapped_column(Integer, nullable=True)
    provisional: Mapped[bool] = mapped_column(Boolean)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


__all__ = [
    "AccountRow",
    "ChallengeRow",
    "PasskeyRow",
    "PlayedRow",
    "RatingRow",
    "RecoveryCodeRow",
    "SessionRow",
]
