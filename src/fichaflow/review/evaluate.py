"""One decision of one seat, weighed move by move from what that seat could know.

Every legal move is played on the same deals of the hidden tiles (paired), by the search loop
``gallo`` decides with (:class:`~fichaflow.search.decide.DealSearch`): dealt consistently with the
seat's view, weighted as ``gallo`` weights them, finished by ``gallo``'s playout policy, or solved
exactly once few tiles remain. A move's value is the points its side can expect from the hand, net
of what the others score (the core's scorekeeper decides, through the search's memoized scoring),
with the chance to come out of the hand ahead, each with a standard error; the cost of a move is
measured against the best one on the same deals, which makes small differences visible.

:func:`evaluate` receives the seat's view and nothing else: what the other hands really held
cannot change it. :func:`hindsight` is the other question, asked of the true position: the
exact value of each move with every hand visible.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Final

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import Hand, Move
from fichaflow.core.inference import deduce
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import PIPS
from fichaflow.core.view import SeatView
from fichaflow.review.precision import Precision
from fichaflow.search.decide import Budget, DealSearch, candidates, seeded_streams
from fichaflow.search.engine import FastHand, from_core
from fichaflow.search.estimate import Estimate, corrected, slope_of, weighted
from fichaflow.search.sampler import MIX, UnreadableView
from fichaflow.search.solver import OutOfNodes, Solver
from fichaflow.search.value import valuer_for

REVIEW: Final = Budget(belief=0.0, mix=MIX)
"""The Repaso's search settings: gallo's playout policy (``greedy``), and every deal consistent
with the view dealt as often and counted alike (``mix``, ``belief`` 0). gallo weighs its deals by
how it expects people to play (the sampler's play model); a judge of a person's move assumes no
habits of the other players, only what the rules prove from what the seat saw, and so does the
exact reference it is measured against (``bench/repaso_truth.py``)."""

NOISE: Final = 2.0
"""A move is within noise of the best when its cost is under this many standard errors."""
MIN_COST: Final = 1.0
"""Below this many points on average, a worse move is not called a mistake."""

BEST, GOOD, MISTAKE = "best", "good", "mistake"


@dataclass(frozen=True, slots=True)
class MoveValue:
    """What one move was worth. ``points``: the points the seat's side can expect from the hand,
    net of the others' (with three players, of their average); ``win``: the chance the side comes
    out of the hand ahead; ``cost``: the best move's points minus this one's, on the same deals;
    ``hindsight``: the exact net points with every hand visible (None when too big to solve)."""

    move: Move
    points: Estimate
    win: Estimate
    cost: Estimate
    verdict: str
    hindsight: float | None = None


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Every candidate move of one decision, best first, and the work done."""

    seat: int
    moves: tuple[MoveValue, ...]
    precision: str
    samples: int
    exact_samples: int
    playouts: int
    nodes: int
    hindsight_solved: bool = False
    hindsight_nodes: int = 0

    @property
    def best(self) -> MoveValue:
        return self.moves[0]

    def of(self, move: Move) -> MoveValue:
        """The entry of ``move``; a tile laid on either of two ends that show the same number is
        listed once, so the other end finds it too."""
        same_tile = [m for m in self.moves if m.move.tile == move.tile]
        for entry in same_tile:
            if entry.move == move:
                return entry
        if len(same_tile) == 1:
            return same_tile[0]
        raise KeyError(move)


def decision_seed(view: SeatView, precision: Precision, seed: int) -> str:
    """The random seed of one evaluation, made from what the view shows and nothing else."""
    shown = json.dumps(view.to_json(), sort_keys=True, ensure_ascii=False)
    digest = hashlib.sha256(shown.encode()).hexdigest()
    return f"repaso|{seed}|{precision.name}|{digest}"


def nothing_hidden(view: SeatView) -> bool:
    """The view proves where every tile is: no montón left, and each other hand can hold only
    the tiles it holds (a mano a mano once the montón is drawn, say)."""
    if view.stock_left:
        return False
    know = deduce(view)
    return all(
        know.possible(s).bit_count() == view.counts[s]
        for s in range(view.rules.seats)
        if s != view.seat
    )


def evaluate(
    view: SeatView, precision: Precision, seed: int = 0, exact_nodes: int | None = None
) -> Evaluation:
    """Weigh every candidate move of the seat to play in ``view``, from that view alone; the
    exact solving of its deals may use at most ``exact_nodes`` (what is left of the hand's; by
    default the most the precision lets one decision use).

    Every deal is played out after each candidate, and once ``exact_after`` tiles are on the
    line (or nothing is left to guess) the first deals are also solved exactly, as many as the
    budget allows. The playouts' mean over all deals is then corrected by their mean error on
    the solved deals (a control variate): with every deal solved that is the exact mean, with
    some it removes the playouts' bias, and its own uncertainty is part of the stated one. With
    fewer than :data:`MIN_SOLVED` deals solved that error cannot be measured: from
    :data:`FEW_SOLVED` the solved deals alone are the value; with fewer still the playouts stand
    alone, and the standard error also counts :data:`PLAYOUT_ERROR`, what playouts are measured
    to miss."""
    if view.seat is None or not view.my_turn or not view.legal:
        raise FichaFlowError("review.not_deciding")
    rules = view.rules
    seat = view.seat
    choices = candidates(view)
    if len(choices) == 1:
        only = MoveValue(choices[0][1], Estimate(0.0, 0.0), Estimate(0.0, 0.0),
                         Estimate(0.0, 0.0), BEST)  # fmt: skip
        return Evaluation(seat, (only,), precision.name, 0, 0, 0, 0)
    rng = random.Random(decision_seed(view, precision, seed))
    codes = [code for code, _ in choices]
    valuer = valuer_for(rules)
    work = replace(REVIEW, playouts=precision.playouts)
    try:
        search = DealSearch(view, codes, valuer, rng, work, seeded_streams)
    except UnreadableView:
        raise FichaFlowError("review.unreadable") from None
    solver = Solver(valuer, search.team)
    solving = None
    if len(view.line) >= precision.exact_after or nothing_hidden(view):
        most = exact_nodes
        if most is None:
            most = max(precision.exact_total, precision.rescue_total)
        limit = min(precision.exact_total, most)
        rescue = min(precision.rescue_total, most)
        solving = _DealByDeal(solver, precision.nodes, limit, precision.rescue_nodes, rescue)
    tantos = valuer.tantos
    deals: list[_Deal] = []
    for deal in search.deals(precision.samples, solving):
        exact = None if solving is None else solving.last
        deals.append(
            _Deal(deal.weight, [tantos(v) for v in deal.values], deal.ahead,
                  None if exact is None else [tantos(v) for v in exact])
        )  # fmt: skip
    if not deals:
        raise FichaFlowError("review.unreadable")
    moves = _judge_moves([m for _, m in choices], deals)
    solved = sum(1 for d in deals if d.exact is not None)
    return Evaluation(seat, moves, precision.name, len(deals), solved, search.playouts,
                      solver.nodes)  # fmt: skip


@dataclass(frozen=True, slots=True)
class _Deal:
    """One sampled deal in tantos: its weight, each candidate's playout value and chance of
    coming out ahead, and its exact values when it was solved."""

    weight: float
    played: list[float]
    ahead: list[float]
    exact: list[float] | None


class _DealByDeal:
    """The Repaso's way of solving: the deals in the order dealt, each within a node budget of
    its own, all of them within ``limit``; the first deal that does not fit ends the solving (so
    the solved deals stay a fair share of all the deals, not the easy ones). When that happens
    before :data:`MIN_SOLVED` deals are solved (early in a hand, where a deal can take more
    than ``nodes``), the solving goes on, once, with ``rescue_nodes`` a deal within
    ``rescue_limit``, the same deal first: too few solved deals leave the playouts alone, the
    Repaso's largest error (``docs/benchmarks.md``). Each deal is played out all the same
    (``__call__`` answers None), its exact values left in :attr:`last`. Late in a hand many
    samples deal the same hidden hands (with nothing left to guess, all of them), and a deal
    solved once is not solved again."""

    def __init__(
        self, solver: Solver, nodes: int, limit: int, rescue_nodes: int = 0, rescue_limit: int = 0
    ) -> None:
        self.solver = solver
        self.nodes = nodes
        self.limit = limit
        self.rescue = (rescue_nodes, rescue_limit) if rescue_limit > limit else None
        self.solved: dict[tuple[tuple[int, ...], tuple[int, ...]], list[int]] = {}
        self.count = 0  # deals given exact values so far, a deal dealt twice counted twice
        self.last: list[int] | None = None
        self.stopped = False

    def __call__(self, fast: FastHand, codes: list[int]) -> None:
        self.last = None
        if self.stopped:
            return None
        key = (tuple(fast.hands), tuple(fast.stock[fast.stock_pos :]))
        found = self.solved.get(key)
        if found is None:
            found = self._solve(fast, codes)
            if found is None:
                self.stopped = True
                return None
            self.solved[key] = found
        self.last = found
        self.count += 1
        return None

    def _solve(self, fast: FastHand, codes: list[int]) -> list[int] | None:
        """The deal's exact values, or None past the budget (after the rescue, if due)."""
        solver = self.solver
        while True:
            if solver.nodes < self.limit:
                solver.reset_table(fast)
                solver.budget = min(solver.nodes + self.nodes, self.limit)
                try:
                    return solver.move_values(fast, codes)
                except OutOfNodes:
                    pass
            if self.rescue is None or self.count >= MIN_SOLVED:
                return None
            (self.nodes, self.limit), self.rescue = self.rescue, None


MIN_SOLVED: Final = 30
"""Fewest deals solved exactly for their error to correct the playouts' mean."""
FEW_SOLVED: Final = 10
"""Fewest deals solved exactly for their own mean to be the value, the playouts set aside: with
fewer than :data:`MIN_SOLVED` the playouts' error cannot be measured, and it is the larger
error (``bench/repaso_truth.py``: up to 16 tantos where 22 or 28 deals were solved)."""
PLAYOUT_ERROR: Final = 5.0
"""What the playouts' mean may miss by, in tantos, when too few deals are solved to measure it:
it is added (as a standard error of its own) to the uncertainty of values and costs so found
(``bench/repaso_truth.py`` measures it; figures in ``docs/benchmarks.md``)."""


def _estimate(
    played: Sequence[float],
    exact: Sequence[float],
    weights: Sequence[float],
    allowance: float = PLAYOUT_ERROR,
    slope: float = 1.0,
) -> Estimate:
    """The value of one column of the deals (see :func:`evaluate`); ``allowance``: what the
    playouts may miss by when they stand alone."""
    if len(exact) == len(played):
        return weighted(exact, weights)
    if len(exact) >= MIN_SOLVED:
        return corrected(played, exact, weights, slope)
    if len(exact) >= FEW_SOLVED:
        # Too few to measure the playouts' error, enough to stand alone: the solved deals' own
        # mean, which no playout biases, its standard error widened for so few deals.
        n = len(exact)
        alone = weighted(exact, weights[:n])
        return Estimate(alone.mean, alone.se * math.sqrt(n / (n - 3)))
    found = weighted(played, weights)
    return Estimate(found.mean, math.hypot(found.se, allowance))


def _judge_moves(moves: list[Move], deals: list[_Deal]) -> tuple[MoveValue, ...]:
    """Means, the best move, each move's paired cost against it and its verdict, best first."""
    weights = [d.weight for d in deals]
    solved = [d for d in deals if d.exact is not None]
    assert all(d.exact is not None for d in deals[: len(solved)]), "solved deals come first"
    count = range(len(moves))
    played = [[d.played[i] for d in deals] for i in count]
    exact = [[d.exact[i] for d in solved if d.exact is not None] for i in count]
    ahead = [[d.ahead[i] for d in deals] for i in count]
    won = [[1.0 if v > 0 else 0.0 for v in col] for col in exact]
    slope = slope_of(played, exact, weights)
    points = [_estimate(played[i], exact[i], weights, slope=slope) for i in count]
    chance = [
        _estimate(ahead[i], won[i], weights, 0.0, slope_of(ahead, won, weights)) for i in count
    ]

    def order(i: int) -> tuple[float, float, int, int]:
        tile = moves[i].tile
        return (round(points[i].mean, 9), round(chance[i].mean, 9), PIPS[tile], -i)

    ranked = sorted(count, key=order, reverse=True)
    top = ranked[0]
    out = []
    for i in ranked:
        if i == top:
            cost, verdict = Estimate(0.0, 0.0), BEST
        else:
            gaps = [b - x for b, x in zip(played[top], played[i], strict=True)]
            exact_gaps = [b - x for b, x in zip(exact[top], exact[i], strict=True)]
            cost = _estimate(gaps, exact_gaps, weights, slope=slope)
            verdict = GOOD if cost.mean <= max(NOISE * cost.se, MIN_COST) else MISTAKE
        out.append(MoveValue(moves[i], points[i], chance[i], cost, verdict))
    return tuple(out)


def hindsight(
    hand: Hand, rules: Rules, evaluation: Evaluation, nodes: int, solver: Solver | None = None
) -> Evaluation:
    """``evaluation`` with the exact value of each move in the true position (``hand``, every
    tile visible), when the solver finishes within ``nodes``; unchanged otherwise.

    ``solver`` (for the seat's side) may be shared by the decisions of one hand: its table of
    solved positions stays valid for them all, since the deal and the side are the same, so each
    decision reads what the others solved."""
    if len(evaluation.moves) < 2 or nodes <= 0:
        return evaluation
    fast = FastHand.from_hand(hand)
    if solver is None:
        solver = hand_solver(rules, evaluation.seat, fast)
    start = solver.nodes
    solver.budget = start + nodes
    try:
        exact = solver.move_values(fast, [from_core(m.move) for m in evaluation.moves])
    except OutOfNodes:
        return replace(evaluation, hindsight_nodes=solver.nodes - start)
    tantos = solver.valuer.tantos
    moves = tuple(
        replace(m, hindsight=tantos(v)) for m, v in zip(evaluation.moves, exact, strict=True)
    )
    spent = solver.nodes - start
    return replace(evaluation, moves=moves, hindsight_solved=True, hindsight_nodes=spent)


def hand_solver(rules: Rules, seat: int, fast: FastHand) -> Solver:
    """A solver for ``seat``'s side on the true deal of ``fast``'s hand, its table empty."""
    solver = Solver(valuer_for(rules), rules.team_of(seat))
    solver.reset_table(fast)
    return solver
