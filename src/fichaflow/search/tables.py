"""Look-up tables the search engine reads in its inner loops, built once from the core's tiles
and in-play rules.

Everything is a flat tuple indexed by small integers, so that a playout step is a handful of
index operations on Python ints, with no objects created. The in-play rules are tabulated by
calling :mod:`fichaflow.core.inplay` over every case a playout can meet: a playout cannot afford
a function call per tile or per pass (it cost about 10% of its speed), and a table built from
the rule itself cannot drift from it.
"""

from __future__ import annotations

from typing import Final

from fichaflow.core import inplay
from fichaflow.core.tiles import HALVES, IS_DOUBLE, MAX_HALF, NUM_TILES, PIPS

OTHER: Final[tuple[int, ...]] = tuple(
    (b if a == n else (a if b == n else -1)) for a, b in HALVES for n in range(7)
)
"""``OTHER[tile * 7 + n]``: the half of ``tile`` that shows after laying it on an ``n`` end."""

HI: Final[tuple[int, ...]] = tuple(a for a, _ in HALVES)
LO: Final[tuple[int, ...]] = tuple(b for _, b in HALVES)

LAID: Final[tuple[int, ...]] = tuple(
    (OTHER[t * 7 + left] * 7 + right if side == 0 else left * 7 + OTHER[t * 7 + right])
    if OTHER[t * 7 + (right if side else left)] >= 0
    else -1
    for t in range(NUM_TILES)
    for left in range(7)
    for right in range(7)
    for side in range(2)
)
"""``LAID[(tile * 49 + left * 7 + right) * 2 + side]``: the open ends, as ``left * 7 + right``,
once ``tile`` is laid on the ``side`` end (0 left, 1 right); -1 when it does not fit there."""

LAID_ON_ONE: Final[tuple[int, ...]] = tuple(
    -1 if LAID[at * 2] >= 0 and LAID[at * 2 + 1] >= 0 else max(LAID[at * 2], LAID[at * 2 + 1])
    for at in range(NUM_TILES * 49)
)
"""``LAID_ON_ONE[tile * 49 + left * 7 + right]``: the open ends once ``tile`` is laid on the one end
it fits; -1 when it fits both (the player chooses) or neither."""

PLACED: Final[tuple[dict[int, int], ...]] = tuple(
    {
        1 << t: (
            LAID_ON_ONE[t * 49 + ends]
            if LAID_ON_ONE[t * 49 + ends] >= 0
            else ~((t * 49 + ends) * 2)
        )
        for t in range(NUM_TILES)
        if LAID[(t * 49 + ends) * 2] >= 0 or LAID[(t * 49 + ends) * 2 + 1] >= 0
    }
    for ends in range(49)
)
"""``PLACED[left * 7 + right][1 << tile]``, for each tile that fits these ends: the open ends
once it is laid, as :data:`LAID_ON_ONE` gives them, when it fits one end; when it fits both,
``~at`` with ``at`` the index into :data:`LAID` of its left end (``LAID[at + side]``). Keyed by
the tile's bit, so that a playout never works out the tile's number."""

HALF_BITS: Final = 14


SHED_RANK: Final[tuple[int, ...]] = tuple(
    PIPS[t] + (100 if IS_DOUBLE[t] else 0) for t in range(NUM_TILES)
)
"""The order in which a playout's player sheds its tiles when it does not pick at random: a
double first (it fits only its own number, so it is the hardest to place later), then the
heaviest (the fewest points left in hand should the hand be lost)."""


def _first_to_shed_table(offset: int) -> tuple[int, ...]:
    """For each 14-bit slice of a tile set, the tile of highest :data:`SHED_RANK` in it (the
    highest index among equals), or -1 for none.

    Built from the slice without its lowest tile (a smaller index, already tabled), so that
    importing the engine stays quick."""
    out = [-1] * (1 << HALF_BITS)
    for sub in range(1, 1 << HALF_BITS):
        lowest = sub & -sub
        rest = out[sub ^ lowest]
        t = lowest.bit_length() - 1 + offset
        if t >= NUM_TILES or (rest >= 0 and SHED_RANK[rest] >= SHED_RANK[t]):
            out[sub] = rest
        else:
            out[sub] = t
    return tuple(out)


