"""The statistics a duel reports: shares and means with 95% confidence intervals, and timings.

The games of one duplicate group (one deal played with the sides swapped) are not independent of
each other, so every interval treats the group as the unit: a share is a ratio of sums over
groups, with the delta-method (linearised) variance, and a mean is the mean of per-group means.
Both use the normal quantile, which is sound for the hundreds of groups a duel plays; for a
handful of groups the interval is only indicative.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

Z95 = statistics.NormalDist().inv_cdf(0.975)


@dataclass(frozen=True, slots=True)
class Interval:
    """An estimate with its 95% confidence interval."""

    estimate: float
    low: float
    high: float

    def to_json(self, digits: int = 4) -> dict[str, float]:
        return {
            "estimate": round(self.estimate, digits),
            "low": round(self.low, digits),
            "high": round(self.high, digits),
        }


def ratio_interval(
    numerators: Sequence[float], denominators: Sequence[float], bounds: tuple[float, float] = (0, 1)
) -> Interval | None:
    """``sum(numerators) / sum(denominators)`` over independent groups, with its 95% interval
    (clipped to ``bounds``); None when the denominators add up to nothing."""
    total = float(sum(denominators))
    if total <= 0:
        return None
    ratio = sum(numerators) / total
    n = len(numerators)
    if n < 2:
        return Interval(ratio, bounds[0], bounds[1])
    residuals = [x - ratio * y for x, y in zip(numerators, denominators, strict=True)]
    spread = sum(e * e for e in residuals) / (n - 1)
    half = Z95 * math.sqrt(n * spread) / total
    return Interval(ratio, max(bounds[0], ratio - half), min(bounds[1], ratio + half))


def mean_interval(values: Sequence[float]) -> Interval | None:
    """The mean of independent values with its 95% interval; None for no values."""
    n = len(values)
    if n == 0:
        return None
    mean = statistics.fmean(values)
    if n < 2:
        return Interval(mean, -math.inf, math.inf)
    half = Z95 * statistics.stdev(values) / math.sqrt(n)
    return Interval(mean, mean - half, mean + half)


Outcome = tuple[float, float]
"""One deal of a run, as a pairing reads it: the side's tantos a hand, and its hands won."""

DealKey = TypeVar("DealKey", bound=Hashable)


@dataclass(frozen=True, slots=True)
class Pairing:
    """What one run gains over another on the deals both played (:func:`paired_gains`)."""

    deals: int
    tantos: Interval | None
    """Tantos a hand, each deal's difference averaged."""
    won: Interval | None
    """Hands won a deal."""
    same: int
    """Deals where both runs came out exactly alike."""

    def to_json(self) -> dict[str, Any]:
        return {
            "deals": self.deals,
            "tantos_per_hand_gain": None if self.tantos is None else self.tantos.to_json(),
            "hands_won_per_deal_gain": None if self.won is None else self.won.to_json(),
            "deals_with_the_same_result": self.same,
        }


def paired_gains(first: Mapping[DealKey, Outcome], second: Mapping[DealKey, Outcome]) -> Pairing:
    """Two runs over the same deals (a bot with an option on and off, say, against the same
    opponent), deal by deal: the first's gain over the second with 95% intervals over the deals
    both played. The pairing takes each deal's luck out of the comparison, which two shares
    measured apart cannot."""
    common = [key for key in first if key in second]
    return Pairing(
        len(common),
        mean_interval([first[k][0] - second[k][0] for k in common]),
        mean_interval([first[k][1] - second[k][1] for k in common]),
        sum(first[k] == second[k] for k in common),
    )


@dataclass(frozen=True, slots=True)
class Timing:
    """A bot's decision times: how many decisions, the median and the 99th percentile (ms)."""

    decisions: int
    median_ms: float
    p99_ms: float

    def to_json(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "median_ms": round(self.median_ms, 4),
            "p99_ms": round(self.p99_ms, 4),
        }


def timing(seconds: Sequence[float]) -> Timing:
    """Median and 99th percentile (linear interpolation between order statistics) in ms."""
    if not seconds:
        return Timing(0, 0.0, 0.0)
    ms = sorted(s * 1000.0 for s in seconds)
    return Timing(len(ms), statistics.median(ms), percentile(ms, 99))


def percentile(ordered: Sequence[float], p: float) -> float:
    """The ``p``-th percentile of sorted values: the order statistic at rank ``p/100 * (n-1)``,
    interpolated linearly."""
    if not ordered:
        raise ValueError("no values")
    rank = p / 100 * (len(ordered) - 1)
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)
