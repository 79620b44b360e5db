"""``jugador``: the medium player of the ladder, who counts tiles and reads passes.

It scores every legal move with a handful of table habits and plays the best:

* it knows which numbers each player lacks (``core.inference``) and keeps those numbers on the
  ends, so the rivals pass (``next_pass``, ``rival_pass``; ``block_late`` when the next rival
  is close to dominating), while not starving its partner (``partner_pass``, ``partner_late``);
* it leads from its strong number, best with that number's double, which announces it
  (``salida``);
* it does not cover the number its partner announced or keeps putting out (``partner_number``),
  and covers the rivals' (``rival_number``);
* it sheds heavy tiles and doubles, more so as somebody nears the end of their tiles
  (``pips``, ``pips_late``, ``double``, ``double_late``), keeps tiles that follow the ends
  (``follow``) and a spread of numbers (``variety``), and avoids leaving its own doubles dead
  (``dead_double``);
* before closing the line it counts: it compares the pips it holds with what the others can
  still hold, and asks the core's scorekeeper what that tranque would be worth (``tranque``,
  with ``closing`` setting how a tranque compares with playing on).

The weights were tuned by self-play (``bench/tune_jugador.py``; method and figures in
``docs/benchmarks.md``). Ties between equally good moves are broken by the bot's seeded random
generator, so a jugador with a given seed always plays the same way.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Final

from fichaflow.bots.base import Bot
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import Move
from fichaflow.core.inference import (
    Knowledge,
    closes,
    deduce,
    ends_after,
    holder_odds,
    partner,
    strength,
    tranque_value,
)
from fichaflow.core.tiles import IS_DOUBLE, MAX_HALF, PIPS, SUIT, bits, tile_of
from fichaflow.core.view import SeatView

DEFAULT_WEIGHTS: Final[dict[str, float]] = {
    "pips": 0.31,
    "pips_late": 2.29,
    "double": 0.99,
    "double_late": 0.52,
    "follow": 1.24,
    "variety": 1.17,
    "next_pass": 2.67,
    "rival_pass": 1.51,
    "partner_pass": -1.08,
    "block_late": 1.06,
    "partner_late": -0.9,
    "partner_number": 0.26,
    "rival_number": -0.8,
    "dead_double": -2.34,
    "salida": 1.49,
    "tranque": 4.3,
    "closing": 2.07,
}
"""The weight of each habit (see the module's docstring), as 100 steps of self-play tuning left
them (``bench/jugador_tuning.json`` keeps the starting values and every step)."""

DOMINO: Final = 1000.0
"""Playing one's last tile wins the hand: no habit outweighs it."""


class Table:
    """What jugador reads once per decision: the deductions and the per-seat odds."""

    __slots__ = ("danger", "know", "odds", "partner", "rivals", "seat", "strengths", "view")

    def __init__(self, view: SeatView) -> None:
        assert view.seat is not None
        self.view = view
        self.seat = seat = view.seat
        self.know: Knowledge = deduce(view)
        self.odds = holder_odds(self.know, rounds=12)
        rules = view.rules
        n = rules.seats
        self.partner = partner(rules, seat)
        self.rivals = [s for s in range(n) if rules.team_of(s) != rules.team_of(seat)]
        others = [view.counts[s] for s in range(n) if s != seat]
        self.danger = max(0.0, (7 - min(others)) / 6) if others else 0.0
        self.strengths = {
            s: strength(view, s, self.know) for s in range(n) if s != seat
        }  # what the table shows of each player

    def cannot_follow(self, seat: int, left: int, right: int) -> float:
        """How likely ``seat`` holds nothing for these ends (1.0 when it surely lacks both)."""
        column = self.odds
        chance = 1.0
        for t in bits(self.know.unseen & (SUIT[left] | SUIT[right])):
            chance *= 1.0 - column[t][seat]
        return chance

    def expected_pips(self, own_after: int) -> tuple[int, ...]:
        """The pips each seat holds, counted for the viewer and estimated for the others."""
        out = []
        for s in range(self.know.seats):
            if s == self.seat:
                out.append(sum(PIPS[t] for t in bits(own_after)))
            else:
                out.append(round(sum(PIPS[t] * self.odds[t][s] for t in range(28))))
        return tuple(out)


def features(table: Table, move: Move) -> dict[str, float]:
    """The habits a move scores on, each a number that its weight multiplies."""
    view = table.view
    tile = move.tile
    own_after = view.tiles & ~(1 << tile)
    if closes(view, move, table.know.line):
        # The hand ends here: only what the tranque is worth counts (passes mean nothing now).
        value = tranque_value(view, move, table.expected_pips(own_after))
        return {"tranque": value / 50, "closing": 1.0}
    left, right = ends_after(view, move)
    ends = SUIT[left] | SUIT[right]
    heavy = PIPS[tile] / 12
    double = 1.0 if IS_DOUBLE[tile] else 0.0
    out = {
        "pips": heavy,
        "pips_late": heavy * table.danger,
        "double": double,
        "double_late": double * table.danger,
        "follow": (own_after & ends).bit_count() / 7,
        "variety": sum(1 for n in range(MAX_HALF + 1) if own_after & SUIT[n]) / 7,
    }
    n = view.rules.seats
    after_me = (table.seat + 1) % n
    out["next_pass"] = table.cannot_follow(after_me, left, right)  # always a rival
    out["block_late"] = out["next_pass"] * _near_end(view.counts[after_me])
    others = [s for s in table.rivals if s != after_me]
    if others:
        out["rival_pass"] = sum(table.cannot_follow(s, left, right) for s in others) / len(others)
    before = (view.left, view.right) if move.end is not None else ()
    if table.partner is not None:
        out["partner_pass"] = table.cannot_follow(table.partner, left, right)
        out["partner_late"] = out["partner_pass"] * _near_end(view.counts[table.partner])
        mine = table.strengths[table.partner]
        out["partner_number"] = _shift(mine, before, (left, right))
    rival = [sum(table.strengths[s][k] for s in table.rivals) for k in range(MAX_HALF + 1)]
    out["rival_number"] = _shift(rival, before, (left, right))
    line_after = table.know.line | 1 << tile
    dead = 0
    for d in range(MAX_HALF + 1):
        double_tile = tile_of(d, d)
        if (
            own_after >> double_tile & 1
            and d not in (left, right)
            and not SUIT[d] & ~line_after & ~(1 << double_tile)
        ):
            dead += 1
    out["dead_double"] = dead
    if move.end is None:
        best = max((own_after & SUIT[h]).bit_count() for h in (left, right))
        out["salida"] = best / 6 * (1.5 if double else 1.0)
    return out


def _near_end(count: int) -> float:
    """How close a player is to dominating: 1 with one tile left, 0 with four or more."""
    return max(0.0, (4 - count) / 3)


def _shift(
    strengths: list[float] | tuple[float, ...], before: tuple[int, ...], after: tuple[int, int]
) -> float:
    """How much the numbers showing on the ends gain in ``strengths`` by the move."""
    return sum(strengths[e] for e in after) - sum(strengths[e] for e in before)


class Jugador(Bot):
    """The medium bot: a rule-based player whose weights were tuned by self-play."""

    name = "jugador"

    def __init__(self, seed: int = 0, weights: Mapping[str, float] | None = None) -> None:
        super().__init__(seed)
        self.rng = random.Random(seed)
        self.weights = dict(DEFAULT_WEIGHTS)
        for key, value in (weights or {}).items():
            if key not in DEFAULT_WEIGHTS:
                raise FichaFlowError(
                    "bot.option", bot=self.name, option=key, allowed=", ".join(DEFAULT_WEIGHTS)
                )
            self.weights[key] = float(value)

    def score(self, table: Table, move: Move) -> float:
        """The weighted sum of the move's habits (a domino outweighs everything)."""
        if not move.is_play:
            return 0.0
        if table.view.tiles == 1 << move.tile:
            return DOMINO
        weights = self.weights
        return sum(weights[k] * v for k, v in features(table, move).items())

    def choose(self, view: SeatView) -> Move:
        legal = view.legal
        if len(legal) == 1 or not legal[0].is_play:
            return legal[0]
        table = Table(view)
        scored = [(self.score(table, m), i) for i, m in enumerate(legal)]
        best = max(s for s, _ in scored)
        top = [legal[i] for s, i in scored if s >= best - 1e-9]
        return top[0] if len(top) == 1 else self.rng.choice(top)


__all__ = ["DEFAULT_WEIGHTS", "Jugador", "features"]
