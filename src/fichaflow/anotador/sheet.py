"""The score sheet, derived from the mesa's log of actions and never stored.

:func:`replay` turns a mesa and its actions into partidas: each line with what it was worth
(the engine's ``score_hand``), the running totals, the target, the winner, zapato and chancleta
(the core's ``target_winner``, ``is_zapato`` and ``is_chancleta``, the ones ``Partida`` uses).
Every action is checked by replaying the log with it: one that would leave a sheet the rules
cannot accept is refused with a Spanish error, and nothing changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from fichaflow import i18n
from fichaflow.anotador.entries import (
    Action,
    AddEntry,
    Adjustment,
    DeleteEntry,
    EditEntry,
    Entry,
    HandEntry,
    NewPartida,
    SetQueue,
    Undo,
)
from fichaflow.anotador.forms import facts_for, next_leader
from fichaflow.anotador.mesa import MesaSetup, check_seating, parados, side_label
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.explain import explain
from fichaflow.core.partida import is_chancleta, is_zapato, target_winner
from fichaflow.core.rules import Rules
from fichaflow.core.scoring import HandScore, score_hand


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a partida's sheet: a hand (numbered, with who led and its score) or an
    adjustment, what each side gained and the totals after it."""

    id: str
    entry: Entry
    hand: int | None
    leader: int | None
    score: HandScore | None
    gains: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PartidaSheet:
    """A partida as the sheet shows it. ``next_leader`` is who leads the next hand, None when
    the mesa must say (the first hand, or after a tranque entered by pair totals under
    ``ganador``)."""

    number: int
    rules: Rules
    seating: tuple[str, ...]
    team_names: tuple[str, ...]
    lines: tuple[Line, ...]
    totals: tuple[int, ...]
    winner: int | None
    next_leader: int | None
    hands_won: tuple[int, ...]
    hands_scored: tuple[int, ...]

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def zapato(self) -> bool:
        return is_zapato(self.totals, self.winner)

    @property
    def chancleta(self) -> bool:
        return is_chancleta(self.hands_scored, self.winner)

    def side(self, team: int, lang: str = "es") -> str:
        return side_label(self.rules, self.seating, self.team_names, team, lang)

    def explain(self, line: Line, lang: str = "es") -> list[str]:
        """The line in the rule's words: the engine's explanation for a hand, the reason and
        the points for an adjustment."""
        if line.score is not None:
            return explain(self.rules, line.score, self.seating, lang)
        entry = line.entry
        assert isinstance(entry, Adjustment)
        return [i18n.text("anotador.sheet.adjustment", lang, who=self.side(entry.team, lang),
                          points=f"{entry.points:+d}", reason=entry.reason)]  # fmt: skip


@dataclass(frozen=True, slots=True)
class MesaState:
    """Everything the anotador shows: the partidas (the last is the current one), the queue
    of parados and the actions in force (undone ones left out)."""

    mesa: MesaSetup
    partidas: tuple[PartidaSheet, ...]
    queue: tuple[str, ...]
    in_force: tuple[Action, ...] = field(default=())

    @property
    def current(self) -> PartidaSheet:
        return self.partidas[-1]


def score_partida(
    rules: Rules,
    seating: tuple[str, ...],
    team_names: tuple[str, ...],
    entries: Sequence[tuple[str, Entry]],
    number: int = 1,
) -> PartidaSheet:
    """Score a partida's entries in order; refuses a line after the partida was won and a hand
    whose leader nobody knows."""
    teams = rules.teams
    totals = (0,) * teams
    hands_won = [0] * teams
    hands_scored = [0] * teams
    winner: int | None = None
    expected: int | None = None  # who leads the next hand, if the rules tell
    hand_number = 0
    lines: list[Line] = []
    for entry_id, entry in entries:
        if winner is not None:
            raise FichaFlowError("anotador.after_end", hand=hand_number)
        score: HandScore | None = None
        leader: int | None = None
        if isinstance(entry, HandEntry):
            hand_number += 1
            leader = entry.leader if entry.leader is not None else expected
            if leader is None:
                raise FichaFlowError("anotador.leader_needed").at(hand=hand_number)
            try:
                score, after = _score_line(rules, entry, leader, seating)
            except FichaFlowError as exc:
                raise exc.at(hand=hand_number) from None
            gains = score.gains(teams)
            if score.winner is not None:
                hands_won[score.winner] += 1
            for team, gain in enumerate(gains):
                if gain > 0:
                    hands_scored[team] += 1
            expected = after
        else:
            if not 0 <= entry.team < teams:
                raise FichaFlowError("anotador.team", value=entry.team, high=teams - 1)
            gains = tuple(entry.points if t == entry.team else 0 for t in range(teams))
        totals = tuple(t + g for t, g in zip(totals, gains, strict=True))
        # An adjustment can end the partida too; it won no hand, so it breaks no tie.
        winner = target_winner(rules.target, totals, score.winner if score else None)
        lines.append(Line(entry_id, entry, hand_number if score else None, leader, score,
                          gains, totals))  # fmt: skip
    return PartidaSheet(
        number, rules, seating, team_names, tuple(lines), totals, winner, expected,
        tuple(hands_won), tuple(hands_scored),
    )  # fmt: skip


