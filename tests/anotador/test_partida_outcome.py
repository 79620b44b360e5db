"""The partida's end (target, zapato, chancleta) as small functions the anotador shares with the
engine's :class:`Partida`: the contract's cases, and the engine agreeing with them on played
partidas."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fichaflow.core.deal import Deal
from fichaflow.core.partida import (
    Partida,
    is_chancleta,
    is_zapato,
    losing_sides,
    target_winner,
)
from fichaflow.core.rules import PRESETS, Rules


def test_a_side_wins_on_reaching_or_passing_the_target() -> None:
    assert target_winner(100, (99, 40), 0) is None
    assert target_winner(100, (100, 40), 0) == 0
    assert target_winner(100, (40, 130), 1) == 1


def test_when_both_reach_the_target_the_higher_score_wins() -> None:
    # RULES.md: the higher score wins, even if the other side won that hand.
    assert target_winner(100, (120, 105), 1) == 0


def test_equal_scores_over_the_target_go_to_the_hand_winner_or_play_on() -> None:
    assert target_winner(100, (110, 110), 1) == 1
    assert target_winner(100, (110, 110), None) is None
    # In tres, the side that won the hand must be among the leaders.
    assert target_winner(100, (110, 110, 105), 2) is None


def test_zapato_is_every_loser_at_zero() -> None:
    assert is_zapato((100, 0), 0)
    assert not is_zapato((100, 3), 0)
    assert is_zapato((0, 0, 120), 2)
    assert not is_zapato((0, 5, 120), 2)
    assert not is_zapato((0, 0), None)  # no winner yet: nothing to call
    assert losing_sides(3, 1) == (0, 2)


def test_chancleta_is_every_loser_scoring_in_exactly_one_hand() -> None:
    assert is_chancleta((6, 1), 0)
    assert not is_chancleta((6, 2), 0)
    assert not is_chancleta((6, 0), 0)
    assert is_chancleta((1, 1, 4), 2)  # both losers scored once
    assert not is_chancleta((1, 2, 4), 2)


def _play_partida(rules: Rules, seed: int) -> Partida:
    """A whole partida of random legal moves."""
    rng = random.Random(seed)
    partida = Partida(rules)
    for number in range(200):
        if partida.over:
            break
        deal = Deal.from_seed(rules.seats, f"outcome-{seed}-{number}")
        leader, _ = partida.salida(deal)
        partida.start_hand(deal, None if leader is not None else 0)
        while partida.current is not None:
            partida.play(rng.choice(partida.current.legal_moves()))
    return partida


@settings(max_examples=25, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10_000))
def test_the_engine_decides_its_partidas_with_the_shared_functions(preset: str, seed: int) -> None:
    rules = Rules.make(preset, target=50)
    partida = _play_partida(rules, seed)
    assert partida.over
    scored = [partida.hands_scored(t) for t in range(rules.teams)]
    assert partida.winner == target_winner(50, partida.scores, partida.played[-1].score.winner)
    assert partida.zapato == is_zapato(partida.scores, partida.winner)
    assert partida.chancleta == is_chancleta(scored, partida.winner)
    # Before the last hand nobody had won: the partida stopped as soon as a side got there.
    if len(partida.played) > 1:
        before = partida.played[-2]
        assert target_winner(50, before.scores, before.score.winner) is None
