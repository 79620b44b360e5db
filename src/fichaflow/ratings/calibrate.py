"""Fitting fixed ratings to bots from their duels: the arithmetic of ``bench/rate_bots.py``.

Each game is a seating (which bot sits on each side) and the bot whose side won. The bots'
means are the maximum-likelihood fit of the model that rates people (Plackett–Luce: a side
finishes first with a chance proportional to ``exp(strength / c)``, a pareja's strength being its
two players' summed means), every bot at the small fixed uncertainty bots have, and one bot
pinned at a given rating so the scale has a zero (and a weak prior, :data:`PRIOR_SPREAD`). At
those means openskill's update would, on average, leave the bots where they are: the fit is
what rating the games by the update would converge to, without depending on the order the
games were played in.

Games of one group (one deal played in every seating) are not independent, so the interval of
each rating comes from resampling whole groups (a bootstrap), as every duplicate figure in this
project counts a deal's games as one unit.

:func:`ratings_of` is the whole procedure, from the games ``ratings/bots.json`` keeps to the
ratings it ships: a pure function, so the shipped ratings are refitted from the shipped file.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from fichaflow.ratings.model import (
    BOT_SIGMA,
    POINTS_PER_MU,
    first_place_chance,
    model_scale,
    mu_of,
    shown,
)

PRIOR_SPREAD = 400 / POINTS_PER_MU
"""A weak prior on every bot: a normal around the pinned bot's mean (knowing nothing, a bot is
taken to be as strong as the pinned one), 400 shown points wide. It keeps the fit finite when
one bot won every partida of its duels (there the likelihood alone would send it to infinity)
and moves a well-measured bot by a few points."""


@dataclass(frozen=True, slots=True)
class Game:
    """One game: the bot on each side (a side's size is its players), and the winning bot."""

    sides: tuple[tuple[str, ...], ...]
    winner: str


@dataclass(frozen=True, slots=True)
class Fitted:
    rating: int
    low: int
    high: int
    games: int


def _tally(groups: Sequence[Sequence[Game]]) -> Counter[Game]:
    """How often each kind of game happened: few kinds (pairs, seatings, winners), many games."""
    return Counter(game for games in groups for game in games)


def _log_likelihood_and_gradient(
    kinds: Counter[Game], mus: dict[str, float], center: float
) -> tuple[float, dict[str, float]]:
    total = 0.0
    gradient = dict.fromkeys(mus, 0.0)
    for game, times in kinds.items():
        scale = model_scale([[BOT_SIGMA] * len(side) for side in game.sides])
        strengths = [sum(mus[b] for b in side) for side in game.sides]
        chances = first_place_chance(strengths, scale)
        won = [i for i, side in enumerate(game.sides) if _owner(side) == game.winner]
        p_won = sum(chances[i] for i in won)
        total += times * math.log(p_won)
        for i, side in enumerate(game.sides):
            # d log P(won) / d strength_i, and strength_i = len(side) * mu[owner]
            inside = chances[i] / p_won if i in won else 0.0
            gradient[_owner(side)] += times * (inside - chances[i]) * len(side) / scale
    for bot, mu in mus.items():
        total -= (mu - center) ** 2 / (2 * PRIOR_SPREAD**2)
        gradient[bot] -= (mu - center) / PRIOR_SPREAD**2
    return total, gradient


def _owner(side: tuple[str, ...]) -> str:
    """A side is one bot (a pareja of one bot twice in a duel)."""
    return side[0]


def fit(
    groups: Sequence[Sequence[Game]], pinned: str, pinned_at: int, steps: int = 400
) -> dict[str, float]:
    """The bots' means that make the games most likely (under the weak prior), ``pinned`` held
    at ``pinned_at``."""
    bots = sorted({b for games in groups for g in games for side in g.sides for b in side})
    mus = dict.fromkeys(bots, mu_of(pinned_at))
    step = 2.0
    kinds = _tally(groups)
    games = max(1, sum(kinds.values()))
    center = mu_of(pinned_at)
    current, gradient = _log_likelihood_and_gradient(kinds, mus, center)
    for _ in range(steps):
        trial = {b: m if b == pinned else m + step * gradient[b] / games for b, m in mus.items()}
        value, trial_gradient = _log_likelihood_and_gradient(kinds, trial, center)
        if value >= current:
            if value - current < 1e-10:
                mus = trial
                break
            mus, current, gradient = trial, value, trial_gradient
            step *= 1.2
        else:
            step /= 2
    return mus


def fit_with_intervals(
    groups: Sequence[Sequence[Game]], pinned: str, pinned_at: int, resamples: int, seed: int
) -> dict[str, Fitted]:
    """The fit, with a 95% interval per bot from ``resamples`` bootstrap resamples of groups."""
    best = fit(groups, pinned, pinned_at)
    rng = random.Random(seed)
    draws: dict[str, list[float]] = {b: [] for b in best}
    for _ in range(resamples):
        sample = [groups[rng.randrange(len(groups))] for _ in groups]
        for bot, mu in fit(sample, pinned, pinned_at, steps=200).items():
            draws[bot].append(mu)
    counts = {b: 0 for b in best}
    for games in groups:
        for game in games:
            for bot in {b for side in game.sides for b in side}:
                counts[bot] += 1
    out = {}
    for bot, mu in best.items():
        ordered = sorted(draws[bot]) or [mu]
        low = ordered[int(0.025 * (len(ordered) - 1))]
        high = ordered[round(0.975 * (len(ordered) - 1))]
        out[bot] = Fitted(shown(mu), shown(low), shown(high), counts[bot])
    return out


RESAMPLES = 200
"""Bootstrap resamples behind each shipped interval."""


def game_of(a: str, b: str, text: str) -> Game:
    """A game of the duel of bots ``a`` and ``b`` as the calibration file writes it: each side's
    seats by bot (``A`` or ``B``), sides split by ``|``, then ``>`` and the winner, e.g.
    ``AA|BB>B`` (parejas), ``A|B>A`` (mano a mano), ``A|B|A>A`` (de a tres)."""
    names = {"A": a, "B": b}
    seats, _, winner = text.partition(">")
    return Game(tuple(tuple(names[s] for s in side) for side in seats.split("|")), names[winner])


def groups_by_mode(played: Sequence[dict[str, list[list[str]]]]) -> dict[str, list[list[Game]]]:
    """The file's games (a list per plan entry of ``"mode:a:b"`` → groups → games), mode by mode,
    in the plan's order: the order the bootstrap draws its groups in."""
    out: dict[str, list[list[Game]]] = {}
    for entry in played:
        for duel, groups in entry.items():
            mode, a, b = duel.split(":")
            out.setdefault(mode, []).extend([game_of(a, b, g) for g in games] for games in groups)
    return out


def ratings_of(
    played: Sequence[dict[str, list[list[str]]]],
    pinned: str,
    pinned_at: int,
    resamples: int = RESAMPLES,
) -> dict[str, dict[str, dict[str, int]]]:
    """The shipped ratings, from the shipped games and nothing else: per mode, each bot's rating,
    its interval and its partidas, weakest first. Deterministic (the bootstrap is seeded by the
    number of groups), so refitting the shipped games gives the shipped ratings exactly."""
    modes = {}
    for mode, groups in groups_by_mode(played).items():
        fitted = fit_with_intervals(groups, pinned, pinned_at, resamples, seed=len(groups))
        modes[mode] = {
            bot: {"rating": f.rating, "low": f.low, "high": f.high, "partidas": f.games}
            for bot, f in sorted(fitted.items(), key=lambda item: item[1].rating)
        }
    return modes
