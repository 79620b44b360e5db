"""A whole hand reviewed for one seat: every decision it had, weighed and explained.

The hand is rebuilt through the rules engine from its deal and its history; at each of the
seat's turns with more than one move worth comparing, the seat's view (and only it) is
evaluated, the true position gives the hindsight values, and seat inference
(``core.inference``) the facts.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from fichaflow.core.deal import Deal
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import Hand, Move, write_move
from fichaflow.core.partida import Partida
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import bits
from fichaflow.core.tiles import name as tile_name
from fichaflow.core.view import SeatView, hand_view
from fichaflow.review.evaluate import (
    MISTAKE,
    Evaluation,
    MoveValue,
    evaluate,
    hand_solver,
    hindsight,
)
from fichaflow.review.facts import Fact, decision_facts, move_facts, read
from fichaflow.review.plain import plain_json
from fichaflow.review.precision import Precision
from fichaflow.search.decide import candidates
from fichaflow.search.engine import FastHand

Progress = Callable[[int, int], None]
"""Told ``(decisions done, decisions in all)`` after each decision."""


@dataclass(frozen=True, slots=True)
class HandToReview:
    """A finished hand and what a view of it needs: the rules, its number in the partida, the
    scores before it and the players' names."""

    rules: Rules
    deal: Deal
    hand: Hand
    number: int
    scores: tuple[int, ...]
    players: tuple[str, ...] | None = None


def hand_of(partida: Partida, number: int) -> HandToReview:
    """Hand ``number`` (from 1) of a replayed partida; a Spanish error if there is none."""
    played = partida.played
    if not 1 <= number <= len(played):
        if not played:
            raise FichaFlowError("review.no_hands")
        raise FichaFlowError("review.hand", number=number, count=len(played))
    scores = played[number - 2].scores if number > 1 else (0,) * partida.rules.teams
    it = played[number - 1]
    return HandToReview(partida.rules, it.deal, it.hand, number, scores, partida.players)


def check_seat(rules: Rules, seat: int) -> None:
    if not 0 <= seat < rules.seats:
        raise FichaFlowError("review.seat", seat=seat, high=rules.seats - 1)


def fresh(subject: HandToReview) -> Hand:
    """The hand as dealt, before its first move."""
    done = subject.hand
    return Hand(list(subject.deal.hands), subject.deal.stock, done.leader, done.forced_lead)


def view_at(subject: HandToReview, hand: Hand, seat: int) -> SeatView:
    return hand_view(subject.rules, hand, seat, subject.scores, subject.number, subject.players)


def decision_points(subject: HandToReview, seat: int) -> list[int]:
    """Where in the hand's history ``seat`` chose among moves worth comparing."""
    hand = fresh(subject)
    out = []
    for index, turn in enumerate(subject.hand.history):
        deciding = turn.seat == seat and hand.turn == seat and turn.move.is_play
        if deciding and len(candidates(view_at(subject, hand, seat))) > 1:
            out.append(index)
        hand.push(turn.move)
    return out


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """One decision: where it was, what was played, the evaluation and the facts."""

    index: int
    view: SeatView
    played: Move
    evaluation: Evaluation
    facts: tuple[Fact, ...]
    move_facts: tuple[tuple[Fact, ...], ...]  # in the evaluation's order

    @property
    def played_value(self) -> MoveValue:
        return self.evaluation.of(self.played)

    @property
    def move_number(self) -> int:
        """The move's number in the hand's record (from 1; draws are not written there)."""
        return 1 + sum(1 for turn in self.view.history if turn.kind != "draw")


@dataclass(frozen=True, slots=True)
class HandReview:
    subject: HandToReview
    seat: int
    precision: str
    decisions: tuple[DecisionReview, ...]
    cpu_seconds: float

    @property
    def mistakes(self) -> int:
        return sum(1 for d in self.decisions if d.played_value.verdict == MISTAKE)

    @property
    def points_lost(self) -> float:
        """What the seat's moves cost on average against the best ones, in points."""
        return sum(d.played_value.cost.mean for d in self.decisions)

    def to_json(self) -> dict[str, Any]:
        subject = self.subject
        rules, names = subject.rules, subject.players
        return {
            "hand": subject.number,
            "seat": self.seat,
            "players": None if names is None else list(names),
            "rules": rules.dump(),
            # In tres the exact values (hindsight, solved deals) take both rivals as one side.
            "rivals_together": rules.teams > 2,
            "precision": self.precision,
            "decisions": [decision_json(d, rules, names) for d in self.decisions],
            "summary": {
                "decisions": len(self.decisions),
                "mistakes": self.mistakes,
                "points_lost": round(self.points_lost, 2),
                "cpu_seconds": round(self.cpu_seconds, 2),
            },
        }


