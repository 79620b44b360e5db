"""Random deals for the search engine: every deal equally likely, in as few Python steps as the
interpreter allows (a random hand is its deal and a playout, and a Fisher–Yates loop that swaps
tiles and then builds the hands' bit sets tile by tile cost nearly as much as the playout).

Each tile is popped from those left at a random place, the loop run by ``map`` rather than by
Python steps, and a hand is the sum of its tiles' bits. With four players and no montón, the third
hand is any seven of the fourteen tiles the first two leave, read from the table of all 3432 ways
to choose them, and the fourth is the rest. A random number ``r`` in [0, 1) becomes the place
``trunc(r * n)``: what ``int`` would give, without the cost of calling ``int``. (Dealing blocks of
tiles at once from larger tables took fewer random numbers and more time.) Figures:
``docs/benchmarks.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from math import trunc
from operator import itemgetter, mul
from typing import Final

from fichaflow.core.rules import HAND_SIZE
from fichaflow.core.tiles import ALL_TILES, NUM_TILES

_BITS: Final = tuple(1 << t for t in range(NUM_TILES))
_COUNTDOWN: Final = tuple(range(NUM_TILES, 1, -1))
_FIRST_HAND: Final = _COUNTDOWN[:HAND_SIZE]
_SECOND_HAND: Final = _COUNTDOWN[HAND_SIZE : 2 * HAND_SIZE]
_SEVEN_OF_FOURTEEN: Final = tuple(
    itemgetter(*places) for places in combinations(range(2 * HAND_SIZE), HAND_SIZE)
)
"""Each way to take seven of fourteen places, as a function that takes them from a list."""
_CHOOSE_7_OF_14: Final = len(_SEVEN_OF_FOURTEEN)


def random_deal(rand: Callable[[], float], seats: int) -> tuple[list[int], list[int]]:
    """A deal of every tile, each deal equally likely: seven tiles to each of ``seats`` (bit
    sets) and the rest as the montón, in drawing order. ``rand`` gives numbers in [0, 1)."""
    dealt = HAND_SIZE * seats
    left = list(_BITS)
    # The counts come first in the zip, so that no random number is drawn past the last one.
    if dealt == NUM_TILES:
        # No montón: the first two hands tile by tile; the third, any seven of the fourteen left,
        # in one step from the table of them; the last, what the others leave.
        pop = left.pop
        first = sum(map(pop, map(trunc, map(mul, _FIRST_HAND, iter(rand, 2.0)))))
        second = sum(map(pop, map(trunc, map(mul, _SECOND_HAND, iter(rand, 2.0)))))
        third = sum(_SEVEN_OF_FOURTEEN[trunc(rand() * _CHOOSE_7_OF_14)](left))
        return [first, second, third, ALL_TILES ^ first ^ second ^ third], []
    order = list(map(left.pop, map(trunc, map(mul, _COUNTDOWN, iter(rand, 2.0)))))
    order.append(left[0])
    hands = [sum(order[i : i + HAND_SIZE]) for i in range(0, dealt, HAND_SIZE)]
    return hands, [bit.bit_length() - 1 for bit in order[dealt:]]


def holder(hands: list[int], tile: int) -> int:
    """The seat holding ``tile``, or -1 when nobody does (it is in the montón)."""
    bit = 1 << tile
    for seat, hand in enumerate(hands):
        if hand & bit:
            return seat
    return -1
