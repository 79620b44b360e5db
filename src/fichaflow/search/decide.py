"""Choosing a move by search: candidate moves scored on the same sampled deals, by playouts or,
once few tiles remain, by exact solving. ``gallo`` and ``omnisciente`` are thin bots over this.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from fichaflow.core.hand import Move
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import PIPS
from fichaflow.core.view import PublicTurn, SeatView
from fichaflow.search.engine import DRAW, PASS, FastHand, from_core
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
    """How often the playout policy sheds its heaviest playable tile instead of a random one."""
    belief: float = 0.5
    """How much the play model's likelihood counts (an exponent on a sample's weight)."""


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


class Searcher:
    """Scores the candidate moves of one seat on sampled deals (``gallo``) or on the true deal
    (``omnisciente``)."""

    def __init__(self, rules: Rules, budget: Budget) -> None:
        self.rules = rules
        self.budget = budget
        self.valuer = Valuer(rules)

    def decide_view(self, view: SeatView, rng: random.Random) -> Decision:
        """Search over deals sampled from what ``view`` shows."""
        assert view.seat is not None
        choices = candidates(view)
        if len(choices) == 1:
            return Decision(choices[0][1], {}, 0, 0, 0, False)
        budget = self.budget
        start = time.perf_counter()
        # Aim a little under the budget: the last sample may run over it.
        deadline = None if budget.ms is None else start + 0.9 * budget.ms / 1000.0
        sampler = Sampler(view, rng)
        moves = history_moves(view.history)
        team = self.rules.team_of(view.seat)
        totals = {code: 0.0 for code, _ in choices}
        weight_sum = 0.0
        hard_stop = None if budget.ms is None else start + budget.ms / 1000.0
        solver = Solver(self.valuer, team, budget.nodes, hard_stop)
        exact = len(view.line) >= budget.exact_after
        samples = playouts = 0
        per_sample = 0.0
        fast: FastHand | None = None
        while samples < budget.samples:
            if deadline is not None and samples and time.perf_counter() + per_sample > deadline:
                break
            tick = time.perf_counter()
            sample = sampler.draw()
            if sample is None:
                break
            fast = position(view, sample, moves, fast)
            values: list[float] | None = None
            if exact:
                solver.reset_table(fast)
                try:
                    values = [float(v) for v in solver.move_values(fast, [c for c, _ in choices])]
                except OutOfNodes:
                    if samples:
                        break  # keep the samples solved exactly rather than mix in playouts
                    exact = False
            if values is None:
                values = self._playouts(fast, choices, team, rng)
                playouts += budget.playouts * len(choices)
            weight = sample.weight**budget.belief if budget.belief else 1.0
            for (code, _), value in zip(choices, values, strict=True):
                totals[code] += weight * value
            weight_sum += weight
            samples += 1
            spent = time.perf_counter() - tick
            per_sample = spent if samples == 1 else 0.8 * per_sample + 0.2 * spent
        if not samples:
            return Decision(_heaviest(choices), {}, 0, 0, solver.nodes, False)
        means = {code: total / weight_sum for code, total in totals.items()}
        return Decision(self._best(choices, means), means, samples, playouts, solver.nodes, exact)

    def decide_seeing_all(self, fast: FastHand, choices: list[tuple[int, Move]], team: int,
                          rng: random.Random) -> Decision:  # fmt: skip
        """Search the true position: exact when the node budget allows, else many playouts."""
        if len(choices) == 1:
            return Decision(choices[0][1], {}, 0, 0, 0, True)
        solver = Solver(self.valuer, team, self.budget.nodes)
        solver.reset_table(fast)
        try:
            values = solver.move_values(fast, [c for c, _ in choices])
            means = {code: float(v) for (code, _), v in zip(choices, values, strict=True)}
            return Decision(self._best(choices, means), means, 1, 0, solver.nodes, True)
        except OutOfNodes:
            pass
        rounds = max(1, self.budget.samples // 4)
        totals = [0.0] * len(choices)
        for _ in range(rounds):
            for i, value in enumerate(self._playouts(fast, choices, team, rng)):
                totals[i] += value
        means = {code: totals[i] / rounds for i, (code, _) in enumerate(choices)}
        playouts = rounds * self.budget.playouts * len(choices)
        return Decision(self._best(choices, means), means, 1, playouts, solver.nodes, False)

    def _playouts(
        self, fast: FastHand, choices: list[tuple[int, Move]], team: int, rng: random.Random
    ) -> list[float]:
        """Each candidate's mean value over the same playout seeds (common random numbers)."""
        budget = self.budget
        # Each playout of every candidate reads the same stream of random numbers (a short stream,
        # read round and round: a playout needs fewer numbers than it holds).
        streams = [[rng.random() for _ in range(_STREAM)] for _ in range(budget.playouts)]
        value = self.valuer.value
        greedy = budget.greedy
        out = []
        for code, _ in choices:
            fast.make(code)
            total = 0
            for stream in streams:
                total += value(fast.playout(itertools.cycle(stream).__next__, greedy), team)
            fast.undo()
            out.append(total / len(streams))
        return out

    @staticmethod
    def _best(choices: list[tuple[int, Move]], means: dict[int, float]) -> Move:
        """The move with the best mean; between equals, the heavier tile."""
        return max(
            choices,
            key=lambda c: (round(means[c[0]], 9), PIPS[c[0] >> 1] if c[0] >= 0 else -1, c[0]),
        )[1]
