"""The exact solver finds the same value as a plain minimax over the rules engine."""

from __future__ import annotations

import pytest

from fichaflow.core.rules import Rules
from fichaflow.search.engine import FastHand
from fichaflow.search.solver import OutOfNodes, Solver
from fichaflow.search.value import Valuer
from tests.search.helpers import ALL_PRESETS, BONUSES, endgame, minimax, new_hand


@pytest.mark.parametrize("preset", ALL_PRESETS)
@pytest.mark.parametrize("bonuses", [False, True])
def test_solver_values_equal_plain_minimax(preset: str, bonuses: bool) -> None:
    rules = Rules.make(preset, **(BONUSES if bonuses else {}))
    valuer = Valuer(rules)
    solved = 0
    for seed in range(60):
        hand = endgame(rules, seed, 9)
        if hand is None:
            continue
        for team in range(rules.teams):
            fast = FastHand.from_hand(hand)
            solver = Solver(valuer, team)
            solver.reset_table(fast)
            assert solver.value(fast) == minimax(rules, hand, team)
            solved += 1
    assert solved > 40


def test_move_values_are_the_values_after_each_move() -> None:
    rules = Rules.make("dominicana")
    valuer = Valuer(rules)
    for seed in range(30):
        hand = endgame(rules, seed, 10)
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
            expected.append(minimax(rules, hand, rules.team_of(hand.history[-1].seat)))
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


@pytest.mark.parametrize("preset", ["venezuela", "mano_a_mano", "tres"])
def test_the_table_of_solved_positions_changes_no_value(preset: str) -> None:
    """Larger positions than minimax can afford, searched with and without the table (where a
    line and its mirror, the ends swapped, share an entry, and one table may serve a whole hand):
    the same value for every move."""
    rules = Rules.make(preset)
    valuer = Valuer(rules)
    compared = 0
    for seed in range(8):
        hand = endgame(rules, seed, 22)
        if hand is None:
            continue
        fast = FastHand.from_hand(hand)
        moves = _legal(fast)
        team = rules.team_of(hand.turn)
        keyed = Solver(valuer, team)
        keyed.reset_table(fast)
        plain = Solver(valuer, team)
        plain.reset_table(fast)
        plain._keyed = False  # alpha-beta alone
        assert keyed.move_values(fast, moves) == plain.move_values(fast, moves)
        compared += 1
    assert compared >= 6


def _legal(fast: FastHand) -> list[int]:
    buf = [0] * 64
    return buf[: fast.choices(buf)]
