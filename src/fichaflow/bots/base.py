"""The bot interface and the ladder's registry.

A bot is built with a seed (so that it plays the same way every time it is given the same seed)
and asked for one move at a time with :meth:`Bot.choose`. It receives a
:class:`~fichaflow.core.view.SeatView` and nothing else, so no bot can peek at hidden tiles;
``omnisciente`` is the one exception, for benchmarks only, and is never offered to players.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import Hand, Move
from fichaflow.core.view import SeatView


class Bot(ABC):
    """One player. Subclasses set ``name`` and implement :meth:`choose`."""

    name: ClassVar[str]
    """The ladder's word for this player: tirafichas, tirapuntos, ... gallo."""

    sees_all: ClassVar[bool] = False
    """True only for benchmark bots that are handed the whole position (``omnisciente``)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    @abstractmethod
    def choose(self, view: SeatView) -> Move:
        """One of ``view.legal`` (never called with an empty list)."""

    def choose_seeing_all(self, view: SeatView, hand: Hand) -> Move:
        """For ``sees_all`` bots only: choose with every hand visible. Runners call this instead
        of :meth:`choose` when ``sees_all`` is set, and never for a bot offered to players."""
        raise NotImplementedError


BotFactory = Callable[..., Bot]
BOTS: dict[str, BotFactory] = {}
"""Every bot by name, in ladder order."""

PLAYER_BOTS: list[str] = []
"""The bots offered to players (all but the benchmark-only ones)."""


def register(cls: type[Bot], *, offered: bool = True) -> type[Bot]:
    """Add a bot class to the ladder (``offered=False`` keeps it out of the players' list)."""
    BOTS[cls.name] = cls
    if offered:
        PLAYER_BOTS.append(cls.name)
    return cls


def make_bot(name: str, seed: int = 0, **options: Any) -> Bot:
    """A new bot of the named kind; an unknown name gets a Spanish error listing the ladder."""
    _load_ladder()
    if name not in BOTS:
        raise FichaFlowError("bot.unknown", name=name, allowed=", ".join(BOTS))
    return BOTS[name](seed=seed, **options)


def _load_ladder() -> None:
    """Import the modules that register the ladder's bots (kept lazy to avoid import cycles)."""
    import fichaflow.bots.ladder  # noqa: F401
