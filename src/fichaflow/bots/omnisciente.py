"""omnisciente: sees every hand and the montón, for benchmarks only (an upper bound on play).

It solves the hand exactly from the true position (alpha-beta over the hand's points) and falls
back on many playouts of the true position when that is too big for its node budget. It is never
offered to players: runners hand it the whole position through ``choose_seeing_all``.
"""

from __future__ import annotations

import random
from typing import Any

from fichaflow.bots.base import Bot
from fichaflow.bots.gallo import Gallo
from fichaflow.core.hand import Hand, Move
from fichaflow.core.view import SeatView
from fichaflow.search.decide import Budget, Decision, Searcher, candidates
from fichaflow.search.engine import FastHand


class Omnisciente(Bot):
    """Options: ``nodes`` (the exact search's budget per decision, 200 000 by default) and
    ``samples`` (four times the playout rounds of the fallback, 600 by default)."""

    name = "omnisciente"
    sees_all = True

    def __init__(self, seed: int = 0, **work: Any) -> None:
        super().__init__(seed)
        work.setdefault("nodes", 200_000)
        work.setdefault("samples", 600)
        self.budget = Budget(ms=None, **work)
        self._searchers: dict[object, Searcher] = {}
        self._blind = Gallo(seed)
        self.last: Decision | None = None

    def choose(self, view: SeatView) -> Move:
        """Without the whole position it can only play as ``gallo`` does."""
        return self._blind.choose(view)

    def choose_seeing_all(self, view: SeatView, hand: Hand) -> Move:
        if len(view.legal) == 1:
            return view.legal[0]
        assert view.seat is not None
        searcher = self._searchers.get(view.rules)
        if searcher is None:
            searcher = self._searchers[view.rules] = Searcher(view.rules, self.budget)
        rng = random.Random(f"omnisciente|{self.seed}|{view.hand_number}|{len(hand.history)}")
        team = view.rules.team_of(view.seat)
        self.last = searcher.decide_seeing_all(
            FastHand.from_hand(hand), candidates(view), team, rng
        )
        return self.last.move
