"""What one seat may know: the only picture of a hand that bots and network clients receive.

A :class:`SeatView` holds the seat's own tiles, the line, the public history (plays, passes with
the ends they faced, how many tiles each player drew), every hand's and the montón's tile count and
the scores. Another seat's tiles appear only once the hand has ended. A mirón gets the same view
with no seat and no tiles. The rules themselves make one fact public: who must lead a forced tile
(the cochina in the first hand of ``doble_seis``, the highest double under ``doble_mayor``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, Required, TypedDict

from fichaflow.core.errors import FichaFlowError, IllegalMove
from fichaflow.core.hand import (
    END_BY_WORD,
    End,
    Hand,
    Move,
    Turn,
    place,
    read_move,
    write_move,
)
from fichaflow.core.partida import Partida
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import MAX_HALF, NAMES, NUM_TILES, bits, name, parse, parse_halves


class TurnKind(StrEnum):
    """What a seat did on its turn, as the history shows it (the value is the protocol's word)."""

    PLAY = "play"
    PASS = "pass"
    DRAW = "draw"


_PLAY, _PASS, _DRAW = TurnKind.PLAY, TurnKind.PASS, TurnKind.DRAW
"""For the loops that run per turn at every move: on Python 3.11 reading an enum member off its
class (``TurnKind.PLAY``) costs a descriptor call, about ten times a global's lookup."""


class _TurnDetail(TypedDict, total=False):
    tile: str
    end: str
    drawn: str


class TurnJson(_TurnDetail):
    """A :class:`PublicTurn` as the protocol writes it (``docs/protocol.md``): ``tile`` for a
    play (``end`` once the line has ends), ``drawn`` only in the drawer's own view, ``ends``
    the open ends the action faced (None before the lead). ``kind`` is written as its word."""

    seat: Required[int]
    kind: Required[TurnKind]
    ends: Required[list[int] | None]


class ViewStateJson(TypedDict):
    """A :class:`ViewJson` without its history: what a server's ``move`` message carries, the
    turns the move added going beside it (a hand's history only grows, and the receiver holds
    the rest of it already)."""

    rules: dict[str, Any]
    seat: int | None
    hand_number: int
    leader: int
    forced_lead: str | None
    turn: int
    tiles: list[str]
    ends: list[int] | None
    line: list[list[int]]
    counts: list[int]
    stock_left: int
    scores: list[int]
    players: list[str] | None
    legal: list[str]
    ended: bool
    revealed: list[list[str]] | None


class ViewJson(ViewStateJson):
    """A :class:`SeatView` as the protocol writes it (tiles in record notation): what every
    client and engine receives, and what :meth:`SeatView.from_json` reads back."""

    history: list[TurnJson]


@dataclass(frozen=True, slots=True)
class PublicTurn:
    """One action as every player saw it. ``tile`` is -1 for a pass or a draw; ``drawn`` is the
    tile drawn, known only to the drawer (-1 for everybody else)."""

    seat: int
    kind: TurnKind
    tile: int
    end: End | None
    left: int  # the open ends the action faced (-1 before the lead)
    right: int
    lead_left: int | None = None
    drawn: int = -1

    def to_json(self) -> TurnJson:
        detail: _TurnDetail = {}
        if self.kind is _PLAY:
            detail["tile"] = name(self.tile)
            if self.end is not None:
                detail["end"] = self.end.word
            else:
                assert self.lead_left is not None
                detail["tile"] = write_move(Move.lead(self.tile, self.lead_left))
        if self.drawn >= 0:
            detail["drawn"] = name(self.drawn)
        ends = [self.left, self.right] if self.left >= 0 else None
        return {"seat": self.seat, "kind": self.kind, **detail, "ends": ends}


def _public(turn: Turn, viewer: int | None) -> PublicTurn:
    move = turn.move
    kind = _PLAY if move.is_play else (_PASS if move.is_pass else _DRAW)
    drawn = turn.drawn if viewer is not None and turn.seat == viewer else -1
    return PublicTurn(
        turn.seat,
        kind,
        move.tile if move.is_play else -1,
        move.end,
        turn.left,
        turn.right,
        move.left if move.is_play and move.end is None else None,
        drawn,
    )


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything ``seat`` may know now. ``seat`` is None for a mirón."""

    rules: Rules
    seat: int | None
    hand_number: int
    leader: int
    forced_lead: int | None
    turn: int
    tiles: int  # own tiles, a bit set (0 for a mirón)
    left: int
    right: int
    line: tuple[tuple[int, int], ...]
    history: tuple[PublicTurn, ...]
    counts: tuple[int, ...]
    stock_left: int
    scores: tuple[int, ...]
    players: tuple[str, ...] | None = None
    legal: tuple[Move, ...] = ()
    ended: bool = False
    revealed: tuple[int, ...] | None = None  # every hand, once the hand has ended

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.turn == self.seat and not self.ended

    def to_json(self, memo: dict[int, TurnJson] | None = None) -> ViewJson:
        """The view as the protocol sends it (tiles in record notation). Views built together
        (:func:`seat_views`) share their public turns: pass one ``memo`` to all their
        ``to_json`` calls (while the views live) and each turn is written once."""
        shared = _shared_json(self, self.rules.dump(), [list(pair) for pair in self.line])
        return _seat_json(
            shared, self.seat, self.tiles, self.legal, _history_json(self.history, memo)
        )

    @classmethod
    def from_json(cls, data: object) -> SeatView:
        """The view :meth:`to_json` wrote (after a trip through JSON); a FichaFlowError naming
        the key for anything else. Only the shape is checked, not that the play was legal."""
        return _view_from_json(data)


def _history_json(
    history: tuple[PublicTurn, ...], memo: dict[int, TurnJson] | None
) -> list[TurnJson]:
    if memo is None:
        return [t.to_json() for t in history]
    out = []
    for turn in history:
        written = memo.get(id(turn))
        if written is None:
            written = memo[id(turn)] = turn.to_json()
        out.append(written)
    return out


def _shared_json(view: SeatView, rules: dict[str, Any], line: list[list[int]]) -> ViewJson:
    """What every seat's view of one moment says alike, in the protocol's form and key order
    (``rules`` and ``line`` already written); :func:`_seat_json` fills in the seat's own part
    (here empty)."""
    return {
        "rules": rules,
        "seat": None,
        "hand_number": view.hand_number,
        "leader": view.leader,
        "forced_lead": None if view.forced_lead is None else name(view.forced_lead),
        "turn": view.turn,
        "tiles": [],
        "ends": [view.left, view.right] if view.left >= 0 else None,
        "line": line,
        "history": [],
        "counts": list(view.counts),
        "stock_left": view.stock_left,
        "scores": list(view.scores),
        "players": None if view.players is None else list(view.players),
        "legal": [],
        "ended": view.ended,
        "revealed": (
            None if view.revealed is None else [[name(t) for t in bits(h)] for h in view.revealed]
        ),
    }


def _seat_json(
    shared: ViewJson,
    seat: int | None,
    tiles: int,
    legal: Iterable[Move],
    history: list[TurnJson],
) -> ViewJson:
    """One seat's view: ``shared`` with its seat, own tiles, legal moves and history (the
    shared parts are the same objects in every seat's view: written, never changed)."""
    view = shared.copy()  # (assigning keys that exist keeps the protocol's key order)
    view["seat"] = seat
    view["tiles"] = [NAMES[t] for t in bits(tiles)]
    view["history"] = history
    view["legal"] = [write_move(move) for move in legal]
    return view


def _draws(hand: Hand) -> dict[int, list[int]]:
    """Where in ``hand``'s history each seat drew."""
    out: dict[int, list[int]] = {}
    for i, turn in enumerate(hand.history):
        if turn.move.is_draw:
            out.setdefault(turn.seat, []).append(i)
    return out


def _own_history(
    public: tuple[PublicTurn, ...], hand: Hand, seat: int | None, draws: dict[int, list[int]]
) -> tuple[PublicTurn, ...]:
    """The public history as ``seat`` saw it: its own draws (``draws``, :func:`_draws`) show
    the tile drawn."""
    own = draws.get(seat) if seat is not None else None
    if not own:
        return public
    mine = list(public)
    for i in own:
        mine[i] = _public(hand.history[i], seat)
    return tuple(mine)


def _own_tiles(hand: Hand, seat: int | None) -> int:
    """The tiles ``seat`` holds (none for a mirón)."""
    return hand.hands[seat] if seat is not None else 0


def _legal(hand: Hand, seat: int | None) -> tuple[Move, ...]:
    """What ``seat`` may do now: its legal moves on its turn, else nothing."""
    return tuple(hand.legal_moves()) if seat == hand.turn and not hand.ended else ()


class HandMemo:
    """What the views of one hand share from one move to the next, for a caller that builds them
    after every move (the server, for each mesa): a hand's history only grows, so each turn's
    public form and its JSON are worked out once per hand, not again at every move. It follows
    one hand at a time: another hand, or a history that is not the one it saw grow (a move
    taken back), starts it afresh. Only what every seat sees is kept; a seat's own draws are
    worked out for each move's views alone."""

    __slots__ = (
        "_hand",
        "_json",
        "_line",
        "_public",
        "_rules",
        "_rules_json",
        "_turns",
        "_written",
    )

    def __init__(self) -> None:
        self._hand: Hand | None = None
        self._turns: list[Turn] = []  # the history as last seen, to notice one rewritten
        self._public: list[PublicTurn] = []
        self._json: list[TurnJson] = []  # each public turn's JSON, in order
        self._line: deque[tuple[int, int]] = deque()  # the line so far
        self._written: dict[int, TurnJson] = {}  # by id(): each kept alive in _public
        self._rules: Rules | None = None
        self._rules_json: dict[str, Any] = {}

    def public(self, hand: Hand) -> tuple[PublicTurn, ...]:
        """The public form of ``hand``'s history, the turns seen before reused."""
        history, seen = hand.history, len(self._turns)
        if (
            hand is not self._hand
            or seen > len(history)
            or (seen and history[seen - 1] is not self._turns[-1])
        ):
            self._hand, self._turns, self._public, self._json, self._written = hand, [], [], [], {}
            self._line = deque()
            seen = 0
        for turn in history[seen:]:
            public = _public(turn, None)
            self._turns.append(turn)
            self._public.append(public)
            written = self._written[id(public)] = public.to_json()
            self._json.append(written)
            place(self._line, turn)
        return tuple(self._public)

    def line(self) -> tuple[tuple[int, int], ...]:
        """``Hand.line()`` of the hand :meth:`public` last saw, kept as it grew."""
        return tuple(self._line)

    def public_json(self) -> list[TurnJson]:
        """The JSON of the history :meth:`public` last returned, in order (a list of its own)."""
        return list(self._json)

    def rules_json(self, rules: Rules) -> dict[str, Any]:
        """``rules.dump()``, worked out again only when the rules change."""
        if rules is not self._rules:
            self._rules, self._rules_json = rules, rules.dump()
        return self._rules_json

    def written(self) -> dict[int, TurnJson]:
        """A ``to_json`` memo for one move's views, holding the public turns' JSON already
        (its own copy: what a seat's own draws add to it is not kept for the next move)."""
        return dict(self._written)


def hand_views(
    rules: Rules,
    hand: Hand,
    seats: Iterable[int | None],
    scores: tuple[int, ...] = (),
    hand_number: int = 1,
    players: tuple[str, ...] | None = None,
    memo: HandMemo | None = None,
) -> dict[int | None, SeatView]:
    """The views of ``hand`` from each of ``seats`` (None: a mirón). What everybody saw is
    worked out once and shared (with ``memo``, once for the whole hand); only a seat's own draws
    differ (it alone sees their tiles)."""
    ended = hand.ended
    public = (
        memo.public(hand) if memo is not None else tuple(_public(t, None) for t in hand.history)
    )
    line = memo.line() if memo is not None else tuple(hand.line())
    counts = hand.counts()
    scores = scores or (0,) * rules.teams
    seats = tuple(seats)
    draws = _draws(hand) if any(seat is not None for seat in seats) else {}
    out: dict[int | None, SeatView] = {}
    for seat in seats:
        out[seat] = SeatView(
            rules=rules,
            seat=seat,
            hand_number=hand_number,
            leader=hand.leader,
            forced_lead=hand.forced_lead if hand.left < 0 else None,
            turn=hand.turn,
            tiles=_own_tiles(hand, seat),
            left=hand.left,
            right=hand.right,
            line=line,
            history=_own_history(public, hand, seat, draws),
            counts=counts,
            stock_left=hand.stock_left,
            scores=scores,
            players=players,
            legal=_legal(hand, seat),
            ended=ended,
            revealed=tuple(hand.hands) if ended else None,
        )
    return out


def hand_views_json(
    rules: Rules,
    hand: Hand,
    seats: Iterable[int | None],
    scores: tuple[int, ...] = (),
    hand_number: int = 1,
    players: tuple[str, ...] | None = None,
    memo: HandMemo | None = None,
) -> dict[int | None, ViewJson]:
    """``{seat: view.to_json()}`` for the views :func:`hand_views` gives, written straight
    from the hand: what the seats see alike is written once (from the mirón's view, the one
    :class:`SeatView` made), not once a seat (the server sends every seat's view after every
    move)."""
    memo = memo if memo is not None else HandMemo()
    miron = hand_views(rules, hand, (None,), scores, hand_number, players, memo)[None]
    shared = _shared_json(miron, memo.rules_json(rules), [list(pair) for pair in miron.line])
    public, public_json = miron.history, memo.public_json()
    draws = _draws(hand)
    out: dict[int | None, ViewJson] = {}
    for seat in seats:
        history = _own_history(public, hand, seat, draws)
        written = (
            public_json
            if history is public
            else [
                t_json if t is p else t.to_json()
                for t, p, t_json in zip(history, public, public_json, strict=True)
            ]
        )
        out[seat] = _seat_json(shared, seat, _own_tiles(hand, seat), _legal(hand, seat), written)
    return out


def hand_view(
    rules: Rules,
    hand: Hand,
    seat: int | None,
    scores: tuple[int, ...] = (),
    hand_number: int = 1,
    players: tuple[str, ...] | None = None,
) -> SeatView:
    """The view of ``hand`` from ``seat`` (None: a mirón)."""
    return hand_views(rules, hand, (seat,), scores, hand_number, players)[seat]


def _shown(partida: Partida) -> tuple[Hand, int] | None:
    """The hand the views show and its number: the one in play, else the last finished one
    (face up); None before any hand."""
    if partida.current is not None:
        return partida.current, len(partida.played) + 1
    if partida.played:
        return partida.played[-1].hand, len(partida.played)
    return None


def seat_views(
    partida: Partida, seats: Iterable[int | None], memo: HandMemo | None = None
) -> dict[int | None, SeatView]:
    """The views of the hand in play, or of the last finished hand (face up), from each of
    ``seats``; empty before any hand. ``memo``: see :class:`HandMemo`."""
    shown = _shown(partida)
    if shown is None:
        return {}
    hand, number = shown
    return hand_views(partida.rules, hand, seats, partida.scores, number, partida.players, memo)


def seat_views_json(
    partida: Partida, seats: Iterable[int | None], memo: HandMemo | None = None
) -> dict[int | None, ViewJson]:
    """:func:`seat_views` in the protocol's form, each written as :func:`hand_views_json`
    does; empty before any hand."""
    shown = _shown(partida)
    if shown is None:
        return {}
    hand, number = shown
    return hand_views_json(
        partida.rules, hand, seats, partida.scores, number, partida.players, memo
    )


def seat_view(partida: Partida, seat: int | None) -> SeatView | None:
    """The view of the hand in play, or of the last finished hand (face up); None before any."""
    return seat_views(partida, (seat,)).get(seat)


# -- reading a view back from JSON (the engine protocol's requests) ------------------------------

VIEW_KEYS: Final = (
    "rules",
    "seat",
    "hand_number",
    "leader",
    "forced_lead",
    "turn",
    "tiles",
    "ends",
    "line",
    "history",
    "counts",
    "stock_left",
    "scores",
    "players",
    "legal",
    "ended",
    "revealed",
)
TURN_KEYS: Final = ("seat", "kind", "tile", "end", "drawn", "ends")
OPTIONAL_KEYS: Final = ("players", "legal", "ended", "revealed", "hand_number", "forced_lead")


def _object(data: object, key: str) -> Mapping[str, object]:
    if not isinstance(data, Mapping) or not all(isinstance(k, str) for k in data):
        raise FichaFlowError("view.not_object", key=key)
    return data


def _number(data: object, key: str, low: int, high: int) -> int:
    if isinstance(data, int) and not isinstance(data, bool) and low <= data <= high:
        return data
    raise FichaFlowError("view.number", key=key, low=low, high=high, value=repr(data))


def _list(data: object, key: str, size: int | None = None) -> list[object]:
    if isinstance(data, list) and (size is None or len(data) == size):
        return data
    raise FichaFlowError("view.list", key=key, size="?" if size is None else size)


def _tile(data: object) -> int:
    if not isinstance(data, str):
        raise FichaFlowError("tile.invalid", text=repr(data))
    return parse(data)


def _tile_set(data: object, key: str) -> int:
    mask = 0
    for item in _list(data, key):
        tile = _tile(item)
        if mask >> tile & 1:
            raise FichaFlowError("view.tile_twice", key=key, tile=name(tile))
        mask |= 1 << tile
    return mask


def _ends(data: object, key: str) -> tuple[int, int]:
    if data is None:
        return -1, -1
    pair = _list(data, key, 2)
    return _number(pair[0], key, 0, MAX_HALF), _number(pair[1], key, 0, MAX_HALF)


def _keys(data: Mapping[str, object], allowed: tuple[str, ...], required: tuple[str, ...]) -> None:
    for key in data:
        if key not in allowed:
            raise FichaFlowError("view.unknown_key", key=key, allowed=", ".join(allowed))
    for key in required:
        if key not in data:
            raise FichaFlowError("view.missing", key=key)


def _turn_from_json(data: object, seats: int, index: int) -> PublicTurn:
    where = f"history[{index}]"
    turn = _object(data, where)
    _keys(turn, TURN_KEYS, ("seat", "kind"))
    seat = _number(turn["seat"], f"{where}.seat", 0, seats - 1)
    kind = turn["kind"]
    left, right = _ends(turn.get("ends"), f"{where}.ends")
    drawn = -1 if turn.get("drawn") is None else _tile(turn["drawn"])
    if kind in (TurnKind.PASS, TurnKind.DRAW):
        if left < 0:
            raise FichaFlowError("view.bad_value", key=f"{where}.ends", value="null")
        return PublicTurn(seat, TurnKind(str(kind)), -1, None, left, right, None, drawn)
    if kind != TurnKind.PLAY:
        raise FichaFlowError("view.bad_value", key=f"{where}.kind", value=repr(kind))
    text = turn.get("tile")
    if not isinstance(text, str):
        raise FichaFlowError("tile.invalid", text=repr(text))
    end_word = turn.get("end")
    if end_word is None:
        if left >= 0:
            raise FichaFlowError("view.missing", key=f"{where}.end")
        first, _ = parse_halves(text)
        return PublicTurn(seat, TurnKind.PLAY, parse(text), None, -1, -1, first, drawn)
    end = END_BY_WORD.get(end_word) if isinstance(end_word, str) else None
    if end is None:
        raise FichaFlowError("view.bad_value", key=f"{where}.end", value=repr(end_word))
    if left < 0:
        raise FichaFlowError("view.missing", key=f"{where}.ends")
    return PublicTurn(seat, TurnKind.PLAY, parse(text), end, left, right, None, drawn)


def _move_from_json(data: object, left: int, right: int) -> Move:
    """A legal move: ``6-4`` for a salida (left half first), ``6-4:left`` / ``6-4:right`` for a
    play (as ``to_json`` writes it), ``pass`` or ``draw``. A play may leave its end out where
    that is unambiguous: the tile fits one end only, or both ends show the same number (either
    end then gives the same line, read as the left)."""
    if not isinstance(data, str):
        raise FichaFlowError("view.move", token=repr(data))
    try:
        return read_move(data, left, right, draws=True)
    except IllegalMove as exc:
        if exc.code == "move.end_missing" and left == right:
            return read_move(f"{data}:left", left, right)
        raise FichaFlowError("view.move", token=data) from None


def _view_from_json(data: object) -> SeatView:
    view = _object(data, "view")
    required = tuple(k for k in VIEW_KEYS if k not in OPTIONAL_KEYS)
    _keys(view, VIEW_KEYS, required)
    rules = Rules.load(view["rules"])
    seats = rules.seats
    raw_seat = view["seat"]
    seat = None if raw_seat is None else _number(raw_seat, "seat", 0, seats - 1)
    left, right = _ends(view["ends"], "ends")
    line = []
    for pair in _list(view["line"], "line"):
        halves = _list(pair, "line", 2)
        line.append(
            (_number(halves[0], "line", 0, MAX_HALF), _number(halves[1], "line", 0, MAX_HALF))
        )
    history = tuple(
        _turn_from_json(item, seats, i) for i, item in enumerate(_list(view["history"], "history"))
    )
    counts = tuple(
        _number(c, "counts", 0, NUM_TILES) for c in _list(view["counts"], "counts", seats)
    )
    scores = tuple(
        _number(c, "scores", 0, 10**6) for c in _list(view["scores"], "scores", rules.teams)
    )
    raw_players = view.get("players")
    players = None
    if raw_players is not None:
        names = _list(raw_players, "players", seats)
        if not all(isinstance(p, str) for p in names):
            raise FichaFlowError("view.list", key="players", size=seats)
        players = tuple(str(p) for p in names)
    forced = view.get("forced_lead")
    legal = tuple(_move_from_json(m, left, right) for m in _list(view.get("legal", []), "legal"))
    ended = view.get("ended", False)
    if not isinstance(ended, bool):
        raise FichaFlowError("view.bad_value", key="ended", value=repr(ended))
    raw_revealed = view.get("revealed")
    revealed = None
    if raw_revealed is not None:
        hands = _list(raw_revealed, "revealed", seats)
        revealed = tuple(_tile_set(h, "revealed") for h in hands)
    return SeatView(
        rules=rules,
        seat=seat,
        hand_number=_number(view.get("hand_number", 1), "hand_number", 1, 10**6),
        leader=_number(view["leader"], "leader", 0, seats - 1),
        forced_lead=None if forced is None else _tile(forced),
        turn=_number(view["turn"], "turn", 0, seats - 1),
        tiles=_tile_set(view["tiles"], "tiles"),
        left=left,
        right=right,
        line=tuple(line),
        history=history,
        counts=counts,
        stock_left=_number(view["stock_left"], "stock_left", 0, NUM_TILES),
        scores=scores,
        players=players,
        legal=legal,
        ended=ended,
        revealed=revealed,
    )
