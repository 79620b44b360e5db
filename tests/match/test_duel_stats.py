"""The duel's statistics on inputs built by hand, checked against the textbook formulas."""

from __future__ import annotations

import math
import statistics

import pytest

from fichaflow.core.deal import Deal
from fichaflow.match.duplicate import Game, tally
from fichaflow.match.stats import mean_interval, paired_gains, percentile, ratio_interval, timing

Z = 1.959963984540054  # the 97.5% normal quantile


def test_a_share_of_independent_games_is_the_usual_proportion_interval() -> None:
    # 100 groups of one decided game each, 60 won: p +- z * sqrt(p (1 - p) / (n - 1))
    wins = [1] * 60 + [0] * 40
    result = ratio_interval(wins, [1] * 100)
    assert result is not None
    half = Z * math.sqrt(0.6 * 0.4 / 99)
    assert result.estimate == pytest.approx(0.6)
    assert result.low == pytest.approx(0.6 - half)
    assert result.high == pytest.approx(0.6 + half)
    assert result.low == pytest.approx(0.5035, abs=1e-4)


def test_a_share_over_groups_uses_the_linearised_ratio_variance() -> None:
    wins, decided = [2, 1, 0, 1], [2, 2, 1, 2]
    result = ratio_interval(wins, decided)
    assert result is not None
    ratio = 4 / 7
    residuals = [w - ratio * d for w, d in zip(wins, decided, strict=True)]
    variance = sum(r * r for r in residuals) / 3 / (4 * (7 / 4) ** 2)
    assert result.estimate == pytest.approx(ratio)
    assert result.high - result.estimate == pytest.approx(Z * math.sqrt(variance))
    assert result.low == pytest.approx(0.2320, abs=1e-4)


def test_a_share_stays_within_zero_and_one() -> None:
    result = ratio_interval([1, 1, 1, 0], [1, 1, 1, 1])
    assert result is not None and result.high == 1.0
    single = ratio_interval([2], [2])  # one group says nothing of the spread: the whole range
    assert single is not None and (single.low, single.high) == (0, 1)
    assert ratio_interval([0, 0], [0, 0]) is None


def test_a_mean_has_the_normal_interval_of_its_standard_error() -> None:
    result = mean_interval([1, 2, 3, 4, 5])
    assert result is not None
    assert result.estimate == 3
    assert result.high - 3 == pytest.approx(Z * math.sqrt(2.5) / math.sqrt(5))
    assert mean_interval([]) is None


def test_percentiles_interpolate_between_order_statistics() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == pytest.approx(50.5)
    assert percentile(values, 99) == pytest.approx(99.01)
    assert percentile([3.0], 99) == 3.0
    took = timing([0.001, 0.002, 0.003, 0.010])
    assert took.decisions == 4
    assert took.median_ms == pytest.approx(2.5)
    assert took.p99_ms == pytest.approx(3 + 0.97 * 7)


def game(group: int, seating: tuple[int, ...], winner: int | None, points: tuple[int, int]) -> Game:
    return Game("hand", group, seating, Deal((), ()), 0, winner, points, 1, ((), ()))


def test_tally_counts_wins_ties_and_points_by_bot() -> None:
    groups = [
        [game(0, (0, 1, 0, 1), 0, (30, 0)), game(0, (1, 0, 1, 0), 1, (0, 10))],
        [game(1, (0, 1, 0, 1), 0, (20, 0)), game(1, (1, 0, 1, 0), None, (0, 0))],
        [game(2, (0, 1, 0, 1), 1, (0, 40)), game(2, (1, 0, 1, 0), 0, (16, 0))],
    ]
    result = tally(groups)
    assert result.played == 6 and result.groups == 3
    assert result.won == (3, 2) and result.undecided == 1
    assert result.share is not None and result.share.estimate == pytest.approx(3 / 5)
    assert result.rate is not None and result.rate.estimate == pytest.approx(3 / 6)
    a, b = result.points
    assert a is not None and a.estimate == pytest.approx((30 + 20 + 16) / 6)
    assert b is not None and b.estimate == pytest.approx((10 + 40) / 6)
    assert result.difference is not None
    assert result.difference.estimate == pytest.approx((66 - 50) / 6)


def test_a_pairing_compares_two_runs_deal_by_deal_on_the_deals_both_played() -> None:
    # deal: (tantos a hand, hands won); deal 9 was played by the first run only
    first = {1: (10.0, 2.0), 2: (-4.0, 0.0), 3: (6.0, 1.0), 9: (50.0, 2.0)}
    second = {1: (4.0, 1.0), 2: (-4.0, 0.0), 3: (2.0, 2.0)}
    pairing = paired_gains(first, second)
    assert pairing.deals == 3
    assert pairing.same == 1  # deal 2
    tantos = [6.0, 0.0, 4.0]
    won = [1.0, 0.0, -1.0]
    assert pairing.tantos is not None and pairing.won is not None
    assert pairing.tantos.estimate == pytest.approx(10 / 3)
    half = Z * statistics.stdev(tantos) / math.sqrt(3)
    assert pairing.tantos.low == pytest.approx(10 / 3 - half)
    assert pairing.won.estimate == pytest.approx(0.0)
    assert pairing.won.high == pytest.approx(Z * statistics.stdev(won) / math.sqrt(3))
    assert pairing.to_json()["hands_won_per_deal_gain"]["estimate"] == 0.0


def test_a_run_paired_with_itself_gains_nothing_and_no_common_deal_gives_no_interval() -> None:
    run = {n: (float(n), float(n % 3)) for n in range(20)}
    same = paired_gains(run, run)
    assert same.deals == same.same == 20
    assert same.tantos is not None and same.tantos.low == same.tantos.high == 0.0
    apart = paired_gains({1: (1.0, 1.0)}, {2: (1.0, 1.0)})
    assert apart.deals == 0 and apart.tantos is None and apart.won is None
    assert apart.to_json()["tantos_per_hand_gain"] is None
