"""The in-play rules of a hand, each written once: tranque, capicúa, chuchazo, salida pasada and
pase redondo.

Two engines play hands: the rules engine (:class:`fichaflow.core.hand.Hand`), which explains and
checks every move, and the search engine (:class:`fichaflow.search.engine.FastHand`), which plays
millions of them for the bots. Both decide these rules by calling the functions below, so a rule
changes in one place and the differential tests keep the engines together. Each function takes a
few ints rather than a position, because the search engine's playouts keep their state in plain
local ints and cannot afford to build one.

Tile sets are bit sets and ends are numbers from 0 to 6, -1 before the lead (as in
:mod:`fichaflow.core.tiles`).
"""

from __future__ import annotations

from fichaflow.core.tiles import DOBLE_BLANCO, SUIT_PAIR, tile_of


def tranque(outside: int, left: int, right: int) -> bool:
    """The hand is trancada: no tile off the line (``outside``: in any hand or in the montón)
    fits either open end. Checked after each placed tile that did not end the hand by dominada
    (a last tile that also blocks the line is a dominada)."""
    return not outside & SUIT_PAIR[left * 7 + right]


def capicua(tile: int, left: int, right: int) -> bool:
    """A dominada with ``tile``, laid when the open ends were ``left`` and ``right``, is a
    capicúa: the tile matched both ends, and the two ends showed different numbers."""
    return left != right and left >= 0 and tile == tile_of(left, right)


def chuchazo(tile: int) -> bool:
    """A dominada whose last tile is ``tile`` is a chuchazo: the 0-0 closed the hand."""
    return tile == DOBLE_BLANCO


def salida_pasada(seat: int, leader: int, seats: int, placed: int) -> bool:
    """``seat``'s pass is a salida pasada: it is the player after the ``leader`` passing on the
    lead tile itself (``placed`` tiles are on the line, the lead the only one)."""
    return placed == 1 and seat == (leader + 1) % seats


def pase_redondo(run_from: int, passes: int, seats: int) -> bool:
    """The ``passes``-th pass in a row since ``run_from`` placed a tile (-1: nobody has placed one
    yet) completes a pase redondo for ``run_from``: every other player passed and the turn comes
    back to them."""
    return run_from >= 0 and passes == seats - 1
