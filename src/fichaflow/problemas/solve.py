"""Positions of a hand, replayed through the core, and their exact values by the search's solver.

A position is ``rules`` + the hand's deal (hands, montón, leader) + the moves before, in record
notation (draws unwritten, as in a record): :func:`position` rebuilds it through the core's own
checks, so a position that cannot arise under its rules is refused with the core's error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fichaflow.core.deal import Deal
from fichaflow.core.hand import End, Hand, Move, write_move
from fichaflow.core.record import draw_until_playable
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import bits, name, parse
from fichaflow.search.engine import FastHand, from_core
from fichaflow.search.solver import Solver
from fichaflow.search.value import valuer_for


def deal_json(deal: Deal) -> dict[str, Any]:
    """The deal as a record writes it: each seat's tiles, and the montón if there is one."""
    out: dict[str, Any] = {"hands": [[name(t) for t in bits(h)] for h in deal.hands]}
    out["stock"] = [name(t) for t in deal.stock]
    return out


def deal_of(data: Mapping[str, Any]) -> Deal:
    hands = [[parse(t) for t in seat] for seat in data["hands"]]
    return Deal.from_lists(hands, [parse(t) for t in data.get("stock", [])])


def position(
    rules: Rules, deal: Deal, leader: int, moves: Sequence[str], forced_lead: int | None = None
) -> Hand:
    """The hand after ``moves`` (record notation), each checked by the core as it is played; the
    draws a record leaves unwritten are made, also those of the player to move now."""
    deal.check(rules)
    hand = Hand(list(deal.hands), deal.stock, leader, forced_lead)
    for token in moves:
        draw_until_playable(hand)
        move = hand.parse(token)
        if move.is_play and not hand.hands[hand.turn] >> move.tile & 1:
            hand.check(move)  # raises the core's error for a tile the player lacks
        hand.play(move)
    draw_until_playable(hand)
    return hand


def one_line(hand: Hand, move: Move) -> Move:
    """``move`` as the problemas write it: with both ends the same number, a tile played on
    either end makes the same line, so it is the move on the left."""
    if move.is_play and move.end is End.RIGHT and hand.left >= 0 and hand.left == hand.right:
        return Move(move.tile, End.LEFT)
    return move


def choices(hand: Hand) -> list[Move]:
    """The distinct moves of the player to move (each once: see :func:`one_line`)."""
    return list(dict.fromkeys(one_line(hand, move) for move in hand.legal_moves()))


def token(hand: Hand, move: Move) -> str:
    return write_move(move, (hand.left, hand.right) if hand.left >= 0 else None)


@dataclass(frozen=True, slots=True)
class Solved:
    """One position's exact answer for ``seat``'s side, in tantos (the solver's value divided by
    the other teams' number): each distinct move's value, best first, and the line that follows
    when everybody plays best (the whole rest of the hand, in record notation)."""

    seat: int
    values: tuple[tuple[str, float], ...]
    line: tuple[str, ...]
    line_seats: tuple[int, ...]
    step_values: tuple[tuple[tuple[str, float], ...], ...]  # at each of the seat's turns in line
    end: Hand


class Exact:
    """Solves positions of one deal for one seat's side, keeping the solver's table between them
    (the same deal: a position met again is read, not searched)."""

    def __init__(self, rules: Rules, seat: int, budget: int = 1 << 62) -> None:
        self.rules = rules
        self.seat = seat
        self.team = rules.team_of(seat)
        self.solver = Solver(valuer_for(rules), self.team, budget)
        self._fresh = True

    def move_values(self, hand: Hand) -> list[tuple[Move, float]]:
        fast = FastHand.from_hand(hand)
        if self._fresh:
            self.solver.reset_table(fast)
            self._fresh = False
        moves = choices(hand)
        values = self.solver.move_values(fast, [from_core(m) for m in moves])
        tantos = self.solver.valuer.tantos
        return [(m, tantos(v)) for m, v in zip(moves, values, strict=True)]

    def first_values(self, hand: Hand) -> list[tuple[str, float]]:
        """Each distinct move's value at ``hand``, in the problemas' notation."""
        return [(token(hand, m), v) for m, v in self.move_values(hand)]

    def solve(self, hand: Hand, answer: str | None = None) -> Solved:
        """``hand``'s values and best line; the player to move must be :attr:`seat`. With
        ``answer``, the line starts with it instead of the best move (a seat problem's answer,
        best over the deals the seat thought possible, need not be this deal's best)."""
        first = self.move_values(hand)
        work = hand.copy()
        line: list[str] = []
        seats: list[int] = []
        steps: list[tuple[tuple[str, float], ...]] = []
        values: list[tuple[Move, float]] | None = first
        while not work.ended:
            mover = work.turn
            if values is None:
                values = self.move_values(work)
            mine = self.rules.team_of(mover) == self.team
            ranked = sorted(values, key=lambda mv: -mv[1] if mine else mv[1])
            if mover == self.seat:
                steps.append(tuple((token(work, m), v) for m, v in ranked))
            move = ranked[0][0]
            if answer is not None and not line:
                move = next(m for m, _ in ranked if token(work, m) == answer)
            line.append(token(work, move))
            seats.append(mover)
            work.play(move)
            draw_until_playable(work)
            values = None
        best_first = steps[0]
        return Solved(self.seat, best_first, tuple(line), tuple(seats), tuple(steps), work)
