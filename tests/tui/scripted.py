"""A scripted person for the terminal table: it answers the questions a person is asked, and it
writes down every line it typed so the same partida can be replayed through the real command.

The script is omniscient (it reads the engine's position, which no player may do); that is what
lets it aim for the situations the tests want: a refused pasar agachado, an end choice, a draw,
a pass, and a few kinds of bad input.
"""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass, field

from rich.console import Console

from fichaflow.core.hand import End, Hand
from fichaflow.core.partida import Partida
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import HALVES
from fichaflow.tui.commands import hand_order
from fichaflow.tui.person import Ask, Person, Question
from fichaflow.tui.screen import Screen
from fichaflow.tui.setup import build_table, seat_players
from fichaflow.tui.table import Table


class ScriptedLines:
    """Answers from a fixed list; EOFError when it runs out, like Ctrl-D."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = list(lines)
        self.asked: list[Question] = []

    def ask(self, question: Question) -> str:
        self.asked.append(question)
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


@dataclass
class Plan:
    """What the scripted person has done so far, and what it still means to do."""

    typed: list[str] = field(default_factory=list)
    done: Counter[str] = field(default_factory=Counter)
    pending: list[str] = field(default_factory=list)  # answers already decided
    end_choices: list[tuple[int, int, End]] = field(
        default_factory=list
    )  # (hand number, tile, end)


class PolicyPerson:
    """Answers like a player who tries things: it first tries to pass while holding a playable
    tile (refused), types a tile number out of range and a word that means nothing, always takes a
    tile that fits both ends when it has one (answering a wrong end word first), draws when it
    must and passes when it must. Otherwise it plays its first playable tile, alternating between
    its number and writing it."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.table: Table | None = None
        self.plan = Plan()

    def ask(self, question: Question) -> str:
        answer = self._answer(question)
        self.plan.typed.append(answer)
        return answer

    def _answer(self, question: Question) -> str:
        plan = self.plan
        if question.kind is Ask.PAUSE:
            return ""
        if plan.pending:
            return plan.pending.pop(0)
        assert question.kind is Ask.MOVE
        assert self.table is not None
        hand = self.table.partida.current
        assert hand is not None and hand.turn == self.seat
        legal = hand.legal_moves()
        if any(m.is_draw for m in legal):
            plan.done["draw"] += 1
            return "r"
        if any(m.is_pass for m in legal):
            plan.done["pass"] += 1
            return "p"
        if hand.left >= 0 and not plan.done["agachado"]:
            plan.done["agachado"] += 1
            return "p"
        if not plan.done["out_of_range"]:
            plan.done["out_of_range"] += 1
            return "99"
        if not plan.done["nonsense"]:
            plan.done["nonsense"] += 1
            return "hola"
        numbered = hand_order(hand.hands[self.seat])
        by_tile = Counter(m.tile for m in legal)
        both = [t for t, n in by_tile.items() if n == 2]
        if both:
            tile = both[0]
            end = End.RIGHT if plan.done["end_choice"] % 2 else End.LEFT
            plan.done["end_choice"] += 1
            if not plan.done["bad_end"]:
                plan.done["bad_end"] += 1
                plan.pending.append("arriba")
            plan.pending.append("i" if end is End.LEFT else "d")
            plan.end_choices.append((len(self.table.partida.played) + 1, tile, end))
            return str(numbered.index(tile) + 1)
        tile = legal[0].tile
        plan.done["play"] += 1
        if plan.done["play"] % 2:
            return str(numbered.index(tile) + 1)
        hi, lo = HALVES[tile]
        return f"{lo}-{hi}" if hand.left < 0 else f"{hi}-{lo}"


@dataclass
class Played:
    partida: Partida
    output: str
    person: PolicyPerson
    names: tuple[str, ...]


def play_scripted(
    rules: Rules,
    seed: str,
    seat: int = 0,
    bot: str = "tirapuntos",
    lang: str = "es",
    name: str | None = None,
) -> Played:
    """A whole partida: the scripted person at ``seat`` against ``bot``, printed to a string."""
    seating = seat_players(rules, bot, seat, name, seed, lang)
    buffer = io.StringIO()
    console = Console(file=buffer, width=100, color_system=None, highlight=False)
    screen = Screen(console, lang, seating.names, seating.labels)
    policy = PolicyPerson(seat)
    table = build_table(seating, Person(policy, screen, lang), screen)
    policy.table = table
    screen.intro(seating.notes)
    partida = table.run()
    return Played(partida, buffer.getvalue(), policy, seating.names)


def history_hand(partida: Partida, number: int) -> Hand:
    return partida.played[number - 1].hand
