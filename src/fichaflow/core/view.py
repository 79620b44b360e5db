"""What one seat may know: the only picture of a hand that bots and network clients receive.

A :class:`SeatView` holds the seat's own tiles, the line, the public history (plays, passes with
the ends they faced, how many tiles each player drew), every hand's and the montón's tile count and
the scores. Another seat's tiles appear only once the hand has ended. A mirón gets the same view
with no seat and no tiles. The rules themselves make one fact public: who must lead a forced tile
(the cochina in the first hand of ``doble_seis``, the highest double under ``doble_mayor``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fichaflow.core.hand import End, Hand, Move, Turn
from fichaflow.core.partida import Partida
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import bits, name, other_half


@dataclass(frozen=True, slots=True)
class PublicTurn:
    """One action as every player saw it. ``tile`` is -1 for a pass or a draw; ``drawn`` is the
    tile drawn, known only to the drawer (-1 for everybody else)."""

    seat: int
    kind: str  # "play", "pass" or "draw"
    tile: int
    end: End | None
    left: int  # the open ends the action faced (-1 before the lead)
    right: int
    lead_left: int | None = None
    drawn: int = -1

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "kind": self.kind}
        if self.kind == "play":
            out["tile"] = name(self.tile)
            if self.end is not None:
                out["end"] = self.end.word
            else:
                assert self.lead_left is not None
                out["tile"] = f"{self.lead_left}-{other_half(self.tile, self.lead_left)}"
        if self.drawn >= 0:
            out["drawn"] = name(self.drawn)
        out["ends"] = [self.left, self.right] if self.left >= 0 else None
        return out


def _public(turn: Turn, viewer: int | None) -> PublicTurn:
    move = turn.move
    kind = "play" if move.is_play else ("pass" if move.is_pass else "draw")
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

    def to_json(self) -> dict[str, Any]:
        """The view as the protocol sends it (tiles in record notation)."""
        legal = []
        for move in self.legal:
            if move.is_pass:
                legal.append("pass")
            elif move.is_draw:
                legal.append("draw")
            elif move.end is None:
                assert move.left is not None
                legal.append(f"{move.left}-{other_half(move.tile, move.left)}")
            else:
                legal.append(f"{name(move.tile)}:{move.end.word}")
        return {
            "rules": self.rules.dump(),
            "seat": self.seat,
            "hand_number": self.hand_number,
            "leader": self.leader,
            "forced_lead": None if self.forced_lead is None else name(self.forced_lead),
            "turn": self.turn,
            "tiles": [name(t) for t in bits(self.tiles)],
            "ends": [self.left, self.right] if self.left >= 0 else None,
            "line": [list(pair) for pair in self.line],
            "history": [t.to_json() for t in self.history],
            "counts": list(self.counts),
            "stock_left": self.stock_left,
            "scores": list(self.scores),
            "players": None if self.players is None else list(self.players),
            "legal": legal,
            "ended": self.ended,
            "revealed": (
                None
                if self.revealed is None
                else [[name(t) for t in bits(h)] for h in self.revealed]
            ),
        }


def hand_view(
    rules: Rules,
    hand: Hand,
    seat: int | None,
    scores: tuple[int, ...] = (),
    hand_number: int = 1,
    players: tuple[str, ...] | None = None,
) -> SeatView:
    """The view of ``hand`` from ``seat`` (None: a mirón)."""
    ended = hand.ended
    forced = hand.forced_lead if hand.left < 0 else None
    return SeatView(
        rules=rules,
        seat=seat,
        hand_number=hand_number,
        leader=hand.leader,
        forced_lead=forced,
        turn=hand.turn,
        tiles=hand.hands[seat] if seat is not None else 0,
        left=hand.left,
        right=hand.right,
        line=tuple(hand.line()),
        history=tuple(_public(t, seat) for t in hand.history),
        counts=hand.counts(),
        stock_left=hand.stock_left,
        scores=scores or (0,) * rules.teams,
        players=players,
        legal=tuple(hand.legal_moves()) if seat == hand.turn and not ended else (),
        ended=ended,
        revealed=tuple(hand.hands) if ended else None,
    )


def seat_view(partida: Partida, seat: int | None) -> SeatView | None:
    """The view of the hand in play, or of the last finished hand (face up); None before any."""
    if partida.current is not None:
        hand, number = partida.current, len(partida.played) + 1
    elif partida.played:
        hand, number = partida.played[-1].hand, len(partida.played)
    else:
        return None
    return hand_view(partida.rules, hand, seat, partida.scores, number, partida.players)