@lru_cache(maxsize=8192)
def _score_line(
    rules: Rules, entry: HandEntry, leader: int, seating: tuple[str, ...]
) -> tuple[HandScore, int | None]:
    """A hand's score and the next salida. Replaying a log scores the same lines again and
    again (every action is checked against the whole sheet), so the answers are remembered:
    they depend on nothing else."""
    score = score_hand(rules, facts_for(rules, entry, leader, seating))
    return score, next_leader(rules, entry, score)


def in_force(actions: Sequence[Action]) -> list[Action]:
    """The actions still in force: each undo takes back the latest one not yet taken back."""
    stack: list[Action] = []
    for action in actions:
        if isinstance(action.change, Undo):
            if not stack:
                raise FichaFlowError("anotador.nothing_to_undo")
            stack.pop()
        else:
            stack.append(action)
    return stack


@dataclass
class _Partida:
    seating: tuple[str, ...]
    team_names: tuple[str, ...]
    entries: list[tuple[str, Entry]]


def replay(mesa: MesaSetup, actions: Sequence[Action]) -> MesaState:
    """The mesa's sheet after ``actions``; raises a FichaFlowError naming the first action the
    rules refuse."""
    rules = mesa.rules
    team_names = mesa.team_names or ("",) * rules.teams
    done: list[PartidaSheet] = []
    now = _Partida(mesa.seating, team_names, [])
    queue = mesa.queue
    sheet: PartidaSheet | None = None

    def current() -> PartidaSheet:
        nonlocal sheet
        if sheet is None:
            sheet = score_partida(rules, now.seating, now.team_names, now.entries, len(done) + 1)
        return sheet

    def position(target: str) -> int:
        for i, (entry_id, _) in enumerate(now.entries):
            if entry_id == target:
                return i
        if any(line.id == target for p in done for line in p.lines):
            raise FichaFlowError("anotador.old_partida")
        raise FichaFlowError("anotador.not_found", target=target)

    kept = in_force(actions)
    for action in kept:
        change = action.change
        if isinstance(change, AddEntry):
            if current().over:
                raise FichaFlowError("anotador.partida_over", winner=current().side(_won(sheet)))
            now.entries.append((action.id, change.entry))
        elif isinstance(change, EditEntry):
            now.entries[position(change.target)] = (change.target, change.entry)
        elif isinstance(change, DeleteEntry):
            del now.entries[position(change.target)]
        elif isinstance(change, SetQueue):
            check_seating(rules, now.seating, change.queue)
            queue = change.queue
        elif isinstance(change, NewPartida):
            finished = current()
            if not finished.lines:
                raise FichaFlowError("anotador.empty_partida")
            seating, names = now.seating, now.team_names
            if change.custom == "parados":
                if finished.winner is None:
                    raise FichaFlowError("anotador.parados_unfinished")
                seating, queue, names = parados(rules, seating, queue, names, finished.winner)
            done.append(finished)
            now = _Partida(seating, names, [])
        sheet = None
        current()  # check the partida as it now stands
    return MesaState(mesa, (*done, current()), queue, tuple(kept))


def _won(sheet: PartidaSheet | None) -> int:
    assert sheet is not None and sheet.winner is not None
    return sheet.winner
