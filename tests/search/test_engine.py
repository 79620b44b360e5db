"""The search engine plays exactly the rules engine's game: same moves, ends, results, scores."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fichaflow.core.hand import EndKind, Hand
from fichaflow.core.partida import facts_of
from fichaflow.core.rules import Rules
from fichaflow.core.scoring import score_hand
from fichaflow.core.tiles import IS_DOUBLE, PIPS
from fichaflow.search.engine import DRAW, PASS, FastHand, from_core
from fichaflow.search.value import Valuer
from tests.search.helpers import ALL_PRESETS, BONUSES, MODE_PRESETS, core_end, new_hand, to_core

HANDS_PER_MODE = 1500


def _same_position(fast: FastHand, hand: Hand) -> None:
    assert fast.hands == hand.hands
    assert fast.turn == hand.turn
    assert (fast.left, fast.right) == (hand.left, hand.right)
    assert fast.stock_left == hand.stock_left
    assert tuple(fast.pips) == hand.pips()
    assert fast.ended == hand.ended
    assert fast.salida_pasada == hand.salida_pasada
    assert fast.pase_redondo == hand.pase_redondo


def _legal(fast: FastHand) -> list[int]:
    out = [0] * 64
    return out[: fast.legal(out)]


def _play_both(rules: Rules, seed: int) -> tuple[Hand, FastHand, list[int]]:
    """Play one random hand move by move through both engines, comparing every position."""
    hand = new_hand(rules, seed)
    fast = FastHand.from_hand(hand)
    rng = random.Random(seed)
    made = []
    _same_position(fast, hand)
    while not hand.ended:
        core_moves = hand.legal_moves()
        fast_moves = _legal(fast)
        assert [from_core(m) for m in core_moves] == fast_moves
        assert [to_core(m, hand.left < 0) for m in fast_moves] == core_moves
        move = rng.choice(fast_moves)
        hand.play(to_core(move, hand.left < 0))
        fast.make(move)
        made.append(move)
        _same_position(fast, hand)
    return hand, fast, made


@pytest.mark.parametrize("preset", MODE_PRESETS)
def test_thousands_of_random_hands_agree_move_by_move(preset: str) -> None:
    rules = Rules.make(preset)
    met: set[str] = set()
    for seed in range(HANDS_PER_MODE):
        hand, fast, _ = _play_both(rules, seed)
        assert hand.result is not None
        assert core_end(fast) == (hand.result.kind, hand.result.seat, hand.result.tile)
        assert fast.capicua == hand.result.capicua
        assert fast.chuchazo == hand.result.chuchazo
        met.add(hand.result.kind)
        met.update(
            rule
            for rule, happened in (
                ("capicua", hand.result.capicua),
                ("salida_pasada", hand.salida_pasada),
                ("pase_redondo", hand.pase_redondo),
            )
            if happened
        )
    # Every in-play rule was met, so the engines were compared on each of them (with a montón
    # a pass is rare: the player draws first, so the bonuses of passes are met in parejas).
    expected = {EndKind.DOMINO, EndKind.TRANQUE, "capicua"}
    if not rules.has_stock:
        expected |= {"salida_pasada", "pase_redondo"}
    assert expected <= met


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_scores_of_finished_hands_agree_with_the_scorekeeper(preset: str) -> None:
    rules = Rules.make(preset, **BONUSES)
    valuer = Valuer(rules)
    for seed in range(300):
        hand, fast, _ = _play_both(rules, seed)
        expected = score_hand(rules, facts_of(hand)).gains(rules.teams)
        assert valuer.gains(fast.end_key()) == expected
        for team in range(rules.teams):
            others = sum(expected) - expected[team]
            assert valuer.value(fast.end_key(), team) == expected[team] * (rules.teams - 1) - others


@pytest.mark.parametrize("preset", MODE_PRESETS)
def test_undo_takes_every_move_back_to_the_deal(preset: str) -> None:
    rules = Rules.make(preset)
    for seed in range(200):
        start = new_hand(rules, seed)
        fast_start = FastHand.from_hand(start)
        snapshot = (list(fast_start.hands), fast_start.turn, fast_start.stock_pos)
        _, _, made = _play_both(rules, seed)
        fast = FastHand.from_hand(start)
        for move in made:
            fast.make(move)
        for _ in made:
            fast.undo()
        assert (fast.hands, fast.turn, fast.stock_pos) == snapshot
        assert (fast.left, fast.right, fast.ended, fast.pase_redondo) == (-1, -1, False, [])
        assert fast.pips == fast_start.pips


@settings(max_examples=300, deadline=None)
@given(
    preset=st.sampled_from(ALL_PRESETS),
    seed=st.integers(0, 10**9),
    prefix=st.integers(0, 40),
    greedy=st.sampled_from([0.0, 0.5, 1.0]),
)
def test_playouts_are_legal_hands_with_the_rules_engine_result(
    preset: str, seed: int, prefix: int, greedy: float
) -> None:
    """A playout from any position is a legal continuation, and its end is the engine's end."""
    rules = Rules.make(preset, **BONUSES)
    hand = new_hand(rules, seed)
    rng = random.Random(seed)
    for _ in range(prefix):
        if hand.ended:
            break
        hand.play(rng.choice(hand.legal_moves()))
    fast = FastHand.from_hand(hand)
    before = (list(fast.hands), fast.turn, fast.stock_pos, fast.left, fast.right)
    trace: list[int] = []
    key = fast.playout(rng.random, greedy, trace)
    assert (fast.hands, fast.turn, fast.stock_pos, fast.left, fast.right) == before
    for move in trace:
        hand.play(to_core(move, hand.left < 0))  # raises if the playout broke a rule
    assert hand.ended
    assert key == FastHand.from_hand(hand).end_key()
    valuer = Valuer(rules)
    assert valuer.gains(key) == score_hand(rules, facts_of(hand)).gains(rules.teams)


