"""Whether a seat view can be true: its history replayed against its line, ends, counts and turn,
and a deal that explains it all.

The server's views are true by construction. A view that arrives from outside (the engine
protocol) may not be, and a bot fed an impossible view plays badly without a word: an empty
``line`` beside a long history, a rival playing one of the seat's own tiles. :func:`check_view`
refuses such a view with an error that names the first thing that cannot be.
"""

from __future__ import annotations

from itertools import combinations

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import End, blocked
from fichaflow.core.inference import deduce
from fichaflow.core.partida import forced_first_lead
from fichaflow.core.rules import HAND_SIZE
from fichaflow.core.tiles import NUM_TILES, SUIT, bits, name, other_half
from fichaflow.core.view import PublicTurn, SeatView, TurnKind


def _ends_text(left: int, right: int) -> str:
    return "—" if left < 0 else f"{left}·{right}"


def _history_error(code: str, index: int, **params: object) -> FichaFlowError:
    return FichaFlowError(code, index=index, **params)


def check_view(view: SeatView) -> None:
    """Raise a FichaFlowError when ``view`` cannot be a true picture of a hand for its seat."""
    _check_forced_lead(view)
    _replay(view)
    _check_deal(view)


def _check_forced_lead(view: SeatView) -> None:
    """A forced salida the rules give must be the one the view says (before the salida)."""
    if view.history or view.seat != view.leader:
        return
    forced = forced_first_lead(view.rules, view.hand_number, view.tiles)
    if forced is not None and not view.tiles >> forced & 1:
        raise FichaFlowError("view.forced_lead_missing", tile=name(forced))
    if forced != view.forced_lead:
        expected = "—" if forced is None else name(forced)
        found = "—" if view.forced_lead is None else name(view.forced_lead)
        raise FichaFlowError("view.forced_lead", expected=expected, found=found)


def _replay(view: SeatView) -> None:
    """Play the public history from the deal on: every turn in order, at the ends it faced,
    with tiles nobody had placed; then the view's line, ends, counts, montón and turn must be
    where the history leaves them."""
    seats = view.rules.seats
    me = view.seat
    counts = [HAND_SIZE] * seats
    stock = NUM_TILES - HAND_SIZE * seats
    turn_seat = view.leader
    left = right = -1
    line: list[tuple[int, int]] = []
    placed = 0
    over = False
    mine_drawn = mine_placed = 0
    for index, turn in enumerate(view.history):
        if over:
            raise _history_error("view.history_after_end", index)
        if turn.seat != turn_seat:
            raise _history_error("view.history_turn", index, seat=turn.seat, expected=turn_seat)
        if (turn.left, turn.right) != (left, right):
            raise _history_error(
                "view.history_ends",
                index,
                found=_ends_text(turn.left, turn.right),
                expected=_ends_text(left, right),
            )
        if turn.drawn >= 0 and turn.seat != me:
            raise _history_error("view.history_drawn_hidden", index, seat=turn.seat)
        if turn.kind is TurnKind.PLAY:
            left, right = _place(index, turn, left, right, line, placed, view.tiles, me)
            placed |= 1 << turn.tile
            if turn.seat == me:
                mine_placed |= 1 << turn.tile
            counts[turn.seat] -= 1
            if counts[turn.seat] < 0:
                raise _history_error("view.history_no_tiles", index, seat=turn.seat)
            if counts[turn.seat] == 0 or blocked(placed, left, right):
                over = True
            else:
                turn_seat = (turn_seat + 1) % seats
        elif left < 0:
            raise _history_error("view.history_before_salida", index, seat=turn.seat)
        elif turn.kind is TurnKind.DRAW:
            if stock == 0:
                raise _history_error("view.history_draw_empty", index, seat=turn.seat)
            stock -= 1
            counts[turn.seat] += 1
            if turn.seat == me:
                if turn.drawn < 0:
                    raise _history_error("view.history_drawn_missing", index)
                if (placed | mine_drawn) >> turn.drawn & 1:
                    raise _history_error("view.history_drawn_seen", index, tile=name(turn.drawn))
                mine_drawn |= 1 << turn.drawn
        else:
            if stock:
                raise _history_error("view.history_pass_stock", index, seat=turn.seat, stock=stock)
            turn_seat = (turn_seat + 1) % seats
    if me is not None:
        lost = mine_drawn & ~view.tiles & ~mine_placed
        if lost:
            raise FichaFlowError("view.drawn_lost", tile=name(next(iter(bits(lost)))))
    _agree("ends", _ends_text(view.left, view.right), _ends_text(left, right))
    _agree("line", _line_text(view.line), _line_text(tuple(line)))
    _agree("counts", list(view.counts), counts)
    _agree("stock_left", view.stock_left, stock)
    if over != view.ended:
        _agree("ended", view.ended, over)
    if not over:
        _agree("turn", view.turn, turn_seat)
    if me is not None and not view.ended:
        _agree("tiles", view.tiles.bit_count(), counts[me])