SHED_LOW: Final = _first_to_shed_table(0)
SHED_HIGH: Final = _first_to_shed_table(HALF_BITS)
LOW_MASK: Final = (1 << HALF_BITS) - 1


def first_to_shed(mask: int) -> int:
    """The tile of a non-empty set that a playout sheds first (:data:`SHED_RANK`; ties: the
    higher tile index)."""
    high = SHED_HIGH[mask >> HALF_BITS]
    low = SHED_LOW[mask & LOW_MASK]
    if high < 0:
        return low
    if low < 0 or SHED_RANK[high] >= SHED_RANK[low]:
        return high
    return low


def _pips_table(offset: int) -> tuple[int, ...]:
    """For each 14-bit slice of a tile set, its pips (built as :func:`_first_to_shed_table` is)."""
    out = [0] * (1 << HALF_BITS)
    for sub in range(1, 1 << HALF_BITS):
        lowest = sub & -sub
        t = lowest.bit_length() - 1 + offset
        out[sub] = out[sub ^ lowest] + (PIPS[t] if t < NUM_TILES else 0)
    return tuple(out)


PIPS_LOW: Final = _pips_table(0)
PIPS_HIGH: Final = _pips_table(HALF_BITS)

NEXT: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple((s + 1) % n for s in range(n)) if n else () for n in range(5)
)
"""``NEXT[seats][seat]``: who plays after ``seat`` at a table of ``seats``."""

MAX_SEATS: Final = 4

_ENDS: Final = tuple((a, b) for a in range(MAX_HALF + 1) for b in range(MAX_HALF + 1))
_TILES: Final = range(NUM_TILES)
_COUNTS: Final = range(2 * NUM_TILES)  # more than any count of tiles placed or passes in a row

KEEPS_OPEN: Final[tuple[int, ...]] = tuple(
    sum(1 << t for t in _TILES if not inplay.tranque(1 << t, a, b)) for a, b in _ENDS
)
"""``KEEPS_OPEN[left * 7 + right]``: the tiles that, while off the line, keep these ends from a
tranque. A tranque is the absence of every such tile: ``not out & KEEPS_OPEN[...]``."""

CAPICUA_TILES: Final[tuple[int, ...]] = tuple(
    sum(1 << t for t in _TILES if inplay.capicua(t, a, b)) for a, b in _ENDS
)
"""``CAPICUA_TILES[left * 7 + right]``: the last tiles that make a dominada on these ends a
capicúa."""

CHUCHAZO_TILES: Final = sum(1 << t for t in _TILES if inplay.chuchazo(t))
"""The last tiles that make a dominada a chuchazo."""

SALIDA_PASADA_OFF: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(
        tuple(
            sum(
                1 << k
                for k in range(NUM_TILES + 1)
                if inplay.salida_pasada(seat, leader, n, NUM_TILES - k)
            )
            for seat in range(n)
        )
        for leader in range(n)
    )
    for n in range(MAX_SEATS + 1)
)
"""``SALIDA_PASADA_OFF[seats][leader][seat]``: when ``seat``'s pass is a salida pasada, by the
count of tiles off the line (bit ``k``: ``k`` tiles are in the hands and the montón); 0 for a
seat whose pass never is one."""

PASE_REDONDO_PASSES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        sum(1 << k for k in _COUNTS if inplay.pase_redondo(run_from, k, n))
        for run_from in range(-1, n)
    )
    for n in range(MAX_SEATS + 1)
)
"""``PASE_REDONDO_PASSES[seats][run_from + 1]``: the counts of passes in a row since ``run_from``
placed a tile (bit ``k``) that complete a pase redondo for them."""
