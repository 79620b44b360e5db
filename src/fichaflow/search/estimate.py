"""Means over sampled deals, and their correction by the deals solved exactly (a control
variate): the estimates the Repaso states and gallo chooses by, made one way for both.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Estimate:
    """A weighted mean over sampled deals and its standard error."""

    mean: float
    se: float


def weighted(samples: Sequence[float], weights: Sequence[float]) -> Estimate:
    """The weighted mean and its standard error (the usual estimate for self-normalized
    weights: sum of w² (x - mean)², over (sum of w)²)."""
    total = sum(weights)
    mean = sum(w * x for w, x in zip(weights, samples, strict=True)) / total
    spread = sum(w * w * (x - mean) ** 2 for w, x in zip(weights, samples, strict=True))
    return Estimate(mean, math.sqrt(spread) / total)


def corrected(
    played: Sequence[float],
    exact: Sequence[float],
    weights: Sequence[float],
    slope: float = 1.0,
) -> Estimate:
    """The exact values' weighted mean over the first ``len(exact)`` deals, the ones solved,
    corrected by how far the playouts' mean over all deals lies from their mean over the solved
    ones, times ``slope`` (a regression estimator: with ``slope`` 1, the playouts' mean plus
    their mean error on the solved deals). Its standard error counts both terms and how they move
    together; with every deal solved it is the exact values' own mean and error."""
    n = len(exact)
    wall, wsolved = sum(weights), sum(weights[:n])
    p = sum(w * x for w, x in zip(weights, played, strict=False)) / wall
    rest = [e - slope * x for e, x in zip(exact, played, strict=False)]
    d = sum(w * x for w, x in zip(weights, rest, strict=False)) / wsolved
    var_p = sum(w * w * (x - p) ** 2 for w, x in zip(weights, played, strict=False)) / wall**2
    var_d = sum(w * w * (x - d) ** 2 for w, x in zip(weights, rest, strict=False)) / wsolved**2
    both = sum(
        w * w * (x - p) * (y - d) for w, x, y in zip(weights, played, rest, strict=False)
    ) / (wall * wsolved)
    spread = var_d + slope * slope * var_p + 2 * slope * both
    return Estimate(slope * p + d, math.sqrt(max(0.0, spread)))


def slope_of(
    played: Sequence[Sequence[float]], exact: Sequence[Sequence[float]], weights: Sequence[float]
) -> float:
    """How much of the playouts' departures from their mean the exact values follow, pooled
    over the moves' columns on the solved deals (the least-squares slope, kept within 0 to 2):
    the best ``slope`` for :func:`corrected`, the same for every move so that costs remain the
    differences of values."""
    n = len(exact[0]) if exact else 0
    if n < 2:
        return 1.0
    w = weights[:n]
    total = sum(w)
    across = spread = 0.0
    for xs, es in zip(played, exact, strict=True):
        mx = sum(a * b for a, b in zip(w, xs, strict=False)) / total
        me = sum(a * b for a, b in zip(w, es, strict=True)) / total
        for a, x, e in zip(w, xs, es, strict=False):
            across += a * (x - mx) * (e - me)
            spread += a * (x - mx) ** 2
    return min(2.0, max(0.0, across / spread)) if spread > 0 else 1.0
