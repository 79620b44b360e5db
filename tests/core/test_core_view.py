"""Seat views: before a hand ends no other seat's tile can be told from what a seat is shown.

Two checks. (a) The view's JSON names no tile but the seat's own, the line's and the seat's own
draws (and, before the lead, the tile the rules force, which the table knows). (b) Move the hidden
tiles around among the other hands and the montón, replay the same public moves on that other
deal where they stay legal, and the seat's view is identical.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from fichaflow.core.deal import Deal
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import Hand
from fichaflow.core.partida import Partida, first_salida
from fichaflow.core.rules import PRESETS, Rules
from fichaflow.core.tiles import ALL_TILES, parse
from fichaflow.core.view import (
    VIEW_KEYS,
    HandMemo,
    TurnJson,
    hand_view,
    hand_views,
    hand_views_json,
    seat_view,
)
from tests.core.kit import deal, play_tokens, random_move, start, tiles
from tests.core.scenarios import DRAW_HANDS, DRAW_STOCK, TRANQUE_MOVES, tranque_deal

TILE_TEXT = re.compile(r"\b([0-6])-([0-6])\b")


def named_tiles(data: Any) -> set[int]:
    """Every tile written anywhere in a JSON value."""
    found: set[int] = set()
    if isinstance(data, str):
        found |= {parse(f"{a}-{b}") for a, b in TILE_TEXT.findall(data)}
    elif isinstance(data, dict):
        for key, value in data.items():
            found |= named_tiles(key) | named_tiles(value)
    elif isinstance(data, list | tuple):
        for item in data:
            found |= named_tiles(item)
    return found


def own_draws(hand: Hand, seat: int) -> set[int]:
    return {t.drawn for t in hand.history if t.move.is_draw and t.seat == seat}


def allowed_for(hand: Hand, seat: int | None) -> set[int]:
    allowed = {t for t in range(28) if hand.line_mask >> t & 1}
    if seat is not None:
        allowed |= {t for t in range(28) if hand.hands[seat] >> t & 1} | own_draws(hand, seat)
    if hand.left < 0 and hand.forced_lead is not None:
        allowed.add(hand.forced_lead)  # the rules make it public who leads it
    return allowed


def random_hands(preset: str, count: int, seed: int) -> list[tuple[Rules, Deal, Hand]]:
    """Finished random hands (first hands of a partida), with their deals."""
    rules = (
        Rules.make(preset) if preset != "sorteo" else Rules.make("venezuela", first_lead="sorteo")
    )
    rng = random.Random(seed)
    out = []
    for number in range(count):
        the_deal = Deal.from_seed(rules.seats, f"view-{preset}-{seed}-{number}")
        leader, _ = Partida(rules).salida(the_deal)
        _, hand = start(rules, the_deal, rng.randrange(rules.seats) if leader is None else None)
        while not hand.ended:
            hand.play(random_move(hand, rng))
        out.append((rules, the_deal, hand))
    return out


def rewind(hand: Hand, moves: int) -> Hand:
    """A copy of ``hand`` after its first ``moves`` moves."""
    copy = hand.copy()
    while len(copy.history) > moves:
        copy.pop()
    return copy


ALL_PRESETS = [*PRESETS, "sorteo"]


# -- (a) nothing hidden is named ------------------------------------------------------------------


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_a_view_names_only_own_tiles_line_and_own_draws(preset: str) -> None:
    for rules, _, finished in random_hands(preset, 25, seed=1):
        for moves in range(len(finished.history)):
            hand = rewind(finished, moves)
            for seat in [*range(rules.seats), None]:
                view = hand_view(rules, hand, seat)
                data = view.to_json()
                assert named_tiles(data) <= allowed_for(hand, seat)
                assert data["revealed"] is None
                if seat is None:
                    assert data["tiles"] == []
                    assert data["legal"] == []
                else:
                    assert named_tiles(data["tiles"]) == {
                        t for t in range(28) if hand.hands[seat] >> t & 1
                    }


def test_only_the_drawer_sees_the_drawn_tiles() -> None:
    _, hand = start(Rules.make("mano_a_mano"), deal(*DRAW_HANDS, stock=DRAW_STOCK))
    play_tokens(hand, ["6-6", "6-2:left"])
    rules = Rules.make("mano_a_mano")
    drawer = hand_view(rules, hand, 1).to_json()
    other = hand_view(rules, hand, 0).to_json()
    miron = hand_view(rules, hand, None).to_json()
    assert [h.get("drawn") for h in drawer["history"] if h["kind"] == "draw"] == [
        "4-3", "4-4", "6-2",
    ]  # fmt: skip
    for view in (other, miron):
        draws = [h for h in view["history"] if h["kind"] == "draw"]
        assert len(draws) == 3  # that seat 1 drew three times is public
        assert all("drawn" not in h for h in draws)
        assert not named_tiles(view) & set(tiles("4-3 4-4"))
    assert other["counts"] == [6, 9]
    assert other["stock_left"] == 11


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_views_built_together_are_the_views_built_alone(preset: str) -> None:
    """The server builds every seat's view of a move at once, sharing what all of them saw; no
    seat's drawn tile may leak into another's view through what is shared."""
    for rules, _, finished in random_hands(preset, 8, seed=2):
        for moves in range(0, len(finished.history) + 1, 3):
            hand = rewind(finished, moves)
            seats = [None, *range(rules.seats)]
            for order in (seats, seats[::-1]):
                together = hand_views(rules, hand, order)
                memo: dict[int, TurnJson] = {}
                written = {seat: together[seat].to_json(memo) for seat in order}
                straight = hand_views_json(rules, hand, order)
                for seat in seats:
                    alone = hand_view(rules, hand, seat)
                    assert together[seat] == alone
                    assert written[seat] == alone.to_json()
                    assert straight[seat] == alone.to_json()
                    assert list(straight[seat]) == list(VIEW_KEYS)  # the protocol's order
                    if not hand.ended:  # at the end every hand is face up
                        assert named_tiles(written[seat]) <= allowed_for(hand, seat)


def _kept_views_are_fresh(memo: HandMemo, rules: Rules, hand: Hand) -> None:
    seats = [None, *range(rules.seats)]
    together = hand_views(rules, hand, seats, memo=memo)
    written = memo.written()
    straight = hand_views_json(rules, hand, seats, memo=memo)
    for seat in seats:
        view = together[seat].to_json(written)
        fresh = hand_view(rules, hand, seat).to_json()
        assert view == fresh
        assert straight[seat] == fresh
        if not hand.ended:
            assert named_tiles(view) <= allowed_for(hand, seat)
            assert named_tiles(straight[seat]) <= allowed_for(hand, seat)


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_views_kept_from_move_to_move_are_the_views_built_afresh(preset: str) -> None:
    """The server keeps one memo per mesa and builds each move's views with it (each turn worked
    out once a hand): after every move, after a move taken back, and on the next hand, every
    seat's view is the one built afresh, and no seat's drawn tile reaches another's."""
    memo = HandMemo()  # one for all these hands, as a mesa's over its partida
    for rules, _, finished in random_hands(preset, 4, seed=3):
        live = rewind(finished, 0)
        _kept_views_are_fresh(memo, rules, live)
        for number, turn in enumerate(finished.history):
            live.play(turn.move)
            _kept_views_are_fresh(memo, rules, live)
            if number % 5 == 4:  # a move taken back, and played again
                live.pop()
                _kept_views_are_fresh(memo, rules, live)
                live.play(turn.move)
                _kept_views_are_fresh(memo, rules, live)
        assert live.history == finished.history


