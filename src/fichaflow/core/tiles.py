"""The 28 tiles of the double-six set, as small integers and 28-bit sets.

A tile is an ``int`` from 0 to 27: ``hi * (hi + 1) // 2 + lo`` with ``hi >= lo``, so ``0-0`` is 0
and the cochina (``6-6``) is 27. A set of tiles (a hand, the line, the montón) is an ``int`` whose
bit ``t`` is set when tile ``t`` is in it. Bots search millions of positions, so everything here
is a table look-up or a bit operation.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from fichaflow import i18n
from fichaflow.core.errors import FichaFlowError

NUM_TILES: Final = 28
MAX_HALF: Final = 6
ALL_TILES: Final = (1 << NUM_TILES) - 1
TOTAL_PIPS: Final = 168
"""The pips of the whole set: what no seat, nor all of them together, can hold more of."""


def tile_of(a: int, b: int) -> int:
    """The tile with halves ``a`` and ``b`` (in either order)."""
    hi, lo = (a, b) if a >= b else (b, a)
    return hi * (hi + 1) // 2 + lo


HALVES: Final[tuple[tuple[int, int], ...]] = tuple(
    (hi, lo) for hi in range(MAX_HALF + 1) for lo in range(hi + 1)
)
"""``HALVES[t]`` is ``(hi, lo)`` of tile ``t``."""

PIPS: Final[tuple[int, ...]] = tuple(hi + lo for hi, lo in HALVES)
IS_DOUBLE: Final[tuple[bool, ...]] = tuple(hi == lo for hi, lo in HALVES)
DOUBLES: Final = sum(1 << t for t in range(NUM_TILES) if IS_DOUBLE[t])
SUIT: Final[tuple[int, ...]] = tuple(
    sum(1 << t for t in range(NUM_TILES) if n in HALVES[t]) for n in range(MAX_HALF + 1)
)
"""``SUIT[n]`` is the set of the seven tiles that show the number ``n``."""
SUIT_PAIR: Final[tuple[int, ...]] = tuple(
    SUIT[a] | SUIT[b] for a in range(MAX_HALF + 1) for b in range(MAX_HALF + 1)
)
"""``SUIT_PAIR[a * 7 + b]``: every tile that shows ``a`` or ``b``, so every tile that fits one of
two open ends ``a`` and ``b``."""

COCHINA: Final = tile_of(6, 6)
DOBLE_BLANCO: Final = tile_of(0, 0)


def other_half(tile: int, number: int) -> int:
    """The half of ``tile`` that is not ``number`` (``number`` itself for a double)."""
    hi, lo = HALVES[tile]
    return lo if hi == number else hi


def bits(mask: int) -> Iterator[int]:
    """The tiles of a set, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(tiles: Iterable[int]) -> int:
    """The set holding ``tiles``."""
    mask = 0
    for t in tiles:
        mask |= 1 << t
    return mask


def count(mask: int) -> int:
    """How many tiles a set holds."""
    return mask.bit_count()


def pips_of(mask: int) -> int:
    """The pips of every tile in a set."""
    return sum(PIPS[t] for t in bits(mask))


NAMES: Final[tuple[str, ...]] = tuple(f"{hi}-{lo}" for hi, lo in HALVES)
"""Each tile in record notation (:func:`name`), for loops that write many."""


def name(tile: int) -> str:
    """Record notation, high half first: ``6-4``."""
    return NAMES[tile]


def spoken(tile: int, lang: str = "es") -> str:
    """The accessible name of a tile: ``seis-cuatro`` (``six-four`` in English)."""
    hi, lo = HALVES[tile]
    return f"{i18n.text(f'number.{hi}', lang)}-{i18n.text(f'number.{lo}', lang)}"


def parse_halves(text: str) -> tuple[int, int]:
    """The two halves of ``a-b`` in the order written; a clear error for anything else."""
    parts = text.strip().split("-") if isinstance(text, str) else []
    if len(parts) == 2 and all(len(p) == 1 and p in "0123456789" for p in parts):
        a, b = int(parts[0]), int(parts[1])
        if a <= MAX_HALF and b <= MAX_HALF:
            return a, b
    raise FichaFlowError("tile.invalid", text=str(text))


def parse(text: str) -> int:
    """The tile written ``a-b`` (``6-4`` and ``4-6`` are the same tile)."""
    return tile_of(*parse_halves(text))
