"""What the accounts keep in the database, one transaction per function (each runs in the
database's thread pool, :meth:`fichaflow.storage.Database.run`). A function either does all it
says or nothing: a refused request leaves no half-written row."""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final, cast

from sqlalchemy import Connection, Engine, Table, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from fichaflow.accounts import players
from fichaflow.accounts.tables import (
    AccountRow,
    ChallengeRow,
    LinkedPersonRow,
    PasskeyRow,
    RecoveryCodeRow,
    SessionRow,
)
from fichaflow.storage import reading

SESSION_DAYS: Final = 30
RECOVERY_CODES: Final = 10
RECOVERY_ALPHABET: Final = "abcdefghjkmnpqrstuvwxyz23456789"
"""Letters and digits that cannot be taken for one another (no i, l, o, 0, 1)."""
CHALLENGE_SECONDS: Final = 300

ACCOUNTS = cast(Table, AccountRow.__table__)
SESSIONS = cast(Table, SessionRow.__table__)
CODES = cast(Table, RecoveryCodeRow.__table__)
PASSKEYS = cast(Table, PasskeyRow.__table__)
CHALLENGES = cast(Table, ChallengeRow.__table__)
LINKS = cast(Table, LinkedPersonRow.__table__)


class NameTaken(Exception):
    """Another account has this name (as folded for signing in)."""


@dataclass(frozen=True, slots=True)
class Account:
    id: str
    name: str
    password_hash: str | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class Session:
    account: Account
    token_hash: str
    csrf: str


@dataclass(frozen=True, slots=True)
class NewSession:
    """A session just opened: the token goes in the cookie and is never seen again."""

    token: str
    csrf: str


@dataclass(frozen=True, slots=True)
class Challenge:
    id: str
    purpose: str
    challenge: str
    name: str | None
    account: str | None


@dataclass(frozen=True, slots=True)
class Passkey:
    id: str
    account: str
    public_key: bytes
    sign_count: int


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def name_key(name: str) -> str:
    """How a name is looked up when signing in: case and accents as typed do not matter for
    case (``Ana`` and ``ana`` are one account), accents do (``Ángel`` is not ``Angel``)."""
    return name.casefold()


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    # SQLite gives back naive datetimes for what was stored in UTC
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _account(row: Any) -> Account:
    return Account(row.id, row.name, row.password_hash, _aware(row.created_at))


def new_recovery_codes() -> list[str]:
    """Ten codes such as ``k7m2p-q9xrt``: 50 bits each, easy to copy by hand."""
    pick = secrets.choice
    return [
        "-".join("".join(pick(RECOVERY_ALPHABET) for _ in range(5)) for _ in range(2))
        for _ in range(RECOVERY_CODES)
    ]


def normal_code(code: str) -> str:
    """A recovery code as typed: spaces gone, lower case, the dash where it belongs."""
    plain = "".join(c for c in code.lower() if c in RECOVERY_ALPHABET)
    return f"{plain[:5]}-{plain[5:]}" if len(plain) == 10 else plain


def _open_session(connection: Connection, account: str) -> NewSession:
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    now = _now()
    # Expired sessions are refused already; each sign-in also clears them away, so the table
    # holds only live sessions (as new challenges do for old ones).
    connection.execute(delete(SESSIONS).where(SESSIONS.c.expires_at <= now))
    connection.execute(
        insert(SESSIONS).values(
            token_hash=digest(token),
            account=account,
            csrf=csrf,
            created_at=now,
            expires_at=now + timedelta(days=SESSION_DAYS),
        )
    )
    return NewSession(token, csrf)


def _store_codes(connection: Connection, account: str, codes: list[str]) -> None:
    connection.execute(delete(CODES).where(CODES.c.account == account))
    connection.execute(insert(CODES), [{"account": account, "code_hash": digest(c)} for c in codes])


