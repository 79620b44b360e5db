"""The bot interface (the ladder that lists every bot is :mod:`fichaflow.bots.ladder`).

A bot is built with a seed (so that it plays the same way every time it is given the same seed)
and asked for one move at a time with :meth:`Bot.choose`. It receives a
:class:`~fichaflow.core.view.SeatView` and nothing else, so no bot can peek at hidden tiles;
``omnisciente`` is the one exception, for benchmarks only, and is never offered to players.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from fichaflow.core.hand import Hand, Move
from fichaflow.core.view import SeatView


class Bot(ABC):
    """One player. Subclasses set ``name`` and implement :meth:`choose`."""

    name: ClassVar[str]
    """The ladder's word for this player: tirafichas, tirapuntos, ... gallo."""

    sees_all: ClassVar[bool] = False
    """True only for benchmark bots that are handed the whole position (``omnisciente``)."""

    searches: ClassVar[bool] = False
    """True for bots that search within a budget (``samples``, ``nodes``, ``budget_ms``
    options): the engine protocol passes them its work and time budgets."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    @abstractmethod
    def choose(self, view: SeatView) -> Move:
        """One of ``view.legal`` (never called with an empty list)."""

    def choose_seeing_all(self, view: SeatView, hand: Hand) -> Move:
        """For ``sees_all`` bots only: choose with every hand visible. Runners call this instead
        of :meth:`choose` when ``sees_all`` is set, and never for a bot offered to players."""
        raise NotImplementedError
