"""The table's weakest players, named by its own words: tirafichas, tirapuntos, acuestafichas."""

from __future__ import annotations

import random

from fichaflow.bots.base import Bot
from fichaflow.core.hand import Move
from fichaflow.core.tiles import IS_DOUBLE, PIPS
from fichaflow.core.view import SeatView


def _heaviest(moves: tuple[Move, ...], rng: random.Random) -> Move:
    best = max(PIPS[m.tile] if m.is_play else -1 for m in moves)
    return rng.choice([m for m in moves if (PIPS[m.tile] if m.is_play else -1) == best])


class Tirafichas(Bot):
    """Plays without a plan: any legal move, at random."""

    name = "tirafichas"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Move:
        return self.rng.choice(view.legal)


class Tirapuntos(Tirafichas):
    """Always puts down the heaviest tile it can (bota gorda)."""

    name = "tirapuntos"

    def choose(self, view: SeatView) -> Move:
        return _heaviest(view.legal, self.rng)


class Acuestafichas(Tirafichas):
    """Gets rid of its doubles first, then plays heaviest."""

    name = "acuestafichas"

    def choose(self, view: SeatView) -> Move:
        doubles = tuple(m for m in view.legal if m.is_play and IS_DOUBLE[m.tile])
        return _heaviest(doubles or view.legal, self.rng)