def _place(
    index: int,
    turn: PublicTurn,
    left: int,
    right: int,
    line: list[tuple[int, int]],
    placed: int,
    own: int,
    me: int | None,
) -> tuple[int, int]:
    """Lay ``turn``'s tile on ``line``; the new ends."""
    tile = turn.tile
    if placed >> tile & 1:
        raise _history_error("view.history_placed_twice", index, tile=name(tile))
    if own >> tile & 1:
        raise _history_error("view.history_my_tile", index, seat=turn.seat, tile=name(tile))
    if left < 0:
        if turn.end is not None or turn.lead_left is None:
            raise _history_error("view.history_before_salida", index, seat=turn.seat)
        first = turn.lead_left
        line.append((first, other_half(tile, first)))
        return line[0][0], line[0][1]
    if turn.end is None:
        raise _history_error("view.history_no_end", index, tile=name(tile))
    face = left if turn.end is End.LEFT else right
    if not SUIT[face] >> tile & 1:
        raise _history_error("view.history_no_fit", index, tile=name(tile), number=face)
    if turn.end is End.LEFT:
        line.insert(0, (other_half(tile, face), face))
        return other_half(tile, face), right
    line.append((face, other_half(tile, face)))
    return left, other_half(tile, face)


def _line_text(line: tuple[tuple[int, int], ...]) -> str:
    return " ".join(f"{a}-{b}" for a, b in line) or "—"


def _agree(key: str, found: object, expected: object) -> None:
    if found != expected:
        raise FichaFlowError("view.disagrees", key=key, found=found, expected=expected)


def _check_deal(view: SeatView) -> None:
    """Some deal of the tiles this seat cannot see gives every other hand its count and the
    montón its own, with no tile where the history proves it is not (a pass proves a player
    lacks both numbers). By Hall's theorem such a deal exists exactly when, for every group of
    places (hands and montón), the tiles that can only be in that group fit in it."""
    if view.seat is None or view.ended:
        return
    know = deduce(view)
    seats = view.rules.seats
    places = [s for s in range(seats) if s != view.seat]
    room = {s: view.counts[s] for s in places}
    stock_place = seats  # the montón, as one more place
    room[stock_place] = view.stock_left
    where: dict[int, int] = {}  # tile -> bit set of places it may be in
    for tile in bits(know.unseen):
        allowed = 0
        for s in places:
            if not know.excluded[s] >> tile & 1:
                allowed |= 1 << s
        for s in places:
            if know.held[s] >> tile & 1:
                allowed = 1 << s
        if view.stock_left and not know.not_in_stock >> tile & 1:
            allowed |= 1 << stock_place
        if know.in_stock >> tile & 1:
            allowed = 1 << stock_place
        where[tile] = allowed
    everywhere = [*places, stock_place]
    if len(where) != sum(room.values()):
        raise FichaFlowError("view.unseen_count", unseen=len(where), room=sum(room.values()))
    for size in range(len(everywhere) + 1):
        for group in combinations(everywhere, size):
            mask = sum(1 << p for p in group)
            confined = [t for t, allowed in where.items() if allowed & ~mask == 0]
            if len(confined) > sum(room[p] for p in group):
                shown = ", ".join(name(t) for t in confined)
                raise FichaFlowError("view.no_deal", tiles=shown)
