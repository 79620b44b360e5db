"""What a seat can deduce from its seat view, and nothing more.

Every function here reads a :class:`~fichaflow.core.view.SeatView` and returns facts the seat may
rightly know: the tiles it cannot see, the numbers each player surely lacks (from passes and, with
a montón, from draws), how many tiles of each number are still out, the doubles that are dead, the
number a leader announced with the salida, what a player seems strong in, the pips each player may
hold, and how likely each unseen tile is to be in each hand. ``jugador`` plays by these facts,
``gallo``'s sampler deals hidden hands that respect them, and the hand review explains them.
It lives in the core, below both the bots and the search engine that use it, because it is pure
and reads nothing but the core's own types.

The deductions are sound, never guesses: a tile in ``excluded[s]`` is surely not in seat ``s``'s
hand now. Two things make that subtle with a montón. A player who draws takes tiles nobody else
sees, so what an earlier pass proved about their hand no longer binds the tiles drawn after it;
and every tile drawn in one turn except the last did not fit the open ends (the player would have
stopped drawing), while the last one is played at once when it fits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from fichaflow.core.hand import End, EndKind, Move, blocked
from fichaflow.core.partida import dealt_to_nobody
from fichaflow.core.rules import FirstLead, Mode, Rules
from fichaflow.core.scoring import HandFacts, score_hand
from fichaflow.core.tiles import (
    ALL_TILES,
    HALVES,
    IS_DOUBLE,
    MAX_HALF,
    NUM_TILES,
    PIPS,
    SUIT,
    bits,
    other_half,
    tile_of,
)
from fichaflow.core.view import SeatView

NUMBERS: Final = range(MAX_HALF + 1)
ALL_NUMBERS: Final = (1 << (MAX_HALF + 1)) - 1


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The facts one seat has deduced at one moment of a hand.

    ``excluded[s]`` are tiles seat ``s`` surely does not hold; ``held[s]`` tiles it surely holds
    (its own tiles for the viewer, the forced salida before it is played, and what counting
    proves); ``in_stock`` and ``not_in_stock`` the same for the montón."""

    seat: int | None
    seats: int
    own: int
    line: int
    unseen: int
    excluded: tuple[int, ...]
    held: tuple[int, ...]
    counts: tuple[int, ...]
    stock_left: int
    in_stock: int = 0
    not_in_stock: int = 0

    def possible(self, seat: int) -> int:
        """The tiles ``seat`` may hold now."""
        if seat == self.seat:
            return self.own
        return (self.unseen & ~self.excluded[seat]) | self.held[seat]

    def lacks(self, seat: int) -> int:
        """The numbers ``seat`` surely lacks now, as a 7-bit mask (bit ``n`` for number ``n``)."""
        possible = self.possible(seat)
        return sum(1 << n for n in NUMBERS if not possible & SUIT[n])

    def surely_lacks(self, seat: int, number: int) -> bool:
        return not self.possible(seat) & SUIT[number]


def line_tiles(view: SeatView) -> int:
    """The tiles on the line, as a set."""
    mask = 0
    for turn in view.history:
        if turn.kind == "play":
            mask |= 1 << turn.tile
    return mask


def unseen_tiles(view: SeatView) -> int:
    """The tiles this seat cannot see: the other hands and the montón."""
    return ALL_TILES & ~line_tiles(view) & ~view.tiles


def salida_was_forced(view: SeatView) -> bool:
    """True when the rules, not the leader, chose this hand's salida (the first hand of a
    partida under ``doble_seis`` or ``doble_mayor``)."""
    return view.hand_number == 1 and view.rules.first_lead is not FirstLead.SORTEO


