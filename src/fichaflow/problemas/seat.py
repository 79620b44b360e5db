"""Seat problems: the position as its seat knew it (its own tiles, the line, who passed, how many
tiles each holds), solved exactly in every deal of the hidden tiles consistent with that view.

Without a montón the consistent deals are enumerated when they are few (:data:`ENUMERATE_MAX`):
every way to give the unseen tiles to the other seats, in their counts, avoiding what the seat
deduced each one lacks (:func:`fichaflow.core.inference.deduce`). Otherwise (more deals, or a
montón, whose order matters too) :data:`SAMPLES` deals are drawn by the search's sampler
(:class:`fichaflow.search.sampler.Sampler`) from a seed of the position's own. Every deal is
replayed through the core (a deal that does not replay the hand's moves is not consistent and is
dropped), then solved exactly. Every consistent deal counts as equally likely: the others' choice
of tiles is not read as a signal.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Final

from fichaflow.core.deal import Deal
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import Hand
from fichaflow.core.inference import deduce
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import bits
from fichaflow.core.view import SeatView, hand_view
from fichaflow.problemas.solve import Exact, position
from fichaflow.search.sampler import Sampler, UnreadableView

ENUMERATE_MAX: Final = 400
"""At most this many consistent deals are enumerated (each one solved); past it they are sampled."""
SAMPLES: Final = 40
"""Deals drawn when they are not enumerated."""
WIDE_MARGIN: Final = 15.0
"""A move that is not best in every deal is kept only when its expected margin over the second,
less :data:`SPREAD` standard errors, is at least this many tantos."""
SPREAD: Final = 2.0
EVERY_DEAL: Final = "every_deal"
EXPECTED: Final = "expected"
DECIDED: Final = (EVERY_DEAL, EXPECTED)
"""How a seat problem's answer was decided: best in every consistent deal (all of them
enumerated), or best by a wide margin in expectation."""


@dataclass(frozen=True, slots=True)
class SeatSolved:
    """A seat's position solved over the consistent deals: each distinct move's mean value in
    tantos, best first; the margin of the best over the second (mean) and its standard error
    (0 when every deal was solved); the smallest margin over the deals (below 0: the best is
    not best in some deal); how many deals, and whether they were all of them."""

    values: tuple[tuple[str, float], ...]
    margin: float
    margin_se: float
    worst: float
    deals: int
    enumerated: bool

    @property
    def decided(self) -> str:
        """``every_deal``, ``expected``, or '' when neither holds."""
        if len(self.values) < 2:
            return ""
        if self.enumerated and self.worst > 1e-9:
            return EVERY_DEAL
        if self.margin - SPREAD * self.margin_se >= WIDE_MARGIN:
            return EXPECTED
        return ""


def view_of(rules: Rules, hand: Hand, number: int, scores: Sequence[int] = ()) -> SeatView:
    """What the seat to move knows at ``hand``."""
    return hand_view(rules, hand, hand.turn, tuple(scores), number)


def enumerate_deals(view: SeatView, limit: int) -> list[list[int]] | None:
    """Every assignment of the unseen tiles to the other seats (their hands now), or None when
    there are more than ``limit``. The hand has no montón: nobody drew."""
    know = deduce(view)
    me = view.seat
    others = [s for s in range(view.rules.seats) if s != me]
    out: list[list[int]] = []

    def give(k: int, left: int, hands: list[int]) -> bool:
        if k == len(others):
            if not left:
                out.append(hands.copy())
            return len(out) <= limit
        seat = others[k]
        allowed = [t for t in bits(left) if not know.excluded[seat] >> t & 1]
        for chosen in combinations(allowed, view.counts[seat]):
            mask = sum(1 << t for t in chosen)
            hands[seat] = mask
            if not give(k + 1, left & ~mask, hands):
                return False
        hands[seat] = 0
        return True

    start = [0] * view.rules.seats
    start[me] = view.tiles  # type: ignore[index]
    if not give(0, know.unseen, start):
        return None
    return out


def consistent_deals(
    rules: Rules, hand: Hand, moves: Sequence[str], number: int, seed: str
) -> tuple[list[Hand], bool]:
    """The positions of the consistent deals (each replayed through the core), and whether they
    are all of them (enumerated) rather than a sample drawn from ``seed``."""
    view = view_of(rules, hand, number)
    # With a montón the deals differ in its order too, and draws hide tiles: sampled.
    now = None if hand.stock else enumerate_deals(view, ENUMERATE_MAX)
    played = _played(hand)
    found: list[Hand] = []
    if now is not None:
        for hands in now:
            deal = Deal(tuple(h | p for h, p in zip(hands, played, strict=True)), ())
            replayed = _replay(rules, deal, hand, moves)
            if replayed is not None:
                found.append(replayed)
        return found, True
    try:
        sampler = Sampler(view, random.Random(seed))
    except UnreadableView:
        return [], False
    for _ in range(SAMPLES):
        sample = sampler.draw()
        if sample is None:
            break
        deal = Deal(tuple(sample.start), tuple(sample.drawn + sample.stock))
        replayed = _replay(rules, deal, hand, moves)
        if replayed is not None:
            found.append(replayed)
    return found, False


def _played(hand: Hand) -> list[int]:
    """Each seat's tiles played so far in the hand (from its hand: the deal or its draws)."""
    out = [0] * len(hand.hands)
    for turn in hand.history:
        if turn.move.is_play:
            out[turn.seat] |= 1 << turn.move.tile
    return out


def _replay(rules: Rules, deal: Deal, real: Hand, moves: Sequence[str]) -> Hand | None:
    try:
        replayed = position(rules, deal, real.leader, moves)
    except FichaFlowError:
        return None
    if (
        replayed.ended
        or replayed.turn != real.turn
        or replayed.hands[real.turn] != real.hands[real.turn]
    ):
        return None
    return replayed


def solve_seat(
    rules: Rules, deals: Sequence[Hand], enumerated: bool, seat: int, budget: int
) -> SeatSolved | None:
    """Solve every deal exactly (each its own :class:`Exact`); None when there is none. Raises
    the solver's ``OutOfNodes`` when one deal runs out of ``budget``."""
    if not deals:
        return None
    per_deal: list[dict[str, float]] = []
    for hand in deals:
        per_deal.append(dict(Exact(rules, seat, budget).first_values(hand)))
    moves = list(per_deal[0])
    n = len(per_deal)
    mean = {m: sum(d[m] for d in per_deal) / n for m in moves}
    ranked = sorted(moves, key=lambda m: -mean[m])
    values = tuple((m, round(mean[m], 3)) for m in ranked)
    if len(ranked) < 2:
        return SeatSolved(values, 0.0, 0.0, 0.0, n, enumerated)
    best, second = ranked[0], ranked[1]
    gaps = [d[best] - d[second] for d in per_deal]
    worst = min(d[best] - max(d[m] for m in moves if m != best) for d in per_deal)
    margin = values[0][1] - values[1][1]
    se = 0.0
    if not enumerated and n > 1:
        avg = sum(gaps) / n
        se = math.sqrt(sum((g - avg) ** 2 for g in gaps) / (n - 1) / n)
    return SeatSolved(values, round(margin, 3), round(se, 3), round(worst, 3), n, enumerated)
