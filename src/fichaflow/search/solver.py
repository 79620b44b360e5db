"""Exact play of a hand whose every tile is known: alpha-beta over the hand's points.

The bot's side maximizes its point difference (``Valuer.value``); everybody else plays against
it (with two sides this is the exact value of the hand; in ``tres`` it is the cautious value that
assumes both rivals join forces). Partners cooperate because they share the value. Positions met
again through a different order of plays come from a table; a node budget stops the search, so
that a bot can fall back on playouts when a position is too big to solve in time.

Two classic savings keep the trees small: after a position's first move, the others are first
tried with a null window (principal variation search: proving a move no better is cheaper than
valuing it), and moves that cut the search off elsewhere in the same deal are tried first (the
history heuristic). With the montón, where hands run long, together they solve a deal in a
third of the nodes on average (figures in ``docs/benchmarks.md``); every value stays exact.
"""

from __future__ import annotations

from time import perf_counter
from typing import Final

from fichaflow.core.tiles import PIPS
from fichaflow.search.engine import FastHand
from fichaflow.search.value import Valuer

_EXACT, _LOWER, _UPPER = 0, 1, 2
_WIDTH: Final = 64


class OutOfNodes(Exception):
    """The node budget (or the clock) ran out before the search finished."""


class Solver:
    """Solves positions for one side. ``nodes`` counts every position visited, over all calls."""

    def __init__(
        self, valuer: Valuer, team: int, budget: int = 1 << 62, deadline: float | None = None
    ) -> None:
        self.valuer = valuer
        self.team = team
        self.team_of = valuer.team_of
        self.budget = budget
        self.deadline = deadline  # a time.perf_counter() instant, checked every 1024 nodes
        self.nodes = 0
        self._bufs = [[0] * _WIDTH for _ in range(128)]
        self._table: dict[int, int] = {}  # position key -> value << 2 | bound kind
        self._keyed = True
        self._order = list(_HEAVIEST)  # per move (PASS and DRAW from the end): its rank

    def reset_table(self, fast: FastHand) -> None:
        """Forget remembered positions (call when the hidden hands change). Positions are keyed by
        the tiles still out, the ends (in either order), the turn and the draws made; that
        identifies them only when no bonus depends on the order of passes."""
        self._table.clear()
        self._order = list(_HEAVIEST)
        rules = self.valuer.rules
        self._keyed = not (rules.pase_redondo_bonus or rules.salida_pasada_bonus)

    def value(self, fast: FastHand) -> int:
        """The exact value of ``fast`` for the side. On :class:`OutOfNodes` the position is
        taken back to where it was."""
        depth = fast.depth
        try:
            return self._search(fast, -(1 << 20), 1 << 20, 0)
        except OutOfNodes:
            while fast.depth > depth:
                fast.undo()
            raise

    def move_values(self, fast: FastHand, moves: list[int]) -> list[int]:
        """The exact value of each of ``moves`` from ``fast`` (see :meth:`value`)."""
        out = []
        for move in moves:
            fast.make(move)
            try:
                out.append(self.value(fast))
            finally:
                fast.undo()
        return out

    def _search(self, fast: FastHand, alpha: int, beta: int, depth: int) -> int:
        if fast.end_kind:
            return self.valuer.value(fast.end_key(), self.team)
        self.nodes += 1
        if self.nodes > self.budget:
            raise OutOfNodes
        if not self.nodes & 1023 and self.deadline is not None and perf_counter() > self.deadline:
            raise OutOfNodes
        key = -1
        if self._keyed:
            left, right = fast.left, fast.right
            # A line and its mirror (the ends swapped) are worth the same: one key for both.
            ends = left * 7 + right if left <= right else right * 7 + left
            key = fast.out | (ends + 1) << 28 | fast.turn << 35 | fast.stock_pos << 37
            if fast.stock:  # who drew which tile matters too
                key |= fast.hands[0] << 42 | fast.hands[1] << 70
            hit = self._table.get(key)
            if hit is not None:
                kind, stored = hit & 3, hit >> 2
                if kind == _EXACT:
                    return stored
                if kind == _LOWER and stored >= beta:
                    return stored
                if kind == _UPPER and stored <= alpha:
                    return stored
        buf = self._bufs[depth]
        n = fast.choices(buf)
        # The moves that cut off most often first, between equals the heaviest: shedding weight
        # is the usual best move.
        moves = sorted(buf[:n], key=self._order.__getitem__, reverse=True) if n > 1 else buf[:1]
        maximizing = self.team_of[fast.turn] == self.team
        alpha0, beta0 = alpha, beta
        first = True
        if maximizing:
            best = -(1 << 30)
            for move in moves:
                fast.make(move)
                if first or beta - alpha == 1:
                    v = self._search(fast, alpha, beta, depth + 1)
                    first = False
                else:  # no better than alpha? then its value is not needed
                    v = self._search(fast, alpha, alpha + 1, depth + 1)
                    if alpha < v < beta:
                        v = self._search(fast, v, beta, depth + 1)
                fast.undo()
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            self._order[move] += _CUT
                            break
        else:
            best = 1 << 30
            for move in moves:
                fast.make(move)
                if first or beta - alpha == 1:
                    v = self._search(fast, alpha, beta, depth + 1)
                    first = False
                else:  # no worse than beta? then its value is not needed
                    v = self._search(fast, beta - 1, beta, depth + 1)
                    if alpha < v < beta:
                        v = self._search(fast, alpha, v, depth + 1)
                fast.undo()
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            self._order[move] += _CUT
                            break
        if key >= 0:  # one int per entry, not a tuple: a big search keeps millions of them
            if best <= alpha0:
                self._table[key] = best << 2 | _UPPER
            elif best >= beta0:
                self._table[key] = best << 2 | _LOWER
            else:
                self._table[key] = best << 2 | _EXACT
        return best


_CUT: Final = 32
"""What a cut adds to a move's rank: more than any difference of weight."""
_HEAVIEST: Final = tuple(PIPS[m >> 1] + 1 if m < 56 else 0 for m in range(_WIDTH))
"""Each move's rank before any cut, by its search code (a tile twice, one per end; PASS and DRAW
index from the end, at 0): the heaviest first."""
