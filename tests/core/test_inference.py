"""Seat inference: what a seat deduces is never contradicted by the hidden hands, and names the
table's facts (passes, draws, doble muerto, the salida) as a player would."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from fichaflow.core import inference as kn
from fichaflow.core.deal import Deal
from fichaflow.core.hand import End, Hand, Move
from fichaflow.core.partida import Partida
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import PIPS, SUIT, bits, parse, tile_of
from fichaflow.core.view import hand_view

PRESETS = ["venezuela", "dominicana", "mano_a_mano", "tres"]


def t(text: str) -> int:
    return parse(text)


def seq(text: str) -> list[int]:
    return [parse(w) for w in text.split()]


def m(text: str) -> int:
    return sum(1 << parse(w) for w in text.split())


def random_positions(preset: str, seed: int, first_hand: bool) -> tuple[Rules, list[Hand], int]:
    """Every position of one randomly played hand, as (rules, hand, hand_number)."""
    rules = Rules.make(preset)
    deal = Deal.from_seed(rules.seats, f"kn:{seed}")
    rng = random.Random(seed)
    if first_hand:
        hand = Partida(rules).start_hand(deal) if rules.first_lead != "sorteo" else None
        number = 1
    else:
        hand = Hand(list(deal.hands), deal.stock, seed % rules.seats)
        number = 2
    assert hand is not None
    positions = [hand.copy()]
    while not hand.ended:
        hand.play(rng.choice(hand.legal_moves()))
        positions.append(hand.copy())
    return rules, positions, number


@settings(max_examples=60, deadline=None)
@given(
    preset=st.sampled_from(PRESETS),
    seed=st.integers(0, 10**6),
    first_hand=st.booleans(),
)
def test_deductions_never_contradict_the_hidden_hands(preset, seed, first_hand):
    rules, positions, number = random_positions(preset, seed, first_hand)
    for hand in positions:
        for viewer in [*range(rules.seats), None]:
            view = hand_view(rules, hand, viewer, hand_number=number)
            know = kn.deduce(view)
            others = 0
            for s in range(rules.seats):
                if s != viewer:
                    others |= hand.hands[s]
            assert know.unseen == others | hand.stock_mask
            bounds = kn.pip_bounds(view)
            odds = kn.holder_odds(know)
            for s in range(rules.seats):
                actual = hand.hands[s]
                assert not actual & know.excluded[s], (s, viewer)
                assert know.held[s] & ~actual == 0
                low, high = bounds[s]
                assert low <= sum(PIPS[x] for x in bits(actual)) <= high
                for n in range(7):
                    if know.surely_lacks(s, n):
                        assert not actual & SUIT[n]
                for x in bits(actual):
                    assert odds[x][s] > 0  # a tile it holds is never called impossible
            for x in bits(know.unseen):
                assert abs(sum(odds[x]) - 1) < 1e-6
            for s in range(rules.seats):
                if s != viewer:
                    column = sum(odds[x][s] for x in range(28))
                    assert abs(column - hand.counts()[s]) < 1e-3


def test_a_pass_proves_the_numbers_it_faced_are_missing():
    rules = Rules.make("venezuela")
    hands = [
        m("6-6 6-5 1-0 2-0 3-0 4-0 5-0"),
        m("1-1 2-1 3-1 2-2 3-2 3-3 4-1"),
        m("6-4 5-5 5-4 4-4 5-1 5-2 5-3"),
        m("6-0 6-1 6-2 6-3 4-2 4-3 0-0"),
    ]
    hand = Hand(hands, (), 0)
    hand.play(Move.lead(t("6-6")))
    hand.play(hand.legal_moves()[0])  # seat 1 holds no six: it passes on the cochina
    view = hand_view(rules, hand, 0, hand_number=2)
    assert kn.lacking(view)[1] == 1 << 6
    assert kn.deduce(view).surely_lacks(1, 6)
    assert not kn.deduce(view).surely_lacks(2, 6)


def test_later_draws_are_not_bound_by_an_earlier_pass():
    rules = Rules.make("mano_a_mano")
    # seat 1 faces 6|6 and 5|6 with no six or five: it draws; an earlier proof is forgotten,
    # the numbers faced while drawing are proved once the drawn tile has been played.
    hands = [m("6-6 6-5 6-4 0-0 1-1 2-2 3-3"), m("1-0 2-0 3-0 4-0 2-1 3-1 4-1")]
    stock = seq("5-5 5-4 4-4 6-0 6-1 6-2 6-3 5-0 5-1 5-2 5-3 4-2 4-3 3-2")
    hand = Hand(hands, tuple(stock), 0)
    hand.play(Move.lead(t("6-6")))
    view = hand_view(rules, hand, 0, hand_number=2)
    hand.play(hand.legal_moves()[0])  # seat 1: draw 5-5 (no six)
    mid = hand_view(rules, hand, 0, hand_number=2)
    # seat 1 is still drawing: the tile it holds now may fit, nothing is proved yet
    assert kn.deduce(mid).excluded[1] == 0
    while not hand.playable():
        hand.play(hand.legal_moves()[0])
    hand.play(hand.legal_moves()[0])  # plays the six it drew (6-0)
    after = hand_view(rules, hand, 0, hand_number=2)
    know = kn.deduce(after)
    assert know.surely_lacks(1, 6)  # everything else it drew had no six
    assert not know.surely_lacks(1, 5) or not hand.hands[1] & SUIT[5]
    assert kn.lacking(view)[1] == 0


def test_doble_muerto_is_a_double_whose_six_others_are_down():
    rules = Rules.make("venezuela")
    hands = [
        m("6-0 6-3 0-0 1-0 2-0 3-0 4-0"),
        m("6-1 4-3 6-6 1-1 2-2 3-3 4-4"),
        m("2-1 6-4 3-1 3-2 4-1 4-2 5-5"),
        m("6-2 6-5 5-0 5-1 5-2 5-3 5-4"),
    ]
    hand = Hand(hands, (), 0)
    hand.play(Move.lead(t("6-0"), 6))
    for tile in seq("6-1 2-1 6-2 6-3 4-3 6-4"):
        hand.play(Move(tile, End.LEFT))
    before = hand_view(rules, hand, 0, hand_number=2)
    assert kn.dead_doubles(before) == 0  # 6-5 is still out, and a six shows on the left
    assert kn.numbers_not_played(before)[6] == 2  # 6-5 and the cochina
    assert kn.numbers_unseen(before)[6] == 2  # seat 0 holds neither
    hand.play(Move(t("6-5"), End.LEFT))
    after = hand_view(rules, hand, 0, hand_number=2)
    assert kn.dead_doubles(after) == 1 << t("6-6")
    assert kn.numbers_not_played(after)[6] == 1


def test_salida_announces_a_number_unless_the_rules_forced_it():
    rules = Rules.make("venezuela")
    deal = Deal.from_seed(4, "salida")
    free = Hand(list(deal.hands), (), 1)
    double = next(x for x in bits(free.hands[1]) if x in {tile_of(n, n) for n in range(7)})
    free.play(Move.lead(double))
    view = hand_view(rules, free, 0, hand_number=3)
    n = next(n for n in range(7) if tile_of(n, n) == double)
    assert kn.announced(view)[1] == 1 << n
    assert kn.strength(view, 1)[n] == 2.0
    forced = Partida(rules).start_hand(deal)
    forced.play(Move.lead(tile_of(6, 6)))
    assert kn.announced(hand_view(rules, forced, 0, hand_number=1)) == (0, 0, 0, 0)


def test_doble_mayor_salida_proves_nobody_was_dealt_a_higher_double():
    rules = Rules.make("tres")
    hands = [
        m("4-4 1-0 2-0 3-0 2-1 3-1 4-1"),
        m("6-0 6-1 6-2 6-3 5-0 5-1 5-2"),
        m("6-4 6-5 5-3 5-4 4-0 4-2 4-3"),
    ]
    stock = seq("0-0 1-1 2-2 3-3 5-5 6-6 3-2")
    partida = Partida(rules)
    hand = partida.start_hand(Deal(tuple(hands), tuple(stock)))
    assert hand.forced_lead == t("4-4") and hand.leader == 0
    before = hand_view(rules, hand, 1, hand_number=1)
    assert kn.deduce(before).held[0] == 1 << t("4-4")
    hand.play(Move.lead(t("4-4")))
    view = hand_view(rules, hand, 1, hand_number=1)
    know = kn.deduce(view)
    for s in (0, 2):
        assert know.excluded[s] >> t("5-5") & 1 and know.excluded[s] >> t("6-6") & 1
        assert not know.excluded[s] >> t("3-3") & 1


def test_closes_agrees_with_the_engine_on_every_legal_move():
    rng = random.Random(5)
    for seed in range(120):
        preset = PRESETS[seed % len(PRESETS)]
        rules = Rules.make(preset)
        deal = Deal.from_seed(rules.seats, f"closes:{seed}")
        hand = Hand(list(deal.hands), deal.stock, seed % rules.seats)
        while not hand.ended:
            view = hand_view(rules, hand, hand.turn, hand_number=2)
            for move in hand.legal_moves():
                trial = hand.copy()
                trial.play(move)
                tranque = trial.result is not None and trial.result.kind == "tranque"
                assert kn.closes(view, move) == tranque
            hand.play(rng.choice(hand.legal_moves()))


def test_tranque_value_asks_the_scorekeeper():
    rules = Rules.make("dominicana")  # abajo, count all
    hands = [
        m("6-6 6-5 1-0 2-0 3-0 4-0 5-0"),
        m("0-0 1-1 2-2 3-3 4-4 5-5 2-1"),
        m("6-4 5-4 5-1 5-2 5-3 6-0 6-1"),
        m("6-2 6-3 4-2 4-3 3-2 3-1 4-1"),
    ]
    hand = Hand(hands, (), 0)
    hand.play(Move.lead(t("6-6")))
    view = hand_view(rules, hand, 0, hand_number=2)
    move = Move(t("6-5"), End.LEFT)
    # closer 0 holds 8, next 1 holds 11: the closer wins, its pair scores all 40
    assert kn.tranque_value(view, move, (8, 11, 7, 14)) == 40
    assert kn.tranque_value(view, move, (12, 11, 7, 14)) == -44


def test_a_double_called_dead_is_never_played_again() -> None:
    """Doble muerto means the double can no longer be played: check it against the rest of real
    hands, including positions where both ends show the number (the double still fits there)."""
    rng = random.Random(11)
    rules = Rules.make("venezuela")
    end_case_seen = False
    for n in range(400):
        hand = Hand(list(Deal.from_seed(4, f"muerto-{n}").hands), (), n % 4)
        called: list[tuple[int, int]] = []  # (tile, move index) when first called dead
        while not hand.ended:
            view = hand_view(rules, hand, 0, hand_number=2)
            dead = kn.dead_doubles(view)
            for double in bits(dead):
                if double not in [d for d, _ in called]:
                    called.append((double, len(hand.history)))
            if hand.left >= 0 and hand.left == hand.right:
                d = tile_of(hand.left, hand.left)
                partners = SUIT[hand.left] & ~(1 << d)
                if not hand.line_mask >> d & 1 and partners & ~hand.line_mask == 0:
                    end_case_seen = True
                    assert not dead >> d & 1, "a double that fits both ends is not dead"
            hand.play(rng.choice(hand.legal_moves()))
        played = {t.move.tile: i for i, t in enumerate(hand.history) if t.move.is_play}
        for double, since in called:
            assert played.get(double, -1) < since, f"{double} was called dead and then played"
    assert end_case_seen, "the sample reached a position where a dead-looking double still fits"
