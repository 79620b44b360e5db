"""A puzzle attempt rated: the player against the puzzle, one to one, by the ratings' model
(openskill's Plackett-Luce, :mod:`fichaflow.ratings.model`): solving it is the player's win,
missing it the puzzle's. Both move; a hard puzzle (one many miss) climbs, as a strong player
does. Also what a guest's browser sends as its rating, checked and kept in bounds, and the
day's puzzle, the same for everyone."""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Mapping, Sequence
from datetime import date
from typing import Final

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.rules import Mode
from fichaflow.ratings.model import NEW_PLAYER, SIGMA, Rating, Side, mu_of, rate_partida

LOWEST: Final = mu_of(100)
HIGHEST: Final = mu_of(3000)
"""A rating is kept between 100 and 3000 shown points (a guest's as sent, too)."""
LEAST_SIGMA: Final = 0.5
MOST_ATTEMPTS: Final = 1_000_000
NEAR: Final = 150
"""Puzzles within this many shown points of the player's rating are the ones offered, when any
are; else the nearest."""


def rate_attempt(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The player's and the puzzle's ratings after one attempt (each counts one more)."""
    sides = [Side((player,)), Side((puzzle,))]
    places = [0, 1] if solved else [1, 0]
    after = rate_partida(Mode.MANO_A_MANO, sides, places)
    return bounded(after[0][0]), bounded(after[1][0])


def bounded(rating: Rating) -> Rating:
    mu = min(max(rating.mu, LOWEST), HIGHEST)
    sigma = min(max(rating.sigma, LEAST_SIGMA), SIGMA)
    return Rating(mu, sigma, min(max(rating.partidas, 0), MOST_ATTEMPTS))


def _number(data: Mapping[str, object], key: str) -> float:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise FichaFlowError("trainer.guest_rating")
    return float(value)


def guest_rating(data: object) -> Rating:
    """The rating a guest's browser keeps and sends (``{"mu", "sigma", "attempts"}``, or
    nothing for a new guest): numbers are kept within bounds, anything else is refused."""
    if data is None:
        return NEW_PLAYER
    if not isinstance(data, dict) or set(data) - {"mu", "sigma", "attempts"}:
        raise FichaFlowError("trainer.guest_rating")
    attempts = data.get("attempts", 0)
    if isinstance(attempts, bool) or not isinstance(attempts, int):
        raise FichaFlowError("trainer.guest_rating")
    return bounded(Rating(_number(data, "mu"), _number(data, "sigma"), attempts))


def rating_json(rating: Rating) -> dict[str, object]:
    return {
        "mu": rating.mu,
        "sigma": rating.sigma,
        "attempts": rating.partidas,
        "shown": rating.shown,
        "provisional": rating.provisional,
    }


def daily(day: date, ids: Sequence[str]) -> str:
    """The day's puzzle: the same for everyone on ``day`` (a digest of the date picks one of
    the puzzles in their sorted order)."""
    if not ids:
        raise FichaFlowError("trainer.no_puzzle")
    ordered = sorted(ids)
    digest = hashlib.sha256(f"fichaflow-problema-del-dia:{day.isoformat()}".encode()).digest()
    return ordered[int.from_bytes(digest[:8], "big") % len(ordered)]


def near(
    shown: Mapping[str, int],
    target: int,
    chooser: random.Random,
    avoid: frozenset[str] = frozenset(),
) -> str:
    """A puzzle whose shown rating is within :data:`NEAR` of ``target`` (one of them at random),
    or the nearest one; ``avoid`` (the puzzles just played) only when there is another."""
    candidates = [p for p in shown if p not in avoid] or list(shown)
    if not candidates:
        raise FichaFlowError("trainer.no_puzzle")
    close = sorted(p for p in candidates if abs(shown[p] - target) <= NEAR)
    if close:
        return chooser.choice(close)
    return min(sorted(candidates), key=lambda p: abs(shown[p] - target))
