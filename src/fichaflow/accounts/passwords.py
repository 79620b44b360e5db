"""Passwords, hashed with argon2 through ``pwdlib`` (its recommended settings), never stored or
logged as typed. Hashing takes tens of milliseconds of CPU on purpose, so it runs in a thread,
away from the event loop."""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Final

from pwdlib import PasswordHash

from fichaflow.core.errors import FichaFlowError

PASSWORD_MIN: Final = 8
PASSWORD_MAX: Final = 256
"""Characters: a passphrase fits; a megabyte of text is not hashed."""


@cache
def _hasher() -> PasswordHash:
    return PasswordHash.recommended()


@cache
def _decoy() -> str:
    """A hash to check a password against when the name has no account (or no password), so
    that signing in takes as long whether the name exists or not."""
    return _hasher().hash("fichaflow: no such account")


def check_shape(password: object) -> str:
    """``password`` if it can be one, or a Spanish refusal."""
    if not isinstance(password, str):
        raise FichaFlowError("accounts.field", field="password")
    if len(password) < PASSWORD_MIN:
        raise FichaFlowError("accounts.password_short", min=PASSWORD_MIN)
    if len(password) > PASSWORD_MAX:
        raise FichaFlowError("accounts.password_long", max=PASSWORD_MAX)
    try:
        password.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate, which no keyboard types
        raise FichaFlowError("accounts.password_chars") from None
    return password


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_hasher().hash, password)


async def verify(password: str, stored: str | None) -> bool:
    """True when ``password`` is the one ``stored`` was made from; a missing hash is checked
    against a decoy and is never a match."""
    hashed = stored if stored is not None else _decoy()
    try:
        ok = await asyncio.to_thread(_hasher().verify, password, hashed)
    except UnicodeEncodeError:  # a lone surrogate: no password has one
        return False
    return ok and stored is not None
