"""What the person typed, read into an intention: a tile (by its number or by writing it), an end,
a pass, a draw, or a request to the screen.

Reading is not judging: whether a tile may be played there is the core's decision, asked later.
Here we only turn words into an intention, or into a clear error when the words mean nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import End
from fichaflow.core.tiles import HALVES, bits, parse_halves, tile_of


class Command(StrEnum):
    """A request that is not a tile."""

    PASS = "pass"
    DRAW = "draw"
    HELP = "help"
    TABLE = "table"
    SHEET = "sheet"
    QUIT = "quit"
    NOTHING = "nothing"  # an empty line


@dataclass(frozen=True, slots=True)
class TileChoice:
    """A tile the person wants to put down. ``first`` is the half they wrote first (it goes on the
    left if this is the lead); ``end`` is the end they named, if they named one."""

    tile: int
    first: int | None = None
    end: End | None = None


Intent = TileChoice | Command

WORDS: Final[dict[str, Command]] = {
    **dict.fromkeys(("p", "paso", "pasar", "pass", "paso.", "pasé"), Command.PASS),
    **dict.fromkeys(("r", "robar", "robo", "roba", "draw"), Command.DRAW),
    **dict.fromkeys(("?", "ayuda", "h", "help"), Command.HELP),
    **dict.fromkeys(("m", "mesa", "t", "table", "line"), Command.TABLE),
    **dict.fromkeys(("a", "anotador", "sheet", "score"), Command.SHEET),
    **dict.fromkeys(("q", "salir", "quit", "exit"), Command.QUIT),
}

END_WORDS: Final[dict[str, End]] = {
    **dict.fromkeys(("i", "izq", "izquierda", "l", "left", "<"), End.LEFT),
    **dict.fromkeys(("d", "der", "derecha", "r", "right", ">"), End.RIGHT),
}


def hand_order(tiles: int) -> list[int]:
    """The person's tiles in the order they are numbered on screen: highest tile first
    (6-6, 6-5, ... 0-0), as most players arrange them."""
    return sorted(bits(tiles), key=lambda t: HALVES[t], reverse=True)


def parse_end(text: str) -> End | None:
    """The end named by ``text`` (``i``/``d``, ``izquierda``/``derecha``, ``l``/``r``); None for an
    empty answer, which takes the person back to choosing a tile."""
    word = text.strip().lower()
    if not word:
        return None
    if word in END_WORDS:
        return END_WORDS[word]
    raise FichaFlowError("play.bad_end", text=text.strip())


def parse_command(text: str, numbered: list[int]) -> Intent:
    """Read one line typed at the move prompt. ``numbered`` is the person's tiles in screen order,
    so that ``3`` means the third tile shown."""
    words = text.strip().lower().replace(":", " ").split()
    if not words:
        return Command.NOTHING
    if len(words) == 1 and words[0] in WORDS:
        return WORDS[words[0]]
    if len(words) > 2:
        raise FichaFlowError("play.bad_input", text=text.strip())
    end = parse_end(words[1]) if len(words) == 2 else None
    first = words[0]
    if first.isascii() and first.isdigit():
        number = int(first)
        if not 1 <= number <= len(numbered):
            raise FichaFlowError("play.number_range", number=number, high=len(numbered))
        return TileChoice(numbered[number - 1], None, end)
    if "-" in first:
        a, b = parse_halves(first)
        return TileChoice(tile_of(a, b), a, end)
    raise FichaFlowError("play.bad_input", text=text.strip())
