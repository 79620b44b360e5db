"""What the server sends: plain JSON objects built from the mesa and the core's own views.

A player's picture of a hand is always ``core.view.seat_view`` for their seat (``None`` for
mirones); the only other tiles any message names are those of hands that have ended.

Every message and HTTP answer has a named shape here (``docs/protocol.md`` in types). They are
``TypedDict``s, not pydantic models, on purpose: messages go out at every move, and a typed dict
costs nothing over the plain dict orjson encodes (validating pydantic models of the views would
more than double the time spent telling a move; see ``bench/views_speed.py``). The HTTP endpoints
declare the same types as their answers, so pydantic checks those at the edge and the OpenAPI
document shows them. (``typing_extensions.TypedDict``: pydantic reads it on Python 3.11.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal, NotRequired, cast

import orjson
from typing_extensions import TypedDict

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.explain import explain
from fichaflow.core.partida import Partida, PlayedHand
from fichaflow.core.record import dump, hand_dump
from fichaflow.core.tiles import bits, name
from fichaflow.core.view import HandMemo, TurnJson, ViewJson, ViewStateJson, seat_views_json
from fichaflow.http import ErrorMessage, error_body
from fichaflow.server.mesa import HandInfo, Mesa, MesaStatus, MoveResult
from fichaflow.server.talk import Blocked, ChatMessage, Reported

Ref = str | int | None
"""The ``ref`` a client put in its message, echoed in the error it caused."""

JsonObject = dict[str, Any]
"""A JSON object whose keys the core documents (rules as records write them, a hand's score)."""

NODE_PARAM = "node"
"""The query parameter of a mesa's WebSocket naming the server that holds it (``/ws?node=…``, as
the ``node`` of a join or a welcome says): a balancer that knows the servers by these names sends
the connection straight there (``deploy/haproxy.cfg``), so that no second server pipes its
frames. A hint only: a server it does not name, or that holds the mesa no longer, pipes the
connection to the holder as it would any other, and the servers themselves never read it."""


# -- objects -------------------------------------------------------------------------------------


class Who(TypedDict):
    """A person by id and name (the queue, the host)."""

    id: int
    name: str


class SeatState(TypedDict):
    seat: int
    name: str | None
    person: int | None
    bot: str | None
    kind: Literal["human", "bot", "empty"]
    substitute: bool
    connected: bool
    away_seconds: int | None
    ready: bool
    signed_in: bool
    """The person at the chair joined with their account (a rated mesa needs it of all)."""


class Clock(TypedDict):
    """A partida played by time: when its time is up (Unix time in milliseconds) and whether
    time has been called."""

    ends_at: float
    time_up: bool


class MesaState(TypedDict):
    """Everything public about a mesa (the protocol's **Mesa**)."""

    code: str
    rules: JsonObject
    rule_options: JsonObject
    idle_options: list[str]
    options: JsonObject
    seats: list[SeatState]
    queue: list[Who]
    host: Who | None
    status: MesaStatus
    partida: int | None
    turn_deadline: float | None
    clock: Clock | None
    """The partida's clock at a mesa that plays by time; None otherwise."""
    seq: int
    mirones: list[str | None]
    """The first ``MIRONES_SHOWN`` of those watching: names first, null for each anonymous one."""
    mirones_count: int
    """How many watch."""


class SorteoTile(TypedDict):
    seat: int
    tile: str


class HandHeader(TypedDict):
    partida: int
    number: int
    leader: int
    commitment: str
    sorteo: list[list[SorteoTile]] | None


class RecordHand(TypedDict):
    """One hand as a record writes it (``core.record.hand_dump``; ``docs/records.md``)."""

    deal: list[list[str]]
    stock: NotRequired[list[str]]
    leader: int
    moves: list[str]


class Explanation(TypedDict):
    es: list[str]
    en: list[str]


class HandSummary(RecordHand):
    """A finished hand face up: the record's hand, then how it was dealt and scored."""

    partida: int
    number: int
    seed: str
    commitment: str
    revealed: list[list[str]]
    score: JsonObject
    explanation: Explanation
    scores: list[int]


class SheetLine(TypedDict):
    hand: int
    gains: list[int]
    scores: list[int]


class PartidaSummary(TypedDict):
    number: int
    players: list[str]
    rules: JsonObject
    scores: list[int]
    sheet: list[SheetLine]
    hands: list[HandSummary]
    over: bool
    winner: int | None
    zapato: bool
    chancleta: bool


class PartidaResult(TypedDict):
    number: int
    winner: int | None
    scores: list[int]
    zapato: bool
    chancleta: bool


class Rotation(TypedDict):
    """A chair that changed at a partida's end: who got up and who sat down (None: a bot)."""

    seat: int
    up: int | None
    down: int | None


class MoveDone(TypedDict):
    seat: int
    move: str
    timed_out: bool


class You(TypedDict):
    id: int
    name: str
    seat: int | None
    host: bool
    queued: bool


class SeededHand(RecordHand):
    seed: str
    commitment: str


class TimeUp(TypedDict):
    hand: int
    moves: int


class PartidaRecord(TypedDict):
    """A partida's record (``docs/records.md``), each hand with its seed and commitment."""

    rules: JsonObject
    players: NotRequired[list[str]]
    hands: list[SeededHand]
    time_up: TimeUp | None
    """Where time was called in a partida played by time (``docs/records.md``); null else."""
    meta: NotRequired[JsonObject]


# -- messages (server to client over the WebSocket) ----------------------------------------------


class Welcome(TypedDict):
    type: Literal["welcome"]
    seq: int
    role: Literal["player", "miron"]
    you: You | None
    mesa: MesaState
    partida: PartidaSummary | None
    hand: HandHeader | None
    view: ViewJson | None
    chat: list[ChatMessage]
    """The recent talk this connection may hear (``server/talk.py``), oldest first."""
    blocked: list[int]
    """The people this connection's person has blocked."""
    node: str | None
    """The server holding the mesa (its ``--node``; None for a server alone): see
    :data:`NODE_PARAM`."""


class MesaMessage(TypedDict):
    type: Literal["mesa"]
    seq: int
    mesa: MesaState


class MironesMessage(TypedDict):
    """Who watches, after a mirón came or went: the mesa state's two fields, nothing more."""

    type: Literal["mirones"]
    seq: int
    mirones: list[str | None]
    mirones_count: int


class HandStart(TypedDict):
    type: Literal["hand_start"]
    seq: int
    hand: HandHeader
    turn_deadline: float | None
    view: ViewJson | None


class MoveMessage(TypedDict):
    """A move that did not end the hand. To a connection whose hello asked for ``turns``, its
    ``view`` leaves the history out: ``turns`` are what the move added to it (the move, and any
    draws that followed), from ``turns_from`` on, as the receiver sees them; the receiver holds
    the turns before. To any other, the whole view."""

    type: Literal["move"]
    seq: int
    move: MoveDone
    turn_deadline: float | None
    turns_from: NotRequired[int]
    turns: NotRequired[list[TurnJson]]
    view: ViewJson | ViewStateJson | None


class HandEnd(TypedDict):
    type: Literal["hand_end"]
    seq: int
    move: MoveDone
    hand: HandSummary
    view: ViewJson | None


class RatingChange(TypedDict):
    """One seat's rating before and after a rated partida, as a player reads it (a bot's does
    not move)."""

    seat: int
    name: str
    bot: bool
    before: int
    after: int
    change: int
    provisional: bool


class PartidaEnd(TypedDict):
    type: Literal["partida_end"]
    seq: int
    partida: PartidaResult
    rotation: list[Rotation]
    ratings: list[RatingChange] | None
    """A rated partida's rating changes, seat by seat (None: the partida was not rated)."""


class Status(TypedDict):
    """Whether this server reaches what it needs to go on (Redis, in a cluster): while not,
    bots' turns wait and the page says it is reconnecting; people's moves go on."""

    type: Literal["status"]
    ok: bool
    waiting_for: list[str]


class Pong(TypedDict):
    type: Literal["pong"]
    ref: Ref


Message = (
    Welcome
    | MesaMessage
    | MironesMessage
    | HandStart
    | MoveMessage
    | HandEnd
    | PartidaEnd
    | Status
    | ChatMessage
    | Blocked
    | Reported
    | ErrorMessage
    | Pong
)
"""Every message the server sends on the WebSocket."""

PerSeat = Callable[[ViewJson | None], Message]
"""A message that carries the receiver's own view, built for each view."""


# -- HTTP answers --------------------------------------------------------------------------------


class Health(TypedDict):
    ok: bool
    mesas: int


class BotsOffered(TypedDict):
    bots: list[str]
    ratings: dict[str, dict[str, int]]
    """Each offered bot's fixed rating, mode by mode, where it was measured (docs/ratings.md)."""


class CreatedMesa(TypedDict):
    code: str
    join_url: str
    token: str
    person: int
    seat: int | None
    mesa: MesaState
    node: str | None
    """The server holding the mesa (None for a server alone): see :data:`NODE_PARAM`."""


class Joined(TypedDict):
    code: str
    token: str
    person: int
    seat: int | None
    queued: bool
    node: str | None
    """The server holding the mesa (None for a server alone): see :data:`NODE_PARAM`."""


class MesaPublic(TypedDict):
    mesa: MesaState
    partida: PartidaSummary | None


# -- building them -------------------------------------------------------------------------------


def error(exc: FichaFlowError, ref: Ref = None) -> ErrorMessage:
    """An error as the WebSocket sends it: the same shape as every HTTP error."""
    return error_body(exc, ref)


def view(mesa: Mesa, seat: int | None) -> ViewJson | None:
    """The seat's view of the hand in play (or of the last hand, face up), None before any."""
    return views(mesa, (seat,))[seat]


def views(
    mesa: Mesa, seats: Iterable[int | None], memo: HandMemo | None = None
) -> dict[int | None, ViewJson | None]:
    """:func:`view` for several seats at once, what they see alike written only once (with
    ``memo``, kept from move to move, the public history once for the whole hand)."""
    seats = tuple(seats)
    seen = seat_views_json(mesa.partida, seats, memo) if mesa.partida is not None else {}
    return {seat: seen.get(seat) for seat in seats}


def move_message(
    seq: int,
    move: MoveDone,
    deadline: float | None,
    view: ViewJson | None,
    turns_from: int | None = None,
) -> MoveMessage:
    """The ``move`` message with the receiver's ``view``: whole, or, given ``turns_from`` (the
    turns its view held before the move), without the history and with the turns added since
    (a move's message then stays a few hundred bytes however long the hand)."""
    message: MoveMessage = {
        "type": "move",
        "seq": seq,
        "move": move,
        "turn_deadline": deadline,
        "view": view,
    }
    if turns_from is not None:
        message["turns_from"] = turns_from
        message["turns"] = [] if view is None else view["history"][turns_from:]
        state = None if view is None else {k: v for k, v in view.items() if k != "history"}
        message["view"] = cast(ViewStateJson | None, state)
    return message


def mesa_state(
    mesa: Mesa,
    online: set[int],
    away: Mapping[int, int],
    deadline: float | None,
    mirones: tuple[list[str | None], int],
) -> MesaState:
    """Everything public about the mesa: chairs, who is connected, the parados, the options.
    ``away`` gives, for each absent person, how many seconds they have been gone; ``mirones``
    the first few of those watching and how many they are."""
    seats: list[SeatState] = []
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
                "signed_in": person is not None and person.account is not None,
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
        "clock": clock_of(mesa),
        "seq": mesa.version,
        "mirones": mirones[0],
        "mirones_count": mirones[1],
    }


