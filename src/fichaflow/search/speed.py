"""How many random hands per second each engine plays, for ``fichaflow bench`` and ``bench/``.

Both engines play the same deals, with the same leaders, by uniformly random legal moves: the
rules engine through :meth:`Hand.legal_moves` and :meth:`Hand.push`, the search engine through
its playouts. Deals are made before the clock starts. One process, so one core; the clock is
the process's own CPU time, so that other programs on a shared machine weigh less on the figures.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from fichaflow.core.deal import Deal
from fichaflow.core.hand import Hand
from fichaflow.core.rules import Mode, Rules
from fichaflow.search.engine import FastHand

MODES: Final = ((Mode.PAREJAS, "venezuela"), (Mode.MANO_A_MANO, "mano_a_mano"), (Mode.TRES, "tres"))
_POOL: Final = 500


@dataclass(frozen=True, slots=True)
class Speed:
    """Random hands per second of both engines in one mode."""

    mode: str
    search: float
    rules: float

    @property
    def ratio(self) -> float:
        return self.search / self.rules if self.rules else 0.0


def deals(rules: Rules, count: int = _POOL, seed: str = "bench") -> list[Deal]:
    return [Deal.from_seed(rules.seats, f"{seed}-{i}") for i in range(count)]


def _rate(play_one: Callable[[int], None], seconds: float) -> float:
    """Hands per second of ``play_one(i)`` run for about ``seconds``."""
    played = 0
    start = time.process_time()
    while True:
        for _ in range(50):
            play_one(played)
            played += 1
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return played / elapsed


def search_rate(rules: Rules, pool: list[Deal], seconds: float, seed: int = 1) -> float:
    """Random playouts of whole hands by the search engine, per second."""
    rand = random.Random(seed).random
    seats = rules.seats
    starts = [FastHand(list(d.hands), d.stock, i % seats) for i, d in enumerate(pool)]

    def play_one(i: int) -> None:
        starts[i % len(starts)].playout(rand)

    return _rate(play_one, seconds)


def rules_rate(rules: Rules, pool: list[Deal], seconds: float, seed: int = 1) -> float:
    """Whole hands played by uniformly random legal moves through the rules engine, per second."""
    choice = random.Random(seed).choice
    seats = rules.seats

    def play_one(i: int) -> None:
        deal = pool[i % len(pool)]
        hand = Hand(list(deal.hands), deal.stock, i % seats)
        while hand.result is None:
            hand.push(choice(hand.legal_moves()))

    return _rate(play_one, seconds)


def measure(seconds: float = 1.0) -> list[Speed]:
    """Both engines in each mode, side by side."""
    out = []
    for mode, preset in MODES:
        rules = Rules.make(preset)
        pool = deals(rules)
        out.append(
            Speed(str(mode), search_rate(rules, pool, seconds), rules_rate(rules, pool, seconds))
        )
    return out
