"""One hand (mano): the line, the hands, the montón and whose turn it is, with push and pop.

A :class:`Hand` is the rules engine's position. It knows the play of a hand: legal moves with the
end choice, forced play, drawing from the montón, dominada, tranque, capicúa and the in-play
bonuses (pase redondo, salida pasada), each of those decided by :mod:`fichaflow.core.inplay`. It
does not know scores or who leads: the partida decides those and hands them in. Positions are
cheap to copy and every move can be taken back with :meth:`Hand.pop`, so bots can search them.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Final

from fichaflow.core import inplay
from fichaflow.core.errors import IllegalMove
from fichaflow.core.tiles import (
    ALL_TILES,
    HALVES,
    PIPS,
    SUIT,
    bits,
    mask_of,
    name,
    other_half,
    parse_halves,
    tile_of,
)


class End(IntEnum):
    LEFT = 0
    RIGHT = 1

    @property
    def word(self) -> str:
        """The end as notation writes it (``6-4:left``)."""
        return "left" if self is End.LEFT else "right"


END_BY_WORD: Final = {end.word: end for end in End}
"""The end each word of the notation names."""


def blocked(line_mask: int, left: int, right: int) -> bool:
    """The tranque rule (:func:`fichaflow.core.inplay.tranque`) for the tiles on the line."""
    return inplay.tranque(ALL_TILES & ~line_mask, left, right)


PASS_TILE: Final = -1
DRAW_TILE: Final = -2


@dataclass(frozen=True, slots=True)
class Move:
    """A play (``tile`` at ``end``), a lead (``end`` is None, ``left`` is the half shown on the
    left), a pass or a draw from the montón."""

    tile: int
    end: End | None = None
    left: int | None = None

    @property
    def is_pass(self) -> bool:
        return self.tile == PASS_TILE

    @property
    def is_draw(self) -> bool:
        return self.tile == DRAW_TILE

    @property
    def is_play(self) -> bool:
        return self.tile >= 0

    @staticmethod
    def lead(tile: int, left: int | None = None) -> Move:
        """Lead ``tile`` with ``left`` on the left end (by default its higher half)."""
        return Move(tile, None, HALVES[tile][0] if left is None else left)


PASS: Final = Move(PASS_TILE)
DRAW: Final = Move(DRAW_TILE)


class EndKind(StrEnum):
    DOMINO = "domino"
    TRANQUE = "tranque"


@dataclass(frozen=True, slots=True)
class Turn:
    """One action in a hand's history, with the open ends it faced (-1 before the lead).

    ``drawn`` is the tile a DRAW took from the montón; only the drawer may see it."""

    seat: int
    move: Move
    left: int
    right: int
    drawn: int = -1

    def notation(self) -> str:
        """The move in record notation, with the end named only where the tile fits both."""
        return write_move(self.move, (self.left, self.right))


def place(line: deque[tuple[int, int]], turn: Turn) -> None:
    """Lay ``turn``'s tile on ``line`` (left end first, each tile as ``(left half, right
    half)``), if it placed one: the one way a line is built from a history."""
    move = turn.move
    if not move.is_play:
        return
    if move.end is None:
        assert move.left is not None
        line.append((move.left, other_half(move.tile, move.left)))
    elif move.end is End.LEFT:
        line.appendleft((other_half(move.tile, turn.left), turn.left))
    else:
        line.append((turn.right, other_half(move.tile, turn.right)))


@dataclass(frozen=True, slots=True)
class HandEnd:
    """How a hand ended: who dominated or trancó, with which tile."""

    kind: EndKind
    seat: int
    tile: int
    capicua: bool = False
    chuchazo: bool = False


class Hand:
    """The position of one hand. Mutate it only through :meth:`push` / :meth:`play` / :meth:`pop`.

    ``hands`` holds each seat's tiles as a bit set; ``stock`` is the montón in drawing order.
    """

    __slots__ = (
        "_undo",
        "forced_lead",
        "hands",
        "history",
        "leader",
        "left",
        "line_mask",
        "pase_redondo",
        "result",
        "right",
        "run_from",
        "run_passes",
        "salida_pasada",
        "seats",
        "stock",
        "stock_pos",
        "turn",
    )

    def __init__(
        self,
        hands: list[int],
        stock: tuple[int, ...] = (),
        leader: int = 0,
        forced_lead: int | None = None,
    ) -> None:
        self.seats = len(hands)
        self.hands = list(hands)
        self.stock = tuple(stock)
        self.stock_pos = 0
        self.leader = leader
        self.forced_lead = forced_lead
        self.turn = leader
        self.left = -1
        self.right = -1
        self.line_mask = 0
        self.history: list[Turn] = []
        self.result: HandEnd | None = None
        self.run_from = -1  # who played last, for the pase redondo
        self.run_passes = 0  # passes in a row since then
        self.pase_redondo: list[int] = []  # seats credited, in order
        self.salida_pasada = False
        self._undo: list[tuple[int, int, int, int, int, int, int, bool, HandEnd | None, int]] = []

    # -- reading the position -------------------------------------------------------------

    @property
    def ended(self) -> bool:
        return self.result is not None

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.stock_pos

    @property
    def must_draw(self) -> bool:
        """The player to move has nothing to play and the montón has tiles: drawing is their
        only move."""
        return (
            self.result is None
            and self.left >= 0
            and self.stock_pos < len(self.stock)
            and not self.playable()
        )

    @property
    def stock_mask(self) -> int:
        """The tiles still in the montón, as a set."""
        return mask_of(self.stock[self.stock_pos :])

    def pips(self) -> tuple[int, ...]:
        """The pips each seat still holds."""
        return tuple(sum(PIPS[t] for t in bits(h)) for h in self.hands)

    def counts(self) -> tuple[int, ...]:
        """How many tiles each seat holds."""
        return tuple(h.bit_count() for h in self.hands)

    def plays(self) -> list[Turn]:
        """The tiles placed, in the order they were played."""
        return [t for t in self.history if t.move.is_play]

    def line(self) -> list[tuple[int, int]]:
        """The line from its left end to its right end, each tile as ``(left half, right half)``."""
        out: deque[tuple[int, int]] = deque()
        for turn in self.history:
            place(out, turn)
        return list(out)

    def playable(self, seat: int | None = None) -> int:
        """The set of tiles ``seat`` (by default the one to move) could place now."""
        hand = self.hands[self.turn if seat is None else seat]
        if self.left < 0:
            return hand if self.forced_lead is None else hand & (1 << self.forced_lead)
        return hand & (SUIT[self.left] | SUIT[self.right])

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to move: each tile once per end it fits, a draw when
        nothing fits and the montón has tiles, a pass when it does not."""
        if self.result is not None:
            return []
        mask = self.playable()
        if self.left < 0:
            return [Move.lead(t) for t in bits(mask)]
        if mask:
            left_suit, right_suit = SUIT[self.left], SUIT[self.right]
            moves = []
            for t in bits(mask):
                bit = 1 << t
                if left_suit & bit:
                    moves.append(Move(t, End.LEFT))
                if right_suit & bit:
                    moves.append(Move(t, End.RIGHT))
            return moves
        return [DRAW] if self.stock_pos < len(self.stock) else [PASS]

    def check(self, move: Move) -> None:
        """Raise :class:`IllegalMove` with the reason when ``move`` is not legal here."""
        ends = self._ends()
        if self.result is not None:
            raise IllegalMove("move.hand_over")
        seat = self.turn
        hand = self.hands[seat]
        if move.is_pass or move.is_draw:
            if self.left < 0:
                raise IllegalMove("move.must_lead", seat=seat)
            playable = self.playable()
            if playable:
                code = "move.pasar_agachado" if move.is_pass else "move.draw_holding"
                raise IllegalMove(code, seat=seat, tiles=_names(playable), **ends)
            if move.is_pass and self.stock_pos < len(self.stock):
                raise IllegalMove("move.must_draw", seat=seat, stock=self.stock_left)
            if move.is_draw and self.stock_pos >= len(self.stock):
                raise IllegalMove("move.stock_empty", seat=seat)
            return
        tile = move.tile
        if not 0 <= tile < 28:
            raise IllegalMove("tile.invalid", text=str(tile))
        if not hand & (1 << tile):
            raise IllegalMove("move.not_holding", seat=seat, tile=name(tile))
        if self.left < 0:
            if move.end is not None:
                raise IllegalMove("move.end_on_lead", tile=name(tile))
            if self.forced_lead is not None and tile != self.forced_lead:
                raise IllegalMove("move.forced_lead", seat=seat, tile=name(self.forced_lead))
            if move.left not in HALVES[tile]:
                raise IllegalMove("tile.invalid", text=str(move.left))
            return
        if move.end is None:
            raise IllegalMove("move.end_missing", tile=name(tile), **ends)
        end_number = self.left if move.end is End.LEFT else self.right
        if not SUIT[end_number] & (1 << tile):
            if not (SUIT[self.left] | SUIT[self.right]) & (1 << tile):
                raise IllegalMove("move.no_match", tile=name(tile), **ends)
            raise IllegalMove(
                "move.wrong_end", tile=name(tile), end=move.end.word, number=end_number, **ends
            )

    def parse(self, token: object, *, draws: bool = False) -> Move:
        """The move that record notation ``token`` names in this position (see
        :func:`read_move`)."""
        return read_move(token, self.left, self.right, draws=draws)

    # -- changing the position ------------------------------------------------------------

    def play(self, move: Move) -> None:
        """Make a move after checking it; an illegal move raises and changes nothing."""
        self.check(move)
        self.push(move)

    def push(self, move: Move) -> None:
        """Make a legal move without checking it (for searches that generated it)."""
        seat = self.turn
        self._undo.append(
            (
                seat,
                self.left,
                self.right,
                self.line_mask,
                self.stock_pos,
                self.run_from,
                self.run_passes,
                self.salida_pasada,
                self.result,
                self.hands[seat],
            )
        )
        left, right = self.left, self.right
        tile = move.tile
        if tile >= 0:
            bit = 1 << tile
            self.hands[seat] &= ~bit
            self.line_mask |= bit
            if move.end is None:
                assert move.left is not None
                self.left = move.left
                self.right = other_half(tile, move.left)
            elif move.end is End.LEFT:
                self.left = other_half(tile, left)
            else:
                self.right = other_half(tile, right)
            self.history.append(Turn(seat, move, left, right))
            if not self.hands[seat]:
                capicua = inplay.capicua(tile, left, right)
                chuchazo = inplay.chuchazo(tile)
                self.result = HandEnd(EndKind.DOMINO, seat, tile, capicua, chuchazo)
            elif blocked(self.line_mask, self.left, self.right):
                self.result = HandEnd(EndKind.TRANQUE, seat, tile)
            else:
                self.run_from, self.run_passes = seat, 0
                self.turn = (seat + 1) % self.seats
        elif tile == DRAW_TILE:
            drawn = self.stock[self.stock_pos]
            self.stock_pos += 1
            self.hands[seat] |= 1 << drawn
            self.history.append(Turn(seat, move, left, right, drawn))
        else:
            self.history.append(Turn(seat, move, left, right))
            if inplay.salida_pasada(seat, self.leader, self.seats, self.line_mask.bit_count()):
                self.salida_pasada = True
            self.run_passes += 1
            if inplay.pase_redondo(self.run_from, self.run_passes, self.seats):
                self.pase_redondo.append(self.run_from)
            self.turn = (seat + 1) % self.seats

    def pop(self) -> Move:
        """Take back the last move and return it."""
        (
            seat,
            self.left,
            self.right,
            self.line_mask,
            self.stock_pos,
            run_from,
            run_passes,
            self.salida_pasada,
            self.result,
            self.hands[seat],
        ) = self._undo.pop()
        turn = self.history.pop()
        if turn.move.is_pass and inplay.pase_redondo(self.run_from, self.run_passes, self.seats):
            self.pase_redondo.pop()
        self.run_from, self.run_passes = run_from, run_passes
        self.turn = seat
        return turn.move

    def copy(self) -> Hand:
        """An independent position with the same history (its undo stack included)."""
        other = Hand.__new__(Hand)
        other.seats = self.seats
        other.hands = self.hands.copy()
        other.stock = self.stock
        other.stock_pos = self.stock_pos
        other.leader = self.leader
        other.forced_lead = self.forced_lead
        other.turn = self.turn
        other.left = self.left
        other.right = self.right
        other.line_mask = self.line_mask
        other.history = self.history.copy()
        other.result = self.result
        other.run_from = self.run_from
        other.run_passes = self.run_passes
        other.pase_redondo = self.pase_redondo.copy()
        other.salida_pasada = self.salida_pasada
        other._undo = self._undo.copy()
        return other

    def _ends(self) -> dict[str, int]:
        return {"left": self.left, "right": self.right}