def clock_of(mesa: Mesa) -> Clock | None:
    ends = mesa.time_ends
    if ends is None or mesa.partida is None:
        return None
    return {"ends_at": ends, "time_up": mesa.partida.time_up is not None}


def hand_header(mesa: Mesa, info: HandInfo) -> HandHeader:
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


def _record_hand(data: dict[str, Any]) -> RecordHand:
    """The core writes records as plain JSON objects (``docs/records.md`` is their contract);
    here a hand's object is given its name."""
    return cast(RecordHand, data)


def hand_summary(
    partida: Partida, played: PlayedHand, info: HandInfo, partida_number: int
) -> HandSummary:
    """A finished hand face up: the seed, the deal, every move, what each player was left
    with, the count and the rule that decided it, in Spanish and English."""
    rules = partida.rules
    return {
        **_record_hand(hand_dump(played.deal, played.hand)),
        "partida": partida_number,
        "number": info.number,
        "seed": info.seed,
        "commitment": info.commitment,
        "revealed": [[name(t) for t in bits(h)] for h in played.hand.hands],
        "score": played.score.to_json(rules.teams),
        "explanation": {
            "es": explain(rules, played.score, partida.players, "es"),
            "en": explain(rules, played.score, partida.players, "en"),
        },
        "scores": list(played.scores),
    }