def test_a_miron_sees_no_tiles_but_the_line() -> None:
    _, hand = start(Rules.make("venezuela"), tranque_deal("A"))
    play_tokens(hand, TRANQUE_MOVES[:4])
    view = hand_view(Rules.make("venezuela"), hand, None)
    assert view.seat is None
    assert view.tiles == 0
    assert view.legal == ()
    assert not view.my_turn
    assert named_tiles(view.to_json()) == set(tiles("6-6 6-4 6-3 4-5"))


def test_after_the_hand_every_hand_is_revealed() -> None:
    partida, hand = start(Rules.make("venezuela"), tranque_deal("A"))
    assert seat_view(Partida(Rules.make("venezuela")), 0) is None  # nothing dealt yet
    play_tokens(partida, TRANQUE_MOVES)
    for seat in (0, 1, 2, 3, None):
        view = seat_view(partida, seat)
        assert view is not None
        assert view.ended
        assert view.revealed == tuple(hand.hands)
        revealed = view.to_json()["revealed"]
        assert revealed is not None
        assert [{parse(t) for t in row} for row in revealed] == [
            {t for t in range(28) if h >> t & 1} for h in hand.hands
        ]


# -- (b) moving the hidden tiles changes nothing the seat is shown --------------------------------


def _alternative_deal(
    the_deal: Deal, hand: Hand, seat: int, rng: random.Random, swap_only: bool
) -> Deal | None:
    """The deal with the tiles hidden from ``seat`` moved around (one swap, or a shuffle)."""
    known = the_deal.hands[seat] | hand.line_mask
    for t in own_draws(hand, seat):
        known |= 1 << t
    if hand.left < 0 and hand.forced_lead is not None:
        known |= 1 << hand.forced_lead
    hidden = [t for t in range(28) if (ALL_TILES & ~known) >> t & 1]
    if len(hidden) < 2:
        return None
    if swap_only:
        a, b = rng.sample(hidden, 2)
        mapping = {a: b, b: a}
    else:
        shuffled = hidden[:]
        rng.shuffle(shuffled)
        mapping = dict(zip(hidden, shuffled, strict=True))

    def moved(mask: int) -> int:
        return sum(1 << mapping.get(t, t) for t in range(28) if mask >> t & 1)

    hands = tuple(moved(h) for h in the_deal.hands)
    stock = tuple(mapping.get(t, t) for t in the_deal.stock)
    return Deal(hands, stock)