def review_decision(
    subject: HandToReview,
    hand: Hand,
    played: Move,
    precision: Precision,
    seed: int = 0,
    hindsight_nodes: int | None = None,
    exact_nodes: int | None = None,
) -> DecisionReview:
    """The decision of the seat to move in ``hand`` (the true position), which played
    ``played``; the exact solving of sampled deals and the hindsight get ``exact_nodes`` and
    ``hindsight_nodes`` (by default what the precision gives one decision)."""
    seat = hand.turn
    view = view_at(subject, hand, seat)
    budget = precision.hindsight_nodes if hindsight_nodes is None else hindsight_nodes
    realistic = evaluate(view, precision, seed, exact_nodes)
    evaluation = hindsight(hand, subject.rules, realistic, budget)
    reading = read(view)
    moves = [m.move for m in evaluation.moves]
    per_move = tuple(tuple(move_facts(reading, m, moves)) for m in moves)
    facts = tuple(decision_facts(reading))
    return DecisionReview(len(hand.history), view, played, evaluation, facts, per_move)


def review_hand(
    subject: HandToReview,
    seat: int,
    precision: Precision,
    seed: int = 0,
    progress: Progress | None = None,
) -> HandReview:
    """Every decision of ``seat`` in the hand, in order, within the precision's budgets for a
    hand; the hindsight values are solved from the last decision back."""
    check_seat(subject.rules, seat)
    start = time.process_time()
    points = set(decision_points(subject, seat))
    hand = fresh(subject)
    out: list[DecisionReview] = []
    positions: list[Hand] = []
    total = 2 * len(points)
    if progress is not None:
        progress(0, total)
    exact_left = precision.exact_hand
    for index, turn in enumerate(subject.hand.history):
        if index in points:
            out.append(review_decision(subject, hand, turn.move, precision, seed, 0, exact_left))
            exact_left -= out[-1].evaluation.nodes
            positions.append(hand.copy())
            if progress is not None:
                progress(len(out), total)
        hand.push(turn.move)
    # One solver for the whole hand: the later decisions, cheap, are solved first and fill its
    # table; the first decision, the costliest, reads them and may use all that is left.
    left = precision.hindsight_nodes
    solver = hand_solver(subject.rules, seat, FastHand.from_hand(positions[0])) if out else None
    for done, i in enumerate(reversed(range(len(out))), len(out) + 1):
        solved = hindsight(positions[i], subject.rules, out[i].evaluation, left, solver)
        left -= solved.hindsight_nodes
        out[i] = replace(out[i], evaluation=solved)
        if progress is not None:
            progress(done, total)
    spent = time.process_time() - start
    return HandReview(subject, seat, precision.name, tuple(out), spent)


def _rounded(value: float | None, digits: int = 2) -> float | None:
    return None if value is None else round(value, digits)


def move_json(
    value: MoveValue, facts: Sequence[Fact], rules: Rules, names: Sequence[str] | None
) -> dict[str, Any]:
    move = value.move
    return {
        "move": write_move(move),
        "tile": tile_name(move.tile),
        "end": None if move.end is None else move.end.word,
        "points": round(value.points.mean, 2),
        "points_se": round(value.points.se, 2),
        "win": round(value.win.mean, 4),
        "win_se": round(value.win.se, 4),
        "cost": round(value.cost.mean, 2),
        "cost_se": round(value.cost.se, 2),
        "verdict": value.verdict,
        "hindsight": _rounded(value.hindsight),
        "facts": [f.to_json(rules, names) for f in facts],
    }


def evaluation_json(
    evaluation: Evaluation,
    per_move: Sequence[Sequence[Fact]],
    rules: Rules,
    names: Sequence[str] | None,
) -> dict[str, Any]:
    return {
        "moves": [
            move_json(m, f, rules, names) for m, f in zip(evaluation.moves, per_move, strict=True)
        ],
        "samples": evaluation.samples,
        "exact_samples": evaluation.exact_samples,
        "playouts": evaluation.playouts,
        "nodes": evaluation.nodes,
        "hindsight_solved": evaluation.hindsight_solved,
        "hindsight_nodes": evaluation.hindsight_nodes,
        "precision": evaluation.precision,
    }


def decision_json(
    decision: DecisionReview, rules: Rules, names: Sequence[str] | None
) -> dict[str, Any]:
    view = decision.view
    played = decision.played_value
    out = {
        "index": decision.index,
        "move_number": decision.move_number,
        "ends": None if view.left < 0 else [view.left, view.right],
        "tiles": [tile_name(t) for t in bits(view.tiles)],
        # The entry of the move played in ``moves`` (a tile laid on either of two equal ends is
        # listed once), and the move as it was made.
        "played": write_move(played.move),
        "played_move": write_move(decision.played),
        "played_rank": [m.move for m in decision.evaluation.moves].index(played.move) + 1,
        "verdict": played.verdict,
        "cost": round(played.cost.mean, 2),
        "cost_se": round(played.cost.se, 2),
        "facts": [f.to_json(rules, names) for f in decision.facts],
        # The verdict in plain words, and what the real hands say when they disagree with it.
        "plain": plain_json(decision.evaluation, played),
    }
    out.update(evaluation_json(decision.evaluation, decision.move_facts, rules, names))
    return out