def partida_summary(mesa: Mesa) -> PartidaSummary | None:
    partida = mesa.partida
    if partida is None:
        return None
    hands = [
        hand_summary(partida, played, info, mesa.partida_number)
        for played, info in zip(partida.played, mesa.hands, strict=False)
    ]
    teams = partida.rules.teams
    return {
        "number": mesa.partida_number,
        "players": list(partida.players or ()),
        "rules": partida.rules.dump(),
        "scores": list(partida.scores),
        "sheet": [
            {
                "hand": h["number"],
                "gains": list(played.score.gains(teams)),
                "scores": h["scores"],
            }
            for h, played in zip(hands, partida.played, strict=False)
        ],
        "hands": hands,
        "over": partida.over,
        "winner": partida.winner,
        "zapato": partida.zapato,
        "chancleta": partida.chancleta,
    }


def partida_end(
    mesa: Mesa, result: MoveResult, ratings: list[RatingChange] | None = None
) -> PartidaEnd:
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
        "ratings": ratings,
    }


def record(mesa: Mesa) -> PartidaRecord:
    """The partida's record (finished hands only), each hand with its seed and commitment."""
    partida = mesa.partida
    assert partida is not None
    out = dump(partida, {"mesa": mesa.code, "partida": mesa.partida_number})
    hands: list[SeededHand] = []
    for hand, info in zip(out["hands"], mesa.hands, strict=False):
        hands.append({**_record_hand(hand), "seed": info.seed, "commitment": info.commitment})
    out["hands"] = hands
    out.setdefault("time_up", None)
    return cast(PartidaRecord, out)


def json_text(message: Message) -> str:
    """Messages are encoded with orjson: at hundreds of moves a second, encoding views is a
    large share of the server's work."""
    return orjson.dumps(message).decode()
