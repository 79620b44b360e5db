"""Entering a hand asks only what the rule needs, and the engine does the arithmetic.

:func:`hand_form` says which pips a hand's entry needs under a mesa's rules; it asks the engine
(``score_hand``) which seats the rule compares and counts rather than knowing it itself.
:func:`facts_for` turns an entry into the :class:`HandFacts` that ``fichaflow score`` would build
from every seat's pips. Seats the rule does not count are entered as 0, and a pair's total sits
on the pair's first seat (its partner at 0): the rules compare and count pair sums and seats
that are given, so the score is the same as with every seat's own pips (``tests/anotador``
prove it for every rule).
"""

from __future__ import annotations

from dataclasses import dataclass

from fichaflow.anotador.entries import HandEntry
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import EndKind
from fichaflow.core.held import check_held
from fichaflow.core.rules import Rules
from fichaflow.core.scoring import (
    HandFacts,
    HandScore,
    ScoreRule,
    next_leader_after,
    score_hand,
)


@dataclass(frozen=True, slots=True)
class HandForm:
    """What to ask for a hand that ended as ``end`` by ``seat``.

    ``seats`` are the seats whose pips to ask, in the order to ask them; ``teams`` the pairs
    whose totals to ask instead (a tranque by pairs); ``toggles`` the bonus facts the mesa uses
    (``capicua`` is always asked on a dominó: it is announced even when worth 0)."""

    end: EndKind
    seat: int
    seats: tuple[int, ...]
    teams: tuple[int, ...]
    toggles: tuple[str, ...]


def _check_seat(rules: Rules, option: str, seat: int) -> None:
    if not 0 <= seat < rules.seats:
        raise FichaFlowError("score.seat", option=option, value=seat, high=rules.seats - 1)


def _turn_order(seats: set[int] | tuple[int, ...], start: int, n: int) -> tuple[int, ...]:
    return tuple(sorted(seats, key=lambda s: (s - start) % n))


def hand_form(rules: Rules, end: EndKind, seat: int) -> HandForm:
    """The entry form for one hand; see :class:`HandForm`."""
    _check_seat(rules, "seat", seat)
    n = rules.seats
    probe = score_hand(rules, HandFacts(end, seat, (0,) * n, seat))
    seats: tuple[int, ...] = ()
    teams: tuple[int, ...] = ()
    if end is EndKind.DOMINO:
        # Only the counted seats; the one who dominated holds nothing.
        seats = _turn_order({s for s in probe.counted if s != seat}, seat, n)
    elif probe.rule is ScoreRule.PAREJA:
        own = rules.team_of(seat)
        teams = (own, *(t for t in range(rules.teams) if t != own))
    else:
        # The compared seats first (the trancador, then the next one), then the rest in turn:
        # which of them count may depend on who wins the comparison.
        compared = tuple(s for s, _ in probe.compared)
        if probe.rule is ScoreRule.INDIVIDUAL:
            compared = _turn_order(compared, seat, n)
        rest = _turn_order(set(range(n)) - set(compared), seat, n)
        seats = compared + rest
    toggles = []
    if end is EndKind.DOMINO:
        toggles.append("capicua")
        if rules.chuchazo_bonus:
            toggles.append("chuchazo")
    if rules.salida_pasada_bonus:
        toggles.append("salida_pasada")
    if rules.pase_redondo_bonus:
        toggles.append("pase_redondo")
    return HandForm(end, seat, seats, teams, tuple(toggles))


def facts_for(
    rules: Rules, entry: HandEntry, leader: int, names: tuple[str, ...] | None = None
) -> HandFacts:
    """The engine's facts for ``entry``: asked pips, zeros where the rule counts nothing, and
    pair totals on each pair's first seat. Missing or misplaced values are refused."""
    form = hand_form(rules, entry.end, entry.seat)
    _check_seat(rules, "leader", leader)
    n = rules.seats
    who = names if names is not None and len(names) == n else tuple(f"{s}" for s in range(n))
    if len(entry.pips) > n:
        raise FichaFlowError("score.pips_count", found=len(entry.pips), seats=n)
    given = list(entry.pips) + [None] * (n - len(entry.pips))
    pips = [0] * n
    if entry.team_pips is not None:
        if not form.teams:
            raise FichaFlowError("anotador.team_pips_rule")
        if len(entry.team_pips) != rules.teams:
            raise FichaFlowError("anotador.team_pips_count", found=len(entry.team_pips))
        if any(p is not None for p in given):
            raise FichaFlowError("anotador.pips_both")
        for team, total in enumerate(entry.team_pips):
            pips[rules.seats_of(team)[0]] = total
    else:
        # A tranque by pairs may also be entered seat by seat: then every seat is needed.
        needed = form.seats if not form.teams else tuple(range(n))
        for seat in needed:
            if given[seat] is None:
                raise FichaFlowError("anotador.pips_missing", name=who[seat])
        for seat, value in enumerate(given):
            if value is not None:
                pips[seat] = value
    check_held(
        rules,
        entry.end,
        entry.seat,
        {seat: value for seat, value in enumerate(given) if value is not None},
        None if entry.team_pips is None else dict(enumerate(entry.team_pips)),
        who=lambda seat: seat_label(rules, who, seat),
        side=lambda team: " / ".join(who[s] for s in rules.seats_of(team) if s < n),
    )
    return HandFacts(
        end=entry.end,
        seat=entry.seat,
        pips=tuple(pips),
        leader=leader,
        capicua=entry.capicua,
        chuchazo=entry.chuchazo,
        pase_redondo=entry.pase_redondo,
        salida_pasada=entry.salida_pasada,
    )


def seat_label(rules: Rules, names: tuple[str, ...], seat: int) -> str:
    """A seat as the mesa's form shows it: the player, then the seat counted from 1 (and the
    pair's letter in parejas), «Beto (2 · B)»."""
    pair = f" · {'AB'[rules.team_of(seat)]}" if rules.teams == 2 and rules.seats == 4 else ""
    return f"{names[seat]} ({seat + 1}{pair})"


def next_leader(rules: Rules, entry: HandEntry, score: HandScore) -> int | None:
    """Who leads after this hand, or None when the entry does not tell (``ganador`` after a
    tranque entered by pair totals: the rule needs each partner's pips, so the mesa says)."""
    leader = next_leader_after(rules, score)
    if entry.team_pips is None:
        return leader
    # The same totals on each pair's other seat: if the engine's answer moves, it is unknown.
    facts = score.facts
    moved = [0] * rules.seats
    for team, total in enumerate(entry.team_pips):
        moved[rules.seats_of(team)[-1]] = total
    other = score_hand(rules, HandFacts(facts.end, facts.seat, tuple(moved), facts.leader))
    return leader if next_leader_after(rules, other) == leader else None