def deduce(view: SeatView) -> Knowledge:
    """Everything the history proves about the hidden hands, in one pass over it."""
    seats = view.rules.seats
    excluded = [0] * seats
    pending = [0] * seats  # a drawer's exclusions, proved once they act again
    held = [0] * seats
    line = 0
    history = view.history
    if history and history[0].kind == "play" and history[0].end is None:
        # Under doble_mayor the highest tile dealt to a player was led: nobody holds one above it.
        excluded = [dealt_to_nobody(view.rules, view.hand_number, history[0].tile)] * seats
    elif view.forced_lead is not None and not history:
        held[view.leader] |= 1 << view.forced_lead
    for turn in history:
        seat = turn.seat
        if pending[seat]:
            excluded[seat] = pending[seat]
            pending[seat] = 0
        if turn.kind == "play":
            line |= 1 << turn.tile
            continue
        facing = SUIT[turn.left] | SUIT[turn.right] if turn.left >= 0 else 0
        if turn.kind == "pass":
            excluded[seat] |= facing
        else:
            # Unknown tiles came in: only what the drawer faced stays proved, and only once
            # we see that the drawn tile did not stay unplayed in their hand.
            excluded[seat] = 0
            pending[seat] = facing
    own = view.tiles if view.seat is not None else 0
    unseen = ALL_TILES & ~line & ~own
    if view.seat is not None:
        excluded[view.seat] = ALL_TILES & ~own
        held[view.seat] = own
    in_stock, not_in_stock = _count_out(view, unseen, excluded, held)
    return Knowledge(
        seat=view.seat,
        seats=seats,
        own=own,
        line=line,
        unseen=unseen,
        excluded=tuple(e & ~held[s] for s, e in enumerate(excluded)),
        held=tuple(held),
        counts=view.counts,
        stock_left=view.stock_left,
        in_stock=in_stock,
        not_in_stock=not_in_stock if view.stock_left else unseen,
    )


def _count_out(
    view: SeatView, unseen: int, excluded: list[int], held: list[int]
) -> tuple[int, int]:
    """Counting, as a player does, made exact: a tile can sit in a hand only if some whole deal
    consistent with every hand's count (and the montón's) and every exclusion puts it there.

    One consistent deal is found by augmenting paths; then a tile may move from where that deal
    put it to another allowed place exactly when the places can pass tiles along back to it.
    Returns the tiles surely in the montón and the tiles surely not in it."""
    seats = len(excluded)
    stock = seats  # the montón's index among the places
    places = [s for s in range(seats) if s != view.seat]
    capacity = {s: view.counts[s] for s in places}
    if view.stock_left:
        places.append(stock)
        capacity[stock] = view.stock_left
    tiles = list(bits(unseen))
    if sum(capacity.values()) != len(tiles):
        return 0, 0  # counts that do not add up (a malformed view): deduce nothing more
    if not any(excluded[s] & unseen or held[s] for s in places if s != stock):
        return 0, 0  # nothing excludes any tile from any place: counting proves nothing
    allowed: dict[int, list[int]] = {}
    for tile in tiles:
        owners = [s for s in places if s != stock and held[s] >> tile & 1]
        allowed[tile] = owners or [h for h in places if h == stock or not excluded[h] >> tile & 1]
    where: dict[int, int] = {}
    load = dict.fromkeys(places, 0)

    def place(tile: int, seen: set[int]) -> bool:
        for h in allowed[tile]:
            if h in seen:
                continue
            seen.add(h)
            if load[h] < capacity[h]:
                where[tile] = h
                load[h] += 1
                return True
            for other in [u for u, at in where.items() if at == h]:
                del where[other]
                load[h] -= 1
                if place(other, seen):
                    where[tile] = h
                    load[h] += 1
                    return True
                where[other] = h
                load[h] += 1
        return False

    for tile in tiles:
        if not place(tile, set()):
            return 0, 0  # no consistent deal exists (a malformed view): deduce nothing more
    reach = {h: {h} for h in places}
    for u, at in where.items():
        reach[at].update(allowed[u])
    for _ in places:
        for h in places:
            reach[h] = set().union(*(reach[k] for k in reach[h]))
    in_stock = not_in_stock = 0
    for tile in tiles:
        home = where[tile]
        can = [h for h in allowed[tile] if h == home or home in reach[h]]
        for s in places:
            if s != stock and s not in can:
                excluded[s] |= 1 << tile
        if stock not in can:
            not_in_stock |= 1 << tile
        if can == [home]:
            if home == stock:
                in_stock |= 1 << tile
            else:
                held[home] |= 1 << tile
    return in_stock, not_in_stock


