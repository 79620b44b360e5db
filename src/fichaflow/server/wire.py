"""What the server sends: plain JSON objects built from the mesa and the core's own views.

A player's picture of a hand is always ``core.view.seat_view`` for their seat (``None`` for
mirones); the only other tiles any message names are those of hands that have ended.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import orjson

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.explain import explain
from fichaflow.core.partida import Partida, PlayedHand
from fichaflow.core.record import dump, hand_dump
from fichaflow.core.tiles import bits, name
from fichaflow.core.view import seat_views
from fichaflow.http import error_body
from fichaflow.server.mesa import HandInfo, Mesa, MoveResult


def error(exc: FichaFlowError, ref: str | int | None = None) -> dict[str, Any]:
    """An error as the WebSocket sends it: the same shape as every HTTP error."""
    return error_body(exc, ref)


def view(mesa: Mesa, seat: int | None) -> dict[str, Any] | None:
    """The seat's view of the hand in play (or of the last hand, face up), None before any."""
    return views(mesa, (seat,))[seat]


def views(mesa: Mesa, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any] | None]:
    """:func:`view` for several seats at once, the public history written only once."""
    seats = tuple(seats)
    seen = seat_views(mesa.partida, seats) if mesa.partida is not None else {}
    memo: dict[int, dict[str, Any]] = {}
    return {seat: seen[seat].to_json(memo) if seat in seen else None for seat in seats}


def mesa_state(
    mesa: Mesa, online: set[int], away: Mapping[int, float], deadline: float | None
) -> dict[str, Any]:
    """Everything public about the mesa: chairs, who is connected, the parados, the options.
    ``away`` gives, for each absent person, how many seconds they have been gone."""
    seats = []
    for seat, chair in enumerate(mesa.chairs):
        person = mesa.people.get(chair.person) if chair.person is not None else None
        seats.append(
            {
                "seat": seat,
                "name": mesa.seat_name(seat) or None,
                "person": chair.person,
                "bot": chair.bot,
                "kind": "empty" if chair.empty else ("bot" if chair.bot else "human"),
                "substitute": chair.person is not None and chair.bot is not None,
                "connected": person is not None and person.id in online,
                "away_seconds": (
                    None if person is None or person.id in online else away.get(person.id)
                ),
                "ready": seat in mesa.ready,
            }
        )
    host = mesa.host
    return {
        "code": mesa.code,
        "rules": mesa.rules.dump(),
        "rule_options": mesa.rules.options(),
        "idle_options": list(mesa.rules.idle_options()),
        "options": mesa.options.model_dump(),
        "seats": seats,
        "queue": [{"id": p, "name": mesa.people[p].name} for p in mesa.queue],
        "host": None if host is None else {"id": host.id, "name": host.name},
        "status": mesa.status,
        "partida": mesa.partida_number or None,
        "turn_deadline": deadline,
        "seq": mesa.version,
    }


def hand_header(mesa: Mesa, info: HandInfo) -> dict[str, Any]:
    """What everybody learns when a hand is dealt: its number, leader and the commitment."""
    rounds = mesa.sorteo_rounds() if info.number == 1 else None
    return {
        "partida": mesa.partida_number,
        "number": info.number,
        "leader": info.leader,
        "commitment": info.commitment,
        "sorteo": (
            None
            if rounds is None
            else [[{"seat": s, "tile": name(t)} for s, t in r] for r in rounds]
        ),
    }


def hand_summary(
    partida: Partida, played: PlayedHand, info: HandInfo, partida_number: int
) -> dict[str, Any]:
    """A finished hand face up: the seed, the deal, every move, what each player was left
    with, the count and the rule that decided it, in Spanish and English."""
    rules = partida.rules
    out = hand_dump(played.deal, played.hand)
    out.update(
        partida=partida_number,
        number=info.number,
        seed=info.seed,
        commitment=info.commitment,
        revealed=[[name(t) for t in bits(h)] for h in played.hand.hands],
        score=played.score.to_json(rules.teams),
        explanation={
            "es": explain(rules, played.score, partida.players, "es"),
            "en": explain(rules, played.score, partida.players, "en"),
        },
        scores=list(played.scores),
    )
    return out


def partida_summary(mesa: Mesa) -> dict[str, Any] | None:
    partida = mesa.partida
    if partida is None:
        return None
    hands = [
        hand_summary(partida, played, info, mesa.partida_number)
        for played, info in zip(partida.played, mesa.hands, strict=False)
    ]
    return {
        "number": mesa.partida_number,
        "players": list(partida.players or ()),
        "rules": partida.rules.dump(),
        "scores": list(partida.scores),
        "sheet": [
            {"hand": h["number"], "gains": h["score"]["gains"], "scores": h["scores"]}
            for h in hands
        ],
        "hands": hands,
        "over": partida.over,
        "winner": partida.winner,
        "zapato": partida.zapato,
        "chancleta": partida.chancleta,
    }


def partida_end(mesa: Mesa, result: MoveResult) -> dict[str, Any]:
    partida = mesa.partida
    assert partida is not None
    return {
        "type": "partida_end",
        "seq": mesa.version,
        "partida": {
            "number": mesa.partida_number,
            "winner": partida.winner,
            "scores": list(partida.scores),
            "zapato": partida.zapato,
            "chancleta": partida.chancleta,
        },
        "rotation": [{"seat": seat, "up": up, "down": down} for seat, up, down in result.rotation],
    }


def record(mesa: Mesa) -> dict[str, Any]:
    """The partida's record (finished hands only), each hand with its seed and commitment."""
    partida = mesa.partida
    assert partida is not None
    out = dump(partida, {"mesa": mesa.code, "partida": mesa.partida_number})
    for hand, info in zip(out["hands"], mesa.hands, strict=False):
        hand["seed"] = info.seed
        hand["commitment"] = info.commitment
    return out


def json_text(message: dict[str, Any]) -> str:
    """Messages are encoded with orjson: at hundreds of moves a second, encoding views is a
    large share of the server's work."""
    return orjson.dumps(message).decode()
