"""The WebSocket fuzzer: hypothesis writes messages of every type, well and badly made, in and
out of turn, for the host, the other players, a parado, a mirón and a stranger at a real mesa of
a real server, and after each message checks:

- the answer: the error a model of the protocol expects (who may do what, and when; the shape
  errors of the server's own parser), always a code docs/protocol.md lists, with its Spanish text
  and its ``ref``, on a connection that stays open (but for the two limits that close it); or,
  when the message is accepted, its effect (the chair taken, the move told, ...). A message the
  model says must be refused is never accepted, and a legal move is never refused;
- a refusal changed nothing: the mesa's state and ``seq`` are as before, but for who is connected;
- the server answers ``/api/health``;
- no message to any connection names a tile its seat may not see (the test server deals known
  hands: ``known_deal``), a seat's view is its own, and every move of a seat was in its ``legal``;
- every hand that ended is in its partida's record, which replays through the rules engine (a
  won partida also passes ``verify``).

Hypothesis draws each example's steps up front, as plans that do not depend on the mesa ("a legal
move, the third one", "the queue shuffled"); the fuzzer makes each into a message for the mesa as
it is when its turn comes. One example is one new mesa. The quick set sends a few hundred
messages; the slow run (CI) at least 10,000, and prints how many, how fast and what they met.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Final

import httpx
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from fichaflow.bots.ladder import PLAYER_BOTS
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.rules import PRESETS, Rules
from fichaflow.core.tiles import name
from fichaflow.server import protocol as p
from fichaflow.server.settings import MAX_MESSAGE_BYTES, MAX_MESSAGES_PER_SECOND
from tests.fuzz.kit import (
    Socket,
    check_record,
    is_documented,
    knowable,
    leaked,
    tiles_in,
    tiles_in_error,
)
from tests.server.kit import (
    POSTGRES_ENV,
    TEST_SEED,
    ServerProcess,
    known_deal,
    postgres_schema_url,
)

QUICK_MESSAGES: Final = 150
SLOW_MESSAGES: Final = 10_000
POSTGRESQL_MESSAGES: Final = 2_000
STEPS: Final = 100
"""Messages per mesa (an example)."""
FAST_BOTS: Final = ("tirafichas", "tirapuntos", "acuestafichas")
HOST_ONLY: Final = {"next_hand", "start", "seat_bot", "clear_seat", "reorder", "configure"}
ACCEPT: Final = "accepted"
ANY: Final = "any documented answer"
HELLO_TIMEOUT: Final = "server.hello_timeout"
"""What a socket gets that says no good hello within 10 s, before it is closed: a stranger's
socket meets it when its mesa is played long enough."""
"""What the model expects of a message: ``ACCEPT``, ``ANY`` (it cannot tell) or an error code."""


@dataclass(frozen=True)
class Table:
    rules: dict[str, Any]
    plan: tuple[str | None, ...]
    grace_seconds: int = 60


TABLES: Final = (
    Table({"preset": "mano_a_mano", "target": 10}, (None, None)),
    Table({"preset": "mano_a_mano", "target": 10}, (None, "tirafichas"), grace_seconds=0),
    Table({"preset": "tres", "target": 10}, (None, None, None)),
    Table({"preset": "venezuela", "target": 20}, (None, None, None, None)),
    Table(
        {"preset": "dominicana", "target": 20, "first_lead": "sorteo"},
        (None, "tirapuntos", None, None),
    ),
)
PEOPLE: Final = ("host", "seat1", "seat2", "seat3", "parado", "miron", "stranger")
"""Who sends (the seats a table lacks are left out when it is made)."""


# -- plans: what hypothesis draws --------------------------------------------------------------


@dataclass(frozen=True)
class Pick:
    """The ``n``-th (modulo) of what the mesa offers when the step comes: a known move or tile,
    this mesa's tokens, its people's ids."""

    what: str
    n: int


@dataclass(frozen=True)
class Shuffled:
    """The mesa's queue as it is then, shuffled by ``seed``."""

    seed: int


THIS: Final = Pick("code", 0)
THIS_NUL: Final = Pick("code", 1)
THIS_LOWER: Final = Pick("code", 2)
ELSEWHERE: Final = Pick("code", 3)


@dataclass(frozen=True)
class Step:
    """One message to come: ``kind`` says what (``progress`` moves the game on: a legal move, a
    ready, a free chair filled, a start), ``who`` sends it (an index into the people), ``body``
    is its content with :class:`Pick` and :class:`Shuffled` standing for the mesa's things."""

    kind: str
    who: int = 0
    pick: int = 0
    body: Any = None


HUGE = st.sampled_from([2**31, 2**53, 2**63, 2**64, -(2**64), 10**40, -1])
JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    HUGE,
    st.floats(),
    st.text(max_size=8),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)
TILE_TEXT = st.builds("{}-{}".format, st.integers(0, 6), st.integers(0, 6))
NOTATION = st.builds(str.__add__, TILE_TEXT, st.sampled_from(["", ":left", ":right", ":up"]))
ODD_MOVES = st.sampled_from(
    ["pass", "draw", "PASS", " pass", "7-7", "6-", "-1-2", "6-4:left:right", "6—4", "６-４",
     "6-4 ", "", "0-0:left", "\x00", "6-4\x00", "ñ", "6-4:LEFT"]
)  # fmt: skip
MOVES = st.one_of(
    st.builds(Pick, st.just("move"), st.integers(0, 50)),
    NOTATION,
    ODD_MOVES,
    st.text(max_size=16),
    st.text(min_size=17, max_size=30),
)
REF = st.one_of(
    st.just(Pick("ref", 0)),  # the fuzzer's own, "f<count>"
    st.just(Pick("ref", 0)),
    st.just(Pick("ref", 1)),  # no ref at all
    st.text(max_size=64),
    st.integers(-(2**53) + 1, 2**53 - 1),
    st.one_of(st.text(min_size=65, max_size=70), st.integers(), HUGE, JUNK),  # refused
)
SEATS = st.one_of(st.integers(0, 3), st.integers(-2, 6), HUGE, JUNK)
PERSON = st.builds(Pick, st.just("person"), st.integers(0, 10))


def rules_values() -> st.SearchStrategy[Any]:
    names = sorted(PRESETS)
    return st.one_of(
        st.sampled_from(names),
        st.fixed_dictionaries({"preset": st.sampled_from(names), "target": st.integers(1, 30)}),
        st.fixed_dictionaries(
            {"preset": st.sampled_from(names)},
            optional={
                "target": st.one_of(st.integers(), HUGE, JUNK),
                "first_lead": st.sampled_from(["sorteo", "doble_seis", "doble_mayor", "x"]),
                "capicua_bonus": st.one_of(st.integers(-5, 2000), JUNK),
                "nope": JUNK,
            },
        ),
        st.dictionaries(st.text(max_size=6), JUNK, max_size=3),
        JUNK,
    )


