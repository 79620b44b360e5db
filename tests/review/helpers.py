"""Hands for the Repaso tests: random ones played through the rules engine, and the way to move
the hidden tiles of a position without changing what its seat sees."""

from __future__ import annotations

import random

from fichaflow.core.deal import Deal
from fichaflow.core.hand import DRAW, Hand
from fichaflow.core.partida import first_salida
from fichaflow.core.rules import Rules
from fichaflow.core.view import SeatView, hand_view
from fichaflow.review.hand import HandToReview
from fichaflow.search.sampler import Sample

PRESETS = ("venezuela", "dominicana", "mano_a_mano", "tres")


def played(preset: str, seed: int, forced_first: bool = True) -> HandToReview:
    """One hand dealt from ``seed`` and played to its end by a mix of heavy and random play. With
    ``forced_first`` it is a partida's first hand (the rules' salida), else a later hand."""
    rules = Rules.make(preset)
    deal = Deal.from_seed(rules.seats, f"repaso-test-{preset}-{seed}")
    rng = random.Random(seed)
    first = first_salida(rules, deal) if forced_first else None
    if first is None:
        hand = Hand(list(deal.hands), deal.stock, rng.randrange(rules.seats))
    else:
        hand = Hand(list(deal.hands), deal.stock, first[0], first[1])
    while not hand.ended:
        legal = hand.legal_moves()
        if rng.random() < 0.5:
            move = max(legal, key=lambda m: (m.tile >= 0, m.tile))
        else:
            move = rng.choice(legal)
        hand.play(move)
    number = 1 if forced_first else 2
    return HandToReview(rules, deal, hand, number, (0,) * rules.teams)


def replay_to(subject: HandToReview, index: int) -> Hand:
    """The true position before move ``index`` of the hand."""
    done = subject.hand
    hand = Hand(list(subject.deal.hands), subject.deal.stock, done.leader, done.forced_lead)
    for turn in done.history[:index]:
        hand.push(turn.move)
    return hand


def view_of(subject: HandToReview, hand: Hand) -> SeatView:
    return hand_view(subject.rules, hand, hand.turn, subject.scores, subject.number)


def other_position(subject: HandToReview, index: int, sample: Sample) -> Hand:
    """The position before move ``index`` with the hidden tiles dealt as ``sample`` says: the
    same public history replayed through the rules engine on another deal."""
    done = subject.hand
    hand = Hand(list(sample.start), tuple(sample.drawn + sample.stock), done.leader,
                done.forced_lead)  # fmt: skip
    for turn in done.history[:index]:
        hand.play(DRAW if turn.move.is_draw else turn.move)
    return hand
