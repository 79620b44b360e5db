"""One rated partida: the sides, where each finished, and everybody's new rating.

openskill's Plackett–Luce model is team-aware (a pareja's strength is the sum of its two
players'), handles three sides as well as two (de a tres), and is a maintained library, so the
arithmetic is not ours. What is ours: which shapes a partida may have in each mode, that a bot's
rating never moves, and the scale a player reads.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.rules import Mode

MU: Final = 25.0
"""openskill's default mean: a new player's, shown as 1500."""
SIGMA: Final = MU / 3
"""openskill's default uncertainty for a new player."""
SHOWN_AT_MU: Final = 1500
POINTS_PER_MU: Final = 25.0
"""Display points per unit of ``mu``. With openskill's ``beta`` (25/6) and two settled players
(``sigma`` about 2), a difference of 400 points makes the stronger one win about 10 partidas
in 11 (chess ratings: 10 in 11 at 400). Checked by tests/ratings/test_model.py."""
PROVISIONAL_SIGMA: Final = 5.0
"""Above this uncertainty a rating is provisional: about the first ten partidas."""
BOT_SIGMA: Final = 1.0
"""A bot's measured rating is not a guess: a small, fixed uncertainty."""

SHAPES: Final = {Mode.PAREJAS: (2, 2), Mode.MANO_A_MANO: (1, 1), Mode.TRES: (1, 1, 1)}
"""How many players each side has, in each mode."""

_MODEL: Final = PlackettLuce(mu=MU, sigma=SIGMA, limit_sigma=True)


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's strength at one mode: openskill's mean and uncertainty, and partidas rated."""

    mu: float = MU
    sigma: float = SIGMA
    partidas: int = 0

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def shown(self) -> int:
        return shown(self.mu)


NEW_PLAYER: Final = Rating()


@dataclass(frozen=True, slots=True)
class Side:
    """The players of one side (a pareja, or one player), with a flag for the fixed ones."""

    ratings: tuple[Rating, ...]
    fixed: tuple[bool, ...] = ()

    def is_fixed(self, index: int) -> bool:
        return bool(self.fixed) and self.fixed[index]


def shown(mu: float) -> int:
    """The whole number a player reads for a mean ``mu``."""
    return round(SHOWN_AT_MU + (mu - MU) * POINTS_PER_MU)


def mu_of(points: float) -> float:
    """The mean that is shown as ``points`` (the inverse of :func:`shown`)."""
    return MU + (points - SHOWN_AT_MU) / POINTS_PER_MU


def _check(mode: Mode, sides: Sequence[Side], places: Sequence[int]) -> None:
    shape = tuple(len(side.ratings) for side in sides)
    if shape != SHAPES[mode]:
        want, got = (" + ".join(str(n) for n in sizes) for sizes in (SHAPES[mode], shape))
        raise FichaFlowError("ratings.shape", mode=str(mode), want=want, got=got or "0")
    if len(places) != len(sides) or sorted(places)[0] != 0 or any(p < 0 for p in places):
        raise FichaFlowError("ratings.places")
    for side in sides:
        if side.fixed and len(side.fixed) != len(side.ratings):
            raise FichaFlowError("ratings.places")


def rate_partida(mode: Mode, sides: Sequence[Side], places: Sequence[int]) -> list[list[Rating]]:
    """Everybody's rating after a partida, side by side, player by player.

    ``places`` gives each side's finish: 0 for the winner, then 1, 2. De a tres the two who did
    not win are placed by their scores (equal numbers only where they ended level): the
    update is in balance with :func:`win_chance` over whole finishing orders. Fixed ratings
    (bots) come back as they went in; the others move by openskill's update and count one more
    partida.
    """
    _check(mode, sides, places)
    teams = [[_MODEL.rating(mu=r.mu, sigma=r.sigma) for r in side.ratings] for side in sides]
    rated = _MODEL.rate(teams, ranks=[float(p) for p in places])
    out: list[list[Rating]] = []
    for side, after in zip(sides, rated, strict=True):
        row = []
        for index, (before, new) in enumerate(zip(side.ratings, after, strict=True)):
            if side.is_fixed(index):
                row.append(before)
            else:
                row.append(Rating(new.mu, new.sigma, before.partidas + 1))
        out.append(row)
    return out


def win_chance(sides: Sequence[Sequence[Rating]]) -> list[float]:
    """Each side's chance of winning the partida, by the likelihood that :func:`rate_partida`'s
    update balances: Plackett–Luce's first place, a side's strength being its players' summed
    means. (openskill's own ``predict_win`` uses another, pairwise, formula: at its figures
    ratings would not be in balance, so they are not what a player is shown.)"""
    strengths = [sum(r.mu for r in side) for side in sides]
    return first_place_chance(strengths, model_scale([[r.sigma for r in side] for side in sides]))


def first_place_chance(strengths: Sequence[float], scale: float) -> list[float]:
    """Plackett–Luce's chance of each side finishing first, from the sides' summed means and the
    model's ``scale`` (:func:`model_scale`)."""
    top = max(strengths)
    weights = [math.exp((s - top) / scale) for s in strengths]
    total = sum(weights)
    return [w / total for w in weights]


def model_scale(sigmas: Sequence[Sequence[float]]) -> float:
    """The model's ``c`` for sides whose players have these uncertainties: the square root of
    every side's summed variance plus openskill's ``beta`` squared, once per side."""
    beta = float(_MODEL.beta)
    return math.sqrt(sum(sum(s * s for s in side) + beta * beta for side in sigmas))
