"""The game loop of a table: deal, ask whoever is to move, apply the move, score, repeat.

It knows nothing of terminals. Players (bots or a person) are asked for moves through one small
interface and only ever see their seat's :class:`~fichaflow.core.view.SeatView`; the core decides
every rule (a refused move comes back to the player with the core's reason); an observer is told
what a watcher at one seat may know, and draws the screen.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Protocol

from fichaflow.bots.base import Bot
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import Move
from fichaflow.core.partida import Partida, PlayedHand
from fichaflow.core.rules import Rules
from fichaflow.core.scoring import HandScore
from fichaflow.core.view import SeatView, hand_view, seat_view


class Player(Protocol):
    """Whoever sits at a seat."""

    def choose(self, view: SeatView) -> Move:
        """A move for the position in ``view`` (it is this player's turn)."""
        ...

    def refused(self, error: FichaFlowError) -> None:
        """The core refused the last move chosen; ``choose`` will be asked again."""
        ...

    def after_hand(self) -> None:
        """The hand is over and its summary has been shown."""
        ...


class BotPlayer:
    """A bot at the table. It sees only its seat's view; a refused move is a bug, so it raises."""

    def __init__(
        self, bot: Bot, thinking: Callable[[], AbstractContextManager[object]] | None = None
    ) -> None:
        self.bot = bot
        self.thinking = thinking or nullcontext

    def choose(self, view: SeatView) -> Move:
        with self.thinking():
            return self.bot.choose(view)

    def refused(self, error: FichaFlowError) -> None:
        raise error

    def after_hand(self) -> None:
        pass


@dataclass(frozen=True, slots=True)
class TableState:
    """What the watcher may know now: their view of the hand (or of the hand just ended) and the
    anotador. ``sheet`` holds what each side added in each finished hand."""

    rules: Rules
    names: tuple[str, ...]
    watcher: int | None
    view: SeatView
    sheet: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PartidaResult:
    winner: int
    scores: tuple[int, ...]
    zapato: bool
    chancleta: bool
    losers: tuple[int, ...]


class Observer(Protocol):
    """Told everything the watcher may see, in order."""

    def sorteo(self, rounds: list[list[tuple[int, int]]], winner: int) -> None: ...

    def hand_started(self, state: TableState) -> None: ...

    def turn(self, state: TableState) -> None: ...

    def moved(self, state: TableState) -> None: ...

    def hand_ended(self, state: TableState, score: HandScore) -> None: ...

    def partida_ended(self, state: TableState, result: PartidaResult) -> None: ...


def hand_seed(seed: str, number: int) -> str:
    """The seed of hand ``number``'s deal, derived from the partida's seed."""
    return f"{seed}/mano/{number}"


def bot_seed(seed: str, seat: int) -> int:
    """A bot's own seed, so that the same partida seed gives the same bots' play."""
    digest = hashlib.sha256(f"{seed}/bot/{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Table:
    """A partida played from start to end. ``watcher`` is the seat whose knowledge the observer
    gets (the person's seat; None shows the table as a mirón sees it)."""

    def __init__(
        self,
        rules: Rules,
        players: Sequence[Player],
        names: Sequence[str],
        seed: str,
        observer: Observer,
        watcher: int | None = None,
    ) -> None:
        self.rules = rules
        self.players = list(players)
        self.names = tuple(names)
        self.seed = seed
        self.observer = observer
        self.watcher = watcher
        self.partida = Partida(rules, self.names)

    def run(self) -> Partida:
        """Play hands until a side wins the partida."""
        while not self.partida.over:
            self.play_hand()
        partida = self.partida
        assert partida.winner is not None
        result = PartidaResult(
            partida.winner, partida.scores, partida.zapato, partida.chancleta, partida.losers
        )
        self.observer.partida_ended(self.state(), result)
        return partida

    def play_hand(self) -> PlayedHand:
        """Deal the next hand from its seed and play it to its end: the partida decides who
        leads (and draws the sorteo) and whose turn it is; the players only choose moves."""
        partida, rules = self.partida, self.rules
        number = partida.hand_number
        hand = partida.deal(hand_seed(self.seed, number))
        if number == 1 and partida.sorteo is not None:
            winner, rounds = partida.sorteo
            self.observer.sorteo(rounds, winner)
        self.observer.hand_started(self.state())
        played: PlayedHand | None = None
        while played is None:
            seat = hand.turn
            self.observer.turn(self.state())
            view = hand_view(rules, hand, seat, partida.scores, number, self.names)
            player = self.players[seat]
            while True:
                move = player.choose(view)
                try:
                    played = partida.play(move)
                except FichaFlowError as error:
                    player.refused(error)
                    continue
                break
            self.observer.moved(self.state())
        self.observer.hand_ended(self.state(), played.score)
        for player in self.players:
            player.after_hand()
        return played

    def state(self) -> TableState:
        """What the watcher may know now."""
        partida = self.partida
        view = seat_view(partida, self.watcher)
        assert view is not None
        teams = self.rules.teams
        sheet = tuple(p.score.gains(teams) for p in partida.played)
        return TableState(self.rules, self.names, self.watcher, view, sheet, partida.scores)
