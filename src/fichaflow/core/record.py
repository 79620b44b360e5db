"""Game records: the JSON interchange format (rules + deals + moves), read, replayed and written.

A record is the whole truth of a partida: replaying it through the engine rebuilds every state.
Draws from the montón are not written; a player who cannot play draws from the front of the
montón until a tile fits, and the move written is that tile. See ``docs/records.md``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from fichaflow.core.deal import Deal
from fichaflow.core.errors import FichaFlowError, IllegalMove, RecordError
from fichaflow.core.hand import DRAW, Hand, Move
from fichaflow.core.partida import Partida
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import bits, name, parse

RECORD_KEYS: Final = ("rules", "players", "hands", "time_up", "meta")
HAND_KEYS: Final = ("deal", "stock", "leader", "moves", "seed", "commitment")


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand as written: the deal, who led (if written) and the moves from the leader."""

    deal: Deal
    moves: tuple[str, ...]
    leader: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Record:
    rules: Rules
    hands: tuple[HandRecord, ...]
    players: tuple[str, ...] | None = None
    meta: Mapping[str, Any] = field(default_factory=dict)
    time_up: tuple[int, int] | None = None
    """Where time was called in a partida played by time: ``(hand, moves)``, after that many
    written moves of that hand (all of them: after the hand ended)."""


def loads(text: str | bytes) -> Record:
    """Read a record from JSON text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError("record.not_json", line=exc.lineno, column=exc.colno) from None
    except (ValueError, UnicodeDecodeError):
        raise RecordError("record.not_text") from None
    return parse_record(data)


def _shape(ok: bool, what: str, hand: int | None = None) -> None:
    if not ok:
        raise RecordError("record.shape", what=what).at(hand)


def _known_keys(data: Mapping[str, Any], allowed: tuple[str, ...], hand: int | None) -> None:
    for key in data:
        if key not in allowed:
            raise RecordError("record.unknown_key", key=key, allowed=", ".join(allowed)).at(hand)


def _tiles(items: object, what: str, hand: int) -> list[int]:
    _shape(isinstance(items, list), f"{what} debe ser una lista de fichas", hand)
    assert isinstance(items, list)
    try:
        return [parse(t) if isinstance(t, str) else parse(repr(t)) for t in items]
    except FichaFlowError as exc:
        raise exc.at(hand) from None


def parse_record(data: object) -> Record:
    """Check a decoded record's shape (not yet its play) and type it."""
    _shape(isinstance(data, dict), "un objeto con rules y hands")
    assert isinstance(data, dict)
    _known_keys(data, RECORD_KEYS, None)
    _shape("rules" in data, "falta rules")
    rules = Rules.load(data["rules"])
    players = data.get("players")
    if players is not None:
        _shape(
            isinstance(players, list) and all(isinstance(p, str) for p in players),
            "players debe ser una lista de nombres",
        )
        if len(players) != rules.seats:
            raise RecordError("record.players", found=len(players), seats=rules.seats)
    raw_hands = data.get("hands", [])
    _shape(isinstance(raw_hands, list), "hands debe ser una lista")
    hands = []
    for number, raw in enumerate(raw_hands, 1):
        _shape(isinstance(raw, dict), "cada mano debe ser un objeto con deal y moves", number)
        _known_keys(raw, HAND_KEYS, number)
        deal_lists = raw.get("deal")
        _shape(isinstance(deal_lists, list), "deal debe ser una lista de manos", number)
        seats = [_tiles(h, "cada mano del reparto", number) for h in deal_lists]
        stock = _tiles(raw.get("stock", []), "stock", number)
        deal = Deal.from_lists(seats, stock)
        # a tile written twice in one seat would vanish in a bit set: count them first.
        written = [t for h in seats for t in h] + stock
        if len(written) != len(set(written)):
            dup = next(t for t in written if written.count(t) > 1)
            raise RecordError("deal.duplicate", tile=name(dup)).at(number)
        try:
            deal.check(rules)
        except FichaFlowError as exc:
            raise exc.at(number) from None
        leader = raw.get("leader")
        _shape(
            leader is None or (isinstance(leader, int) and not isinstance(leader, bool)),
            "leader debe ser un número de asiento",
            number,
        )
        moves = raw.get("moves", [])
        _shape(isinstance(moves, list), "moves debe ser una lista", number)
        extra = {k: raw[k] for k in ("seed", "commitment") if k in raw}
        hands.append(HandRecord(deal, tuple(moves), leader, extra))
    meta = data.get("meta", {})
    _shape(isinstance(meta, dict), "meta debe ser un objeto")
    time_up = _time_up(data.get("time_up"), hands)
    return Record(rules, tuple(hands), tuple(players) if players else None, meta, time_up)