def create_account(
    engine: Engine,
    name: str,
    password_hash: str | None,
    codes: list[str],
    passkey: Passkey | None = None,
    challenge: str | None = None,
) -> tuple[Account, NewSession]:
    """A new account (with its first passkey, if any, whose ``challenge`` is then used up), its
    recovery codes and a first session. Raises :class:`NameTaken`."""
    account = Account(passkey.account if passkey else _new_id(), name, password_hash, _now())
    try:
        with engine.begin() as connection:
            connection.execute(
                insert(ACCOUNTS).values(
                    id=account.id,
                    name=name,
                    name_key=name_key(name),
                    password_hash=password_hash,
                    created_at=account.created_at,
                )
            )
            if passkey is not None:
                _insert_passkey(connection, passkey)
            if challenge is not None:
                _use_challenge(connection, challenge)
            _store_codes(connection, account.id, codes)
            session = _open_session(connection, account.id)
    except IntegrityError:
        raise NameTaken(name) from None
    return account, session


def _new_id() -> str:
    return secrets.token_urlsafe(18)


def new_account_id() -> str:
    return _new_id()


def find_by_name(engine: Engine, name: str) -> Account | None:
    with reading(engine) as connection:
        row = connection.execute(
            select(ACCOUNTS).where(ACCOUNTS.c.name_key == name_key(name))
        ).first()
    return _account(row) if row is not None else None


def account(engine: Engine, account_id: str) -> Account:
    with reading(engine) as connection:
        row = connection.execute(select(ACCOUNTS).where(ACCOUNTS.c.id == account_id)).one()
    return _account(row)


def sign_in(engine: Engine, account: str) -> NewSession:
    with engine.begin() as connection:
        return _open_session(connection, account)


def session(engine: Engine, token: str) -> Session | None:
    """The live session whose cookie carries ``token``, with its account."""
    with reading(engine) as connection:
        row = connection.execute(
            select(SESSIONS, ACCOUNTS)
            .join(ACCOUNTS, ACCOUNTS.c.id == SESSIONS.c.account)
            .where(SESSIONS.c.token_hash == digest(token))
        ).first()
    if row is None or _aware(row.expires_at) <= _now():
        return None
    return Session(_account(row), row.token_hash, row.csrf)


def sign_out(engine: Engine, token_hash: str) -> None:
    with engine.begin() as connection:
        connection.execute(delete(SESSIONS).where(SESSIONS.c.token_hash == token_hash))


def sign_out_everywhere(engine: Engine, account: str) -> int:
    """Every session of the account ends; returns how many there were."""
    with engine.begin() as connection:
        return connection.execute(delete(SESSIONS).where(SESSIONS.c.account == account)).rowcount


def replace_recovery_codes(engine: Engine, account: str, codes: list[str]) -> None:
    with engine.begin() as connection:
        _store_codes(connection, account, codes)


def codes_left(engine: Engine, account: str) -> int:
    with reading(engine) as connection:
        count = connection.execute(
            select(func.count()).select_from(CODES).where(CODES.c.account == account)
        ).scalar_one()
    return int(count)


def recover(
    engine: Engine, account: str, code: str, password_hash: str | None
) -> NewSession | None:
    """Use up one recovery code: the account's other sessions end, its password becomes
    ``password_hash`` (when given) and a new session opens. None when the code is not one of
    the account's (nothing changes)."""
    with engine.begin() as connection:
        used = connection.execute(
            delete(CODES).where(CODES.c.account == account, CODES.c.code_hash == digest(code))
        ).rowcount
        if used != 1:
            return None  # nothing was deleted
        connection.execute(delete(SESSIONS).where(SESSIONS.c.account == account))
        if password_hash is not None:
            connection.execute(
                update(ACCOUNTS).where(ACCOUNTS.c.id == account).values(password_hash=password_hash)
            )
        return _open_session(connection, account)


def problemas_allowed(engine: Engine, account: str) -> bool:
    """Whether the player allows their partidas to be used for problemas."""
    with reading(engine) as connection:
        found = connection.execute(
            select(ACCOUNTS.c.problemas).where(ACCOUNTS.c.id == account)
        ).scalar()
        return bool(found)


def allow_problemas(
    engine: Engine, account: str, allowed: bool, also: Sequence[Forget] = ()
) -> None:
    """Set whether the player allows their partidas to be used for problemas; when they stop,
    ``also`` (the trainer's) takes away what was mined from them, in the same transaction."""
    with engine.begin() as connection:
        connection.execute(
            update(ACCOUNTS).where(ACCOUNTS.c.id == account).values(problemas=allowed)
        )
        if not allowed:
            for forget in also:
                forget(connection, account)


