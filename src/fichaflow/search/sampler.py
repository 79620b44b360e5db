"""Deals of the hidden tiles that agree with everything one seat has seen, weighted by how
likely the observed play was.

What a seat sees binds the hidden hands through *when* each tile could have been held. Every tile
a player holds or played came from their dealt hand or from one of their draws; at every pass and
every draw the player held nothing that fit the open ends. A tile drawn later is not bound by an
earlier pass, and the tile drawn last in a turn and played at once is known to all. The sampler
therefore gives each player's tiles an origin (the deal or one of their draws) and asks that every
tile avoid the numbers its holder was seen lacking while it held it. Finding such an assignment
is a matching of tiles to origins; it is drawn at random (each tile tries places in proportion to
their room, as a dealer would deal) and repaired by augmenting paths when a tile finds no room.
Dealt so, some consistent deals come up more often than others when the constraints are tight;
a few random swaps of tiles between places (``mix``) then make every one as likely.

The sound per-seat exclusions of :mod:`fichaflow.core.inference` cut the candidates first; the
matching then makes each sample exactly consistent with the history, which the tests check by
replaying the history through the rules engine with the sampled deal.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Final

from fichaflow.core.inference import deduce, salida_was_forced
from fichaflow.core.partida import dealt_to_nobody
from fichaflow.core.tiles import PIPS, SUIT, bits
from fichaflow.core.view import SeatView

SHED_HEAVY: Final = 0.15
"""How strongly the play model expects a player to shed heavy tiles (softmax weight per pip)."""
ANY_TILE: Final = 0.3
"""The share of the play model that is indifferent to pips (a tile chosen at random)."""

MIX: Final = 4
"""Swaps tried per movable tile after a deal is dealt (:meth:`Sampler._mix`): 4 brings the lean
of dealing tile by tile (up to 8 points on a tile's odds) under the noise of 40,000 deals."""

_EXP: Final = tuple(math.exp(SHED_HEAVY * p) for p in range(13))
_FOREVER: Final = 1 << 30


class UnreadableView(ValueError):
    """The view cannot come from a real hand for this seat (a mirón, or its own draw hidden)."""


@dataclass(slots=True)
class Sample:
    """One deal consistent with the view.

    ``hands`` are the tiles each seat holds now (the viewer's own are never moved); ``stock``
    the montón still to be drawn, in drawing order; ``start`` what each seat was dealt; ``drawn``
    every tile drawn so far, in the order drawn (so ``drawn + stock`` is the montón as dealt);
    ``weight`` how likely the observed play was with these hands, under the play model."""

    hands: list[int]
    stock: list[int]
    start: list[int]
    drawn: list[int]
    weight: float = 1.0


@dataclass(slots=True)
class _Seat:
    """One hidden player's timeline: what they were seen to lack, and when they drew."""

    events: list[tuple[int, int]] = field(default_factory=list)  # (time, tiles fitting then)
    slots: list[int] = field(default_factory=list)  # times of draws whose tile is not known
    open_tiles: list[tuple[int, int]] = field(default_factory=list)  # (tile, time played)


class Sampler:
    """Draws consistent deals for one view. Build it once per decision; :meth:`draw` is cheap."""

    def __init__(
        self, view: SeatView, rng: random.Random, weigh: bool = True, mix: int = 0
    ) -> None:
        if view.seat is None:
            raise UnreadableView("a mirón has no hidden hands to guess")
        self.view = view
        self.rng = rng
        self.weigh = weigh
        """Whether each deal is weighed by the play model (else every one weighs 1)."""
        self.mix = mix
        """Swaps tried per movable tile after each deal is dealt (:meth:`_mix`); 0 deals tile by
        tile only, as gallo and the shipped problems were measured and mined, :data:`MIX` makes
        every consistent deal as likely (the Repaso)."""
        rules = view.rules
        self.seats = rules.seats
        self.me = view.seat
        know = deduce(view)
        self.unseen = know.unseen
        self.excluded = know.excluded
        self.counts = view.counts
        self.stock_left = view.stock_left
        self.history = view.history
        self.timelines = [_Seat() for _ in range(self.seats)]
        self.drawn_known: list[int] = []  # per draw in history: the tile, or -1 when hidden
        self.forced_above = 0
        lead_tile = -1
        if view.history and view.history[0].kind == "play":
            lead_tile = view.history[0].tile
        elif view.forced_lead is not None:
            lead_tile = view.forced_lead
        if lead_tile >= 0:
            # under doble_mayor, the tiles ranked above the first salida were dealt to nobody
            self.forced_above = dealt_to_nobody(rules, view.hand_number, lead_tile)
        self._read_history()
        self._build_items()

    # -- the timelines -----------------------------------------------------------------------

    def _read_history(self) -> None:
        history = self.history
        for i, turn in enumerate(history):
            line = self.timelines[turn.seat]
            if turn.kind == "play":
                after_draw = (
                    i > 0 and history[i - 1].kind == "draw" and history[i - 1].seat == turn.seat
                )
                if turn.seat != self.me and not after_draw:
                    line.open_tiles.append((turn.tile, i))
                continue
            facing = SUIT[turn.left] | SUIT[turn.right] if turn.left >= 0 else 0
            line.events.append((i, facing))
            if turn.kind == "draw":
                nxt = history[i + 1] if i + 1 < len(history) else None
                if turn.seat == self.me:
                    if turn.drawn < 0:
                        raise UnreadableView("the seat's own draw must show the tile drawn")
                    self.drawn_known.append(turn.drawn)
                elif nxt is not None and nxt.kind == "play" and nxt.seat == turn.seat:
                    self.drawn_known.append(nxt.tile)  # drawn last and played at once
                else:
                    self.drawn_known.append(-1)
                    line.slots.append(i)

    def _allowed(self, seat: int, tile: int, origin: int, until: int) -> bool:
        """True when ``seat`` could have held ``tile`` from ``origin`` (-1: the deal; else the
        time of a draw) until ``until`` (the time it was played, or forever)."""
        bit = 1 << tile
        if origin < 0 and self.forced_above & bit:
            return False
        for time, facing in self.timelines[seat].events:
            if origin < time < until and facing & bit:
                return False
        return True

    def _build_items(self) -> None:
        """The places each hidden tile may go: ``(seat, origin)`` with origin -1 for the deal and
        a draw's time for that draw, and ``(-1, -1)`` for the montón; with each place's room."""
        seats = self.seats
        places: list[tuple[int, int]] = []
        room: list[int] = []
        for seat in range(seats):
            if seat == self.me:
                continue
            line = self.timelines[seat]
            places.append((seat, -1))
            room.append(7)
            for time in line.slots:
                places.append((seat, time))
                room.append(1)
        if self.stock_left:
            places.append((-1, -1))
            room.append(self.stock_left)
        index = {p: k for k, p in enumerate(places)}
        # Tiles already played by hidden players (from the deal or an unknown draw), then the
        # tiles nobody has seen.
        items: list[tuple[int, int]] = []  # (tile, seat or -1 when unseen)
        options: list[list[int]] = []
        for seat in range(seats):
            if seat == self.me:
                continue
            line = self.timelines[seat]
            origins = [-1, *line.slots]
            if not line.slots:
                # Played tiles with the deal as their only origin use its room and nothing else.
                room[index[(seat, -1)]] -= len(line.open_tiles)
                continue
            for tile, played in line.open_tiles:
                items.append((tile, seat))
                options.append(
                    [
                        index[(seat, o)]
                        for o in origins
                        if o < played and self._allowed(seat, tile, o, played)
                    ]
                )
        view = self.view
        must_lead = view.forced_lead if not view.history and view.leader != self.me else None
        for tile in bits(self.unseen):
            items.append((tile, -1))
            if tile == must_lead:
                options.append([index[(view.leader, -1)]])  # the rules name who holds it
                continue
            allowed = []
            for seat in range(seats):
                if seat == self.me or self.excluded[seat] >> tile & 1:
                    continue
                line = self.timelines[seat]
                for o in (-1, *line.slots):
                    if self._allowed(seat, tile, o, _FOREVER):
                        allowed.append(index[(seat, o)])
            if self.stock_left:
                allowed.append(index[(-1, -1)])
            options.append(allowed)
        self.places = places
        self.room = room
        self.items = items
        self.options = options
        # Hand out the most constrained tiles first: fewer repairs.
        self.order = sorted(range(len(items)), key=lambda k: len(options[k]))
        self.may = [sum(1 << p for p in opts) for opts in options] if self.mix else []
        """Each item's places as a bit set, for the swaps of :meth:`_mix`."""
        movable = [k for k in range(len(self.may)) if len(options[k]) > 1]
        # Where every movable tile may go to the same places, dealing in proportion to the room
        # is already uniform; only then are the swaps skipped.
        alike = len({self.may[k] for k in movable}) <= 1
        self.movable = [] if alike else movable
        """The tiles :meth:`_mix` swaps (none without ``mix``)."""

    # -- drawing deals -----------------------------------------------------------------------

    def draw(self) -> Sample | None:
        """One consistent deal, or None when none exists (a history no deal explains)."""
        rng = self.rng
        room = self.room.copy()
        holders: list[list[int]] = [[] for _ in room]
        placed = [-1] * len(self.items)
        order = self.order.copy()
        # Shuffle within groups of equal freedom, so the order is random but constrained first.
        rng.shuffle(order)
        order.sort(key=lambda k: len(self.options[k]))
        for k in order:
            opts = self.options[k]
            total = 0
            for p in opts:
                total += room[p]
            if total:
                pick = rng.random() * total
                chosen = -1
                for p in opts:
                    if room[p]:
                        chosen = p
                        pick -= room[p]
                        if pick < 0:
                            break
                p = chosen
                placed[k] = p
                holders[p].append(k)
                room[p] -= 1
            elif not self._augment(k, room, holders, placed):
                return None
        self._mix(placed)
        return self._sample(placed)

    def _mix(self, placed: list[int]) -> None:
        """Swap pairs of tiles between their places where each may go to the other's, ``mix``
        times per movable tile. Dealing tile by tile in proportion to the room leans toward some
        deals when the constraints are tight (up to 8 points on one tile's odds, against exact
        counts); a random swap is a step of a Markov chain whose steady law is uniform over the
        consistent deals, so a few of them take the lean away."""
        movable = self.movable
        n = len(movable)
        if not n:
            return
        may = self.may
        pick = self.rng.random
        for _ in range(self.mix * n):
            i = movable[int(pick() * n)]
            j = movable[int(pick() * n)]
            pi, pj = placed[i], placed[j]
            if pi != pj and may[i] >> pj & 1 and may[j] >> pi & 1:
                placed[i], placed[j] = pj, pi

    def _augment(
        self, item: int, room: list[int], holders: list[list[int]], placed: list[int]
    ) -> bool:
        """Make room for ``item`` by moving other tiles along an augmenting path."""
        seen: set[int] = set()
        options = self.options
        rng = self.rng

        def visit(k: int) -> bool:
            opts = options[k].copy()
            rng.shuffle(opts)
            for p in opts:
                if p in seen:
                    continue
                seen.add(p)
                if room[p] > 0:
                    room[p] -= 1
                    _move(k, p)
                    return True
                for other in holders[p].copy():
                    if visit(other):
                        holders[p].remove(other)
                        _move(k, p)  # ``other`` left p and ``k`` took its place
                        return True
            return False

        def _move(k: int, p: int) -> None:
            placed[k] = p
            holders[p].append(k)

        return visit(item)

    def _sample(self, placed: list[int]) -> Sample:
        """Turn an assignment into hands, a montón and the deal it came from, and weigh it."""
        seats, view = self.seats, self.view
        hands = [0] * seats
        hands[self.me] = view.tiles
        start = [0] * seats
        slot_tile: dict[int, int] = {}
        stock: list[int] = []
        for k, p in enumerate(placed):
            tile, owner = self.items[k]
            seat, origin = self.places[p]
            if seat < 0:
                stock.append(tile)
                continue
            if owner < 0:
                hands[seat] |= 1 << tile
            if origin < 0:
                start[seat] |= 1 << tile
            else:
                slot_tile[origin] = tile
        self.rng.shuffle(stock)
        # Tiles played from the deal by players without unknown draws were never items.
        for seat in range(seats):
            if seat != self.me and not self.timelines[seat].slots:
                for tile, _ in self.timelines[seat].open_tiles:
                    start[seat] |= 1 << tile
        drawn: list[int] = []
        draw_index = 0
        for i, turn in enumerate(self.history):
            if turn.kind == "draw":
                known = self.drawn_known[draw_index]
                draw_index += 1
                drawn.append(known if known >= 0 else slot_tile[i])
        # The viewer's own deal: what they hold and played, less what they drew.
        mine = view.tiles
        for turn in self.history:
            if turn.seat == self.me and turn.kind == "play":
                mine |= 1 << turn.tile
        for turn in self.history:
            if turn.seat == self.me and turn.kind == "draw":
                mine &= ~(1 << turn.drawn)
        start[self.me] = mine
        sample = Sample(hands, stock, start, drawn)
        if self.weigh:
            sample.weight = self.likelihood(sample)
        return sample

    def likelihood(self, sample: Sample) -> float:
        """How likely the other players' observed plays were with these hands: each play is
        one of the tiles the player could play then, chosen by a model that mostly sheds heavy
        tiles (a softmax over pips) and sometimes picks any tile."""
        holding = sample.start.copy()
        drawn = iter(sample.drawn)
        weight = 1.0
        me = self.me
        first = True
        forced = salida_was_forced(self.view)
        for turn in self.history:
            seat = turn.seat
            if turn.kind == "draw":
                holding[seat] |= 1 << next(drawn)
                continue
            if turn.kind != "play":
                continue
            bit = 1 << turn.tile
            if seat != me and not (first and forced):
                options = holding[seat]
                if turn.left >= 0:
                    options &= SUIT[turn.left] | SUIT[turn.right]
                if options & (options - 1):
                    total = 0.0
                    count = 0
                    for t in bits(options):
                        total += _EXP[PIPS[t]]
                        count += 1
                    chosen = (1.0 - ANY_TILE) * _EXP[PIPS[turn.tile]] / total + ANY_TILE / count
                    weight *= chosen
            holding[seat] &= ~bit
            first = False
        return weight
