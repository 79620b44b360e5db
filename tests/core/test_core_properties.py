"""Properties of the engine over thousands of random hands in every preset.

Each position is checked against the contract restated in ``kit``: the 28 tiles are conserved,
the pips add up to 168, the line is a chain whose ends are the open ends, the legal moves are
exactly the contract's, every illegal move is refused and changes nothing, each hand ends when
and how the contract says, push/pop and copy() restore and separate positions exactly.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fichaflow.core.deal import Deal, shuffle
from fichaflow.core.errors import FichaFlowError, IllegalMove
from fichaflow.core.hand import DRAW, End, EndKind, Hand, Move
from fichaflow.core.partida import Partida
from fichaflow.core.record import dump, parse_record, replay
from fichaflow.core.rules import PRESETS, Rules
from fichaflow.core.tiles import HALVES, PIPS, bits, tile_of
from tests.core.kit import (
    CANDIDATES,
    oracle_end_after,
    oracle_moves,
    random_move,
    snapshot,
)

RULES = {name: Rules.make(name) for name in PRESETS}
RULES["sorteo"] = Rules.make("venezuela", first_lead="sorteo")
RULES["tres_sorteo"] = Rules.make("tres", first_lead="sorteo")
TILE_OF = [[tile_of(a, b) for b in range(7)] for a in range(7)]
HANDS_PER_PRESET = 1000
QUICK_HANDS = 300  # the default run: the first hands of one preset per mode; --slow plays all
CHECK_ILLEGAL_EVERY = 10  # the full illegal-move sweep runs on one hand in this many


def new_hand(rules: Rules, seed: str, rng: random.Random) -> Hand:
    the_deal = Deal.from_seed(rules.seats, seed)
    partida = Partida(rules)
    leader, _ = partida.salida(the_deal)
    return partida.start_hand(the_deal, rng.randrange(rules.seats) if leader is None else None)


def check_state(hand: Hand) -> None:
    """The position is a real one: every tile in exactly one place, the line a chain."""
    places = [*hand.hands, hand.stock_mask, hand.line_mask]
    union = 0
    for mask in places:
        assert union & mask == 0, "a tile is in two places"
        union |= mask
    assert union == (1 << 28) - 1, "a tile went missing"
    line = hand.line()
    on_line = sum(a + b for a, b in line)
    stock = sum(PIPS[t] for t in hand.stock[hand.stock_pos :])
    assert sum(hand.pips()) + stock + on_line == 168
    assert sorted(TILE_OF[a][b] for a, b in line) == list(bits(hand.line_mask))
    for (_, right), (left, _) in itertools.pairwise(line):
        assert right == left, "the line is not a chain"
    assert hand.must_draw == (hand.legal_moves() == [DRAW]), "must_draw disagrees with the moves"
    if line:
        assert (line[0][0], line[-1][1]) == (hand.left, hand.right)
    else:
        assert (hand.left, hand.right) == (-1, -1)


def check_counts(hand: Hand) -> None:
    """Each seat holds its seven, plus what it drew, less what it placed."""
    for seat in range(hand.seats):
        plays = sum(1 for t in hand.history if t.seat == seat and t.move.is_play)
        draws = sum(1 for t in hand.history if t.seat == seat and t.move.is_draw)
        assert hand.hands[seat].bit_count() == 7 + draws - plays


def oracle_bonuses(hand: Hand) -> tuple[bool, list[int]]:
    """Salida pasada and pase redondo, read off the history as the contract words them."""
    history = [t for t in hand.history if not t.move.is_draw]
    after_lead = (hand.leader + 1) % hand.seats
    pasada = len(history) > 1 and history[1].move.is_pass and history[1].seat == after_lead
    redondo = []
    for i, turn in enumerate(history):
        if turn.move.is_play:
            rest = history[i + 1 : i + hand.seats]
            if len(rest) == hand.seats - 1 and all(t.move.is_pass for t in rest):
                redondo.append(turn.seat)
    return pasada, redondo


def step(hand: Hand, rng: random.Random, sweep: bool) -> None:
    """One random legal move, with every check around it."""
    check_state(hand)
    legal = hand.legal_moves()
    expected = oracle_moves(hand)
    if hand.left < 0:
        assert {m.tile for m in legal} == {m.tile for m in expected}
        assert set(legal) <= expected
    else:
        assert set(legal) == expected
        assert len(legal) == len(expected)
    if sweep:
        before = snapshot(hand)
        for move in CANDIDATES:
            if move in expected:
                hand.check(move)
                continue
            try:
                hand.play(move)
            except IllegalMove:
                pass
            else:
                raise AssertionError(f"{move} was played but the contract forbids it")
            assert snapshot(hand) == before
    move = random_move(hand, rng)
    before = snapshot(hand)
    seat, left, right = hand.turn, hand.left, hand.right
    other = hand.copy()
    hand.play(move)
    assert snapshot(other) == before, "copy() shares state with the original"
    # push/pop restores the position exactly
    after = snapshot(hand)
    assert hand.pop() == move
    assert snapshot(hand) == before
    hand.push(move)
    assert snapshot(hand) == after
    # the copy moves on its own
    other.play(move)
    assert snapshot(other) == after
    other.pop()
    assert snapshot(hand) == after
    # how the hand stands now
    if move.is_play:
        end = oracle_end_after(hand, seat, move.tile, left, right)
        if end.kind is None:
            assert hand.result is None
            assert hand.turn == (seat + 1) % hand.seats
        else:
            assert hand.result is not None
            assert (hand.result.kind, hand.result.seat) == (end.kind, end.seat)
            assert (hand.result.capicua, hand.result.chuchazo) == (end.capicua, end.chuchazo)
            assert hand.result.tile == move.tile
    elif move.is_draw:
        assert hand.turn == seat
        assert hand.history[-1].drawn >= 0
    else:
        assert hand.turn == (seat + 1) % hand.seats
    pasada, redondo = oracle_bonuses(hand)
    assert hand.salida_pasada == pasada
    assert hand.pase_redondo == redondo


@pytest.mark.parametrize(
    ("preset", "hands"),
    [pytest.param(p, QUICK_HANDS, id=f"{p}-quick") for p in ("venezuela", "mano_a_mano", "tres")]
    + [pytest.param(p, HANDS_PER_PRESET, id=p, marks=pytest.mark.slow) for p in sorted(RULES)],
)
def test_random_hands_keep_every_invariant(preset: str, hands: int) -> None:
    rules = RULES[preset]
    rng = random.Random(f"props-{preset}")
    seen: dict[str, int] = {"domino": 0, "tranque": 0, "capicua": 0, "draw": 0, "pass": 0}
    for number in range(hands):
        hand = new_hand(rules, f"props-{preset}-{number}", rng)
        sweep = number % CHECK_ILLEGAL_EVERY == 0
        while not hand.ended:
            step(hand, rng, sweep)
        check_state(hand)
        check_counts(hand)
        assert hand.legal_moves() == []
        assert hand.result is not None
        seen[str(hand.result.kind)] += 1
        seen["capicua"] += hand.result.capicua
        seen["draw"] += any(t.move.is_draw for t in hand.history)
        seen["pass"] += any(t.move.is_pass for t in hand.history)
    assert seen["domino"] and seen["tranque"] and seen["capicua"] and seen["pass"], seen
    if rules.has_stock:
        assert seen["draw"], seen


@pytest.mark.parametrize("preset", sorted(RULES))
def test_a_written_hand_replays_to_the_same_result(preset: str) -> None:
    rules = Rules.make(
        RULES[preset].preset,
        **{k: v for k, v in RULES[preset].dump().items() if k != "preset"},
        target=500,
        pase_redondo_bonus=4,
        salida_pasada_bonus=3,
        capicua_bonus=2,
        tranque_bonus=1,
    )
    rng = random.Random(preset)
    partida = Partida(rules)
    for number in range(150):
        if partida.over:
            break
        the_deal = Deal.from_seed(rules.seats, f"replay-{preset}-{number}")
        leader, _ = partida.salida(the_deal)
        hand = partida.start_hand(the_deal, rng.randrange(rules.seats) if leader is None else None)
        while not hand.ended:
            partida.play(random_move(hand, rng))
        again = replay(parse_record(dump(partida)))
        assert again.played[-1].score == partida.played[-1].score
        assert again.played[-1].hand.history == hand.history
        assert again.scores == partida.scores
        assert again.winner == partida.winner


# -- the same, driven by hypothesis: any sequence of tries, legal or not --------------------------


@settings(max_examples=300, deadline=None)
@given(
    preset=st.sampled_from(sorted(RULES)),
    seed=st.integers(0, 10**6),
    tries=st.lists(st.tuples(st.integers(0, len(CANDIDATES) - 1), st.booleans()), max_size=120),
)
def test_any_sequence_of_tries_is_either_played_or_refused_unchanged(
    preset: str, seed: int, tries: list[tuple[int, bool]]
) -> None:
    rules = RULES[preset]
    rng = random.Random(seed)
    hand = new_hand(rules, f"h{seed}", rng)
    for index, take_back in tries:
        if hand.ended:
            break
        move = CANDIDATES[index]
        legal = move in oracle_moves(hand)
        before = snapshot(hand)
        try:
            hand.play(move)
        except FichaFlowError:
            assert not legal, move
            assert snapshot(hand) == before
            move = random_move(hand, rng)  # make progress with a legal one
            hand.play(move)
        else:
            assert legal, move
        check_state(hand)
        if take_back:
            hand.pop()
            assert snapshot(hand) == before


@settings(max_examples=200, deadline=None)
@given(seed=st.text(max_size=12), seats=st.sampled_from([2, 3, 4]))
def test_a_seeded_deal_is_a_whole_fair_deal(seed: str, seats: int) -> None:
    order = shuffle(seed)
    assert sorted(order) == list(range(28))
    assert shuffle(seed) == order
    the_deal = Deal.from_seed(seats, seed)
    preset = {2: "mano_a_mano", 3: "tres", 4: "venezuela"}[seats]
    the_deal.check(Rules.make(preset))
    assert all(h.bit_count() == 7 for h in the_deal.hands)
    assert len(the_deal.stock) == 28 - 7 * seats


def test_ends_of_a_played_tile_follow_the_line() -> None:
    """A tile placed on an end shows its other half there (the contract's end choice)."""
    rng = random.Random(0)
    for number in range(200):
        hand = new_hand(RULES["venezuela"], f"ends-{number}", rng)
        while not hand.ended:
            move = random_move(hand, rng)
            left, right = hand.left, hand.right
            hand.play(move)
            if move.is_play and move.end is not None:
                a, b = HALVES[move.tile]
                if move.end is End.LEFT:
                    assert left in (a, b)
                    assert hand.left == (b if left == a else a)
                    assert hand.right == right
                else:
                    assert right in (a, b)
                    assert hand.right == (b if right == a else a)
                    assert hand.left == left
            elif move.is_play:
                assert (hand.left, hand.right) == (move.left, sum(HALVES[move.tile]) - move.left)  # type: ignore[operator]
        assert hand.result is not None
        assert hand.result.kind in (EndKind.DOMINO, EndKind.TRANQUE)
        assert isinstance(hand.history[0].move, Move)
