"""The one rule for a person's name, in the game and in the anotador alike.

A name is what other people read on the table and in the score sheet, so it must show something:
at least one visible letter or digit, no control characters (NUL included), no invisible
fillers standing in for letters (a lone U+3164 HANGUL FILLER looks like no name at all), and no
tower of combining marks (23 accents stacked on one letter cover the names around it).
:func:`player_name` normalises a name (NFC, fillers read as spaces, spaces trimmed and collapsed)
and either returns it or raises a :class:`FichaFlowError` whose Spanish text says what is wrong.
Pure: no I/O.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from fichaflow.core.errors import FichaFlowError

NAME_MAX: Final = 30
"""A person's name: at most this many characters (code points, after normalising)."""
LABEL_MAX: Final = 60
"""A mesa's or a side's name in the anotador: the same rule, twice as long."""
MARKS_MAX: Final = 3
"""Combining marks in a row on one character. Real names need up to 3 (a Tibetan stack such as
སྒྲོ in Dolma, a pointed Hebrew שָּׁ); more is decoration that spills over the names around it."""

BLANKS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Characters that look like nothing yet are no space: the Hangul fillers (letters by category,
invisible by design) and the blank braille pattern. A name reads them as spaces."""
JOINERS: Final = frozenset("\u200c\u200d")
"""The zero-width non-joiner and joiner: format characters that scripts (Persian, Indic) and
emoji sequences need, so a name may carry them."""
REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
"""Control, format (bidi overrides, zero-width spaces), lone surrogates, private use and
unassigned code points: none shows as itself, so none belongs in a name (the joiners apart)."""


def hidden_char(text: str) -> str | None:
    """The first character of ``text`` that does not show as itself (a control or format
    character, NUL included; the joiners apart), as ``U+0000``; None when there is none. Every
    short text people read (a name, an adjustment's reason) refuses them."""
    for char in text:
        if unicodedata.category(char) in REFUSED_CATEGORIES and char not in JOINERS:
            return f"U+{ord(char):04X}"
    return None


def player_name(text: str, limit: int = NAME_MAX) -> str:
    """``text`` as a name: normalised, or refused with a Spanish error (``name.*``)."""
    spaced = "".join(" " if c in BLANKS else c for c in unicodedata.normalize("NFC", text))
    name = unicodedata.normalize("NFC", " ".join(spaced.split()))
    hidden = hidden_char(name)
    if hidden is not None:
        raise FichaFlowError("name.control", char=hidden)
    if not any(unicodedata.category(c)[0] in "LN" for c in name):
        raise FichaFlowError("name.blank")
    if _longest_mark_run(name) > MARKS_MAX:
        raise FichaFlowError("name.marks", max=MARKS_MAX)
    if len(name) > limit:
        raise FichaFlowError("name.long", name=name[:20], max=limit)
    return name


def _longest_mark_run(text: str) -> int:
    longest = run = 0
    for char in text:
        run = run + 1 if unicodedata.category(char)[0] == "M" else 0
        longest = max(longest, run)
    return longest