def allowing(connection: Connection, accounts: Sequence[str]) -> set[str]:
    """Of ``accounts``, those that allow their partidas to be used for problemas."""
    rows = connection.execute(
        select(ACCOUNTS.c.id).where(ACCOUNTS.c.id.in_(list(accounts)), ACCOUNTS.c.problemas)
    )
    return set(rows.scalars())


def set_password(engine: Engine, account: str, password_hash: str) -> None:
    with engine.begin() as connection:
        connection.execute(
            update(ACCOUNTS).where(ACCOUNTS.c.id == account).values(password_hash=password_hash)
        )


# Passkeys and their ceremonies


def _insert_passkey(connection: Connection, passkey: Passkey) -> None:
    connection.execute(
        insert(PASSKEYS).values(
            id=passkey.id,
            account=passkey.account,
            public_key=passkey.public_key,
            sign_count=passkey.sign_count,
            created_at=_now(),
        )
    )


def _use_challenge(connection: Connection, challenge: str) -> None:
    connection.execute(delete(CHALLENGES).where(CHALLENGES.c.id == challenge))


def add_passkey(engine: Engine, passkey: Passkey, challenge: str) -> bool:
    """Store a new passkey of an account and use up its challenge; False when that passkey was
    already stored (nothing changes)."""
    try:
        with engine.begin() as connection:
            _insert_passkey(connection, passkey)
            _use_challenge(connection, challenge)
    except IntegrityError:
        return False
    return True


def passkey(engine: Engine, credential_id: str) -> Passkey | None:
    with reading(engine) as connection:
        row = connection.execute(select(PASSKEYS).where(PASSKEYS.c.id == credential_id)).first()
    if row is None:
        return None
    return Passkey(row.id, row.account, bytes(row.public_key), int(row.sign_count))


def passkey_ids(engine: Engine, account: str) -> list[str]:
    with reading(engine) as connection:
        rows = connection.execute(select(PASSKEYS.c.id).where(PASSKEYS.c.account == account))
        return [row.id for row in rows]


def passkey_sign_in(engine: Engine, key: Passkey, sign_count: int, challenge: str) -> NewSession:
    """The passkey signed the challenge: note its new count, use the challenge up, open a
    session."""
    with engine.begin() as connection:
        connection.execute(
            update(PASSKEYS)
            .where(PASSKEYS.c.id == key.id)
            .values(sign_count=sign_count, last_used_at=_now())
        )
        _use_challenge(connection, challenge)
        return _open_session(connection, key.account)


def new_challenge(
    engine: Engine, purpose: str, challenge: str, name: str | None, account: str | None
) -> str:
    """Keep a ceremony's challenge for :data:`CHALLENGE_SECONDS`; those run out are dropped."""
    now = int(time.time())
    key = secrets.token_urlsafe(24)
    with engine.begin() as connection:
        connection.execute(delete(CHALLENGES).where(CHALLENGES.c.expires_at <= now))
        connection.execute(
            insert(CHALLENGES).values(
                id=key,
                purpose=purpose,
                challenge=challenge,
                name=name,
                account=account,
                expires_at=now + CHALLENGE_SECONDS,
            )
        )
    return key


def challenge(engine: Engine, key: str, purpose: str) -> Challenge | None:
    """The live challenge ``key`` of a ceremony for ``purpose``."""
    with reading(engine) as connection:
        row = connection.execute(
            select(CHALLENGES).where(
                CHALLENGES.c.id == key,
                CHALLENGES.c.purpose == purpose,
                CHALLENGES.c.expires_at > int(time.time()),
            )
        ).first()
    if row is None:
        return None
    return Challenge(row.id, row.purpose, row.challenge, row.name, row.account)


# The mesas an account keeps


def link_person(engine: Engine, account: str, mesa: str, person: int, name: str) -> bool:
    """The person ``person`` of mesa ``mesa`` is now the account's (again: no change); False
    when it is another account's."""
    with engine.begin() as connection:
        owner = connection.execute(
            select(LINKS.c.account).where(LINKS.c.mesa == mesa, LINKS.c.person == person)
        ).scalar()
        if owner is not None:
            return bool(owner == account)
        try:
            with connection.begin_nested():
                connection.execute(
                    insert(LINKS).values(
                        mesa=mesa, person=person, account=account, name=name, linked_at=_now()
                    )
                )
        except IntegrityError:  # another request linked it meanwhile
            return False
    return True


