"""Ratings as a player meets them: winning moves you up, a bot never moves, the scale reads like
chess ratings, and the chances shown are the ones the update is in balance with."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.rules import Mode
from fichaflow.ratings import NEW_PLAYER, Rating, Side, rate_partida, shown, win_chance
from fichaflow.ratings.bots import bot_rating, bot_ratings
from fichaflow.ratings.calibrate import Game, fit
from fichaflow.ratings.model import SHAPES, model_scale, mu_of

means = st.floats(min_value=5, max_value=45)
sigmas = st.floats(min_value=0.5, max_value=8.4)
ratings = st.builds(Rating, means, sigmas)


def sides_of(mode: Mode, players: list[Rating]) -> list[Side]:
    out, at = [], 0
    for size in SHAPES[mode]:
        out.append(Side(tuple(players[at : at + size])))
        at += size
    return out


def test_a_new_player_starts_at_1500_and_provisional() -> None:
    assert NEW_PLAYER.shown == 1500
    assert NEW_PLAYER.provisional


@pytest.mark.parametrize("mode", list(Mode))
def test_the_winners_go_up_the_losers_down_and_each_counts_one_partida(mode: Mode) -> None:
    players = [NEW_PLAYER] * sum(SHAPES[mode])
    places = list(range(len(SHAPES[mode])))
    after = rate_partida(mode, sides_of(mode, players), places)
    assert all(r.mu > NEW_PLAYER.mu for r in after[0])
    assert all(r.mu < NEW_PLAYER.mu for r in after[-1])
    assert all(r.partidas == 1 for side in after for r in side)
    assert all(r.sigma < NEW_PLAYER.sigma for side in after for r in side)


def test_a_bot_keeps_its_rating_when_a_person_beats_it() -> None:
    gallo = Rating(mu_of(1800), 1.0, 500)
    person = NEW_PLAYER
    after = rate_partida(Mode.MANO_A_MANO, [Side((person,)), Side((gallo,), (True,))], [0, 1])
    assert after[1][0] == gallo
    assert after[0][0].shown > 1500 + 50  # beating a strong bot is worth a lot, early on


def test_beating_a_weaker_side_is_worth_less_than_beating_a_stronger_one() -> None:
    me = Rating(mu_of(1500), 3.0, 40)
    weak, strong = Rating(mu_of(1200), 3.0, 40), Rating(mu_of(1800), 3.0, 40)
    up_weak = rate_partida(Mode.MANO_A_MANO, [Side((me,)), Side((weak,))], [0, 1])[0][0]
    up_strong = rate_partida(Mode.MANO_A_MANO, [Side((me,)), Side((strong,))], [0, 1])[0][0]
    assert me.mu < up_weak.mu < up_strong.mu


def test_a_rating_stops_being_provisional_after_about_ten_partidas() -> None:
    rival = Rating(mu_of(1500), 1.0, 100)
    me, played = NEW_PLAYER, 0
    while me.provisional:
        won = played % 2 == 0
        sides = [Side((me,)), Side((rival,), (True,))]
        me = rate_partida(Mode.MANO_A_MANO, sides, [0, 1] if won else [1, 0])[0][0]
        played += 1
    assert 5 <= played <= 15
    assert me.partidas == played


def test_400_points_between_settled_players_are_about_ten_partidas_to_one() -> None:
    strong, weak = Rating(mu_of(1900), 2.0), Rating(mu_of(1500), 2.0)
    chance = win_chance([[strong], [weak]])[0]
    assert 0.88 < chance < 0.94  # chess ratings: 10/11 = 0.909


def ranking_chances(sides: list[Side]) -> dict[tuple[int, ...], float]:
    """Plackett–Luce's chance of each finishing order (the sides' places), at the model's scale
    for all the sides: first among all, then first among those left."""
    scale = model_scale([[r.sigma for r in s.ratings] for s in sides])
    weight = [math.exp(sum(r.mu for r in s.ratings) / scale) for s in sides]
    out = {}
    for order in itertools.permutations(range(len(sides))):
        chance, left = 1.0, list(order)
        while len(left) > 1:
            chance *= weight[left[0]] / sum(weight[i] for i in left)
            left.pop(0)
        out[tuple(order.index(i) for i in range(len(sides)))] = chance
    return out


@given(st.sampled_from(list(Mode)), st.lists(ratings, min_size=4, max_size=4))
def test_at_the_chances_shown_the_update_is_in_balance(mode: Mode, players: list[Rating]) -> None:
    """The expected change of every player's mean, over the finishing orders weighted by the
    model's chances, is nil: the chances a player is shown (win_chance, the first place of
    those orders) are the ones ratings settle at."""
    sides = sides_of(mode, players[: sum(SHAPES[mode])])
    orders = ranking_chances(sides)
    firsts = win_chance([list(s.ratings) for s in sides])
    for winner, chance in enumerate(firsts):
        assert chance == pytest.approx(
            sum(c for places, c in orders.items() if places[winner] == 0)
        )
    drift = [[0.0] * len(side.ratings) for side in sides]
    for places, chance in orders.items():
        for i, side in enumerate(rate_partida(mode, sides, list(places))):
            for k, after in enumerate(side):
                drift[i][k] += chance * (after.mu - sides[i].ratings[k].mu)
    assert all(abs(d) < 1e-3 for row in drift for d in row), drift


@pytest.mark.parametrize(
    ("mode", "sides", "places"),
    [
        (Mode.PAREJAS, [Side((NEW_PLAYER,)), Side((NEW_PLAYER,))], [0, 1]),
        (Mode.TRES, [Side((NEW_PLAYER,)), Side((NEW_PLAYER,))], [0, 1]),
        (Mode.MANO_A_MANO, [Side((NEW_PLAYER,)), Side((NEW_PLAYER,))], [1, 2]),
        (Mode.MANO_A_MANO, [Side((NEW_PLAYER,)), Side((NEW_PLAYER,))], [0]),
    ],
)
def test_a_partida_of_the_wrong_shape_is_refused_in_spanish(
    mode: Mode, sides: list[Side], places: list[int]
) -> None:
    with pytest.raises(FichaFlowError) as refused:
        rate_partida(mode, sides, places)
    assert refused.value.code.startswith("ratings.")
    assert "partida" in str(refused.value)


def test_the_fit_finds_the_strengths_the_games_were_played_at() -> None:
    """Games drawn at known strengths (by the model's own chances), fitted back: each bot
    within 60 shown points of the truth. A wrong likelihood or gradient misses by hundreds."""
    truth = {"a": 1000, "b": 1250, "c": 1600}
    rng = random.Random(7)
    groups = []
    sides: tuple[tuple[str, ...], ...]
    for mode in (Mode.PAREJAS, Mode.TRES):
        for x, y in (("a", "b"), ("a", "c"), ("b", "c")):
            for _ in range(400):
                if mode is Mode.PAREJAS:
                    sides = ((x, x), (y, y))
                else:
                    sides = ((x,), (y,), (y,)) if rng.random() < 0.5 else ((y,), (x,), (x,))
                rated = [[Rating(mu_of(truth[b]), 1.0) for b in side] for side in sides]
                chances = win_chance(rated)
                winner = rng.choices(range(len(sides)), weights=chances)[0]
                groups.append([Game(sides, sides[winner][0])])
    fitted = fit(groups, "a", 1000)
    assert abs(shown(fitted["a"]) - 1000) == 0
    for bot in ("b", "c"):
        assert abs(shown(fitted[bot]) - truth[bot]) < 60, (bot, shown(fitted[bot]))


def test_the_shipped_bots_climb_the_ladder_in_every_mode() -> None:
    ladder = ["tirafichas", "tirapuntos", "acuestafichas", "jugador", "gallo"]
    for mode in Mode:
        table = bot_ratings(mode)
        assert list(table) == ladder, table  # weakest first, every rung measured
        assert table["tirafichas"] == 1000
        for name in ladder:
            rating = bot_rating(name, mode)
            assert rating is not None and not rating.provisional
            assert rating.shown == table[name]
    assert bot_rating("nadie", Mode.PAREJAS) is None
    assert bot_rating("omnisciente", Mode.PAREJAS) is None  # never offered: never measured
