"""The shapes of what clients send: HTTP bodies and WebSocket intentions, checked by pydantic.

Anything that does not fit becomes a ``FichaFlowError`` with a code and a Spanish text; nothing
here decides a rule of the game (the core does), only the shape of a message.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from fichaflow.core.errors import FichaFlowError
from fichaflow.http import parse_json

MAX_REF_LENGTH: Final = 64
MAX_REF_NUMBER: Final = 2**53 - 1
"""The largest ``ref`` number every client can hold exactly (a JavaScript number); the answers'
encoder could not even write one past 64 bits."""
Ref = Annotated[
    Annotated[str, Field(max_length=MAX_REF_LENGTH)]
    | Annotated[int, Field(ge=-MAX_REF_NUMBER, le=MAX_REF_NUMBER)]
    | None,
    Field(default=None),
]
Name = str
"""A person's name as typed: the core's name rule (``core.names.player_name``) decides, with its
own Spanish errors; the body's size limit bounds what arrives."""


QUICK_MIN_SECONDS: Final = 1
QUICK_MAX_SECONDS: Final = 120


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MesaOptions(Strict):
    """How a mesa runs, apart from the rules of the game."""

    turn_seconds: int | None = Field(default=None, ge=5, le=600)
    """Turn timer (off by default). When it runs out the server plays ``timeout_bot``'s choice
    for the seat and tells everybody so."""
    timeout_bot: str = "tirafichas"
    grace_seconds: int = Field(default=60, ge=0, le=3600)
    """How long a disconnected player's seat waits before the host may give it to a bot."""
    parados: bool = True
    """At a partida's end the losing side gets up and the first parados sit down."""
    bot_pause_ms: int = Field(default=800, ge=0, le=5000)
    """How long a bot waits before playing, so that people can follow the game."""
    auto_pass: bool = False
    """Paso automático: when a person's only move is to pass (nothing fits and no montón to
    draw from), the server passes for them after ``auto_pass_ms``, announced like any pass.
    Table behaviour, not a rule of the game: a pass is the only legal move either way, so the
    count, the record and the replay are the same with it on or off."""
    auto_pass_ms: int = Field(default=1000, ge=100, le=5000)
    """How long the table shows that seat's turn before passing for it."""
    public: bool = False
    """Listed in the public lobby (``/lobby``) for anyone to join; off, the mesa is reached only
    by its link, as always."""
    quick_seconds: int | None = Field(default=None, ge=QUICK_MIN_SECONDS, le=QUICK_MAX_SECONDS)
    """«Jugar ya»: this long after the mesa is made, the bots nearest in rating sit in its empty
    chairs and the partida starts (it starts at once when people fill every chair)."""
    rated: bool = False
    """The partidas count for the players' ratings: a partida starts only when every person
    at the mesa's chairs joined signed in (bots play at their fixed ratings)."""
    time_minutes: float | None = Field(default=None, gt=0, le=600)
    """Partida por tiempo (a torneo's by-time round sets it): this long after a partida
    started, the server calls time (``Partida.call_time``): the hand in play is finished and the
    higher score wins; a tie plays one more hand. Off: the partida plays to the rules' target."""


class CreateMesa(Strict):
    rules: str | dict[str, Any] = "dominicana"
    options: MesaOptions = MesaOptions()
    seats: list[str | None] | None = None
    """The seating plan: for each seat, a bot's name or null for a free chair."""
    name: Name | None = None
    """The host's name; with ``seat`` the host sits down at once."""
    seat: int | None = None


class Quick(Strict):
    """«Jugar ya»: a seat at a public mesa of ``mode`` near the player's rating, or a new one."""

    mode: Literal["parejas", "mano_a_mano", "tres"]
    name: Name
    wait_seconds: int = Field(default=20, ge=QUICK_MIN_SECONDS, le=QUICK_MAX_SECONDS)
    """How long to wait for people before bots fill the empty chairs (at a new mesa)."""


class Join(Strict):
    name: Name
    seat: int | None = None
    """A free seat to take; without it the person estar parado (joins the queue)."""


class Hello(Strict):
    type: Literal["hello"]
    code: str = Field(max_length=64)
    token: str | None = Field(default=None, max_length=128)
    turns: bool = False
    """The client rebuilds a hand's history from each move's ``turns`` (``docs/protocol.md``);
    without it each move brings the whole view, as before there were turns."""
    ref: Ref


class Play(Strict):
    type: Literal["play"]
    move: str = Field(max_length=16)
    ref: Ref