def _union(masks: list[int] | tuple[int, ...]) -> int:
    out = 0
    for mask in masks:
        out |= mask
    return out


def lacking(view: SeatView) -> tuple[int, ...]:
    """For each seat, the numbers it surely lacks now (7-bit masks)."""
    know = deduce(view)
    return tuple(know.lacks(s) for s in range(know.seats))


def numbers_not_played(view: SeatView) -> tuple[int, ...]:
    """For each number, how many of its seven tiles are not yet on the line."""
    line = line_tiles(view)
    return tuple((SUIT[n] & ~line).bit_count() for n in NUMBERS)


def numbers_unseen(view: SeatView) -> tuple[int, ...]:
    """For each number, how many of its tiles are still out of this seat's sight (in the other
    hands or the montón)."""
    unseen = unseen_tiles(view)
    return tuple((SUIT[n] & unseen).bit_count() for n in NUMBERS)


def dead_doubles(view: SeatView) -> int:
    """The doubles that are dead (doble muerto): not played, the six other tiles of their number
    are all on the line, and no open end shows the number (where one does, the double fits)."""
    line = line_tiles(view)
    dead = 0
    for n in NUMBERS:
        double = tile_of(n, n)
        if n in (view.left, view.right):
            continue
        if not line >> double & 1 and not SUIT[n] & ~line & ~(1 << double):
            dead |= 1 << double
    return dead


def announced(view: SeatView) -> tuple[int, ...]:
    """For each seat, the numbers it announced with the salida (a 7-bit mask): the number of a
    double led, or both halves of another tile. Nobody announces with a salida the rules forced."""
    out = [0] * view.rules.seats
    history = view.history
    if history and history[0].kind == "play" and not salida_was_forced(view):
        hi, lo = HALVES[history[0].tile]
        out[history[0].seat] = (1 << hi) | (1 << lo)
    return tuple(out)


def strength(view: SeatView, seat: int, know: Knowledge | None = None) -> tuple[float, ...]:
    """How strong ``seat`` seems in each number, from what the table saw: +2 for the number of a
    double it led, +1 for each half of another tile it led, +0.5 each time it put a number out on
    an end, and -1 where it surely lacks the number (weights read the table's custom, not tuned).
    ``know`` saves deducing again when the caller already has it."""
    know = know or deduce(view)
    score = [0.0] * (MAX_HALF + 1)
    lead_mask = announced(view)[seat]
    for n in NUMBERS:
        if lead_mask >> n & 1:
            score[n] += 2.0 if lead_mask == 1 << n else 1.0
    for turn in view.history[1:]:
        if turn.kind == "play" and turn.seat == seat and not IS_DOUBLE[turn.tile]:
            assert turn.end is not None
            faced = turn.left if turn.end is End.LEFT else turn.right
            score[other_half(turn.tile, faced)] += 0.5
    for n in NUMBERS:
        if know.surely_lacks(seat, n):
            score[n] = -1.0
    return tuple(score)


def partner(rules: Rules, seat: int) -> int | None:
    """The partner's seat in parejas; None in the individual modes."""
    return (seat + 2) % 4 if rules.mode is Mode.PAREJAS else None


def pip_bounds(view: SeatView) -> tuple[tuple[int, int], ...]:
    """For each seat, the fewest and the most pips it may hold now (exact for the viewer)."""
    know = deduce(view)
    out = []
    for seat in range(know.seats):
        count = know.counts[seat]
        held = know.held[seat]
        free = sorted(PIPS[t] for t in bits(know.possible(seat) & ~held))
        need = max(0, min(count - held.bit_count(), len(free)))
        base = sum(PIPS[t] for t in bits(held))
        low = base + sum(free[:need])
        high = base + (sum(free[len(free) - need :]) if need else 0)
        out.append((low, high))
    return tuple(out)


