"""The Repaso as plain JSON: a record's hand rebuilt and reviewed, and the pista for one view.

What the server and other programs call. Input is checked here, quickly and in full, before
any long work starts, so that bad input gets its Spanish error at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fichaflow.core import record
from fichaflow.core.partida import Partida
from fichaflow.core.view import SeatView
from fichaflow.review.evaluate import evaluate
from fichaflow.review.facts import decision_facts, move_facts, read
from fichaflow.review.hand import HandToReview, check_seat, evaluation_json, hand_of, review_hand
from fichaflow.review.precision import precision_named
from fichaflow.review.timeline import timeline


@dataclass(frozen=True, slots=True)
class Request:
    """A checked request: the hand to show and, when a seat is named, the review to run."""

    subject: HandToReview
    seat: int | None
    precision: str


def check_request(data: object, hand: int, seat: int | None, precision: str) -> Request:
    """Replay the record and check the hand, the seat and the precision (FichaFlowError if not)."""
    level = precision_named(precision)
    partida: Partida = record.replay(record.parse_record(data))
    subject = hand_of(partida, hand)
    if seat is not None:
        check_seat(subject.rules, seat)
    return Request(subject, seat, level.name)


def hand_timeline(request: Request) -> dict[str, Any]:
    return timeline(request.subject)


def hand_review(request: Request) -> dict[str, Any]:
    """The seat's review of the hand (the long part: seconds of work)."""
    assert request.seat is not None
    return review_hand(request.subject, request.seat, precision_named(request.precision)).to_json()


def pista(view: SeatView, precision: str = "fast") -> dict[str, Any]:
    """The moves of the seat to play, ranked from its view alone, with the facts."""
    level = precision_named(precision)
    evaluation = evaluate(view, level)
    reading = read(view)
    moves = [m.move for m in evaluation.moves]
    per_move = [move_facts(reading, m, moves) for m in moves]
    rules, names = view.rules, view.players
    out = {"seat": view.seat, "facts": [f.to_json(rules, names) for f in decision_facts(reading)]}
    out.update(evaluation_json(evaluation, per_move, rules, names))
    return out
