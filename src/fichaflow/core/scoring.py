"""The scorekeeper's arithmetic: what a finished hand is worth, and to whom.

This is the only place where the count, tranque and bonus rules are decided. The engine feeds it
the facts of a hand it played; the anotador and ``fichaflow score`` feed it the facts a real table
reports. Both get the same :class:`HandScore`, with the comparison the rule made, so that every
interface can explain the result in the rule's own words.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import EndKind
from fichaflow.core.rules import Count, Mode, NextLead, Rules, TranqueRule, TranqueTie
from fichaflow.core.tiles import TOTAL_PIPS


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What happened at the end of a hand, as a table would tell it.

    ``seat`` is who dominated (dominó) or who placed the closing tile (tranque); ``pips`` is what
    each seat still holds, in seat order; ``pase_redondo`` lists the seats credited with one,
    once per occurrence."""

    end: EndKind
    seat: int
    pips: tuple[int, ...]
    leader: int
    capicua: bool = False
    chuchazo: bool = False
    pase_redondo: tuple[int, ...] = ()
    salida_pasada: bool = False

    def check(self, rules: Rules) -> None:
        """Raise a FichaFlowError when these facts cannot come from a hand under ``rules``."""
        n = rules.seats
        if len(self.pips) != n:
            raise FichaFlowError("score.pips_count", found=len(self.pips), seats=n)
        for seat, p in enumerate(self.pips):
            if not 0 <= p <= TOTAL_PIPS:
                raise FichaFlowError("score.pips_value", seat=seat, value=p)
        for label, seat in (
            ("seat", self.seat),
            ("leader", self.leader),
            *(("pase_redondo", s) for s in self.pase_redondo),
        ):
            if not 0 <= seat < n:
                raise FichaFlowError("score.seat", option=label, value=seat, high=n - 1)
        if self.end is EndKind.DOMINO and self.pips[self.seat] != 0:
            raise FichaFlowError("score.domino_pips", seat=self.seat, value=self.pips[self.seat])
        if self.end is EndKind.TRANQUE and self.capicua:
            raise FichaFlowError("score.capicua_tranque")
        if self.end is EndKind.TRANQUE and self.chuchazo:
            raise FichaFlowError("score.chuchazo_tranque")
        if sum(self.pips) > TOTAL_PIPS:
            raise FichaFlowError("score.pips_total", value=sum(self.pips))


class ScoreRule(StrEnum):
    """What decided a hand's winner: the domino itself, or the tranque rule that compared pips
    (``abajo``: the trancador against the seat after; ``pareja``: the pairs' sums;
    ``individual``: every seat's own pips). The value is what records and messages write."""

    DOMINO = "domino"
    ABAJO = "abajo"
    PAREJA = "pareja"
    INDIVIDUAL = "individual"


class BonusKind(StrEnum):
    """A bonus a hand can earn. Each value is the name of the rule option that sets its points,
    so ``getattr(rules, kind)`` is what it is worth."""

    TRANQUE = "tranque_bonus"
    CAPICUA = "capicua_bonus"
    CHUCHAZO = "chuchazo_bonus"
    SALIDA_PASADA = "salida_pasada_bonus"
    PASE_REDONDO = "pase_redondo_bonus"


@dataclass(frozen=True, slots=True)
class Bonus:
    """A bonus credited to a team, always shown apart from the hand's pips."""

    kind: BonusKind
    team: int
    points: int


@dataclass(frozen=True, slots=True)
class HandScore:
    """What a hand is worth.

    ``rule`` names what decided it (:class:`ScoreRule`).
    ``compared`` lists the ``(seat or team, pips)`` the tranque rule compared (team sums under
    ``pareja``, seats otherwise); ``counted`` the seats whose pips make ``points``."""

    facts: HandFacts
    rule: ScoreRule
    winner: int | None
    winning_seat: int | None
    points: int
    compared: tuple[tuple[int, int], ...]
    counted: tuple[int, ...]
    bonuses: tuple[Bonus, ...]
    tie: bool = False

    @property
    def bonus(self) -> int:
        """All bonus points credited in this hand, to whichever side."""
        return sum(b.points for b in self.bonuses)

    def to_json(self, teams: int) -> dict[str, Any]:
        """The per-hand keys of ``fichaflow replay --json`` and ``fichaflow score --json``.

        ``points`` is what the winner scored without bonuses; ``bonus`` every bonus point
        credited in the hand, to whichever side; ``gains`` what each team added."""
        facts = self.facts
        return {
            "end": str(facts.end),
            "seat": facts.seat,
            "winner": self.winner,
            "points": self.points,
            "bonus": self.bonus,
            "capicua": facts.capicua,
            "chuchazo": facts.chuchazo,
            "salida_pasada": facts.salida_pasada,
            "pase_redondo": list(facts.pase_redondo),
            "winning_seat": self.winning_seat,
            "rule": str(self.rule),
            "tie": self.tie,
            "pips": list(facts.pips),
            "counted": list(self.counted),
            "compared": [list(c) for c in self.compared],
            "bonuses": [
                {"kind": str(b.kind), "team": b.team, "points": b.points} for b in self.bonuses
            ],
            "gains": list(self.gains(teams)),
        }

    def gains(self, teams: int) -> tuple[int, ...]:
        """What each team adds to its score for this hand (points and bonuses)."""
        out = [0] * teams
        if self.winner is not None:
            out[self.winner] += self.points
        for b in self.bonuses:
            out[b.team] += b.points
        return tuple(out)


