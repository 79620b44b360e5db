"""What the fuzzers share: the error codes the protocol documents, a WebSocket that keeps under
the flood limit by itself, and the checks made on every message a client receives (no tile its
seat may not see) and on every finished hand (the record replays)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import websockets

from fichaflow import i18n
from fichaflow.core import record
from fichaflow.core.tiles import name, parse, tile_of
from fichaflow.server.fairness import verify_record
from fichaflow.server.settings import MAX_MESSAGES_PER_SECOND
from tests.server.kit import Client, ServerProcess, known_deal, named

PROTOCOL = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
SENDS_PER_SECOND = MAX_MESSAGES_PER_SECOND - 4
"""What a fuzzing socket sends at most in any second: under the flood limit with room for the
jitter between our clock and the server's."""


@cache
def documented_codes() -> tuple[frozenset[str], tuple[str, ...]]:
    """The error codes of the table in docs/protocol.md's *Errors and limits*: the codes it
    names, and the prefixes it names with ``.*`` (the rules engine's own)."""
    text = PROTOCOL.read_text(encoding="utf-8")
    section = text[text.index("## Errors and limits") : text.index("## Running it")]
    table = "\n".join(line for line in section.splitlines() if line.startswith("| `"))
    names = re.findall(r"`([a-z_]+\.(?:[a-z_]+|\*))`", table)
    exact = frozenset(n for n in names if not n.endswith(".*"))
    prefixes = tuple(n[:-1] for n in names if n.endswith(".*"))
    assert "server.hello_first" in exact and "move." in prefixes, "the table moved"
    return exact, prefixes


def is_documented(code: str) -> bool:
    """A code the protocol lists, with its words in both catalogues."""
    exact, prefixes = documented_codes()
    listed = code in exact or code.startswith(prefixes)
    worded = all(f"error.{code}" in i18n.catalogue(lang) for lang in i18n.LANGUAGES)
    return listed and worded


class Socket(Client):
    """A client of the test kit that may stay a stranger (no hello) and spaces its messages by
    a sliding window instead of a fixed pause, so that several sockets fuzz at full speed."""

    def __init__(self, server: ServerProcess, code: str, token: str | None = None) -> None:
        super().__init__(server, code, token)
        self._sent: deque[float] = deque(maxlen=SENDS_PER_SECOND)
        self.seq: int | None = None
        """The mesa's ``seq`` as this socket last heard it."""
        self._news = asyncio.Event()

    async def _on(self, message: dict[str, Any]) -> None:
        await super()._on(message)
        if message["type"] == "welcome":
            self.seq = message["seq"]
        elif "seq" in message:
            self.seq = max(self.seq or 0, message["seq"])
        self._news.set()

    async def _run(self) -> None:
        try:
            await super()._run()
        finally:
            self._news.set()

    async def until(self, condition: Callable[[], bool], timeout: float = 15) -> None:
        """Wait until ``condition()`` holds, looking again at each message this socket gets;
        a socket that closes first ends the wait (the caller sees whether it holds)."""
        async with asyncio.timeout(timeout):
            while not condition() and not self.closed.is_set():
                self._news.clear()
                await self._news.wait()

    async def open(self) -> None:
        """Connect without saying anything."""
        self.ws = await websockets.connect(self.server.ws_url, max_size=2**22)
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def send(self, message: dict[str, Any] | str | bytes) -> None:
        if len(self._sent) == self._sent.maxlen:
            wait = self._sent[0] + 1.0 - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
        self._sent.append(time.monotonic())
        data = json.dumps(message) if isinstance(message, dict) else message
        try:
            await self.ws.send(data)
        except websockets.ConnectionClosed:
            await asyncio.wait_for(self.closed.wait(), 10)

    async def send_unspaced(self, data: str) -> None:
        """Straight onto the socket: the flood case."""
        self._sent.append(time.monotonic())
        await self.ws.send(data)


# -- what a seat may see --------------------------------------------------------------------


@dataclass
class HandTruth:
    """A hand as the test server dealt it (``known_deal``) and as its public history played it."""

    dealt: list[set[int]]  # each seat's tiles at the deal
    held: list[set[int]]  # each seat's tiles now
    drawn: list[set[int]]  # the tiles each seat drew (the montón is drawn in order)
    line: set[int]
    stock_left: int