def holder_odds(know: Knowledge, rounds: int = 40) -> list[list[float]]:
    """``odds[t][h]``: how likely tile ``t`` is in seat ``h``'s hand (``h == seats``: the montón).

    Every unseen tile is somewhere, each hand holds as many tiles as it shows, and no tile sits
    where the deductions exclude it; among the spreads that respect those sums, iterative
    proportional fitting finds the one closest to "every possible place alike" (``rounds`` bounds
    its work; the hand sums are then met to a small fraction of a tile)."""
    seats = know.seats
    odds = [[0.0] * (seats + 1) for _ in range(NUM_TILES)]
    for s in range(seats):
        for t in bits(know.held[s]):
            odds[t][s] = 1.0
    for t in bits(know.in_stock):
        odds[t][seats] = 1.0
    holders = [s for s in range(seats) if s != know.seat]
    sizes = {s: float(know.counts[s] - (know.held[s] & know.unseen).bit_count()) for s in holders}
    if know.stock_left:
        holders.append(seats)
        sizes[seats] = float(know.stock_left - know.in_stock.bit_count())
    rows = list(bits(know.unseen & ~_union(know.held) & ~know.in_stock))
    allowed: dict[int, list[int]] = {}
    for t in rows:
        allowed[t] = [
            h
            for h in holders
            if sizes[h] > 0 and not (know.not_in_stock if h == seats else know.excluded[h]) >> t & 1
        ]
        for h in allowed[t]:
            odds[t][h] = sizes[h]
    for _ in range(rounds):
        for t in rows:
            total = sum(odds[t][h] for h in allowed[t])
            if total > 0:
                for h in allowed[t]:
                    odds[t][h] /= total
        worst = 0.0
        for h in holders:
            column = sum(odds[t][h] for t in rows)
            if column > 0:
                worst = max(worst, abs(column - sizes[h]))
                scale = sizes[h] / column
                for t in rows:
                    odds[t][h] *= scale
        if worst < 1e-9:
            break
    for t in rows:
        total = sum(odds[t][h] for h in allowed[t])
        if total > 0:
            for h in allowed[t]:
                odds[t][h] /= total
    return odds


def ends_after(view: SeatView, move: Move) -> tuple[int, int]:
    """The open ends once ``move`` (a play or a salida) is on the line."""
    if move.end is None:
        assert move.left is not None
        return move.left, other_half(move.tile, move.left)
    if move.end is End.LEFT:
        return other_half(move.tile, view.left), view.right
    return view.left, other_half(move.tile, view.right)


def closes(view: SeatView, move: Move, line: int | None = None) -> bool:
    """True when the play would tranque the hand: it is not the player's last tile and no tile
    outside the line (in any hand or the montón) fits either new end."""
    if not move.is_play or view.tiles == 1 << move.tile:
        return False
    left, right = ends_after(view, move)
    on_line = (line_tiles(view) if line is None else line) | 1 << move.tile
    return blocked(on_line, left, right)


def tranque_value(view: SeatView, move: Move, pips: tuple[int, ...]) -> int:
    """What closing with ``move`` is worth to the mover's side if the hands hold ``pips``: the
    points it scores (bonuses included) minus what the other side scores. The scorekeeper of the
    core decides; ``pips`` are the estimate the caller trusts."""
    assert view.seat is not None
    seat, rules = view.seat, view.rules
    facts = HandFacts(EndKind.TRANQUE, seat, pips, view.leader)
    gains = score_hand(rules, facts).gains(rules.teams)
    mine = rules.team_of(seat)
    return gains[mine] - max((g for t, g in enumerate(gains) if t != mine), default=0)


def domino_value(view: SeatView, pips: tuple[int, ...]) -> int:
    """What dominating now is worth to the mover's side, with ``pips`` left in the hands."""
    assert view.seat is not None
    rules = view.rules
    facts = HandFacts(EndKind.DOMINO, view.seat, pips, view.leader)
    return score_hand(rules, facts).gains(rules.teams)[rules.team_of(view.seat)]


__all__ = [
    "ALL_NUMBERS",
    "Knowledge",
    "announced",
    "closes",
    "dead_doubles",
    "deduce",
    "domino_value",
    "ends_after",
    "holder_odds",
    "lacking",
    "line_tiles",
    "numbers_not_played",
    "numbers_unseen",
    "partner",
    "pip_bounds",
    "salida_was_forced",
    "strength",
    "tranque_value",
    "unseen_tiles",
]
