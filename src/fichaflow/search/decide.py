"""Choosing a move by search: candidate moves scored on the same sampled deals, by playouts or,
once few tiles remain, by exact solving. ``gallo`` and ``omnisciente`` are thin bots over this.

The loop over sampled deals (:class:`DealSearch`) is the one the Repaso weighs moves with too
(:mod:`fichaflow.review.evaluate`), so that its verdict and gallo's choice are made the same way;
what differs is said where each calls it: gallo stops on its clock and spends one node budget on
the whole decision, the Repaso works to a fixed amount and gives each deal a budget of its own.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial

from fichaflow.core.hand import Move
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import PIPS
from fichaflow.core.view import PublicTurn, SeatView
from fichaflow.search.engine import DRAW, PASS, FastHand, from_core
from fichaflow.search.estimate import corrected, slope_of
from fichaflow.search.sampler import Sample, Sampler
from fichaflow.search.solver import OutOfNodes, Solver
from fichaflow.search.tables import HI
from fichaflow.search.value import Valuer


@dataclass(frozen=True, slots=True)
class Budget:
    """How much work one decision may do. The work limits (samples, playouts per sample and
    move, solver nodes) make a decision repeatable for a given seed; ``ms`` (None: no clock)
    stops earlier when the clock runs out, whatever the work done."""

    ms: float | None = 150.0
    samples: int = 2000
    playouts: int = 4
    nodes: int = 2_000_000
    exact_after: int = 9
    """Solve exactly once this many tiles are on the line (19 or fewer left out of it). Against
    jugador at 150 ms, 6 did worse than 9 or 12, and 9 and 12 were equal within the noise of 720
    hands (see docs/benchmarks.md)."""
    greedy: float = 0.5
    """How often the playout policy sheds its first playable tile to shed (a double, else the
    heaviest) instead of a random one."""
    belief: float = 0.5
    """How much the play model's likelihood counts (an exponent on a sample's weight)."""
    correct: bool = True
    """In the exact phase, should the node budget run out after some deals are solved: play the
    rest of the deals out and correct the playouts' mean by their error on the solved deals (as
    the Repaso does), unless the clock has run out by then. False: the solved deals alone are
    the answer (gallo until 2026-12-02)."""
    mix: int = 0
    """Swaps tried per movable tile after each deal (the sampler's ``mix``): with
    :data:`~fichaflow.search.sampler.MIX` every consistent deal is as likely, as the Repaso's
    verdicts assume. gallo deals tile by tile (0): against jugador, uniform deals did not play
    better (docs/benchmarks.md)."""


@dataclass(slots=True)
class Decision:
    """What a search found: the chosen move and the work it did."""

    move: Move
    values: dict[int, float]
    samples: int
    playouts: int
    nodes: int
    exact: bool


def candidates(view: SeatView) -> list[tuple[int, Move]]:
    """The legal moves worth comparing, as (search move, move): a tile laid on either of two
    ends that show the same number is one move seen in a mirror, so only one is kept."""
    out: list[tuple[int, Move]] = []
    mirror = view.left >= 0 and view.left == view.right
    for move in view.legal:
        code = from_core(move)
        if mirror and code >= 0 and code & 1:
            continue
        out.append((code, move))
    return out


def history_moves(history: Iterable[PublicTurn]) -> list[int]:
    """The search moves of a public history."""
    out = []
    for turn in history:
        if turn.kind == "pass":
            out.append(PASS)
        elif turn.kind == "draw":
            out.append(DRAW)
        elif turn.end is None:
            lead_low = turn.lead_left is not None and turn.lead_left != HI[turn.tile]
            out.append(turn.tile * 2 + int(lead_low))
        else:
            out.append(turn.tile * 2 + int(turn.end))
    return out


def position(
    view: SeatView, sample: Sample, moves: Sequence[int], reuse: FastHand | None = None
) -> FastHand:
    """The search position of a sampled deal after the public history (built in ``reuse``'s
    memory when given)."""
    forced = -1 if view.forced_lead is None else view.forced_lead
    if reuse is None:
        fast = FastHand(sample.start, sample.drawn + sample.stock, view.leader, forced)
    else:
        fast = reuse
        fast.reset(sample.start, sample.drawn + sample.stock, view.leader, forced)
    for move in moves:
        fast.make(move)
    return fast


def _heaviest(choices: list[tuple[int, Move]]) -> Move:
    return max(choices, key=lambda c: (PIPS[c[0] >> 1] if c[0] >= 0 else -1, c[0]))[1]


_STREAM = 191  # random numbers per playout stream (a prime: it rarely lines up with a cycle)

Stream = Callable[[], Callable[[], float]]
"""Starts a playout's source of random numbers: every candidate move's playout starts it afresh,
so that each candidate is finished on the same numbers (common random numbers)."""


def short_streams(rng: random.Random, count: int) -> list[Stream]:
    """gallo's streams, cheap to make: each a short list of random numbers read round and round
    (a playout needs fewer numbers than the list holds)."""
    lists = [[rng.random() for _ in range(_STREAM)] for _ in range(count)]
    return [partial(_read_round, numbers) for numbers in lists]


def _read_round(numbers: list[float]) -> Callable[[], float]:
    return itertools.cycle(numbers).__next__


def seeded_streams(rng: random.Random, count: int) -> list[Stream]:
    """The Repaso's streams: each a generator of its own from a seed, no number read twice."""
    return [partial(_generator, rng.getrandbits(64)) for _ in range(count)]


def _generator(seed: int) -> Callable[[], float]:
    return random.Random(seed).random


def play_out(
    fast: FastHand,
    codes: Sequence[int],
    team: int,
    valuer: Valuer,
    streams: Sequence[Stream],
    greedy: float,
) -> tuple[list[float], list[float]]:
    """Finish ``fast`` once per stream after each move of ``codes``, every move on the same
    streams; each move's mean value for ``team`` and how often the side came out ahead."""
    value = valuer.value
    means = []
    ahead = []
    for code in codes:
        fast.make(code)
        total = wins = 0
        for stream in streams:
            v = value(fast.playout(stream(), greedy), team)
            total += v
            wins += v > 0
        fast.undo()
        means.append(total / len(streams))
        ahead.append(wins / len(streams))
    return means, ahead


class StopSearch(Exception):
    """Raised by a way of solving deals: the deals searched so far are the answer."""


Solve = Callable[[FastHand, list[int]], list[int] | None]
"""A way of solving a sampled deal: each candidate's exact value, or None to play it out (or
:class:`StopSearch`). It may use and keep whatever budget it likes."""


@dataclass(frozen=True, slots=True)
class DealResult:
    """What one sampled deal says of the candidate moves, in the candidates' order: each one's
    value for the side (the valuer's points) and chance of coming out ahead (1 or 0 once solved),
    and how much the play model trusts the deal."""

    weight: float
    values: list[float]
    ahead: list[float]
    exact: bool


class DealSearch:
    """The search loop of one decision, the same for ``gallo``'s choice and the Repaso's
    verdict: deal the hidden tiles consistently with the view, play the public history on the
    deal, solve it exactly (as ``solve`` decides) or else finish it by playouts after each
    candidate, and weigh it by how likely the observed play makes it. Callers decide how many
    deals, when to stop, and what to make of the results.

    Raises :class:`~fichaflow.search.sampler.UnreadableView` for a view no real hand gives."""

    def __init__(
        self,
        view: SeatView,
        codes: list[int],
        valuer: Valuer,
        rng: random.Random,
        budget: Budget,
        streams: Callable[[random.Random, int], list[Stream]] = short_streams,
    ) -> None:
        assert view.seat is not None
        self.view = view
        self.codes = codes
        self.valuer = valuer
        self.rng = rng
        self.budget = budget
        self.streams = streams
        self.team = valuer.rules.team_of(view.seat)
        self.sampler = Sampler(view, rng, weigh=bool(budget.belief), mix=budget.mix)
        self.playouts = 0
        self.last: Sample | None = None
        """The deal the last result came from."""

    def deals(self, count: int, solve: Solve | None) -> Iterator[DealResult]:
        """Up to ``count`` deals, fewer when the sampler finds no more or ``solve`` stops."""
        view, codes, budget, rng = self.view, self.codes, self.budget, self.rng
        moves = history_moves(view.history)
        fast: FastHand | None = None
        for _ in range(count):
            sample = self.sampler.draw()
            if sample is None:
                return
            fast = position(view, sample, moves, fast)
            self.last = sample
            try:
                solved = None if solve is None else solve(fast, codes)
            except StopSearch:
                return
            weight = sample.weight**budget.belief  # (1 when the sampler did not weigh)
            if solved is not None:
                values = [float(v) for v in solved]
                yield DealResult(weight, values, [1.0 if v > 0 else 0.0 for v in solved], True)
                continue
            streams = self.streams(rng, budget.playouts)
            values, ahead = play_out(fast, codes, self.team, self.valuer, streams, budget.greedy)
            self.playouts += budget.playouts * len(codes)
            yield DealResult(weight, values, ahead, False)


class _WithinBudget:
    """gallo's way of solving: one node budget (and the clock) for the whole decision, the deals
    solved in the order dealt. Should it run out on the first deal, every deal is played out
    instead; after that, with ``correct``, the deals still to come are played out (the solved
    ones then correct the playouts' mean), without it the deals already solved are the answer."""

    def __init__(self, solver: Solver, correct: bool) -> None:
        self.solver = solver
        self.correct = correct
        self.solved = 0
        self.exact = True

    def __call__(self, fast: FastHand, codes: list[int]) -> list[int] | None:
        if not self.exact:
            return None
        self.solver.reset_table(fast)
        try:
            values = self.solver.move_values(fast, codes)
        except OutOfNodes:
            if self.solved and not self.correct:
                raise StopSearch from None
            self.exact = False
            return None
        self.solved += 1
        return values


class Searcher:
    """Scores the candidate moves of one seat on sampled deals (``gallo``) or on the true deal
    (``omnisciente``)."""

    def __init__(self, rules: Rules, budget: Budget) -> None:
        self.rules = rules
        self.budget = budget
        self.valuer = Valuer(rules)

    def decide_view(self, view: SeatView, rng: random.Random) -> Decision:
        """Search over deals sampled from what ``view`` shows, within the budget's work and
        clock."""
        assert view.seat is not None
        choices = candidates(view)
        if len(choices) == 1:
            return Decision(choices[0][1], {}, 0, 0, 0, False)
        budget = self.budget
        start = time.perf_counter()
        codes = [code for code, _ in choices]
        search = DealSearch(view, codes, self.valuer, rng, budget)
        hard_stop = None if budget.ms is None else start + budget.ms / 1000.0
        solver = Solver(self.valuer, search.team, budget.nodes, hard_stop)
        exact_phase = len(view.line) >= budget.exact_after
        solving = _WithinBudget(solver, budget.correct) if exact_phase else None
        # Aim a little under the budget: the last deal may run over it.
        deadline = None if budget.ms is None else start + 0.9 * budget.ms / 1000.0
        totals = [0.0] * len(codes)
        weight_sum = 0.0
        samples = 0
        per_sample = 0.0
        results: list[DealResult] = []
        solved: list[Sample] = []
        tick = time.perf_counter()
        for deal in search.deals(budget.samples, solving):
            for i, value in enumerate(deal.values):
                totals[i] += deal.weight * value
            weight_sum += deal.weight
            samples += 1
            results.append(deal)
            if deal.exact and search.last is not None:
                solved.append(search.last)
            now = time.perf_counter()
            spent, tick = now - tick, now
            per_sample = spent if samples == 1 else 0.8 * per_sample + 0.2 * spent
            if deadline is not None and now + per_sample > deadline:
                break
        if not samples:
            return Decision(_heaviest(choices), {}, 0, 0, solver.nodes, False)
        if 0 < len(solved) < samples and deadline is not None and time.perf_counter() > deadline:
            # Out of time: no playing the solved deals out now; they alone are the answer.
            n = len(solved)
            weight_sum = sum(deal.weight for deal in results[:n])
            means = {
                code: sum(deal.weight * deal.values[i] for deal in results[:n]) / weight_sum
                for i, code in enumerate(codes)
            }
        elif 0 < len(solved) < samples:
            means = self._corrected(search, results, solved)
        else:
            means = {code: total / weight_sum for code, total in zip(codes, totals, strict=True)}
        exact = solving is not None and solving.exact
        best = self._best(choices, means)
        return Decision(best, means, samples, search.playouts, solver.nodes, exact)

    def _corrected(
        self, search: DealSearch, results: list[DealResult], solved: list[Sample]
    ) -> dict[int, float]:
        """The moves' means when the first deals were solved and the rest played out: the solved
        deals are played out too (on random numbers of their own, so the deals dealt stay the
        same), and their exact values correct the playouts' mean over all deals, as the Repaso
        corrects its values (:func:`~fichaflow.search.estimate.corrected`, one slope for every
        move)."""
        view, codes, budget = search.view, search.codes, self.budget
        side = random.Random(search.rng.getrandbits(64))
        moves = history_moves(view.history)
        fast: FastHand | None = None
        played: list[list[float]] = [[] for _ in codes]
        for sample in solved:
            fast = position(view, sample, moves, fast)
            streams = short_streams(side, budget.playouts)
            values, _ = play_out(fast, codes, search.team, self.valuer, streams, budget.greedy)
            search.playouts += budget.playouts * len(codes)
            for column, value in zip(played, values, strict=True):
                column.append(value)
        n = len(solved)
        exact = [[deal.values[i] for deal in results[:n]] for i in range(len(codes))]
        for i, column in enumerate(played):
            column.extend(deal.values[i] for deal in results[n:])
        weights = [deal.weight for deal in results]
        slope = slope_of(played, exact, weights)
        return {
            code: corrected(played[i], exact[i], weights, slope).mean
            for i, code in enumerate(codes)
        }

    def decide_seeing_all(self, fast: FastHand, choices: list[tuple[int, Move]], team: int,
                          rng: random.Random) -> Decision:  # fmt: skip
        """Search the true position: exact when the node budget allows, else many playouts."""
        if len(choices) == 1:
            return Decision(choices[0][1], {}, 0, 0, 0, True)
        codes = [code for code, _ in choices]
        solver = Solver(self.valuer, team, self.budget.nodes)
        solver.reset_table(fast)
        try:
            values = solver.move_values(fast, codes)
            means = {code: float(v) for code, v in zip(codes, values, strict=True)}
            return Decision(self._best(choices, means), means, 1, 0, solver.nodes, True)
        except OutOfNodes:
            pass
        budget = self.budget
        rounds = max(1, budget.samples // 4)
        totals = [0.0] * len(choices)
        for _ in range(rounds):
            streams = short_streams(rng, budget.playouts)
            played, _ahead = play_out(fast, codes, team, self.valuer, streams, budget.greedy)
            for i, value in enumerate(played):
                totals[i] += value
        means = {code: totals[i] / rounds for i, code in enumerate(codes)}
        playouts = rounds * budget.playouts * len(choices)
        return Decision(self._best(choices, means), means, 1, playouts, solver.nodes, False)

    @staticmethod
    def _best(choices: list[tuple[int, Move]], means: dict[int, float]) -> Move:
        """The move with the best mean; between equals, the heavier tile."""
        return max(
            choices,
            key=lambda c: (round(means[c[0]], 9), PIPS[c[0] >> 1] if c[0] >= 0 else -1, c[0]),
        )[1]
