"""The search engine's position: one hand as a few Python ints, with make/undo and playouts.

The rules engine (:class:`fichaflow.core.hand.Hand`) explains and checks every move; this one only
plays them, as fast as Python allows, for bots that look at many thousands of positions per
decision. It keeps the same rules (forced play, the montón and its draws, the end choice, dominada,
tranque, capicúa, pase redondo, salida pasada) and the tests replay the same hands through both.
The in-play rules are not written here: :meth:`FastHand.make` calls :mod:`fichaflow.core.inplay`,
and the playouts read tables built from it (:mod:`fichaflow.search.tables`).

A move is an int: ``PASS`` (-1), ``DRAW`` (-2) or ``tile * 2 + side``. After the lead ``side`` is
the end (0 left, 1 right); on the lead it says which half shows on the left (0 the higher, 1 the
lower). Make/undo writes into preallocated lists, so searching creates no objects per node.
"""

from __future__ import annotations

from collections.abc import Callable
from math import trunc  # of a number >= 0, what int() gives, for much less than a call to int
from typing import Final, NamedTuple

from fichaflow.core.hand import Hand, Move
from fichaflow.core.inplay import capicua, chuchazo, pase_redondo, salida_pasada, tranque
from fichaflow.core.tiles import ALL_TILES, PIPS, SUIT, SUIT_PAIR
from fichaflow.search.tables import (
    CAPICUA_TILES,
    CHUCHAZO_TILES,
    HALF_BITS,
    HI,
    KEEPS_OPEN,
    LAID,
    LO,
    LOW_MASK,
    NEXT,
    OTHER,
    PASE_REDONDO_PASSES,
    PIPS_HIGH,
    PIPS_LOW,
    PLACED,
    SALIDA_PASADA_OFF,
    first_to_shed,
)

PASS: Final = -1
DRAW: Final = -2
NOT_ENDED: Final = 0
DOMINO: Final = 1
TRANQUE: Final = 2


class EndKey(NamedTuple):
    """The facts a finished hand is scored on, as the search keeps them: cheap to build, hash and
    compare, so that :class:`~fichaflow.search.value.Valuer` can remember each one's score.
    The fields are :class:`~fichaflow.core.scoring.HandFacts`'s, with ``kind`` as
    :data:`DOMINO` or :data:`TRANQUE`."""

    kind: int
    seat: int
    pips: tuple[int, ...]
    leader: int
    capicua: bool
    chuchazo: bool
    pase_redondo: tuple[int, ...]
    salida_pasada: bool


_new_key: Final = tuple.__new__
"""Builds an :class:`EndKey` without the Python-level ``EndKey.__new__``: the playouts return one
per hand and the solver reads one per leaf, and the named constructor cost the playouts about 5%
of their speed."""

_STRIDE: Final = 8
_MAX_PLY: Final = 200  # a hand has at most 28 plays, 21 draws and a pass per turn between plays


def from_core(move: Move) -> int:
    """The search move for a rules engine :class:`Move`."""
    if move.is_pass:
        return PASS
    if move.is_draw:
        return DRAW
    if move.end is None:
        return move.tile * 2 + (0 if move.left == HI[move.tile] else 1)
    return move.tile * 2 + int(move.end)


