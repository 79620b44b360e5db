"""gallo: the strongest player offered, a search over the hands it cannot see.

It deals the hidden tiles many times in ways that agree with everything it has seen (plays,
passes, draws, counts), trusts each deal as much as the observed play makes it likely, plays
every candidate move on the same deals with quick playouts, and solves the hand exactly once few
tiles remain (when its nodes solve only some of the deals, those correct the playouts of all).
It answers within a time budget (150 ms per decision by default) and plays sensibly with less;
with the clock switched off (``budget_ms=None``) its work limits alone decide, so a
seed always gives the same play.
"""

from __future__ import annotations

import random
from typing import Any

from fichaflow.bots.base import Bot
from fichaflow.core.hand import Move
from fichaflow.core.tiles import PIPS, bits
from fichaflow.core.view import SeatView
from fichaflow.search.decide import Budget, Decision, Searcher
from fichaflow.search.sampler import UnreadableView


class Gallo(Bot):
    """Options: ``budget_ms`` (None: no clock), ``samples``, ``playouts``, ``nodes``,
    ``exact_after``, ``greedy``, ``belief``, ``correct`` (see
    :class:`~fichaflow.search.decide.Budget`)."""

    name = "gallo"
    searches = True

    def __init__(self, seed: int = 0, budget_ms: float | None = 150.0, **work: Any) -> None:
        super().__init__(seed)
        self.budget = Budget(ms=budget_ms, **work)
        self._searchers: dict[object, Searcher] = {}
        self.last: Decision | None = None

    def choose(self, view: SeatView) -> Move:
        if len(view.legal) == 1:
            return view.legal[0]
        searcher = self._searchers.get(view.rules)
        if searcher is None:
            searcher = self._searchers[view.rules] = Searcher(view.rules, self.budget)
        try:
            self.last = searcher.decide_view(view, random.Random(_decision_seed(self.seed, view)))
        except UnreadableView:
            # A view no real hand gives (say, from a careless engine-protocol client): play the
            # heaviest tile rather than fail.
            return max(view.legal, key=lambda m: (PIPS[m.tile] if m.is_play else -1, m.tile))
        return self.last.move


def _decision_seed(seed: int, view: SeatView) -> str:
    """A seed for one decision: the same view and bot seed always search the same deals."""
    tiles = ",".join(str(t) for t in bits(view.tiles))
    return f"gallo|{seed}|{view.hand_number}|{view.seat}|{len(view.history)}|{tiles}"
