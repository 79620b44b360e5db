"""The exact solver finds the same value as a plain minimax over the rules engine."""

from __future__ import annotations

import random

import pytest

from fichaflow.core.hand import Hand
from fichaflow.core.partida import facts_of
from fichaflow.core.rules import Rules
from fichaflow.core.scoring import score_hand
from fichaflow.search.engine import FastHand
from fichaflow.search.solver import OutOfNodes, Solver
from fichaflow.search.value import Valuer
from tests.search.helpers import ALL_PRESETS, BONUSES, new_hand


def _reference(rules: Rules, hand: Hand, team: int) -> int:
    """Minimax with no pruning and no memory, on the rules engine: ``team`` maximizes its gain
    against the others, everybody else minimizes it."""
    if hand.ended:
        gains = score_hand(rules, facts_of(hand)).gains(rules.teams)
        return gains[team] * rules.teams - sum(gains)
    values = []
    for move in hand.legal_moves():
        hand.push(move)
        values.append(_reference(rules, hand, team))
        hand.pop()
    return max(values) if rules.team_of(hand.turn) == team else min(values)


def _endgame(rules: Rules, seed: int, left: int) -> Hand | None:
    hand = new_hand(rules, seed)
    rng = random.Random(seed)
    while not hand.ended and sum(hand.counts()) + hand.stock_left > left:
        hand.play(rng.choice(hand.legal_moves()))
    return None if hand.ended else hand


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("bonuses", [False, True])
def test_solver_values_equal_plain_minimax(preset: str, bonuses: bool) -> None:
    rules = Rules.make(preset, **(BONUSES if bonuses else {}))
    valuer = Valuer(rules)
    solved = 0
    for seed in range(60):
        hand = _endgame(rules, seed, 9)
        if hand is None:
            continue
        for team in range(rules.teams):
            fast = FastHand.from_hand(hand)
            solver = Solver(valuer, team)
            solver.reset_table(fast)
            assert solver.value(fast) == _reference(rules, hand, team)
            solved += 1
    assert solved > 40


def test_move_values_are_the_values_after_each_move() -> None:
    rules = Rules.make("dominicana")
    valuer = Valuer(rules)
    for seed in range(30):
        hand = _endgame(rules, seed, 10)
        if hand is None:
            continue
        fast = FastHand.from_hand(hand)
        solver = Solver(valuer, rules.team_of(hand.turn))
        solver.reset_table(fast)
        moves = [0] * 64
        moves = moves[: fast.legal(moves)]
        expected = []
        for move in hand.legal_moves():
            hand.push(move)
            expected.append(_reference(rules, hand, rules.team_of(hand.history[-1].seat)))
            hand.pop()
        assert solver.move_values(fast, moves) == expected


def test_running_out_of_nodes_leaves_the_position_as_it_was() -> None:
    rules = Rules.make("venezuela")
    hand = new_hand(rules, 1)
    fast = FastHand.from_hand(hand)
    before = (list(fast.hands), fast.turn, fast.left, fast.right, fast.depth)
    solver = Solver(Valuer(rules), 0, budget=500)
    solver.reset_table(fast)
    with pytest.raises(OutOfNodes):
        solver.value(fast)
    assert (fast.hands, fast.turn, fast.left, fast.right, fast.depth) == before


def test_a_passed_deadline_stops_the_search_and_restores_the_position() -> None:
    rules = Rules.make("venezuela")
    fast = FastHand.from_hand(new_hand(rules, 2))
    before = (list(fast.hands), fast.turn, fast.depth)
    solver = Solver(Valuer(rules), 0, deadline=0.0)  # long gone
    solver.reset_table(fast)
    with pytest.raises(OutOfNodes):
        solver.value(fast)
    assert (fast.hands, fast.turn, fast.depth) == before
    assert solver.nodes <= 1024
