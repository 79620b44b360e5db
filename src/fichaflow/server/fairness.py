"""Fair deals anyone can check: a secret seed per hand, its SHA-256 published before the deal,
the seed revealed at the hand's end.

The deal is ``core.deal.Deal.from_seed(seats, seed)`` and, for a first hand drawn by sorteo, the
leader is the winner of ``core.partida.sorteo_for(rules, seed)`` (what ``Partida.deal`` draws):
whoever holds the revealed seed recomputes both.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from fichaflow.core.deal import Deal, commitment
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.partida import sorteo_for
from fichaflow.core.record import Record, replay
from fichaflow.server.settings import fixed_deal_seed

SEED_BYTES = 32

__all__ = ["SEED_BYTES", "HandCheck", "commitment", "new_seed", "verify_record"]


def new_seed(hand: int = 1, partida: int = 1) -> str:
    """A fresh secret seed for hand number ``hand`` of partida number ``partida``: 64 hexadecimal
    digits from the operating system's generator (the numbers only matter to tests, see
    ``TEST_SEED_ENV``)."""
    return fixed_deal_seed(hand=hand, partida=partida) or secrets.token_hex(SEED_BYTES)


@dataclass(frozen=True, slots=True)
class HandCheck:
    """One hand of a record checked against its revealed seed."""

    number: int
    commitment: str
    seed: str


def verify_record(record: Record) -> list[HandCheck]:
    """Check every hand of a finished partida: the seed matches its commitment, the deal is the
    one the seed makes, a sorteo's leader is the one it draws, and the play replays to the end.
    The first problem raises a FichaFlowError naming the hand."""
    rules = record.rules
    checks = []
    for number, hand in enumerate(record.hands, 1):
        seed, promised = hand.extra.get("seed"), hand.extra.get("commitment")
        if not isinstance(seed, str) or not isinstance(promised, str):
            raise FichaFlowError("verify.no_seed").at(number)
        if commitment(seed) != promised.lower():
            raise FichaFlowError("verify.commitment", commitment=promised).at(number)
        if Deal.from_seed(rules.seats, seed) != hand.deal:
            raise FichaFlowError("verify.deal").at(number)
        drawn = sorteo_for(rules, seed) if number == 1 else None
        if drawn is not None:
            winner = drawn[0]
            if hand.leader != winner:
                raise FichaFlowError("verify.sorteo", leader=hand.leader, winner=winner).at(1)
        checks.append(HandCheck(number, promised, seed))
    partida = replay(record)
    if not partida.over:
        raise FichaFlowError("verify.unfinished")
    return checks
