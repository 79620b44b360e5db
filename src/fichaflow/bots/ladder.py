"""The ladder: every bot by name, weakest first, and the one way to build one.

The list is written out here rather than gathered from modules that register themselves on
import, so that what the ladder holds, and in which order, is read in one place and depends on
no import having happened first.
"""

from __future__ import annotations

from typing import Any, Final

from fichaflow.bots.base import Bot
from fichaflow.bots.gallo import Gallo
from fichaflow.bots.jugador import Jugador
from fichaflow.bots.omnisciente import Omnisciente
from fichaflow.bots.simple import Acuestafichas, Tirafichas, Tirapuntos
from fichaflow.core.errors import FichaFlowError

LADDER: Final[tuple[type[Bot], ...]] = (
    Tirafichas,
    Tirapuntos,
    Acuestafichas,
    Jugador,
    Gallo,
    Omnisciente,
)

BOTS: Final[dict[str, type[Bot]]] = {bot.name: bot for bot in LADDER}
"""Every bot by name, in ladder order."""

PLAYER_BOTS: Final[tuple[str, ...]] = tuple(bot.name for bot in LADDER if not bot.sees_all)
"""The bots offered to players: all but the benchmark-only ones, which see every hand."""


def make_bot(name: str, seed: int = 0, **options: Any) -> Bot:
    """A new bot of the named kind; an unknown name gets a Spanish error listing the ladder."""
    if name not in BOTS:
        raise FichaFlowError("bot.unknown", name=name, allowed=", ".join(BOTS))
    return BOTS[name](seed=seed, **options)
