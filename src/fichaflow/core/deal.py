"""Dealing: a shuffle anyone can recompute from its seed, and the sorteo for the first salida.

The shuffle is Fisher–Yates driven by SHA-256 in counter mode (``sha256(seed || counter)``, read
as big-endian 32-bit numbers, with rejection so that every order is equally likely). It is
written out in ``docs/records.md`` so that a browser or another program can check a deal from the
seed a server reveals. Python's own ``random`` is not used: its algorithm is not a published
contract.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from fichaflow.core.errors import RecordError
from fichaflow.core.rules import HAND_SIZE, Rules
from fichaflow.core.tiles import ALL_TILES, IS_DOUBLE, NUM_TILES, PIPS, bits, mask_of, name


class SeedStream:
    """Uniform whole numbers drawn from SHA-256 of the seed and a block counter."""

    def __init__(self, seed: bytes) -> None:
        self._seed = seed
        self._counter = 0
        self._buffer = b""

    def _word(self) -> int:
        if len(self._buffer) < 4:
            block = hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._buffer += block
        word, self._buffer = self._buffer[:4], self._buffer[4:]
        return int.from_bytes(word, "big")

    def below(self, n: int) -> int:
        """A whole number in ``0 .. n-1``, each equally likely."""
        limit = (1 << 32) - (1 << 32) % n
        while True:
            word = self._word()
            if word < limit:
                return word % n


def commitment(seed: str) -> str:
    """The promise published before a deal: SHA-256 of the seed's text, in hexadecimal. The
    seed is revealed afterwards, and anybody checks it against this (``docs/records.md``)."""
    return hashlib.sha256(seed.encode()).hexdigest()


def _seed_bytes(seed: bytes | str) -> bytes:
    return seed.encode() if isinstance(seed, str) else seed


def shuffle(seed: bytes | str) -> list[int]:
    """The 28 tiles in the order the seed shuffles them."""
    stream = SeedStream(_seed_bytes(seed))
    tiles = list(range(NUM_TILES))
    for i in range(NUM_TILES - 1, 0, -1):
        j = stream.below(i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return tiles


@dataclass(frozen=True, slots=True)
class Deal:
    """Each seat's seven tiles (as bit sets) and the montón in drawing order."""

    hands: tuple[int, ...]
    stock: tuple[int, ...] = ()

    @classmethod
    def from_seed(cls, seats: int, seed: bytes | str) -> Deal:
        """Seat ``i`` takes shuffled tiles ``7i .. 7i+6``; what is left is the montón, in order."""
        order = shuffle(seed)
        hands = tuple(mask_of(order[HAND_SIZE * i : HAND_SIZE * (i + 1)]) for i in range(seats))
        return cls(hands, tuple(order[HAND_SIZE * seats :]))

    @classmethod
    def from_lists(cls, hands: Sequence[Sequence[int]], stock: Sequence[int] = ()) -> Deal:
        return cls(tuple(mask_of(h) for h in hands), tuple(stock))

    def check(self, rules: Rules) -> None:
        """Raise a RecordError unless this is a whole, fair deal for ``rules``."""
        if len(self.hands) != rules.seats:
            raise RecordError("deal.seats", found=len(self.hands), seats=rules.seats)
        for seat, hand in enumerate(self.hands):
            if hand.bit_count() != HAND_SIZE:
                raise RecordError("deal.hand_size", seat=seat, found=hand.bit_count())
        if len(self.stock) != rules.stock_size:
            raise RecordError("deal.stock_size", found=len(self.stock), size=rules.stock_size)
        seen = 0
        for mask in (*self.hands, *(1 << t for t in self.stock)):
            if seen & mask:
                raise RecordError("deal.duplicate", tile=name(next(bits(seen & mask))))
            seen |= mask
        if seen != ALL_TILES:
            raise RecordError("deal.missing", tile=name(next(bits(ALL_TILES & ~seen))))


def _sorteo_rank(tile: int) -> tuple[int, bool]:
    """The sorteo's order: pip sum first, then a double beats a non-double."""
    return PIPS[tile], IS_DOUBLE[tile]


SorteoDraw = tuple[int, list[list[tuple[int, int]]]]
"""A sorteo's winner and every round of it, as ``(seat, tile)`` pairs."""


def sorteo(seats: int, seed: bytes | str) -> SorteoDraw:
    """Who wins the draw for the first salida, and every round of it as ``(seat, tile)`` pairs.

    Each player turns up one tile; the highest pip sum wins, a double beating a non-double of the
    same sum; players still tied turn up another tile from those left. (Tiles are never put back;
    if too few remain for the tied players, all 28 are shuffled again.)"""
    stream = SeedStream(_seed_bytes(seed) + b"|sorteo")
    contenders = list(range(seats))
    pool = list(range(NUM_TILES))
    rounds: list[list[tuple[int, int]]] = []
    while True:
        if len(pool) < len(contenders):
            pool = list(range(NUM_TILES))
        this_round = []
        for seat in contenders:
            tile = pool.pop(stream.below(len(pool)))
            this_round.append((seat, tile))
        rounds.append(this_round)
        best = max(_sorteo_rank(t) for _, t in this_round)
        contenders = [s for s, t in this_round if _sorteo_rank(t) == best]
        if len(contenders) == 1:
            return contenders[0], rounds
