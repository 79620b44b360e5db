"""The person at the table: reads what they type, turns it into a move, asks for the end when a
tile fits both, and hands refusals back to them in one line.

Their input comes through a :class:`Prompter`, so a test can script a whole partida. Which tiles
fit where comes from the core (the view's legal moves); a move the core refuses is shown with the
core's own reason and the question is asked again.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import DRAW, PASS, End, Move
from fichaflow.core.tiles import name
from fichaflow.core.view import SeatView
from fichaflow.tui.commands import Command, TileChoice, hand_order, parse_command, parse_end
from fichaflow.tui.texts import say


class LeaveTable(Exception):
    """The person asked to leave the partida."""


class Ask(StrEnum):
    MOVE = "move"
    END = "end"
    PAUSE = "pause"


@dataclass(frozen=True, slots=True)
class Question:
    kind: Ask
    text: str


class Prompter(Protocol):
    """Where the person's answers come from. Raises EOFError when there are no more."""

    def ask(self, question: Question) -> str: ...


class Display(Protocol):
    """What the person can ask the screen for while choosing."""

    def error(self, error: FichaFlowError) -> None: ...

    def help(self) -> None: ...

    def show_table(self) -> None: ...

    def show_sheet(self) -> None: ...


class Person:
    """A :class:`~fichaflow.tui.table.Player` driven by what a person types."""

    def __init__(self, prompter: Prompter, display: Display, lang: str = "es") -> None:
        self.prompter = prompter
        self.display = display
        self.lang = lang

    def choose(self, view: SeatView) -> Move:
        while True:
            line = self.prompter.ask(Question(Ask.MOVE, say(self.lang, "prompt_move")))
            try:
                intent = parse_command(line, hand_order(view.tiles))
            except FichaFlowError as error:
                self.display.error(error)
                continue
            if isinstance(intent, TileChoice):
                move = self._tile_move(view, intent)
                if move is not None:
                    return move
            elif intent is Command.PASS:
                return PASS
            elif intent is Command.DRAW:
                return DRAW
            elif intent is Command.QUIT:
                raise LeaveTable
            elif intent is Command.HELP:
                self.display.help()
            elif intent is Command.TABLE:
                self.display.show_table()
            elif intent is Command.SHEET:
                self.display.show_sheet()

    def refused(self, error: FichaFlowError) -> None:
        self.display.error(error)

    def after_hand(self) -> None:
        self.prompter.ask(Question(Ask.PAUSE, say(self.lang, "prompt_pause")))

    def _tile_move(self, view: SeatView, choice: TileChoice) -> Move | None:
        """The move for a chosen tile; None when the person backed out of the end question.

        A tile the core does not list is still sent, so that the core says why it is refused
        (not held, does not fit, the salida is forced)."""
        tile = choice.tile
        if view.left < 0:
            return Move.lead(tile, choice.first)
        if choice.end is not None:
            return Move(tile, choice.end)
        ends = [m.end for m in view.legal if m.is_play and m.tile == tile]
        if len(ends) == 1:
            return Move(tile, ends[0])
        if not ends:
            return Move(tile, End.LEFT)
        return self._ask_end(view, tile)

    def _ask_end(self, view: SeatView, tile: int) -> Move | None:
        """The tile fits both ends (even when both show the same number): the person chooses."""
        text = say(self.lang, "prompt_end", tile=name(tile), left=view.left, right=view.right)
        while True:
            answer = self.prompter.ask(Question(Ask.END, text))
            try:
                end = parse_end(answer)
            except FichaFlowError as error:
                self.display.error(error)
                continue
            return None if end is None else Move(tile, end)