# -- move notation: the one reader and the one writer --------------------------------------


def write_move(move: Move, ends: tuple[int, int] | None = None) -> str:
    """``move`` in notation: ``pass``, ``draw``, a salida as ``a-b`` with the half it shows on the
    left first, a play as ``6-4:left`` or ``6-4:right``. Given ``ends``, the open ends the play
    faced, the end is written only where the tile fits both (``6-4`` otherwise): that is a
    record's form. Without them it is always written: that is the protocol's form of a legal
    move, which a client can send back without knowing the ends."""
    if move.is_pass:
        return "pass"
    if move.is_draw:
        return "draw"
    if move.end is None:
        assert move.left is not None
        return f"{move.left}-{other_half(move.tile, move.left)}"
    if ends is not None:
        bit = 1 << move.tile
        if not (SUIT[ends[0]] & bit and SUIT[ends[1]] & bit):
            return name(move.tile)
    return f"{name(move.tile)}:{move.end.word}"


def read_move(token: object, left: int, right: int, *, draws: bool = False) -> Move:
    """The move that notation ``token`` names where the open ends are ``left`` and ``right``
    (-1 before the salida): ``6-5`` (a salida, or a play whose tile fits one end), ``5-3:left``,
    ``pass``; an :class:`IllegalMove` that says why when it names none. Whether the move is
    legal is :meth:`Hand.check`'s business. ``draw`` is read only with ``draws``: a record leaves
    draws unwritten, while a live table's players draw one tile at a time and its log writes
    each draw."""
    if not isinstance(token, str):
        raise IllegalMove("move.bad_token", token=repr(token))
    text = token.strip().lower()
    if text == "pass":
        return PASS
    if draws and text == "draw":
        return DRAW
    tile_text, colon, end_text = text.partition(":")
    a, b = parse_halves(tile_text)
    tile = tile_of(a, b)
    if left < 0:
        if colon:
            raise IllegalMove("move.end_on_lead", tile=name(tile))
        return Move(tile, None, a)
    if colon:
        end = END_BY_WORD.get(end_text)
        if end is None:
            raise IllegalMove("move.bad_end", token=token)
        return Move(tile, end)
    bit = 1 << tile
    fits_left, fits_right = bool(SUIT[left] & bit), bool(SUIT[right] & bit)
    if fits_left and fits_right:
        raise IllegalMove("move.end_missing", tile=name(tile), left=left, right=right)
    if not fits_left and not fits_right:
        raise IllegalMove("move.no_match", tile=name(tile), left=left, right=right)
    return Move(tile, End.LEFT if fits_left else End.RIGHT)


def _names(mask: int) -> str:
    return ", ".join(name(t) for t in bits(mask))