class FastHand:
    """A hand in play. Read the fields; change it only with :meth:`make` and :meth:`undo`."""

    __slots__ = (
        "_sp",
        "_undo",
        "capicua",
        "chuchazo",
        "end_kind",
        "end_seat",
        "end_tile",
        "forced_lead",
        "hands",
        "leader",
        "left",
        "out",
        "pase_redondo",
        "pips",
        "placed",
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
        stock: list[int] | tuple[int, ...] = (),
        leader: int = 0,
        forced_lead: int = -1,
    ) -> None:
        self._undo = [0] * (_STRIDE * _MAX_PLY)
        self.reset(hands, stock, leader, forced_lead)

    def reset(
        self,
        hands: list[int],
        stock: list[int] | tuple[int, ...] = (),
        leader: int = 0,
        forced_lead: int = -1,
    ) -> None:
        """Start again from a new deal, reusing this object's memory."""
        self.seats = len(hands)
        self.hands = list(hands)
        self.pips = _pips_list(hands)
        self.stock = list(stock)
        self.stock_pos = 0
        self.leader = leader
        self.forced_lead = forced_lead
        self.turn = leader
        self.left = -1
        self.right = -1
        self.out = ALL_TILES  # every tile not on the line (in a hand or in the montón)
        self.placed = 0
        self.end_kind = NOT_ENDED
        self.end_seat = -1
        self.end_tile = -1
        self.capicua = False
        self.chuchazo = False
        self.run_from = -1
        self.run_passes = 0
        self.pase_redondo: list[int] = []
        self.salida_pasada = False
        self._sp = 0

    @classmethod
    def from_hand(cls, hand: Hand) -> FastHand:
        """The same position as a rules engine hand (replaying its history)."""
        fast = cls(hand_start(hand), list(hand.stock), hand.leader, _forced(hand))
        for turn in hand.history:
            fast.make(from_core(turn.move))
        return fast

    # -- reading ---------------------------------------------------------------------------

    @property
    def ended(self) -> bool:
        return self.end_kind != NOT_ENDED

    @property
    def depth(self) -> int:
        """How many moves can be taken back."""
        return self._sp // _STRIDE

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.stock_pos

    def legal(self, out: list[int]) -> int:
        """Write every legal move into ``out`` (the rules engine's order) and return how many."""
        if self.end_kind:
            return 0
        hand = self.hands[self.turn]
        left = self.left
        n = 0
        if left < 0:
            if self.forced_lead >= 0:
                hand &= 1 << self.forced_lead
            while hand:
                low = hand & -hand
                out[n] = (low.bit_length() - 1) * 2
                n += 1
                hand ^= low
            return n
        right = self.right
        suit_left, suit_right = SUIT[left], SUIT[right]
        mask = hand & (suit_left | suit_right)
        if not mask:
            out[0] = DRAW if self.stock_pos < len(self.stock) else PASS
            return 1
        while mask:
            low = mask & -mask
            tile2 = (low.bit_length() - 1) * 2
            if suit_left & low:
                out[n] = tile2
                n += 1
            if suit_right & low:
                out[n] = tile2 + 1
                n += 1
            mask ^= low
        return n

    def choices(self, out: list[int]) -> int:
        """Like :meth:`legal`, without moves that lead to the same position seen in a mirror:
        a tile laid on either of two ends that show the same number."""
        n = self.legal(out)
        if self.left >= 0 and self.left == self.right and n > 1:
            k = 0
            for i in range(n):
                if out[i] < 0 or not out[i] & 1:
                    out[k] = out[i]
                    k += 1
            return k
        return n

    # -- changing --------------------------------------------------------------------------

    def make(self, move: int) -> None:
        """Make a legal move (not checked: the search generated it)."""
        seat = self.turn
        sp = self._sp
        u = self._undo
        u[sp] = move
        u[sp + 1] = seat
        u[sp + 2] = self.left
        u[sp + 3] = self.right
        u[sp + 4] = self.run_from
        u[sp + 5] = self.run_passes
        u[sp + 6] = self.salida_pasada
        u[sp + 7] = len(self.pase_redondo)
        self._sp = sp + _STRIDE
        if move >= 0:
            tile = move >> 1
            bit = 1 << tile
            hand = self.hands[seat] ^ bit
            self.hands[seat] = hand
            self.pips[seat] -= PIPS[tile]
            self.out ^= bit
            self.placed += 1
            left, right = self.left, self.right
            if left < 0:
                if move & 1:
                    self.left, self.right = LO[tile], HI[tile]
                else:
                    self.left, self.right = HI[tile], LO[tile]
            elif move & 1:
                self.right = OTHER[tile * 7 + right]
            else:
                self.left = OTHER[tile * 7 + left]
            if not hand:
                self.end_kind = DOMINO
                self.end_seat = seat
                self.end_tile = tile
                self.capicua = capicua(tile, left, right)
                self.chuchazo = chuchazo(tile)
            elif tranque(self.out, self.left, self.right):
                self.end_kind = TRANQUE
                self.end_seat = seat
                self.end_tile = tile
                self.capicua = self.chuchazo = False
            else:
                self.run_from = seat
                self.run_passes = 0
                self.turn = (seat + 1) % self.seats
        elif move == DRAW:
            tile = self.stock[self.stock_pos]
            self.stock_pos += 1
            self.hands[seat] |= 1 << tile
            self.pips[seat] += PIPS[tile]
        else:
            if salida_pasada(seat, self.leader, self.seats, self.placed):
                self.salida_pasada = True
            self.run_passes += 1
            if pase_redondo(self.run_from, self.run_passes, self.seats):
                self.pase_redondo.append(self.run_from)
            self.turn = (seat + 1) % self.seats

    def undo(self) -> None:
        """Take back the last move."""
        sp = self._sp - _STRIDE
        self._sp = sp
        u = self._undo
        move, seat = u[sp], u[sp + 1]
        self.left = u[sp + 2]
        self.right = u[sp + 3]
        self.run_from = u[sp + 4]
        self.run_passes = u[sp + 5]
        self.salida_pasada = bool(u[sp + 6])
        del self.pase_redondo[u[sp + 7] :]
        self.turn = seat
        if move >= 0:
            tile = move >> 1
            bit = 1 << tile
            self.hands[seat] |= bit
            self.pips[seat] += PIPS[tile]
            self.out |= bit
            self.placed -= 1
            self.end_kind = NOT_ENDED
        elif move == DRAW:
            self.stock_pos -= 1
            tile = self.stock[self.stock_pos]
            self.hands[seat] ^= 1 << tile
            self.pips[seat] -= PIPS[tile]

    # -- finished hands and playouts -------------------------------------------------------

    def end_key(self) -> EndKey:
        """The facts a finished hand is scored on (see :class:`~fichaflow.search.value.Valuer`)."""
        return _new_key(
            EndKey,
            (
                self.end_kind,
                self.end_seat,
                tuple(self.pips),
                self.leader,
                self.capicua,
                self.chuchazo,
                tuple(self.pase_redondo),
                self.salida_pasada,
            ),
        )

    def playout(
        self, rand: Callable[[], float], greedy: float = 0.0, trace: list[int] | None = None
    ) -> EndKey:
        """Play the hand to its end from here and return its :meth:`end_key`; the position itself
        is left as it was. Each player draws and passes as the rules force; among playable tiles
        it takes its first to shed (a double, else the heaviest: :func:`~.tables.first_to_shed`)
        with probability ``greedy`` and a random one otherwise, then a
        random end when the tile fits both. ``trace`` (for tests) receives every move made."""
        if self.end_kind:
            return self.end_key()
        n = self.seats
        after = NEXT[n]
        hands = self.hands.copy()
        stock = self.stock
        stock_pos = self.stock_pos
        stock_len = len(stock)
        turn = self.turn
        left, right = self.left, self.right
        out = self.out
        leader = self.leader
        run_from, run_passes = self.run_from, self.run_passes
        redondos = self.pase_redondo  # copied before it grows
        passed_salida = self.salida_pasada
        # The in-play rules of core.inplay, as tables built from them (see search.tables).
        salida_pasada_at = SALIDA_PASADA_OFF[n][leader]
        pase_redondo_at = PASE_REDONDO_PASSES[n]
        if left < 0:
            hand = hands[turn]
            mask = hand if self.forced_lead < 0 else hand & (1 << self.forced_lead)
            # One tile to lead (a forced salida): no choice, no random number, as below.
            tile = _pick(mask, rand, greedy) if mask & (mask - 1) else mask.bit_length() - 1
            bit = 1 << tile
            hands[turn] = hand ^ bit
            out ^= bit
            left, right = HI[tile], LO[tile]
            if trace is not None:
                trace.append(tile * 2)
            run_from, run_passes = turn, 0
            turn = after[turn]
        ends = left * 7 + right  # the open ends as one index into the tables
        # The tables as locals: the loop below reads them several times per move.
        fit_pair, keeps_open, laid, placed = SUIT_PAIR, KEEPS_OPEN, LAID, PLACED
        tracing = trace is not None
        choosy = bool(greedy)  # a bool is tested without a call
        while True:
            hand = hands[turn]
            fits = fit_pair[ends]
            mask = hand & fits
            if mask == 0:
                if stock_pos < stock_len:
                    while stock_pos < stock_len:
                        tile = stock[stock_pos]
                        stock_pos += 1
                        hand |= 1 << tile
                        if tracing:
                            trace.append(DRAW)  # type: ignore[union-attr]
                        if fits >> tile & 1:
                            mask = 1 << tile
                            break
                    hands[turn] = hand
                if mask == 0:
                    if tracing:
                        trace.append(PASS)  # type: ignore[union-attr]
                    salida = salida_pasada_at[turn]
                    if salida and salida >> out.bit_count() & 1:
                        passed_salida = True
                    run_passes += 1
                    if pase_redondo_at[run_from + 1] >> run_passes & 1:
                        redondos = [*redondos, run_from]
                    turn = after[turn]
                    continue
            # A count is a small int, which Python shares; each operation on a tile set makes one.
            count = mask.bit_count()
            if count > 1:
                if choosy and rand() < greedy:
                    bit = 1 << first_to_shed(mask)
                elif count == 2:
                    # trunc(r * 2) is 1 exactly when r >= 0.5 (doubling a float is exact).
                    bit = mask & -mask
                    if rand() >= 0.5:
                        bit ^= mask
                else:
                    k = trunc(rand() * count)
                    while k > 0:
                        mask &= mask - 1
                        k -= 1
                    bit = mask & -mask
            else:
                bit = mask
            hand ^= bit
            hands[turn] = hand
            if hand == 0:
                tile = bit.bit_length() - 1
                if tracing:
                    side = 0 if laid[(tile * 49 + ends) * 2] >= 0 else 1
                    trace.append(tile * 2 + side)  # type: ignore[union-attr]
                return _new_key(EndKey, (
                    DOMINO, turn, _pips_of(hands), leader,
                    CAPICUA_TILES[ends] >> tile & 1 == 1,
                    CHUCHAZO_TILES >> tile & 1 == 1,
                    tuple(redondos), passed_salida,
                ))  # fmt: skip
            out ^= bit
            # The one end the tile fits, or a coin (heads: the right end) when it fits both.
            at = placed[ends][bit]
            if at < 0:
                side = rand() < 0.5
                ends = laid[~at + side]
                if tracing:
                    trace.append((~at >> 1) // 49 * 2 + side)  # type: ignore[union-attr]
            else:
                if tracing:
                    tile = bit.bit_length() - 1
                    trace.append(tile * 2 + (laid[(tile * 49 + ends) * 2] < 0))  # type: ignore[union-attr]
                ends = at
            if out & keeps_open[ends] == 0:
                return _new_key(EndKey, (
                    TRANQUE, turn, _pips_of(hands), leader, False, False,
                    tuple(redondos), passed_salida,
                ))  # fmt: skip
            run_from = turn
            run_passes = 0
            turn = after[turn]


def _pips_of(hands: list[int]) -> tuple[int, ...]:
    """The pips each seat holds (four seats written out: a comprehension costs a call)."""
    low, high = PIPS_LOW, PIPS_HIGH
    if len(hands) == 4:
        a, b, c, d = hands
        return (
            low[a & LOW_MASK] + high[a >> HALF_BITS],
            low[b & LOW_MASK] + high[b >> HALF_BITS],
            low[c & LOW_MASK] + high[c >> HALF_BITS],
            low[d & LOW_MASK] + high[d >> HALF_BITS],
        )
    return tuple([low[h & LOW_MASK] + high[h >> HALF_BITS] for h in hands])


def _pips_list(hands: list[int]) -> list[int]:
    """:func:`_pips_of` as a list (for four seats without building the tuple first)."""
    low, high = PIPS_LOW, PIPS_HIGH
    if len(hands) == 4:
        a, b, c, d = hands
        return [
            low[a & LOW_MASK] + high[a >> HALF_BITS],
            low[b & LOW_MASK] + high[b >> HALF_BITS],
            low[c & LOW_MASK] + high[c >> HALF_BITS],
            low[d & LOW_MASK] + high[d >> HALF_BITS],
        ]
    return [low[h & LOW_MASK] + high[h >> HALF_BITS] for h in hands]


def _pick(mask: int, rand: Callable[[], float], greedy: float) -> int:
    """A tile of a non-empty set: the first to shed with probability ``greedy``, else any."""
    if greedy and rand() < greedy:
        return first_to_shed(mask)
    k = trunc(rand() * mask.bit_count())
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


def hand_start(hand: Hand) -> list[int]:
    """Each seat's tiles as dealt, worked out from a rules engine hand's history."""
    start = list(hand.hands)
    for turn in hand.history:
        if turn.move.is_play:
            start[turn.seat] |= 1 << turn.move.tile
    for turn in hand.history:
        if turn.move.is_draw:
            start[turn.seat] &= ~(1 << turn.drawn)
    return start


def _forced(hand: Hand) -> int:
    return -1 if hand.forced_lead is None else hand.forced_lead
