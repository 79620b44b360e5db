"""The Repaso's hindsight: the exact value of each move with every hand visible, from a hand's
first decision at ``normal``, and the same values as a plain minimax over the rules engine."""

from __future__ import annotations

from dataclasses import replace

import pytest

from fichaflow.core.rules import Rules
from fichaflow.core.view import hand_view
from fichaflow.review.evaluate import evaluate, hindsight
from fichaflow.review.hand import HandToReview, review_hand
from fichaflow.review.precision import PRECISIONS
from tests.review.helpers import played, replay_to
from tests.search.helpers import BONUSES, endgame, minimax

NORMAL = PRECISIONS["normal"]
QUICK = replace(NORMAL, samples=6, playouts=2)
"""``normal``'s hindsight budget with few samples: the estimate is not what is tested here."""


def _first_decision_solved(subject: HandToReview, seat: int) -> None:
    review = review_hand(subject, seat, QUICK)
    assert review.decisions
    first = review.decisions[0].evaluation
    assert first.hindsight_solved, first.hindsight_nodes
    assert all(m.hindsight is not None for m in first.moves)
    assert all(d.evaluation.hindsight_solved for d in review.decisions)


@pytest.mark.slow  # a salida solved takes seconds; the quick set keeps the mano a mano hand below
@pytest.mark.parametrize("preset", ["venezuela", "dominicana", "mano_a_mano", "tres"])
def test_the_salida_of_a_recorded_hand_gets_its_hindsight_at_normal(preset: str) -> None:
    """A later hand of a partida, so the leader chooses the salida: the costliest decision to
    solve (a million nodes and more), which ``normal`` now solves too."""
    subject = played(preset, 5, forced_first=False)
    _first_decision_solved(subject, subject.hand.leader)


def test_every_seat_of_a_mano_a_mano_hand_has_hindsight_from_its_first_decision() -> None:
    subject = played("mano_a_mano", 2)
    for seat in range(2):
        _first_decision_solved(subject, seat)


def test_the_hands_shared_table_gives_what_a_fresh_solver_gives() -> None:
    """The hindsight of a hand's decisions reuses one table of solved positions; each value is the
    one a solver starting from nothing finds for that decision alone."""
    for preset, seed in (("tres", 1), ("mano_a_mano", 4)):
        subject = played(preset, seed)
        review = review_hand(subject, 0, QUICK)
        assert len(review.decisions) >= 2
        for decision in review.decisions:
            truth = replay_to(subject, decision.index)
            alone = hindsight(truth, subject.rules, decision.evaluation, NORMAL.hindsight_nodes)
            assert alone.hindsight_solved and decision.evaluation.hindsight_solved
            assert [m.hindsight for m in decision.evaluation.moves] == [
                m.hindsight for m in alone.moves
            ]


@pytest.mark.parametrize("preset", ["venezuela", "mano_a_mano", "tres"])
@pytest.mark.parametrize("bonuses", [False, True])
def test_hindsight_agrees_with_a_brute_force_solve_on_small_positions(
    preset: str, bonuses: bool
) -> None:
    """Every move's hindsight against minimax with no pruning and no memory on the rules engine
    (scored by the core's scorekeeper), in positions with at most nine tiles off the line."""
    rules = Rules.make(preset, **(BONUSES if bonuses else {}))
    checked = 0
    for seed in range(80):
        hand = endgame(rules, seed, 9)
        if hand is None or len(hand.legal_moves()) < 2:
            continue
        view = hand_view(rules, hand, hand.turn, (0,) * rules.teams, 2)
        evaluation = evaluate(view, PRECISIONS["fast"], seed)
        if len(evaluation.moves) < 2:
            continue
        solved = hindsight(hand, rules, evaluation, NORMAL.hindsight_nodes)
        assert solved.hindsight_solved
        team = rules.team_of(hand.turn)
        for value in solved.moves:
            hand.push(value.move)
            exact = minimax(rules, hand, team) / (rules.teams - 1)
            hand.pop()
            assert value.hindsight == exact, (seed, value.move)
            checked += 1
    assert checked > 20