def linked(engine: Engine, account: str) -> list[dict[str, Any]]:
    with reading(engine) as connection:
        rows = connection.execute(
            select(LINKS).where(LINKS.c.account == account).order_by(LINKS.c.linked_at)
        ).all()
    return [
        {"mesa": r.mesa, "person": r.person, "name": r.name, "linked_at": _stamp(r.linked_at)}
        for r in rows
    ]


# The player's own data


Export = Callable[[Connection, str], Mapping[str, Any]]
"""Another service's rows of an account for its JSON export, under that service's own keys
(the trainer's, the table talk's; handed in by ``app.py`` beside their :data:`Forget`)."""


def export(
    engine: Engine, account: Account, current: str, also: Sequence[Export] = ()
) -> dict[str, Any]:
    """Everything kept about the player, secrets apart (no hash of a password, token or code is
    of any use to the player, and each would help a thief): the accounts' rows, the ratings and
    partidas, and every other service's rows (``also``), read in one transaction."""
    with reading(engine) as connection:
        more: dict[str, Any] = players.exported(connection, account.id)
        for rows in also:
            more.update(rows(connection, account.id))
        keys = connection.execute(
            select(PASSKEYS.c.id, PASSKEYS.c.created_at, PASSKEYS.c.last_used_at)
            .where(PASSKEYS.c.account == account.id)
            .order_by(PASSKEYS.c.created_at)
        ).all()
        sessions = connection.execute(
            select(SESSIONS.c.token_hash, SESSIONS.c.created_at, SESSIONS.c.expires_at)
            .where(SESSIONS.c.account == account.id)
            .order_by(SESSIONS.c.created_at)
        ).all()
        left = connection.execute(
            select(func.count()).select_from(CODES).where(CODES.c.account == account.id)
        ).scalar_one()
        allowed = connection.execute(
            select(ACCOUNTS.c.problemas).where(ACCOUNTS.c.id == account.id)
        ).scalar()
    stamp = _stamp
    return {
        "format": "fichaflow-account",
        "version": 1,
        "exported_at": stamp(_now()),
        "account": {
            "id": account.id,
            "name": account.name,
            "created_at": stamp(account.created_at),
            "password": account.password_hash is not None,
            "problemas_allowed": bool(allowed),
        },
        "passkeys": [
            {
                "id": k.id,
                "created_at": stamp(k.created_at),
                "last_used_at": stamp(k.last_used_at) if k.last_used_at else None,
            }
            for k in keys
        ],
        "sessions": [
            {
                "created_at": stamp(s.created_at),
                "expires_at": stamp(s.expires_at),
                "this_one": s.token_hash == current,
            }
            for s in sessions
        ],
        "recovery_codes_left": int(left),
        "mesas": linked(engine, account.id),
        **more,
    }


def _stamp(moment: datetime) -> str:
    return _aware(moment).isoformat(timespec="seconds")


Forget = Callable[[Connection, str], None]
"""Another service's rows of an account, deleted in the same transaction as the account (the
trainer's, handed in by ``app.py``: the services do not import each other)."""


def delete_account(
    engine: Engine, account: str, also: Sequence[Forget] = ()
) -> list[tuple[str, int]]:
    """The account and everything of it: sessions, recovery codes, passkeys, ceremonies, its
    ratings and partidas, the other services' rows (``also``), and its links to mesas' people,
    which it returns (mesa code, person id)."""
    with engine.begin() as connection:
        people = [
            (row.mesa, int(row.person))
            for row in connection.execute(
                select(LINKS.c.mesa, LINKS.c.person).where(LINKS.c.account == account)
            )
        ]
        connection.execute(delete(SESSIONS).where(SESSIONS.c.account == account))
        connection.execute(delete(CODES).where(CODES.c.account == account))
        connection.execute(delete(PASSKEYS).where(PASSKEYS.c.account == account))
        connection.execute(delete(CHALLENGES).where(CHALLENGES.c.account == account))
        connection.execute(delete(LINKS).where(LINKS.c.account == account))
        players.forget(connection, account)
        for forget in also:
            forget(connection, account)
        connection.execute(delete(ACCOUNTS).where(ACCOUNTS.c.id == account))
    return people
