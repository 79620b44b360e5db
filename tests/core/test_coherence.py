"""A seat view is checked against itself: every view a real hand gives passes, and a view that
no hand could give is refused with the first thing that cannot be (``core.coherence``)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from fichaflow.core.coherence import check_view
from fichaflow.core.deal import Deal
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import Hand
from fichaflow.core.partida import Partida, forced_first_lead
from fichaflow.core.rules import PRESETS, Rules
from fichaflow.core.tiles import bits
from fichaflow.core.view import SeatView, hand_views
from tests.core.kit import random_move


def real_views(preset: str, seed: int, hands: int = 3) -> list[tuple[Hand, SeatView]]:
    """Every seat's and a mirón's view at every moment of a few hands of random play."""
    rules = Rules.make(preset)
    rng = random.Random(seed)
    partida = Partida(rules)
    out: list[tuple[Hand, SeatView]] = []
    for number in range(hands):
        if partida.over:
            break
        deal = Deal.from_seed(rules.seats, f"coherence:{seed}:{number}")
        leader, _ = partida.salida(deal)
        hand = partida.start_hand(deal, rng.randrange(rules.seats) if leader is None else None)
        while True:
            views = hand_views(rules, hand, [*range(rules.seats), None], hand_number=number + 1)
            out += [(hand, v) for v in views.values()]
            if hand.ended:
                break
            partida.play(random_move(hand, rng))
    return out


@pytest.mark.parametrize("preset", [*PRESETS])
def test_every_view_a_real_hand_gives_passes_even_after_a_trip_through_json(preset: str) -> None:
    checked = 0
    for seed in range(4):
        for _hand, view in real_views(preset, seed):
            check_view(view)
            check_view(SeatView.from_json(view.to_json()))
            checked += 1
    assert checked > 200


@pytest.mark.parametrize("preset", [*PRESETS])
def test_the_leader_of_a_first_hand_knows_its_forced_salida_from_its_own_tiles(
    preset: str,
) -> None:
    rules = Rules.make(preset)
    for seed in range(20):
        partida = Partida(rules)
        deal = Deal.from_seed(rules.seats, f"forced:{seed}")
        leader, _ = partida.salida(deal)
        hand = partida.start_hand(deal, 0 if leader is None else None)
        mine = hand.hands[hand.leader]
        assert forced_first_lead(rules, 1, mine) == hand.forced_lead
        assert forced_first_lead(rules, 2, mine) is None


def mid_hand_view(preset: str = "venezuela", seed: int = 1, moves: int = 9) -> SeatView:
    """The view of the seat to move after ``moves`` random moves of a hand that goes on."""
    rules = Rules.make(preset)
    rng = random.Random(seed)
    deal = Deal.from_seed(rules.seats, f"damaged:{seed}")
    hand = Hand(list(deal.hands), deal.stock, 0)
    for _ in range(moves):
        hand.play(random_move(hand, rng))
    assert not hand.ended
    return hand_views(rules, hand, [hand.turn], hand_number=2)[hand.turn]


def refused(view: SeatView) -> str:
    with pytest.raises(FichaFlowError) as caught:
        check_view(view)
    assert caught.value.message() != caught.value.code  # said in words, from the catalogue
    return caught.value.code


def test_a_line_counts_ends_or_turn_that_the_history_does_not_give_are_refused() -> None:
    view = mid_hand_view()
    check_view(view)
    assert refused(dataclasses.replace(view, line=())) == "view.disagrees"
    counts = list(view.counts)
    assert view.seat is not None
    counts[(view.seat + 1) % 4] -= 1
    assert refused(dataclasses.replace(view, counts=tuple(counts))) == "view.disagrees"
    assert refused(dataclasses.replace(view, left=(view.left + 1) % 7)) == "view.disagrees"
    assert refused(dataclasses.replace(view, turn=(view.turn + 1) % 4)) == "view.disagrees"
    assert refused(dataclasses.replace(view, history=view.history[:-1])) == "view.disagrees"


def test_a_rival_playing_one_of_my_tiles_is_refused() -> None:
    view = mid_hand_view()
    assert view.seat is not None
    index, turn = next(
        (i, t) for i, t in enumerate(view.history) if t.kind == "play" and t.seat != view.seat
    )
    mine = next(iter(bits(view.tiles)))
    swapped = view.tiles & ~(1 << mine) | (1 << turn.tile)
    # the rival's tile is now in my hand and mine on the line: the history cannot be
    damaged = dataclasses.replace(view, tiles=swapped)
    assert refused(damaged) in {"view.history_my_tile", "view.no_deal"}
    history = list(view.history)
    history[index] = dataclasses.replace(turn, tile=mine)
    assert refused(dataclasses.replace(view, history=tuple(history))) in {
        "view.history_my_tile",
        "view.history_no_fit",
    }


def test_a_history_out_of_turn_or_at_the_wrong_ends_is_refused() -> None:
    view = mid_hand_view()
    history = list(view.history)
    history[3] = dataclasses.replace(history[3], seat=(history[3].seat + 1) % 4)
    assert refused(dataclasses.replace(view, history=tuple(history))) == "view.history_turn"
    history = list(view.history)
    history[4] = dataclasses.replace(history[4], left=(history[4].left + 1) % 7)
    assert refused(dataclasses.replace(view, history=tuple(history))) == "view.history_ends"


def test_passes_that_no_deal_explains_are_refused() -> None:
    """Seat 0 led the 6-6 and the other three passed on it: none of them holds a 6, there is no
    montón, and seat 0 holds none either, yet six 6s are unseen: no deal can be."""
    request: dict[str, Any] = {
        "rules": "venezuela",
        "seat": 0,
        "hand_number": 2,
        "leader": 0,
        "turn": 0,
        "tiles": ["0-0", "1-1", "2-2", "3-3", "4-4", "5-5"],
        "ends": [6, 6],
        "line": [[6, 6]],
        "history": [
            {"seat": 0, "kind": "play", "tile": "6-6", "ends": None},
            {"seat": 1, "kind": "pass", "ends": [6, 6]},
            {"seat": 2, "kind": "pass", "ends": [6, 6]},
            {"seat": 3, "kind": "pass", "ends": [6, 6]},
        ],
        "counts": [6, 7, 7, 7],
        "stock_left": 0,
        "scores": [0, 0],
    }
    assert refused(SeatView.from_json(request)) == "view.no_deal"
    # With seat 3 having played a 6 instead of passing, the same hand is possible.
    request["history"][3] = {
        "seat": 3,
        "kind": "play",
        "tile": "6-5",
        "end": "right",
        "ends": [6, 6],
    }
    request |= {"ends": [6, 5], "line": [[6, 6], [6, 5]], "counts": [6, 7, 7, 6]}
    check_view(SeatView.from_json(request))