def _time_up(raw: object, hands: list[HandRecord]) -> tuple[int, int] | None:
    """``time_up``, checked against the hands written: a hand among them (0 before the first)
    and a count of its moves."""
    if raw is None:
        return None
    what = "time_up debe ser un objeto con hand y moves"
    _shape(isinstance(raw, dict) and set(raw) == {"hand", "moves"}, what)
    assert isinstance(raw, dict)
    hand, moves = raw["hand"], raw["moves"]
    whole = all(isinstance(v, int) and not isinstance(v, bool) for v in (hand, moves))
    _shape(whole, what)
    written = len(hands[hand - 1].moves) if 1 <= hand <= len(hands) else 0
    if not (0 <= hand <= len(hands) and 0 <= moves <= written):
        raise RecordError("record.time_where", hand=hand, moves=moves)
    return hand, moves


def draw_until_playable(hand: Hand) -> None:
    """Make the draws a record leaves unwritten: while the player to move has nothing to play
    and the montón has tiles, they draw."""
    while not hand.ended and not hand.playable() and hand.stock_pos < len(hand.stock):
        hand.push(DRAW)


def _check_turn(hand: Hand, move: Move) -> None:
    """In a record every hand is known, so a tile held by another seat means a wrong turn.
    (A live table must not say who holds a tile; only replays give this hint.)"""
    if move.is_play and not hand.hands[hand.turn] >> move.tile & 1:
        holder = next((s for s, h in enumerate(hand.hands) if h >> move.tile & 1), None)
        if holder is not None:
            raise IllegalMove(
                "move.wrong_turn", seat=hand.turn, holder=holder, tile=name(move.tile)
            )


def replay(record: Record) -> Partida:
    """Replay a record through the engine; the first problem raises with hand and move number."""
    partida = Partida(record.rules, record.players)
    if record.time_up == (0, 0):
        partida.call_time()
    for number, hand_record in enumerate(record.hands, 1):
        try:
            hand = partida.start_hand(hand_record.deal, hand_record.leader)
        except FichaFlowError as exc:
            raise exc.at(number) from None
        for move_number, token in enumerate(hand_record.moves, 1):
            if record.time_up == (number, move_number - 1):
                partida.call_time()
            if partida.current is None:
                raise RecordError("record.moves_after_end").at(number, move_number)
            try:
                draw_until_playable(hand)
                move = hand.parse(token)
                _check_turn(hand, move)
                partida.play(move)
            except FichaFlowError as exc:
                raise exc.at(number, move_number) from None
        if partida.current is not None:
            raise RecordError("record.hand_incomplete").at(number, len(hand_record.moves) + 1)
        if record.time_up == (number, len(hand_record.moves)) and partida.time_up is None:
            try:
                partida.call_time()
            except FichaFlowError as exc:
                raise exc.at(number) from None
    return partida


def hand_dump(deal: Deal, hand: Hand) -> dict[str, Any]:
    """One hand in record form (its draws left out, as the format says)."""
    out: dict[str, Any] = {"deal": [[name(t) for t in bits(h)] for h in deal.hands]}
    if deal.stock:
        out["stock"] = [name(t) for t in deal.stock]
    out["leader"] = hand.leader
    out["moves"] = [t.notation() for t in hand.history if not t.move.is_draw]
    return out


def dump(partida: Partida, meta: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The record of a partida's finished hands (a hand in play is not written)."""
    out: dict[str, Any] = {"rules": partida.rules.dump()}
    if partida.players is not None:
        out["players"] = list(partida.players)
    out["hands"] = [hand_dump(p.deal, p.hand) for p in partida.played]
    if partida.time_up is not None and partida.time_up[0] <= len(partida.played):
        out["time_up"] = {"hand": partida.time_up[0], "moves": partida.time_up[1]}
    if meta:
        out["meta"] = dict(meta)
    return out


def dumps(partida: Partida, meta: Mapping[str, Any] | None = None) -> str:
    return json.dumps(dump(partida, meta), ensure_ascii=False, indent=1)