class Ready(Strict):
    """Ready for the hand after hand ``after`` of partida ``partida`` (once the mesa is past
    it, a late ready is ignored); the next hand is dealt when every connected player is ready."""

    type: Literal["ready"]
    after: int | None = None
    partida: int | None = None
    ref: Ref


class NextHand(Strict):
    """Host: deal the next hand without waiting for everybody to be ready."""

    type: Literal["next_hand"]
    ref: Ref


class Start(Strict):
    type: Literal["start"]
    ref: Ref


class Sit(Strict):
    type: Literal["sit"]
    seat: int
    ref: Ref


class Stand(Strict):
    type: Literal["stand"]
    ref: Ref


class Queue(Strict):
    type: Literal["queue"]
    ref: Ref


class Unqueue(Strict):
    type: Literal["unqueue"]
    ref: Ref


class SeatBot(Strict):
    """Host: put a bot in an empty seat, or in the seat of a player who has been away longer
    than the grace period."""

    type: Literal["seat_bot"]
    seat: int
    bot: str
    ref: Ref


class ClearSeat(Strict):
    type: Literal["clear_seat"]
    seat: int
    ref: Ref


class Reorder(Strict):
    type: Literal["reorder"]
    queue: list[int] = Field(max_length=64)
    ref: Ref


class Configure(Strict):
    type: Literal["configure"]
    rules: str | dict[str, Any] | None = None
    options: MesaOptions | None = None
    ref: Ref


class Say(Strict):
    """Table talk: a quick phrase by key, or free text (``talk.MAX_CHARS`` at most)."""

    type: Literal["say"]
    text: str | None = None
    phrase: str | None = Field(default=None, max_length=64)
    ref: Ref


class Block(Strict):
    """Stop (``on``) or start again (``on`` false) receiving person ``person``'s words."""

    type: Literal["block"]
    person: int
    on: bool = True
    ref: Ref


class Report(Strict):
    """Report the saying ``id`` of the mesa's talk (stored for whoever moderates)."""

    type: Literal["report"]
    id: int
    ref: Ref


class Ping(Strict):
    type: Literal["ping"]
    ref: Ref


Intention = Annotated[
    Hello
    | Play
    | Ready
    | NextHand
    | Start
    | Sit
    | Stand
    | Queue
    | Unqueue
    | SeatBot
    | ClearSeat
    | Reorder
    | Configure
    | Say
    | Block
    | Report
    | Ping,
    Field(discriminator="type"),
]
INTENTION: TypeAdapter[Intention] = TypeAdapter(Intention)
TYPES = (
    "hello", "play", "ready", "next_hand", "start", "sit", "stand", "queue", "unqueue", "seat_bot",
    "clear_seat", "reorder", "configure", "say", "block", "report", "ping",
)  # fmt: skip


def read_intention(text: str) -> Intention:
    """One client message, or the FichaFlowError that says what is wrong with it."""
    try:
        data = parse_json(text)
    except ValueError:
        raise FichaFlowError("server.bad_json") from None
    if not isinstance(data, dict):
        raise FichaFlowError("server.bad_json")
    kind = data.get("type")
    if kind not in TYPES:
        raise FichaFlowError("server.unknown_type", type=str(kind)[:32], allowed=", ".join(TYPES))
    try:
        return INTENTION.validate_python(data)
    except ValidationError as exc:
        raise shape_error(exc, str(kind)) from None


def shape_error(exc: ValidationError, what: str) -> FichaFlowError:
    """The first problem pydantic found, as a Spanish error that names the field."""
    first = exc.errors()[0]
    field = ".".join(str(p) for p in first["loc"] if p != what) or what
    problem = first["type"]
    if problem == "missing":
        return FichaFlowError("server.missing_field", what=what, field=field)
    if problem == "extra_forbidden":
        return FichaFlowError("server.extra_field", what=what, field=field)
    return FichaFlowError("server.bad_field", what=what, field=field)


def ref_of(text: str) -> str | int | None:
    """The ``ref`` a client put in a message, echoed in the error even when the message is bad;
    None when there is none, or none that :data:`Ref` allows."""
    try:
        data = parse_json(text)
    except (ValueError, FichaFlowError):
        return None
    ref = data.get("ref") if isinstance(data, dict) else None
    if isinstance(ref, str) and len(ref) <= MAX_REF_LENGTH:
        return ref
    if isinstance(ref, int) and not isinstance(ref, bool) and abs(ref) <= MAX_REF_NUMBER:
        return ref
    return None