def options_values() -> st.SearchStrategy[Any]:
    # No valid turn timer: a timer plays by itself, and the model could not tell what changed.
    good = st.fixed_dictionaries(
        {},
        optional={
            "bot_pause_ms": st.sampled_from([0, 5]),
            "grace_seconds": st.sampled_from([0, 60, 3600]),
            "parados": st.booleans(),
            "timeout_bot": st.sampled_from(FAST_BOTS),
            "turn_seconds": st.none(),
        },
    )
    bad = st.fixed_dictionaries(
        {},
        optional={
            "bot_pause_ms": st.one_of(st.integers(-10, -1), st.integers(5001, 10**6), JUNK),
            "grace_seconds": st.one_of(st.integers(3601), JUNK),
            "turn_seconds": st.one_of(st.integers(-1, 4), st.integers(601), JUNK),
            "timeout_bot": st.one_of(st.text(max_size=12), JUNK),
            "parados": JUNK,
            "other": JUNK,
        },
    )
    return st.one_of(good, good, bad, JUNK)


FIELDS: Final[dict[str, st.SearchStrategy[Any]]] = {
    "move": MOVES,
    "seat": SEATS,
    "bot": st.one_of(st.sampled_from(FAST_BOTS), st.sampled_from(PLAYER_BOTS), JUNK),
    "queue": st.one_of(
        st.builds(Shuffled, st.integers(0, 2**16)),
        st.lists(PERSON, max_size=4),
        st.lists(st.integers(-1, 9), max_size=5),
        st.lists(st.integers(), min_size=65, max_size=70),
        JUNK,
    ),
    "rules": rules_values(),
    "options": options_values(),
    "after": st.one_of(st.integers(0, 6), HUGE, JUNK),
    "partida": st.one_of(st.integers(0, 3), HUGE, JUNK),
}
SHAPES: Final[dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    "play": (("move",), ()),
    "ready": ((), ("after", "partida")),
    "next_hand": ((), ()),
    "start": ((), ()),
    "sit": (("seat",), ()),
    "stand": ((), ()),
    "queue": ((), ()),
    "unqueue": ((), ()),
    "seat_bot": (("seat", "bot"), ()),
    "clear_seat": (("seat",), ()),
    "reorder": (("queue",), ()),
    "configure": ((), ("rules", "options")),
    "ping": ((), ()),
}
"""Every intention but hello: its required and optional fields."""


@st.composite
def intentions(draw: st.DrawFn) -> dict[str, Any]:
    """An intention of any type, usually well made, sometimes missing a field, with one too
    many, with a field of the wrong kind, or of no type at all."""
    kind = draw(st.sampled_from(sorted(SHAPES)))
    required, optional = SHAPES[kind]
    message: dict[str, Any] = {"type": kind}
    for key in required:
        message[key] = draw(FIELDS[key])
    for key in optional:
        if draw(st.booleans()):
            message[key] = draw(FIELDS[key])
    spoil = draw(st.sampled_from(["none"] * 6 + ["drop", "extra", "junk", "type"]))
    if spoil == "drop" and required:
        del message[draw(st.sampled_from(required))]
    elif spoil == "extra":
        message[draw(st.sampled_from(["extra", "seat", "token", "code", "move"]))] = draw(JUNK)
    elif spoil == "junk" and len(message) > 1:
        message[draw(st.sampled_from(sorted(set(message) - {"type"})))] = draw(JUNK)
    elif spoil == "type":
        message["type"] = draw(st.one_of(st.text(max_size=12), JUNK, st.just("PLAY")))
    return message


HELLOS = st.fixed_dictionaries(
    {
        "type": st.just("hello"),
        "code": st.one_of(
            st.just(THIS),
            st.just(THIS),
            st.just(ELSEWHERE),
            st.just(THIS_NUL),
            st.just(THIS_LOWER),
            st.text(max_size=20),
            st.text(min_size=33, max_size=70),
        ),
    },
    optional={
        "token": st.one_of(
            st.builds(Pick, st.just("token"), st.integers(0, 10)),
            st.just(Pick("token", -1)),  # the other mesa's host's
            st.text(max_size=40),
            st.text(min_size=129, max_size=140),
            st.none(),
        )
    },
)


def raw_frames() -> st.SearchStrategy[str | bytes]:
    """Frames no well-meaning client sends."""
    deep = st.integers(2, 2000).map(lambda n: '{"type": "ping", "ref": ' + "[" * n + "]" * n + "}")
    return st.one_of(
        st.text(max_size=40),
        st.sampled_from(["[]", "1", "null", '"ping"', "true", "{}", "NaN", '{"type": null}']),
        st.sampled_from(
            [
                '{"type": "ping", "type": "play"}',
                '{"type": "play", "move": "\\ud800"}',
                '{"type": "hello", "code": "ab\\u0000cd"}',
                '{"type": "sit", "seat": 1e999}',
                '{"type": "ready", "after": ' + "9" * 4000 + "}",
                '{"type": "ping", "ref": ' + "9" * 30 + "}",
                '{"type": "ping", "ref": -0.0}',
                '{"type": "ping"',
            ]
        ),
        deep,
        st.binary(max_size=40),
        st.builds(lambda n: json.dumps({"type": "ping", "ref": "x" * n}), st.integers(4070, 5000)),
        st.just(json.dumps({"type": "ping", "ref": "b"}).encode()),
    )


WHO = st.integers(0, len(PEOPLE) - 1)
STEP = st.one_of(
    # the game moves on in about half the steps: hands and partidas get played to their end
    st.builds(Step, st.just("progress"), WHO, st.integers(0, 50)),
    st.builds(Step, st.just("progress"), WHO, st.integers(0, 50)),
    st.builds(Step, st.just("progress"), WHO, st.integers(0, 50)),
    st.builds(Step, st.just("intention"), WHO, st.just(0), intentions()),
    st.builds(Step, st.just("intention"), WHO, st.just(0), intentions()),
    st.builds(Step, st.just("play"), WHO, st.just(0), MOVES),
    st.builds(Step, st.just("hello"), WHO, st.just(0), HELLOS),
    st.builds(Step, st.just("raw"), WHO, st.just(0), raw_frames()),
    st.builds(Step, st.just("reconnect"), WHO),
    st.builds(Step, st.just("flood"), WHO),
)
REFS = st.lists(REF, min_size=STEPS, max_size=STEPS)


