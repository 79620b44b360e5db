"""The terminal side of the table: prints what the watcher may know as the partida goes on, and
reads the person's answers from the keyboard.

The screen is an observer of :class:`~fichaflow.tui.table.Table` and the display of
:class:`~fichaflow.tui.person.Person`; what it prints is built in :mod:`fichaflow.tui.render`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext

from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.scoring import HandScore
from fichaflow.core.tiles import name
from fichaflow.core.view import TurnKind
from fichaflow.tui import render
from fichaflow.tui.person import Ask, Question
from fichaflow.tui.table import PartidaResult, TableState
from fichaflow.tui.texts import say


class Screen:
    """Prints the partida for the person at seat ``state.watcher``. Everything is printed as
    rich ``Text``, never as markup, so that a name like ``[/]`` is shown as written.

    ``labels`` adds a word to each seat's name ("tú", "gallo", ...); ``pace`` is a pause in
    seconds after each bot move, so that a person can follow the play."""

    def __init__(
        self,
        console: Console,
        lang: str,
        names: Sequence[str],
        labels: Sequence[str],
        pace: float = 0.0,
    ) -> None:
        self.console = console
        self.lang = lang
        self.names = list(names)
        self.labels = list(labels)
        self.pace = pace
        self.state: TableState | None = None
        self._draws: tuple[int, int] | None = None  # (seat, how many) not told yet

    # -- the partida as it goes (Observer) -----------------------------------------------------

    def intro(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.console.print(Text(line, style="dim"))

    def sorteo(self, rounds: list[list[tuple[int, int]]], winner: int) -> None:
        for draws in rounds:
            told = ", ".join(f"{self.names[seat]} {name(tile)}" for seat, tile in draws)
            self.console.print(Text(say(self.lang, "sorteo_round", draws=told)))
        self.console.print(Text(say(self.lang, "sorteo_wins", who=self.names[winner])))

    def hand_started(self, state: TableState) -> None:
        self.state = state
        self._draws = None
        title = say(self.lang, "hand_title", number=state.view.hand_number)
        self.console.print()
        self.console.print(Rule(title, style="cyan"))

    def turn(self, state: TableState) -> None:
        self.state = state
        view = state.view
        if not view.my_turn:
            return
        self._tell_draws()
        last = view.history[-1] if view.history else None
        if last is not None and last.kind is TurnKind.DRAW and last.seat == view.seat:
            self.console.print(render.hand_text(view, self.lang))
        else:
            self.console.print()
            self.console.print(render.table_view(state, self.labels, self.lang, self.console))
        self.console.print(render.turn_prompt(state, self.lang))

    def moved(self, state: TableState) -> None:
        self.state = state
        turn = state.view.history[-1]
        if turn.kind is TurnKind.DRAW:
            if turn.seat == state.watcher:
                self.console.print(Text(say(self.lang, "ev_you_drew", tile=name(turn.drawn))))
                return
            seat, count = self._draws or (turn.seat, 0)
            if seat != turn.seat:
                self._tell_draws()
                count = 0
            self._draws = (turn.seat, count + 1)
            return
        self._tell_draws()
        self.console.print(render.event_text(state, turn, self.lang))
        if self.pace and turn.seat != state.watcher and not state.view.ended:
            time.sleep(self.pace)

    def hand_ended(self, state: TableState, score: HandScore) -> None:
        self.state = state
        self._tell_draws()
        self.console.print()
        self.console.print(render.hand_summary(state, score, self.lang))

    def partida_ended(self, state: TableState, result: PartidaResult) -> None:
        self.state = state
        self.console.print()
        self.console.print(render.partida_summary(state, result, self.lang))

    def left_table(self) -> None:
        self.console.print()
        self.console.print(Text(say(self.lang, "left_table")))

    # -- what the person asks for (Display) -----------------------------------------------------

    def error(self, error: FichaFlowError) -> None:
        self.console.print(Text(error.message(self.lang), style="bold red"), soft_wrap=True)

    def help(self) -> None:
        self.console.print(Text(say(self.lang, "help"), style="dim"))

    def show_table(self) -> None:
        if self.state is not None:
            self.console.print(render.table_view(self.state, self.labels, self.lang, self.console))
            self.console.print(render.turn_prompt(self.state, self.lang))

    def show_sheet(self) -> None:
        if self.state is not None:
            self.console.print(render.sheet_table(self.state, self.lang))

    def thinking(self, seat: int) -> Callable[[], AbstractContextManager[object]]:
        """A spinner while a bot thinks, on a real terminal only."""

        def spinner() -> AbstractContextManager[object]:
            if not self.console.is_terminal:
                return nullcontext()
            who = self.names[seat]
            return self.console.status(say(self.lang, "thinking", who=who), spinner="dots")

        return spinner

    def _tell_draws(self) -> None:
        if self._draws is None:
            return
        seat, count = self._draws
        self._draws = None
        who = self.names[seat]
        key = "ev_drew_one" if count == 1 else "ev_drew"
        self.console.print(Text(say(self.lang, key, who=who, count=count)))


class ConsolePrompter:
    """Reads the person's answers from the keyboard (or from a pipe, echoing them so that the
    transcript reads like the game). Ctrl-D raises EOFError and Ctrl-C KeyboardInterrupt."""

    def __init__(self, console: Console, echo: bool = False) -> None:
        self.console = console
        self.echo = echo

    def ask(self, question: Question) -> str:
        prompt = f"{question.text} › "
        if question.kind is Ask.PAUSE:
            self.console.print()
        self.console.file.flush()
        answer = input(prompt)
        if self.echo:
            self.console.print(answer, markup=False, highlight=False)
        return answer