@given(preset=st.sampled_from(MODE_PRESETS), seed=st.integers(0, 10**9))
def test_a_greedy_playout_sheds_a_double_first_then_the_heaviest(preset: str, seed: int) -> None:
    """With greedy 1 every player with a choice of tiles lays a double when it holds one that
    fits (the heaviest such), else its heaviest tile that fits: checked move by move against the
    rules engine's own hand and legal moves."""
    rules = Rules.make(preset)
    hand = new_hand(rules, seed)
    fast = FastHand.from_hand(hand)
    trace: list[int] = []
    fast.playout(random.Random(seed).random, 1.0, trace)
    chosen = 0
    for move in trace:
        played = to_core(move, hand.left < 0)
        tiles = {m.tile for m in hand.legal_moves() if m.is_play}
        if played.is_play and len(tiles) > 1:
            doubles = [t for t in tiles if IS_DOUBLE[t]]
            best = max(PIPS[t] for t in doubles or tiles)
            assert PIPS[played.tile] == best and (not doubles or played.tile in doubles)
            chosen += 1
        hand.play(played)
    assert hand.ended
    assert chosen or len(trace) < 8  # a hand of any length but the shortest has choices


def test_choices_drop_only_mirror_moves() -> None:
    """Two equal open ends make a tile's two placements mirror images: only one is searched."""
    rules = Rules.make("venezuela")
    found = 0
    for seed in range(300):
        hand = new_hand(rules, seed)
        fast = FastHand.from_hand(hand)
        rng = random.Random(seed)
        while not fast.ended:
            legal = _legal(fast)
            out = [0] * 64
            chosen = out[: fast.choices(out)]
            if fast.left >= 0 and fast.left == fast.right and len(legal) > 1:
                assert chosen == [m for m in legal if m < 0 or not m & 1]
                found += 1
            else:
                assert chosen == legal
            fast.make(rng.choice(legal))
    assert found > 0


def test_draws_and_passes_are_the_only_moves_when_nothing_fits() -> None:
    rules = Rules.make("mano_a_mano")
    saw_draw = saw_pass = False
    for seed in range(300):
        _, _, made = _play_both(rules, seed)
        saw_draw |= DRAW in made
        saw_pass |= PASS in made
    assert saw_draw and saw_pass


def _walk(fast: FastHand, hand: Hand, budget: list[int]) -> int:
    """Visit endings depth first through both engines at once; returns the leaves reached."""
    if fast.ended:
        assert hand.ended
        assert fast.end_key() == FastHand.from_hand(hand).end_key()
        return 1
    leaves = 0
    moves = _legal(fast)
    assert [from_core(m) for m in hand.legal_moves()] == moves
    for move in moves:
        if budget[0] <= 0:
            break
        budget[0] -= 1
        fast.make(move)
        hand.push(to_core(move, hand.left < 0))
        leaves += _walk(fast, hand, budget)
        fast.undo()
        hand.pop()
        _same_position(fast, hand)
    return leaves


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_searching_every_ending_with_make_and_undo_matches_the_rules_engine(preset: str) -> None:
    """Depth-first search over make/undo (as the solver does) reaches the same ends, with the
    same facts, as the rules engine's push/pop over the same moves."""
    rules = Rules.make(preset, **BONUSES)
    leaves = 0
    for seed in range(40):
        hand = new_hand(rules, seed)
        rng = random.Random(seed)
        while not hand.ended and sum(hand.counts()) > 9:
            hand.play(rng.choice(hand.legal_moves()))
        if hand.ended:
            continue
        leaves += _walk(FastHand.from_hand(hand), hand, [3000])
    assert leaves > 200