# -- one mesa ------------------------------------------------------------------------------------


@dataclass
class World:
    """One server for the module, and what every mesa adds up."""

    server: ServerProcess
    loop: asyncio.AbstractEventLoop
    http: httpx.AsyncClient
    elsewhere: str  # another mesa's code, for hellos that leave
    elsewhere_token: str
    sent: int = 0
    mesas: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    answers: Counter[str] = field(default_factory=Counter)
    records: int = 0
    verified: int = 0
    last: dict[str, dict[str, Any]] = field(default_factory=dict)  # each mesa's state at the end


@dataclass(eq=False)
class Conn:
    """One fuzzing client: who it is (its token's person), and its current socket."""

    label: str
    token: str | None
    person: int | None
    socket: Socket | None = None
    at: str | None = None  # the mesa it said hello to last
    as_person: int | None = None  # the person that hello named (None: a mirón)
    checked: int = 0  # messages of its socket already checked
    told_person: int | None = None  # who its last welcome said it is
    greeted: bool = False  # its socket was welcomed once at least
    partida: int = 0  # the partida its messages are about
    seat: int | None = None  # its seat, as the messages it got so far say
    last_live: dict[str, Any] | None = None  # the view of the hand in play it got last
    sent_text: str = ""  # what it sent last (an error may name the tiles it named)


