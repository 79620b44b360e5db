"""Random hands played through the rules engine, and the way back from the search engine to the
rules engine's words, for the search tests."""

from __future__ import annotations

import random

from fichaflow.core.deal import Deal
from fichaflow.core.hand import DRAW as CORE_DRAW
from fichaflow.core.hand import PASS as CORE_PASS
from fichaflow.core.hand import End, EndKind, Hand, Move
from fichaflow.core.partida import facts_of, first_salida
from fichaflow.core.rules import Rules
from fichaflow.core.scoring import score_hand
from fichaflow.core.view import SeatView
from fichaflow.search.engine import DOMINO, DRAW, PASS, FastHand
from fichaflow.search.sampler import Sample, Sampler
from fichaflow.search.tables import HI, LO

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


def to_core(move: int, leading: bool) -> Move:
    """The rules engine's :class:`Move` for a search move (``leading``: it is the hand's lead)."""
    if move == PASS:
        return CORE_PASS
    if move == DRAW:
        return CORE_DRAW
    tile = move >> 1
    if leading:  # the lead's left end shows the tile's low half when the move's low bit is set
        return Move.lead(tile, LO[tile] if move & 1 else HI[tile])
    return Move(tile, End(move & 1))


def core_end(fast: FastHand) -> tuple[EndKind, int, int]:
    """How a finished search hand ended, in the rules engine's words."""
    kind = EndKind.DOMINO if fast.end_kind == DOMINO else EndKind.TRANQUE
    return kind, fast.end_seat, fast.end_tile


def sample_deals(view: SeatView, count: int, seed: int = 0) -> list[Sample]:
    """``count`` consistent deals for ``view`` (fewer only if the history admits none)."""
    sampler = Sampler(view, random.Random(seed))
    out = []
    for _ in range(count):
        sample = sampler.draw()
        if sample is None:
            break
        out.append(sample)
    return out


def minimax(rules: Rules, hand: Hand, team: int) -> int:
    """Minimax with no pruning and no memory, on the rules engine: ``team`` maximizes its gain
    against the others, everybody else minimizes it."""
    if hand.ended:
        gains = score_hand(rules, facts_of(hand)).gains(rules.teams)
        return gains[team] * rules.teams - sum(gains)
    values = []
    for move in hand.legal_moves():
        hand.push(move)
        values.append(minimax(rules, hand, team))
        hand.pop()
    return max(values) if rules.team_of(hand.turn) == team else min(values)


def endgame(rules: Rules, seed: int, left: int) -> Hand | None:
    """A hand played at random until at most ``left`` tiles are off the line (None: it ended)."""
    hand = new_hand(rules, seed)
    rng = random.Random(seed)
    while not hand.ended and sum(hand.counts()) + hand.stock_left > left:
        hand.play(rng.choice(hand.legal_moves()))
    return None if hand.ended else hand
