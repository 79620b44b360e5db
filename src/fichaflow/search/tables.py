"""Look-up tables the search engine reads in its inner loops, built once from the core's tiles.

Everything is a flat tuple indexed by small integers, so that a playout step is a handful of
index operations on Python ints, with no objects created.
"""

from __future__ import annotations

from typing import Final

from fichaflow.core.tiles import HALVES, NUM_TILES, PIPS, SUIT

OTHER: Final[tuple[int, ...]] = tuple(
    (b if a == n else (a if b == n else -1)) for a, b in HALVES for n in range(7)
)
"""``OTHER[tile * 7 + n]``: the half of ``tile`` that shows after laying it on an ``n`` end."""

HI: Final[tuple[int, ...]] = tuple(a for a, _ in HALVES)
LO: Final[tuple[int, ...]] = tuple(b for _, b in HALVES)

SUIT_PAIR: Final[tuple[int, ...]] = tuple(SUIT[a] | SUIT[b] for a in range(7) for b in range(7))
"""``SUIT_PAIR[left * 7 + right]``: every tile that fits one of the two open ends."""

HALF_BITS: Final = 14


def _heaviest_table(offset: int) -> tuple[int, ...]:
    """For each 14-bit slice of a tile set, its heaviest tile (highest index among equals)."""
    out = []
    for sub in range(1 << HALF_BITS):
        best, best_pips = -1, -1
        for i in range(HALF_BITS):
            if sub >> i & 1:
                t = i + offset
                if t < NUM_TILES and PIPS[t] >= best_pips:
                    best, best_pips = t, PIPS[t]
        out.append(best)
    return tuple(out)


HEAVY_LOW: Final = _heaviest_table(0)
HEAVY_HIGH: Final = _heaviest_table(HALF_BITS)
LOW_MASK: Final = (1 << HALF_BITS) - 1


def heaviest(mask: int) -> int:
    """The heaviest tile of a non-empty set (ties: the higher tile index)."""
    high = HEAVY_HIGH[mask >> HALF_BITS]
    low = HEAVY_LOW[mask & LOW_MASK]
    if high < 0:
        return low
    if low < 0 or PIPS[high] >= PIPS[low]:
        return high
    return low


def _pips_table(offset: int) -> tuple[int, ...]:
    return tuple(
        sum(PIPS[i + offset] for i in range(HALF_BITS) if sub >> i & 1 and i + offset < NUM_TILES)
        for sub in range(1 << HALF_BITS)
    )


PIPS_LOW: Final = _pips_table(0)
PIPS_HIGH: Final = _pips_table(HALF_BITS)

NEXT: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple((s + 1) % n for s in range(n)) if n else () for n in range(5)
)
"""``NEXT[seats][seat]``: who plays after ``seat`` at a table of ``seats``."""