class MesaFuzz:
    """One mesa, its people connected, and the steps sent to it one at a time."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.conns: list[Conn] = []
        self.observer: Socket | None = None
        self.state: dict[str, Any] = {}
        self.code = ""
        self.tokens: dict[str, int] = {}  # this mesa's tokens -> person
        self.records_seen = 0  # observer messages already looked at for ended hands
        self.flooded = False
        self.trail: list[str] = []  # what was sent, for the failure's story
        self.unchanged: list[tuple[str, dict[str, Any]]] = []  # refused: (what, state before)
        self.expect_state: list[tuple[str, Any, int | None]] = []  # accepted, see _check_effects

    # -- the mesa --------------------------------------------------------------------------

    async def open(self, table: Table) -> None:
        http = self.world.http
        options = {"bot_pause_ms": 0, "grace_seconds": table.grace_seconds}
        body: dict[str, Any] = {"rules": table.rules, "seats": list(table.plan), "options": options}
        created = (await http.post("/api/mesas", json={**body, "name": "Ana", "seat": 0})).json()
        self.code = created["code"]
        self.world.mesas += 1
        self.conns.append(Conn("host", created["token"], created["person"]))
        for seat, bot in enumerate(table.plan):
            if seat and bot is None:
                body = {"name": f"P{seat}", "seat": seat}
                joined = (await http.post(f"/api/mesas/{self.code}/join", json=body)).json()
                self.conns.append(Conn(f"seat{seat}", joined["token"], joined["person"]))
        queued = (await http.post(f"/api/mesas/{self.code}/join", json={"name": "Pía"})).json()
        self.conns.append(Conn("parado", queued["token"], queued["person"]))
        self.conns += [Conn("miron", None, None), Conn("stranger", None, None)]
        self.tokens = {c.token: c.person for c in self.conns if c.token and c.person}
        self.observer = Socket(self.world.server, self.code)
        await self.observer.connect()
        self.state = await self._settle()
        for conn in self.conns:
            await self._connect(conn, counted=False)
        self.state = await self._settle()

    async def _connect(self, conn: Conn, counted: bool = True) -> None:
        """A new socket for ``conn``: its hello (but a stranger's), answered before going on."""
        conn.socket = Socket(self.world.server, self.code, conn.token)
        conn.checked = 0
        conn.at = conn.as_person = conn.told_person = conn.seat = conn.last_live = None
        conn.greeted = False
        await conn.socket.open()
        if conn.label != "stranger":
            hello = {"type": "hello", "code": self.code, "token": conn.token}
            await self._exchange(conn, json.dumps(hello), counted)

    async def close(self) -> None:
        """The last partida's record replays; everybody leaves."""
        if self.state:
            self.world.last[self.code] = self.state
        partida = self.state.get("partida")
        if partida is not None:
            await self._check_record(partida["number"], partida["over"])
        for conn in self.conns:
            if conn.socket is not None:
                await conn.socket.close()
        if self.observer is not None:
            await self.observer.close()

    # -- a step ----------------------------------------------------------------------------

    async def step(self, step: Step, ref: Any) -> None:
        conn = self._who(step.who)
        kind = step.kind
        message: dict[str, Any] | str | bytes = ""
        if kind == "progress":
            conn, progress = self._progress(step)
            kind = f"progress: {progress.get('type', 'ping')}"
            message = progress or {"type": "ping"}  # nothing to move on: a ping
        elif kind in ("intention", "play", "hello"):
            body = {"type": "play", "move": step.body} if kind == "play" else step.body
            concrete = self._concrete(body)
            elsewhere = (self.world.elsewhere, self.world.elsewhere_token)
            if kind == "hello" and (concrete["code"], concrete.get("token")) == elsewhere:
                concrete["token"] = None  # the other mesa's host plays no part here
            message = concrete
        elif kind == "raw":
            message = step.body
        if kind == "flood" and self.flooded:
            kind = "reconnect"  # one flood a mesa is plenty
        if isinstance(message, dict) and ref != Pick("ref", 1):
            message["ref"] = f"f{self.world.sent}" if ref == Pick("ref", 0) else ref
        self.world.kinds[kind] += 1
        if conn.socket is None or conn.socket.closed.is_set() or kind == "reconnect":
            self.trail.append(f"{conn.label} reconnects")
            await self._reconnect(conn)
        elif kind == "flood":
            self.flooded = True
            self.trail.append(f"{conn.label} floods")
            await self._flood(conn)
        else:
            data = json.dumps(message) if isinstance(message, dict) else message
            await self._exchange(conn, data)
        self.state = await self._settle()

    def _who(self, index: int) -> Conn:
        label = PEOPLE[index]
        return next((c for c in self.conns if c.label == label), self.conns[index % 2])

    def _progress(self, step: Step) -> tuple[Conn, dict[str, Any]]:
        """What a well-behaved table does now: the player to move plays a legal move; after a
        hand, a seated player says ready (or the host deals); between partidas, an empty chair
        is filled, the host starts, changes the rules, clears a chair or reorders the queue,
        a person stands up, joins or leaves the queue. ``{}`` when nobody can."""
        mesa, pick = self.state["mesa"], step.pick
        status, seats = mesa["status"], mesa["seats"]
        host = self._host()
        to_move = self._to_move()
        if to_move is not None:
            conn, view = to_move
            return conn, {"type": "play", "move": view["legal"][pick % len(view["legal"])]}
        unready = self._unready()
        if status == "hand_over" and host is not None and (pick % 4 == 0 or not unready):
            return host, {"type": "next_hand"}
        if status == "hand_over" and unready:
            view = self.observer_view() or {}
            ready = {"type": "ready", "partida": mesa["partida"], "after": view.get("hand_number")}
            return unready[pick % len(unready)], ready
        if status not in ("waiting", "partida_over") or host is None:
            return self._who(step.who), {}
        empty = [s["seat"] for s in seats if s["kind"] == "empty"]
        people = [c for c in self.conns if self.here(c) and c.as_person is not None]
        standing = [c for c in people if self.seat_of(c.as_person) is None]
        queue = [q["id"] for q in mesa["queue"]]
        choice = pick % 6
        if empty and choice < 3:
            seat = empty[pick % len(empty)]
            if standing and pick % 2:
                return standing[pick % len(standing)], {"type": "sit", "seat": seat}
            bot = FAST_BOTS[pick % len(FAST_BOTS)]
            return host, {"type": "seat_bot", "seat": seat, "bot": bot}
        if choice == 1:
            same = [n for n, r in PRESETS.items() if r.seats == len(seats)]
            rules = {"preset": same[pick % len(same)], "target": 10 + pick % 11}
            options = {"bot_pause_ms": 0, "grace_seconds": 60 * (pick % 2), "parados": pick % 3 > 0}
            return host, {"type": "configure", "rules": rules, "options": options}
        if choice == 2:
            seated = [c for c in people if self.seat_of(c.as_person) is not None]
            if seated and pick % 2:
                return seated[pick % len(seated)], {"type": "stand"}
            return host, {"type": "clear_seat", "seat": pick % len(seats)}
        if choice == 3 and standing:
            person = standing[pick % len(standing)]
            return person, {"type": "unqueue" if person.as_person in queue else "queue"}
        if choice == 4 and len(queue) > 1:
            return host, {"type": "reorder", "queue": self._concrete(Shuffled(pick))}
        if empty:
            return self._who(step.who), {}
        return host, {"type": "start"}

    def _concrete(self, body: Any) -> Any:
        """``body`` with the mesa's things put in for its picks."""
        if isinstance(body, dict):
            return {k: self._concrete(v) for k, v in body.items()}
        if isinstance(body, list):
            return [self._concrete(v) for v in body]
        if isinstance(body, Shuffled):
            queue = [q["id"] for q in self.state["mesa"]["queue"]]
            random.Random(body.seed).shuffle(queue)
            return queue
        if not isinstance(body, Pick):
            return body
        if body.what == "code":
            code = self.code
            return [code, code + "\x00", code.lower(), self.world.elsewhere][body.n]
        if body.what == "token":
            tokens = sorted(self.tokens)
            return self.world.elsewhere_token if body.n < 0 else tokens[body.n % len(tokens)]
        if body.what == "person":
            people = sorted(self.tokens.values())
            return people[body.n % len(people)]
        known = self._moves_known()
        return known[body.n % len(known)] if known else "pass"

    def _moves_known(self) -> list[str]:
        """The moves and tiles of every seat's last view: another seat's move is one out of turn."""
        moves: set[str] = set()
        for conn in self.conns:
            view = conn.socket.last_view() if conn.socket is not None else None
            if view:
                moves.update(view["legal"])
                moves.update(view["tiles"])
        return sorted(moves)

    # -- who is who ------------------------------------------------------------------------

    def here(self, conn: Conn) -> bool:
        return conn.socket is not None and not conn.socket.closed.is_set() and conn.at == self.code

    def seat_of(self, person: int | None) -> int | None:
        seats = self.state["mesa"]["seats"]
        return next((s["seat"] for s in seats if person and s["person"] == person), None)

    def observer_view(self) -> dict[str, Any] | None:
        assert self.observer is not None
        return self.observer.last_view()

    def _host(self) -> Conn | None:
        host = self.state["mesa"]["host"]["id"]
        return next((c for c in self.conns if self.here(c) and c.as_person == host), None)

    def _to_move(self) -> tuple[Conn, dict[str, Any]] | None:
        if self.state["mesa"]["status"] != "playing":
            return None
        for conn in self.conns:
            seat = self.seat_of(conn.as_person)
            if self.here(conn) and seat is not None:
                assert conn.socket is not None
                view = conn.socket.last_view()
                if view and not view["ended"] and view["turn"] == seat and view["legal"]:
                    return conn, view
        return None

    def _unready(self) -> list[Conn]:
        seats = self.state["mesa"]["seats"]
        return [
            c
            for c in self.conns
            if self.here(c)
            and (seat := self.seat_of(c.as_person)) is not None
            and not seats[seat]["ready"]
        ]

    # -- sending ---------------------------------------------------------------------------

    async def _reconnect(self, conn: Conn) -> None:
        """Drop the socket (if it is still open) and come back with a new one."""
        if conn.socket is not None and not conn.socket.closed.is_set():
            await self._gone(conn, conn.socket.close())
        await self._connect(conn)

    async def _gone(self, conn: Conn, closing: Any) -> None:
        """Await ``closing`` (the socket's end) and, when it was at this mesa, the server's
        notice of it to the others (a mesa message for a seated person, else a mirones one), so
        that the next step starts at rest."""
        observer = self.observer
        assert observer is not None
        seen = len(observer.log)
        at_mesa = conn.at == self.code
        await closing
        if at_mesa:
            told = ("mesa", "mirones")
            await observer.until(lambda: any(m["type"] in told for m in observer.log[seen:]))

    async def _flood(self, conn: Conn) -> None:
        """More than the limit in one burst: an error, then the connection closes (1008)."""
        socket = conn.socket
        assert socket is not None
        start = len(socket.log)
        self.world.sent += 1  # (the burst counts as one message)
        conn.sent_text = ""
        for n in range(MAX_MESSAGES_PER_SECOND + 1):
            with contextlib.suppress(Exception):
                await socket.send_unspaced(json.dumps({"type": "ping", "ref": n}))
        await self._gone(conn, asyncio.wait_for(socket.closed.wait(), 15))
        errors = [m for m in socket.log[start:] if m["type"] == "error"]
        assert [e["code"] for e in errors] == ["server.flood"], errors
        assert socket.close_code == 1008
        self._scan(conn)
        self.world.answers["server.flood"] += 1

    async def _exchange(self, conn: Conn, data: str | bytes, counted: bool = True) -> None:
        """Send one message, wait for its whole answer, and judge it against the model."""
        socket = conn.socket
        assert socket is not None
        before = self.state
        if before and self.here(conn):
            await socket.until(lambda: (socket.seq or 0) >= before["mesa"]["seq"])
        text = data if isinstance(data, str) else data.decode("utf-8", errors="replace")
        size = len(data.encode() if isinstance(data, str) else data)
        intention, expected = self._expect(conn, text, size)
        start = len(socket.log)
        conn.sent_text = text
        self.trail.append(f"{conn.label} sends {text[:120]!r}")
        self.world.sent += counted
        await socket.send(data)
        if expected == "server.too_big":
            await self._gone(conn, asyncio.wait_for(socket.closed.wait(), 15))
            assert socket.close_code == 1009 or sent_away(conn), socket.close_code
        else:
            answered = self._answer_ends(conn, intention, expected, before)
            if answered is None:  # an answer that may be silence: a ping behind it returns after
                ref = f"sync{random.getrandbits(40)}"
                await socket.send({"type": "ping", "ref": ref})
                answered = partial(pong, ref=ref)
            with contextlib.suppress(TimeoutError):
                await socket.until(lambda: answered(socket.log[start:]))
            if not answered(socket.log[start:]) and sent_away(conn):
                self._scan(conn)
                return  # an idle socket's time ran out meanwhile: the message may never be read
            assert answered(socket.log[start:]), (
                f"no answer to {text[:200]!r}: the connection closed ({socket.close_code}) "
                f"or the server hangs"
            )
            if expected not in (ACCEPT, ANY) and not has_error(socket.log[start:]):
                # The window closed on a change of the mesa that the server made meanwhile (a
                # hand dealt, a partida ended) before the refusal came: the server answers a
                # connection's messages in order, so a ping behind it settles which.
                ref = f"sync{random.getrandbits(40)}"
                await socket.send({"type": "ping", "ref": ref})
                with contextlib.suppress(TimeoutError):
                    await socket.until(lambda: pong(socket.log[start:], ref=ref))
        self._judge(conn, text, intention, expected, socket.log[start:], before)

    def _answer_ends(
        self, conn: Conn, intention: Any, expected: str, before: dict[str, Any]
    ) -> Callable[[list[dict[str, Any]]], bool] | None:
        """How to tell the whole answer has come without a ping behind the message (one more
        message for the flood limit): an error, or the message that tells the effect (any
        change of the mesa, when a refusal was expected). None when the answer may be silence
        (a late ready)."""
        if expected == ANY or isinstance(intention, p.Ready):
            return None
        seq = before["mesa"]["seq"] if before and self.here(conn) else None
        mine = self.seat_of(conn.as_person) if self.here(conn) else None
        ends = {"mesa"}
        if isinstance(intention, p.Hello):
            ends = {"welcome"}
        elif isinstance(intention, p.Ping):
            ends = {"pong"}
        elif isinstance(intention, p.Start | p.NextHand):
            ends = {"hand_start"}
        elif isinstance(intention, p.Play):
            ends = set()

        def done(window: list[dict[str, Any]]) -> bool:
            for message in window:
                kind = message["type"]
                changed = seq is not None and message.get("seq", -1) > seq
                # a bot's move meanwhile changes the mesa too, but says nothing of this message
                other_move = kind in ("move", "hand_end") and message["move"]["seat"] != mine
                if kind == "error" or (changed and expected != ACCEPT and not other_move):
                    return True
                if kind in ends and (kind != "mesa" or changed):
                    return True
                if kind in ("move", "hand_end") and message["move"]["seat"] == mine:
                    return True
            return False

        return done

    # -- the model -------------------------------------------------------------------------

    def _expect(self, conn: Conn, text: str, size: int) -> tuple[Any, str]:
        """What the protocol says the server must answer: an error code, ACCEPT or ANY."""
        if size > MAX_MESSAGE_BYTES:
            return None, "server.too_big"
        try:
            intention = p.read_intention(text)
        except FichaFlowError as exc:
            return None, exc.code
        except Exception:
            return None, ANY  # the parser itself fails: the server must still answer
        if isinstance(intention, p.Ping):
            return intention, ACCEPT
        if isinstance(intention, p.Hello):
            return intention, self._expect_hello(intention)
        if conn.at is None:
            return intention, "server.hello_first"
        if conn.at != self.code or conn.as_person is None:
            return intention, "server.miron"
        return intention, self._expect_act(conn.as_person, intention)

    def _expect_hello(self, hello: p.Hello) -> str:
        if hello.code not in (self.code, self.world.elsewhere):
            return "server.no_mesa"
        if hello.token is None:
            return ACCEPT
        if hello.code == self.code and hello.token in self.tokens:
            return ACCEPT
        return "server.bad_token"

    def _expect_act(self, person: int, intention: Any) -> str:
        """What ``person``'s well-formed intention must get at this mesa as it is: the first
        refusal the protocol names (who may, then when), or ACCEPT; ANY where the rules engine
        decides (an illegal move's own reason)."""
        mesa = self.state["mesa"]
        seats, status = mesa["seats"], mesa["status"]
        playing = status in ("playing", "hand_over")
        seat = self.seat_of(person)
        kind = intention.type
        if kind in HOST_ONLY and mesa["host"]["id"] != person:
            return "server.not_host"
        queued = person in [q["id"] for q in mesa["queue"]]

        def chair_range(number: int) -> bool:
            return 0 <= number < len(seats)

        match intention:
            case p.Play(move=move):
                if seat is None:
                    return "server.not_seated"
                view = self.observer_view()
                if status != "playing" or view is None or view["ended"]:
                    return "move.no_hand"
                if view["turn"] != seat:
                    return "server.not_your_turn"
                conn_view = self._view_of(person)
                return ACCEPT if conn_view and move in conn_view["legal"] else ANY
            case p.Ready(after=after, partida=number):
                if seat is None:
                    return "server.not_seated"
                view = self.observer_view()
                dealt = view["hand_number"] if view else 0
                if number is not None and number < (mesa["partida"] or 0):
                    return ACCEPT
                if after is not None and (dealt > after or not playing):
                    return ACCEPT
                return ACCEPT if status == "hand_over" else "server.not_hand_over"
            case p.NextHand():
                return ACCEPT if status == "hand_over" else "server.not_hand_over"
            case p.Start():
                if playing:
                    return "server.partida_running"
                if any(s["kind"] == "empty" for s in seats):
                    return "server.seats_empty"
                return ACCEPT
            case p.Sit(seat=chair):
                if not chair_range(chair):
                    return "server.seat_range"
                if seats[chair]["kind"] != "empty":
                    return "server.seat_taken"
                return "server.already_seated" if seat is not None else ACCEPT
            case p.Stand():
                if seat is None:
                    return "server.not_seated"
                return "server.partida_running" if playing else ACCEPT
            case p.Queue():
                if seat is not None:
                    return "server.already_seated"
                return "server.already_queued" if queued else ACCEPT
            case p.Unqueue():
                return ACCEPT if queued else "server.not_queued"
            case p.SeatBot(seat=chair, bot=bot):
                if not chair_range(chair):
                    return "server.seat_range"
                if bot not in PLAYER_BOTS:
                    return "bot.unknown"
                there = seats[chair]
                if there["kind"] == "bot":
                    return "server.seat_taken"
                if there["kind"] == "empty":
                    return "server.partida_running" if playing else ACCEPT
                if there["connected"]:
                    return "server.seat_connected"
                grace = mesa["options"]["grace_seconds"]
                away = there["away_seconds"]
                if grace == 0:
                    return ACCEPT
                return "server.grace" if away is not None and away + 5 < grace else ANY
            case p.ClearSeat(seat=chair):
                if not chair_range(chair):
                    return "server.seat_range"
                return "server.partida_running" if playing else ACCEPT
            case p.Reorder(queue=order):
                current = [q["id"] for q in mesa["queue"]]
                same = sorted(order) == sorted(current) and len(set(order)) == len(order)
                return ACCEPT if same else "server.queue_order"
            case p.Configure(rules=rules, options=options):
                try:
                    new = None if rules is None else Rules.load(rules)
                except FichaFlowError as exc:
                    return exc.code
                if playing:
                    return "server.partida_running"
                if options is not None and options.timeout_bot not in PLAYER_BOTS:
                    return "bot.unknown"
                if new is not None and new.seats != len(seats):
                    return "server.mode_change"
                return ACCEPT
        return ANY

    def _view_of(self, person: int) -> dict[str, Any] | None:
        for conn in self.conns:
            if self.here(conn) and conn.as_person == person and conn.socket is not None:
                return conn.socket.last_view()
        return None

    # -- judging ---------------------------------------------------------------------------

    def _judge(
        self,
        conn: Conn,
        text: str,
        intention: Any,
        expected: str,
        window: list[dict[str, Any]],
        before: dict[str, Any],
    ) -> None:
        errors = [m for m in window if is_error(m)]
        said = f"{conn.label} sent {text[:300]!r}"
        assert len(errors) <= 1, f"{said}: more than one error {errors}"
        if errors:
            error = errors[0]
            code = error["code"]
            self.world.answers[code] += 1
            assert is_documented(code), f"{said}: undocumented error {error}"
            assert code != "move.wrong_turn", f"{said}: an error names who holds a tile"
            assert error["message"] != error["message_en"], f"{said}: no Spanish text {error}"
            assert error["ref"] == p.ref_of(text), f"{said}: ref not echoed {error}"
            assert expected != ACCEPT, f"{said}: refused with {error}, but it must be accepted"
            if expected != ANY:
                assert code == expected, f"{said}: got {code}, expected {expected}"
            if code == "server.too_big":
                return
            assert conn.socket is not None and not conn.socket.closed.is_set(), f"{said}: closed"
            self.unchanged.append((said, before))
        else:
            self.world.answers[f"{ACCEPT}: {getattr(intention, 'type', '?')}"] += 1
            assert expected in (ACCEPT, ANY), f"{said}: accepted, but it must get {expected}"
            self._effect(conn, intention, window, said)
        self._scan(conn)

    def _effect(self, conn: Conn, intention: Any, window: list[dict[str, Any]], said: str) -> None:
        """An accepted message did what it says, as its own connection was told."""
        kinds = [m["type"] for m in window]
        mine = self.seat_of(conn.as_person)
        match intention:
            case p.Ping(ref=ref):
                assert any(m["type"] == "pong" and m["ref"] == ref for m in window), said
            case p.Hello(code=code, token=token):
                welcome = next((m for m in window if m["type"] == "welcome"), None)
                assert welcome is not None and welcome["mesa"]["code"] == code, f"{said}: {kinds}"
                person = self.tokens.get(token) if token is not None else None
                you = welcome["you"]
                assert (you and you["id"]) == person, f"{said}: welcomed as {you}"
                conn.at, conn.as_person = code, person
            case p.Play():
                moved = [m for m in window if m["type"] in ("move", "hand_end")]
                assert any(m["move"]["seat"] == mine for m in moved), f"{said}: {kinds}"
            case p.Start() | p.NextHand():
                assert "hand_start" in kinds, f"{said}: {kinds}"
            case p.Ready():
                told = [m for m in window if m["type"] in ("mesa", "hand_start")]
                ready = any(
                    m["type"] == "hand_start" or m["mesa"]["seats"][mine]["ready"] for m in told
                )
                late = not told  # a ready for a hand already dealt is ignored
                assert ready or late, f"{said}: {kinds}"
            case _:
                self.expect_state.append((said, intention, conn.as_person))

    def _check_effects(self) -> None:
        """The accepted changes of chairs, queue and options show in the mesa's state."""
        mesa = self.state["mesa"]
        for said, intention, person in self.expect_state:
            seats = mesa["seats"]
            queue = [q["id"] for q in mesa["queue"]]
            match intention:
                case p.Sit(seat=chair):
                    assert seats[chair]["person"] == person, f"{said}: {seats}"
                case p.Stand():
                    assert self.seat_of(person) is None, f"{said}: {seats}"
                case p.Queue():
                    assert queue[-1:] == [person], f"{said}: {queue}"
                case p.Unqueue():
                    assert person not in queue, f"{said}: {queue}"
                case p.SeatBot(seat=chair, bot=bot):
                    assert seats[chair]["bot"] == bot, f"{said}: {seats}"
                case p.ClearSeat(seat=chair):
                    assert seats[chair]["kind"] == "empty", f"{said}: {seats}"
                case p.Reorder(queue=order):
                    assert queue == order, f"{said}: {queue}"
                case p.Configure(rules=rules, options=options):
                    if rules is not None:
                        assert mesa["rules"] == Rules.load(rules).dump(), f"{said}: {mesa['rules']}"
                    if options is not None:
                        assert mesa["options"] == options.model_dump(), f"{said}: {mesa['options']}"
        self.expect_state = []

    # -- at rest ---------------------------------------------------------------------------

    async def _settle(self) -> dict[str, Any]:
        """The mesa at rest: no bot to move, no hand about to be dealt, the observer told of
        everything; then the checks that need the whole picture."""
        observer, http = self.observer, self.world.http
        assert observer is not None
        for _ in range(1000):
            health, answer = await asyncio.gather(
                http.get("/api/health"), http.get(f"/api/mesas/{self.code}")
            )
            assert health.status_code == 200 and health.json()["ok"], health.text
            assert answer.status_code == 200, answer.text
            state: dict[str, Any] = answer.json()
            seq: int = state["mesa"]["seq"]

            def told(seq: int = seq) -> bool:
                return (observer.seq or 0) >= seq

            def moved_on(seq: int = seq) -> bool:
                return (observer.seq or 0) > seq

            await observer.until(told)
            if not self._busy(state):
                break
            await observer.until(moved_on, 30)
        self.state = state
        for said, before in self.unchanged:
            self._unchanged(said, before, state)
        self.unchanged = []
        self._check_effects()
        for conn in self.conns:
            self._scan(conn)
        await self._records()
        return state

    def _busy(self, state: dict[str, Any]) -> bool:
        """A bot is to move, or the next hand is about to be dealt."""
        mesa = state["mesa"]
        view = self.observer_view()
        if mesa["status"] == "playing" and view is not None and not view["ended"]:
            return bool(mesa["seats"][view["turn"]]["kind"] == "bot")
        if mesa["status"] == "hand_over":
            seats = mesa["seats"]
            waiting = [
                s for s in seats if s["kind"] == "human" and s["connected"] and not s["ready"]
            ]
            return not waiting
        return False

    def _unchanged(self, said: str, before: dict[str, Any], after: dict[str, Any]) -> None:
        """A refused message changed nothing: the mesa and the partida are as they were (but
        for who is connected), unless a bot or a deal nobody asked for moved on meanwhile."""
        if not before or after["mesa"]["seq"] != before["mesa"]["seq"]:
            assert self._others_moved(before), f"{said}: the mesa changed {before} -> {after}"
            return
        assert still(before) == still(after), f"{said}: the mesa changed {before} -> {after}"

    def _others_moved(self, before: dict[str, Any]) -> bool:
        """Every action since ``before`` is a bot's move or a deal (what the server does by
        itself), as the observer was told."""
        assert self.observer is not None
        seq = before["mesa"]["seq"]
        bots = {s["seat"] for s in before["mesa"]["seats"] if s["kind"] == "bot"}
        told = ("mesa", "mirones", "partida_end", "hand_start")  # what follows an action
        for message in self.observer.log:
            kind = message["type"]
            if message.get("seq", -1) <= seq or kind in told:
                continue
            if kind in ("move", "hand_end") and message["move"]["seat"] in bots:
                continue
            return False
        return True

    def _scan(self, conn: Conn) -> None:
        """Check every message ``conn`` got since the last look: no tile its seat may not see,
        its view its own, its own moves among its legal ones."""
        socket = conn.socket
        if socket is None:
            return
        for message in socket.seen[conn.checked :]:
            kind = message["type"]
            if kind == "welcome":
                conn.told_person = message["you"]["id"] if message["you"] else None
                conn.greeted = True
            if kind == "error" and message["code"] == HELLO_TIMEOUT:
                assert not conn.greeted, f"{conn.label} was sent away after its hello: {message}"
                self.world.answers[HELLO_TIMEOUT] += 1
            if kind in ("welcome", "mesa"):
                conn.partida = message["mesa"]["partida"] or 0
                who, seats = conn.told_person, message["mesa"]["seats"]
                conn.seat = next((s["seat"] for s in seats if who and s["person"] == who), None)
            problem = leaked(message, conn.seat, conn.partida)
            if problem and kind == "error":
                # an error may name the tiles the message named, and what the seat knows
                live = conn.last_live
                known = knowable(live, conn.seat, conn.partida)[0] if live else set()
                allowed = known | tiles_in(conn.sent_text)
                problem = None if tiles_in_error(message) <= allowed else problem
            assert problem is None, f"{conn.label}: {problem} in {message}"
            if kind in ("move", "hand_end") and message["move"]["seat"] == conn.seat:
                prior = conn.last_live
                assert prior is not None and among(message["move"]["move"], prior["legal"]), (
                    f"{conn.label}: seat {conn.seat} made {message['move']} "
                    f"but could make {prior and prior['legal']}"
                )
            view = message.get("view")
            if view is not None:
                conn.last_live = None if view["ended"] else view
            conn.checked += 1

    async def _records(self) -> None:
        """Each hand that ended: its partida's record replays (and verifies once it is won)."""
        assert self.observer is not None
        log = self.observer.log
        for message in log[self.records_seen :]:
            if message["type"] != "hand_end":
                continue
            number = message["hand"]["partida"]
            over = any(m["type"] == "partida_end" and m["partida"]["number"] == number for m in log)
            hands = await self._check_record(number, over)
            assert hands >= message["hand"]["number"], f"the record lacks hand {message['hand']}"
        self.records_seen = len(log)

    async def _check_record(self, number: int, finished: bool) -> int:
        answer = await self.world.http.get(f"/api/mesas/{self.code}/partidas/{number}/record")
        assert answer.status_code == 200, answer.text
        hands = check_record(answer.json(), finished)
        self.world.records += 1
        self.world.verified += finished
        return hands


def sent_away(conn: Conn) -> bool:
    """The server closed ``conn``'s socket for saying no good hello in time (documented)."""
    socket = conn.socket
    assert socket is not None
    told = any(m["type"] == "error" and m["code"] == HELLO_TIMEOUT for m in socket.log)
    return socket.closed.is_set() and told and socket.close_code == 1008


def among(move: str, legal: list[str]) -> bool:
    """``move``, as a record writes it (no end where the tile fits one), is one of ``legal``
    (as the protocol offers moves: always with the end)."""
    return move in legal or any(offered.split(":")[0] == move for offered in legal)


def pong(messages: list[dict[str, Any]], ref: Any) -> bool:
    return any(m["type"] == "pong" and m["ref"] == ref for m in messages)


def is_error(message: dict[str, Any]) -> bool:
    """An error that answers a message (the hello timeout answers nobody's)."""
    return bool(message["type"] == "error" and message["code"] != HELLO_TIMEOUT)


def has_error(messages: list[dict[str, Any]]) -> bool:
    return any(is_error(m) for m in messages)


def still(state: dict[str, Any]) -> dict[str, Any]:
    """A mesa's public state without what changes as people come and go."""
    mesa = dict(state["mesa"])
    mesa["seats"] = [{**s, "connected": None, "away_seconds": None} for s in mesa["seats"]]
    mesa.pop("mirones")
    mesa.pop("mirones_count")
    return {"mesa": mesa, "partida": state["partida"]}


# -- the runs ------------------------------------------------------------------------------------


@contextlib.contextmanager
def serving(database_url: str) -> Iterator[World]:
    """A server (the tests' deals) on ``database_url``, and a second mesa to say hello to."""
    loop = asyncio.new_event_loop()
    with ServerProcess(database_url, seed=TEST_SEED) as server:
        http = httpx.AsyncClient(base_url=server.url, timeout=30)
        other = loop.run_until_complete(http.post("/api/mesas", json={"name": "Otra", "seat": 0}))
        try:
            yield World(server, loop, http, other.json()["code"], other.json()["token"])
        finally:
            loop.run_until_complete(http.aclose())
            loop.run_until_complete(cancel_the_rest())  # a failed mesa's sockets
            loop.close()


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    database = Path(tmp_path_factory.mktemp("fuzz")) / "fichaflow.sqlite3"
    with serving(f"sqlite:///{database}") as world:
        yield world


@pytest.fixture(scope="module")
def world_on_postgresql() -> Iterator[World]:
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set: the PostgreSQL fuzz needs a database URL")
    with (
        postgres_schema_url(base, f"fichaflow_fuzz_{secrets.token_hex(4)}") as url,
        serving(url) as world,
    ):
        yield world


async def cancel_the_rest() -> None:
    rest = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
    for task in rest:
        task.cancel()
    await asyncio.gather(*rest, return_exceptions=True)


async def play(world: World, table: Table, steps: list[Step], refs: list[Any]) -> None:
    mesa = MesaFuzz(world)
    try:
        await mesa.open(table)
        for step, ref in zip(steps, refs, strict=True):
            await mesa.step(step, ref)
    except AssertionError as exc:
        story = "\n  ".join(mesa.trail[-12:])
        raise AssertionError(f"{exc}\nat {table}, after:\n  {story}") from exc
    finally:
        with contextlib.suppress(Exception):
            await mesa.close()


def as_stored(state: dict[str, Any]) -> dict[str, Any]:
    """What of a mesa's state the database keeps: all but who is connected and who said ready."""
    kept = still(state)
    kept["mesa"]["seats"] = [{**s, "ready": None} for s in kept["mesa"]["seats"]]
    return kept


def comes_back(world: World) -> int:
    """Restart the server: each mesa the fuzzer left comes back from the database as it was in
    memory (the rules, chairs, queue, options, seq, partida and its hands). Returns how many were
    compared (a mesa whose next hand is dealt at once, nobody being connected, moved on)."""
    world.server.restart()
    compared = 0
    with httpx.Client(base_url=world.server.url, timeout=30) as http:
        for code, before in world.last.items():
            after = http.get(f"/api/mesas/{code}").json()
            if after["mesa"]["seq"] == before["mesa"]["seq"]:
                assert as_stored(after) == as_stored(before), f"mesa {code} came back otherwise"
                compared += 1
    return compared


def fuzz(world: World, messages: int, mesas: int) -> None:
    """Fuzz ``mesas`` mesas at a time until ``messages`` were sent, and say what happened."""
    began, first = time.monotonic(), world.sent

    @given(
        table=st.sampled_from(TABLES),
        steps=st.lists(STEP, min_size=STEPS, max_size=STEPS),
        refs=REFS,
    )
    @settings(
        max_examples=mesas,
        deadline=None,
        database=None,
        phases=[Phase.generate],  # no shrinking: each try is a new mesa, and the steps print
        suppress_health_check=list(HealthCheck),
    )
    def one_mesa(table: Table, steps: list[Step], refs: list[Any]) -> None:
        world.loop.run_until_complete(play(world, table, steps, refs))

    while world.sent - first < messages:
        one_mesa()
    seconds = time.monotonic() - began
    print(
        f"\nwebsocket fuzz: {world.sent - first} messages to {world.mesas} mesas in {seconds:.0f} s"
        f" ({(world.sent - first) / seconds:.0f}/s); {world.records} records replayed, "
        f"{world.verified} partidas verified\n  steps: {dict(world.kinds.most_common())}"
        f"\n  answers: {dict(world.answers.most_common())}"
    )


def test_websocket_fuzz_quick(world: World) -> None:
    fuzz(world, QUICK_MESSAGES, mesas=2)


@pytest.mark.slow
def test_websocket_fuzz_ten_thousand_messages(world: World) -> None:
    fuzz(world, SLOW_MESSAGES, mesas=20)
    compared = comes_back(world)
    print(f"  after a restart, {compared} of {len(world.last)} mesas came back as they were")
    assert compared > len(world.last) // 2


@pytest.mark.slow
def test_websocket_fuzz_on_postgresql(world_on_postgresql: World) -> None:
    """Fewer, on PostgreSQL: what SQLite lets pass and PostgreSQL refuses (a NUL in a text)."""
    fuzz(world_on_postgresql, POSTGRESQL_MESSAGES, mesas=5)


def test_the_message_checks_catch_what_they_look_for() -> None:
    """The checks the fuzzer makes of every message can fail: a tile of another seat, a view of
    another seat, a wrong count, an undocumented code, an error that names a tile."""
    deal = known_deal(2)
    mine = [name(t) for t in range(28) if deal.hands[0] >> t & 1]
    theirs = next(name(t) for t in range(28) if deal.hands[1] >> t & 1)
    view = {
        "seat": 0, "hand_number": 1, "counts": [7, 7], "stock_left": 14, "history": [],
        "tiles": mine, "line": [], "legal": mine, "ended": False, "forced_lead": None,
    }  # fmt: skip
    assert leaked({"type": "move", "view": view}, 0, 1) is None
    assert "was shown" in str(leaked({"type": "move", "view": {**view, "legal": [theirs]}}, 0, 1))
    assert "view of seat 0" in str(leaked({"type": "move", "view": view}, None, 1))
    assert "view says" in str(leaked({"type": "move", "view": {**view, "counts": [7, 6]}}, 0, 1))
    error = {"type": "error", "code": "server.not_your_turn", "message": f"no: {theirs}"}
    assert "names tiles" in str(leaked(error, 0, 1))
    assert is_documented("server.not_your_turn") and is_documented("move.no_match")
    assert not is_documented("server.nonsense")
