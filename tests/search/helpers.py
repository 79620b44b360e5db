"""Random hands played through the rules engine, for the search tests."""

from __future__ import annotations

import random

from fichaflow.core.deal import Deal
from fichaflow.core.hand import Hand
from fichaflow.core.partida import first_salida
from fichaflow.core.rules import Rules

MODE_PRESETS = ("venezuela", "mano_a_mano", "tres")
ALL_PRESETS = ("venezuela", "zulia", "dominicana", "internacional", "mano_a_mano", "tres")
BONUSES = {
    "tranque_bonus": 7,
    "capicua_bonus": 11,
    "pase_redondo_bonus": 5,
    "salida_pasada_bonus": 3,
    "chuchazo_bonus": 13,
}


def new_hand(rules: Rules, seed: int) -> Hand:
    """A freshly dealt hand; half of them start with the rules' forced first salida."""
    rng = random.Random(seed)
    deal = Deal.from_seed(rules.seats, f"search-test-{seed}")
    first = first_salida(rules, deal) if rng.random() < 0.5 else None
    if first is None:
        return Hand(list(deal.hands), deal.stock, rng.randrange(rules.seats))
    return Hand(list(deal.hands), deal.stock, first[0], first[1])


def random_finished_hand(rules: Rules, seed: int) -> Hand:
    """A hand played to its end by random legal moves through the rules engine."""
    hand = new_hand(rules, seed)
    rng = random.Random(seed * 7919 + 1)
    while not hand.ended:
        hand.play(rng.choice(hand.legal_moves()))
    return hand