def truth_of(view: dict[str, Any], partida: int) -> HandTruth:
    """The hand of ``view`` (of partida number ``partida``) worked out without the server."""
    seats = len(view["counts"])
    deal = known_deal(seats, hand=view["hand_number"], partida=partida)
    dealt = [{t for t in range(28) if deal.hands[s] >> t & 1} for s in range(seats)]
    held = [set(tiles) for tiles in dealt]
    drawn: list[set[int]] = [set() for _ in range(seats)]
    line: set[int] = set()
    for turn in view["history"]:
        seat = turn["seat"]
        if turn["kind"] == "play":
            tile = parse(turn["tile"])
            line.add(tile)
            held[seat].discard(tile)
        elif turn["kind"] == "draw":
            tile = deal.stock[sum(map(len, drawn))]
            drawn[seat].add(tile)
            held[seat].add(tile)
    return HandTruth(dealt, held, drawn, line, len(deal.stock) - sum(map(len, drawn)))


def knowable(view: dict[str, Any], seat: int | None, partida: int) -> tuple[set[int], set[int]]:
    """What ``seat`` (None: a mirón) may know in the hand of ``view``: its own tiles, the tiles
    it drew, the tiles on the line; and what it holds now."""
    truth = truth_of(view, partida)
    if seat is None:
        return set(truth.line), set()
    return truth.dealt[seat] | truth.drawn[seat] | truth.line, truth.held[seat]


TILE_IN_TEXT = re.compile(r"\b[0-6]-[0-6]\b")


def tiles_in(text: str) -> set[int]:
    return {parse(t) for t in TILE_IN_TEXT.findall(text)}


def tiles_in_error(error: dict[str, Any]) -> set[int]:
    """The tiles an error's Spanish text names, but for the catalogue's own examples."""
    template = i18n.catalogue("es").get(f"error.{error['code']}", "")
    return tiles_in(error["message"]) - tiles_in(template)


def leaked(message: dict[str, Any], seat: int | None, partida: int) -> str | None:
    """What is wrong with ``message`` sent to a connection at ``seat`` (None: a mirón) during
    partida number ``partida``, or None.
    A hand that ended is public; before that, a message names only tiles its seat may know, and
    its view is its seat's own."""
    kind = message["type"]
    if kind in ("hand_end", "partida_end", "pong"):
        return None
    view = message.get("view")
    if kind == "error":
        found = tiles_in_error(message)
        return f"an error names tiles {sorted(map(name, found))}" if found else None
    if kind not in ("welcome", "move", "hand_start"):
        tiles = named(message)
        return f"a {kind} message names {sorted(map(name, tiles))}" if tiles else None
    if view is None:
        return None
    if view["seat"] != seat:
        return f"a connection at seat {seat} was sent the view of seat {view['seat']}"
    if view["ended"]:
        return None
    allowed, held = knowable(view, seat, partida)
    rest = {k: v for k, v in message.items() if k not in ("view", "partida")}
    seen = named(view) | named(rest)
    if seen - allowed:
        return f"seat {seat} was shown {sorted(map(name, seen - allowed))}"
    if {parse(t) for t in view["tiles"]} != held:
        return f"seat {seat} holds {sorted(map(name, held))} but its view says {view['tiles']}"
    truth = truth_of(view, partida)
    counts = [len(tiles) for tiles in truth.held]
    if view["counts"] != counts or view["stock_left"] != truth.stock_left:
        return f"the hand has {counts}, {truth.stock_left} in the montón; the view says otherwise"
    if {tile_of(a, b) for a, b in view["line"]} != truth.line:
        return f"the line {view['line']} is not the tiles played {sorted(map(name, truth.line))}"
    if seat is None and view["legal"]:
        return "a mirón was offered moves"
    return None


def check_record(data: dict[str, Any], finished: bool) -> int:
    """A partida's record as the server serves it: every hand dealt as the test seed says,
    its seed matching its commitment, the moves replaying through the rules engine; a
    ``finished`` partida also checks out with ``verify``. Returns its number of hands."""
    saved = record.loads(json.dumps(data))
    seats, partida = saved.rules.seats, data["meta"]["partida"]
    for number, hand in enumerate(saved.hands, 1):
        deal = known_deal(seats, hand=number, partida=partida)
        assert hand.deal == deal, f"hand {number} of partida {partida} is not its deal"
        seed = hand.extra["seed"]
        assert hashlib.sha256(seed.encode()).hexdigest() == hand.extra["commitment"]
    partida = record.replay(saved)
    if finished:
        assert partida.over
        verify_record(saved)
    return len(saved.hands)
