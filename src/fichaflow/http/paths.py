"""What a client puts in an address: a mesa's code and a small whole number, checked before
anything looks them up, so that no text a server never made reaches the database."""

from __future__ import annotations

import string
from typing import Final

CODE_CHARS: Final = frozenset(string.ascii_letters + string.digits + "-_")
"""The alphabet of every code a server makes (``secrets.token_urlsafe``)."""
MAX_CODE_LENGTH: Final = 32
"""The longest code the database holds (game mesas have 12 characters, anotador sheets 16)."""
MAX_DIGITS: Final = 6
"""A partida, a hand, a seat or a sheet's version is a small number."""


def is_code(text: str) -> bool:
    """True when ``text`` could be a code this server made."""
    return 0 < len(text) <= MAX_CODE_LENGTH and set(text) <= CODE_CHARS


def shown_code(text: str) -> str:
    """``text`` as an error may repeat it: cut to a code's length, with every character that is
    not printable (a NUL, a newline) shown as ``?``."""
    return "".join(c if c.isprintable() else "?" for c in text[:MAX_CODE_LENGTH])


def whole_number(text: str) -> int | None:
    """The whole number ``text`` writes in ASCII digits, None unless it has 1 to
    :data:`MAX_DIGITS` of them (``-1``, ``1.5``, ``²`` and a thousand nines are not one)."""
    if text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS:
        return int(text)
    return None
