"""SeatView.from_json reads back exactly what to_json wrote, and refuses anything else by name."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fichaflow.core.deal import Deal
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import Hand
from fichaflow.core.partida import Partida
from fichaflow.core.rules import Rules
from fichaflow.core.view import SeatView, hand_view


@settings(max_examples=80, deadline=None)
@given(
    preset=st.sampled_from(["venezuela", "dominicana", "mano_a_mano", "tres"]),
    seed=st.integers(0, 10**6),
    first=st.booleans(),
    overrides=st.fixed_dictionaries({}, optional={"tranque_bonus": st.integers(0, 50)}),
)
def test_every_view_survives_a_trip_through_json(
    preset: str, seed: int, first: bool, overrides: dict[str, int]
) -> None:
    rules = Rules.make(preset, **overrides)
    deal = Deal.from_seed(rules.seats, f"json:{seed}")
    hand = Partida(rules).start_hand(deal) if first else Hand(list(deal.hands), deal.stock, 0)
    rng = random.Random(seed)
    players = tuple(f"J{s}" for s in range(rules.seats)) if seed % 2 else None
    while True:
        for seat in [*range(rules.seats), None]:
            view = hand_view(rules, hand, seat, (3,) * rules.teams, 1 if first else 4, players)
            text = json.dumps(view.to_json())
            assert SeatView.from_json(json.loads(text)) == view
        if hand.ended:
            break
        hand.play(rng.choice(hand.legal_moves()))


def base() -> dict[str, Any]:
    rules = Rules.make("venezuela")
    hand = Hand(list(Deal.from_seed(4, "bad").hands), (), 0)
    hand.play(hand.legal_moves()[0])
    return cast(dict[str, Any], hand_view(rules, hand, 1, hand_number=2).to_json())


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda v: v.pop("tiles"), "view.missing"),
        (lambda v: v.update(colour="red"), "view.unknown_key"),
        (lambda v: v.update(seat=9), "view.number"),
        (lambda v: v.update(seat=True), "view.number"),
        (lambda v: v.update(counts=[7, 7, 7]), "view.list"),
        (lambda v: v.update(tiles=["6-6", "6-6"]), "view.tile_twice"),
        (lambda v: v.update(tiles=["7-1"]), "tile.invalid"),
        (lambda v: v.update(rules={"preset": "cubana"}), "rules.unknown_preset"),
        (lambda v: v.update(legal=["6-4:arriba"]), "view.move"),
        (lambda v: v.update(ends=[1]), "view.list"),
        (lambda v: v["history"][0].update(kind="robar"), "view.bad_value"),
        (lambda v: v["history"].append({"seat": 0, "kind": "pass"}), "view.bad_value"),
    ],
)
def test_a_malformed_view_names_its_problem(
    change: Callable[[dict[str, Any]], object], code: str
) -> None:
    data = base()
    change(data)
    with pytest.raises(FichaFlowError) as caught:
        SeatView.from_json(data)
    assert caught.value.code == code
    assert caught.value.message("es")  # a Spanish sentence, never a bare exception


@pytest.mark.parametrize("data", [None, [], "vista", 3])
def test_a_view_must_be_an_object(data: object) -> None:
    with pytest.raises(FichaFlowError) as caught:
        SeatView.from_json(data)
    assert caught.value.code == "view.not_object"
