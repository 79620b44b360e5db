"""A puzzle attempt as a one-to-one game, a guest's rating checked, the day's puzzle and the
choice of a puzzle near the player."""

from __future__ import annotations

import random
from datetime import date

import pytest

from fichaflow import i18n
from fichaflow.core.errors import FichaFlowError
from fichaflow.ratings.model import NEW_PLAYER, Rating, mu_of
from fichaflow.trainer.rating import daily, guest_rating, near, rate_attempt


def test_solving_a_hard_puzzle_gains_more_than_an_easy_one() -> None:
    hard = Rating(mu_of(1900), 2.0, 50)
    easy = Rating(mu_of(1100), 2.0, 50)
    up_hard = rate_attempt(NEW_PLAYER, hard, True)[0].shown - 1500
    up_easy = rate_attempt(NEW_PLAYER, easy, True)[0].shown - 1500
    assert up_hard > up_easy > 0
    down_easy = 1500 - rate_attempt(NEW_PLAYER, easy, False)[0].shown
    assert down_easy > 1500 - rate_attempt(NEW_PLAYER, hard, False)[0].shown > 0


@pytest.mark.parametrize(
    "sent",
    [
        "1500",
        [25, 8],
        {"mu": "25", "sigma": 8},
        {"mu": float("nan"), "sigma": 8},
        {"mu": 25, "sigma": 8, "attempts": 1.5},
        {"mu": 25, "sigma": 8, "admin": True},
        {"mu": True, "sigma": 8},
    ],
)
def test_a_guest_rating_that_is_not_one_is_refused_in_spanish(sent: object) -> None:
    with pytest.raises(FichaFlowError) as caught:
        guest_rating(sent)
    assert caught.value.code == "trainer.guest_rating"
    assert "navegador" in i18n.text(f"error.{caught.value.code}", "es")


def test_a_guest_rating_out_of_bounds_is_brought_within_them() -> None:
    assert guest_rating(None) == NEW_PLAYER
    high = guest_rating({"mu": 1e9, "sigma": 0.0, "attempts": -4})
    assert high.shown == 3000 and high.sigma == 0.5 and high.partidas == 0
    assert guest_rating({"mu": -1e9, "sigma": 99, "attempts": 3}).shown == 100


def test_the_days_puzzle_is_the_same_for_everyone_and_changes_with_the_day() -> None:
    ids = [f"p{n:04d}" for n in range(500)]
    today = daily(date(2026, 12, 1), ids)
    assert today == daily(date(2026, 12, 1), list(reversed(ids)))
    days = {daily(date(2026, 12, d), ids) for d in range(1, 29)}
    assert len(days) > 20


def test_a_puzzle_near_the_player_is_offered() -> None:
    shown = {"easy": 1100, "mid": 1520, "mid2": 1450, "hard": 1950}
    chooser = random.Random(3)
    picks = {near(shown, 1500, chooser) for _ in range(40)}
    assert picks == {"mid", "mid2"}
    assert near(shown, 2400, chooser) == "hard"
    assert near(shown, 1500, chooser, frozenset({"mid", "mid2"})) in {"easy", "hard"}
    assert near({"only": 900}, 1500, chooser, frozenset({"only"})) == "only"
