"""What the seats can still hold when a hand ends: bounds that no real deal can beat.

A table reports the pips left in each hand, and some reports come from no deal at all (a seat
in parejas with 100 pips, when seven tiles hold at most 69). The bounds follow from counting
tiles, never from guessing how the hand went, so that they never refuse a real hand:

- a seat that did not dominate still holds a tile (placing its last one is a dominó, which ends
  the hand), and the one who dominated holds none;
- the line holds at least 7 tiles: the winner of a dominó played its 7, and a tranque needs every
  tile of an open end's number on the line;
- in parejas nobody draws, so a seat holds at most 7; with a montón a seat may draw it all, and
  holds at most its 7 and the montón, and no more than what the line and the other seats leave;
- only one tile, the double blank, is worth 0: two seats still holding tiles cannot both show 0.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import EndKind
from fichaflow.core.rules import HAND_SIZE, Rules
from fichaflow.core.tiles import PIPS

LINE_MIN: Final = HAND_SIZE
"""The fewest tiles on the line when a hand ends (see the module's notes)."""


def heaviest(tiles: int) -> int:
    """The most pips ``tiles`` tiles of the set can hold: the heaviest ones."""
    return sum(sorted(PIPS, reverse=True)[: max(tiles, 0)])


def most_tiles(rules: Rules, end: EndKind) -> int:
    """The most tiles a seat that did not dominate can hold at the end of a hand."""
    if not rules.has_stock:
        return HAND_SIZE
    others = rules.seats - (2 if end is EndKind.DOMINO else 1)  # each holds at least one
    return min(HAND_SIZE + rules.stock_size, len(PIPS) - LINE_MIN - others)


def most_held_tiles() -> int:
    """The most tiles all the hands together can hold at the end of a hand."""
    return len(PIPS) - LINE_MIN


def _seat(seat: int) -> str:
    return str(seat)


def check_held(
    rules: Rules,
    end: EndKind,
    seat: int,
    pips: Mapping[int, int],
    team_pips: Mapping[int, int] | None = None,
    who: Callable[[int], str] = _seat,
    side: Callable[[int], str] = _seat,
) -> None:
    """Refuse pips that no deal can leave: ``pips`` by seat for the seats reported, or
    ``team_pips`` by pair; ``seat`` dominated or closed the tranque. ``who`` and ``side`` name
    a seat and a pair in the messages."""
    for s, value in pips.items():
        if value < 0:
            raise FichaFlowError("score.held_negative", who=who(s), value=value)
        if end is EndKind.DOMINO and s == seat:
            if value:
                raise FichaFlowError("score.held_domino", who=who(s), value=value)
            continue
        tiles = most_tiles(rules, end)
        if value > heaviest(tiles):
            code = "score.held_seat_stock" if rules.has_stock else "score.held_seat"
            raise FichaFlowError(code, who=who(s), value=value, tiles=tiles, max=heaviest(tiles))
    for team, value in (team_pips or {}).items():
        if value < 0:
            raise FichaFlowError("score.held_negative", who=side(team), value=value)
        tiles = min(most_tiles(rules, end) * len(rules.seats_of(team)), most_held_tiles())
        if value > heaviest(tiles):
            raise FichaFlowError(
                "score.held_team", who=side(team), value=value, tiles=tiles, max=heaviest(tiles)
            )
        partners = rules.seats_of(team)
        # Every partner still holds a tile, unless one dominated; one tile alone is worth 0.
        if value == 0 and len(partners) > 1 and (end is EndKind.TRANQUE or seat not in partners):
            raise FichaFlowError("score.held_team_zero", who=side(team))
    given = pips if team_pips is None else team_pips
    total = sum(given.values())
    if total > heaviest(most_held_tiles()):
        raise FichaFlowError(
            "score.held_total", value=total, tiles=most_held_tiles(),
            line=LINE_MIN, max=heaviest(most_held_tiles()),
        )  # fmt: skip
    dominated = seat if end is EndKind.DOMINO else None
    zeros = [s for s, value in pips.items() if value == 0 and s != dominated]
    if len(zeros) > 1:
        raise FichaFlowError("score.held_zeros", first=who(zeros[0]), second=who(zeros[1]))