def _same_public_play(rules: Rules, original: Hand, other_deal: Deal) -> Hand | None:
    """The same public moves replayed on ``other_deal``; None where one is not legal there."""
    first = first_salida(rules, other_deal)
    if original.forced_lead is not None and first != (original.leader, original.forced_lead):
        return None  # the table would know: another seat or tile would lead
    hand = Hand(list(other_deal.hands), other_deal.stock, original.leader, original.forced_lead)
    for turn in original.history:
        try:
            hand.play(turn.move)
        except FichaFlowError:
            return None
    return hand


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_moving_hidden_tiles_leaves_the_view_unchanged(preset: str) -> None:
    rng = random.Random(7)
    consistent = 0
    meaningful = 0
    for rules, the_deal, finished in random_hands(preset, 40, seed=2):
        for _ in range(4):
            moves = rng.randrange(len(finished.history))  # before the hand ends
            hand = rewind(finished, moves)
            seat = rng.randrange(rules.seats)
            view = hand_view(rules, hand, seat)
            for attempt in range(6):
                other_deal = _alternative_deal(the_deal, hand, seat, rng, attempt % 2 == 0)
                if other_deal is None:
                    continue
                other = _same_public_play(rules, hand, other_deal)
                if other is None:
                    continue
                consistent += 1
                if other.hands != hand.hands or other.stock_mask != hand.stock_mask:
                    meaningful += 1
                assert hand_view(rules, other, seat) == view
                assert hand_view(rules, other, seat).to_json() == view.to_json()
                assert hand_view(rules, other, None) == hand_view(rules, hand, None)
    assert meaningful >= 100, (consistent, meaningful)