def score_hand(rules: Rules, facts: HandFacts) -> HandScore:
    """Apply ``rules`` to a finished hand."""
    facts.check(rules)
    pips = facts.pips
    n = rules.seats
    compared: tuple[tuple[int, int], ...] = ()
    tie = False
    if facts.end is EndKind.DOMINO:
        rule = ScoreRule.DOMINO
        winning_seat: int | None = facts.seat
    elif rules.mode is not Mode.PAREJAS:
        rule = ScoreRule.INDIVIDUAL
        compared = tuple((s, pips[s]) for s in range(n))
        fewest = min(pips)
        tied = [s for s in range(n) if pips[s] == fewest]
        tie = len(tied) > 1
        if not tie:
            winning_seat = tied[0]
        elif rules.tranque_tie is TranqueTie.SALIDA and facts.leader in tied:
            winning_seat = facts.leader
        else:
            winning_seat = None
    elif rules.tranque_rule is TranqueRule.ABAJO:
        rule = ScoreRule.ABAJO
        closer, below = facts.seat, (facts.seat + 1) % n
        compared = ((closer, pips[closer]), (below, pips[below]))
        tie = pips[closer] == pips[below]
        winning_seat = closer if pips[closer] <= pips[below] else below
    else:
        rule = ScoreRule.PAREJA
        sums = (pips[0] + pips[2], pips[1] + pips[3])
        compared = ((0, sums[0]), (1, sums[1]))
        tie = sums[0] == sums[1]
        if not tie:
            lower_team = 0 if sums[0] < sums[1] else 1
            winning_seat = _first_in_turn(rules.seats_of(lower_team), facts.seat, n)
        elif rules.tranque_tie is TranqueTie.SALIDA:
            winning_seat = facts.leader
        else:
            winning_seat = None

    winner = None if winning_seat is None else rules.team_of(winning_seat)
    counted: tuple[int, ...] = ()
    points = 0
    if winner is not None:
        count = rules.domino_count if facts.end is EndKind.DOMINO else rules.tranque_count
        if count is Count.ALL:
            counted = tuple(range(n))
        else:
            counted = tuple(s for s in range(n) if rules.team_of(s) != winner)
        points = sum(pips[s] for s in counted)
    bonuses = _bonuses(rules, facts, winner)
    return HandScore(facts, rule, winner, winning_seat, points, compared, counted, bonuses, tie)


def _first_in_turn(seats: tuple[int, ...], start: int, n: int) -> int:
    """Of ``seats``, the first reached going round from ``start`` (``start`` included)."""
    return min(seats, key=lambda s: (s - start) % n)


def _bonuses(rules: Rules, facts: HandFacts, winner: int | None) -> tuple[Bonus, ...]:
    """Every bonus the hand earned, in a fixed order; bonuses of 0 points are left out."""
    found: list[tuple[BonusKind, int]] = []
    if facts.end is EndKind.TRANQUE and winner is not None:
        found.append((BonusKind.TRANQUE, winner))
    if facts.end is EndKind.DOMINO:
        team = rules.team_of(facts.seat)
        if facts.capicua:
            found.append((BonusKind.CAPICUA, team))
        if facts.chuchazo:
            found.append((BonusKind.CHUCHAZO, team))
    if facts.salida_pasada:
        found.append((BonusKind.SALIDA_PASADA, rules.team_of(facts.leader)))
    found.extend((BonusKind.PASE_REDONDO, rules.team_of(s)) for s in facts.pase_redondo)
    return tuple(
        Bonus(kind, team, getattr(rules, kind)) for kind, team in found if getattr(rules, kind)
    )


def next_leader_after(rules: Rules, score: HandScore) -> int:
    """Who leads the next hand under ``rules.next_lead`` (``rotacion`` or ``ganador``)."""
    facts = score.facts
    n = rules.seats
    if rules.next_lead is NextLead.ROTACION:
        return (facts.leader + 1) % n
    if score.winner is None:
        return facts.leader
    if facts.end is EndKind.DOMINO:
        return facts.seat
    team_seats = rules.seats_of(score.winner)
    fewest = min(facts.pips[s] for s in team_seats)
    return _first_in_turn(tuple(s for s in team_seats if facts.pips[s] == fewest), facts.seat, n)
