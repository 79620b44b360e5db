"""Mirones coming and going (#13). Each arrival or departure costs every connection at most one
small message (how many watch and the first few of them, never the whole mesa), a mesa tells its
mirones at most a few times a second however fast they come, and a seated player who reads
slowly, or not at all for a while, is never pushed off: the game goes on.

Against a real server on 127.0.0.1; the large churn runs in the full set (``--slow``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import websockets

from fichaflow.server import protocol as p
from fichaflow.server import storage
from fichaflow.server.botpool import LocalBotPool
from fichaflow.server.hub import CLOSE_SLOW, Connection
from fichaflow.server.service import TableService
from fichaflow.server.settings import MIRONES_EVERY_SECONDS, MIRONES_SHOWN, OUTBOX_LIMIT
from fichaflow.storage import migrate
from tests.server.kit import TEST_SEED, ServerProcess, create_mesa, until

SMALL = 1024
"""Bytes a message about the mirones stays under, however many watch."""
BATCH = 50
"""Mirones that connect (or leave) at once."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("churn")
    with ServerProcess(f"sqlite:///{Path(folder) / 'churn.sqlite3'}", seed=TEST_SEED) as process:
        yield process


@dataclass
class Reader:
    """A raw WebSocket client that keeps every message with its size and when it came."""

    ws: Any
    got: list[tuple[float, int, dict[str, Any]]] = field(default_factory=list)
    closed: int | None = None

    @classmethod
    async def open(cls, server: ServerProcess, code: str, token: str | None = None) -> Reader:
        ws = await websockets.connect(server.ws_url, max_size=2**22, ping_interval=None)
        await ws.send(json.dumps({"type": "hello", "code": code, "token": token}))
        return cls(ws)

    async def next(self) -> dict[str, Any]:
        try:
            raw = await self.ws.recv()
        except websockets.ConnectionClosed as closed:
            self.closed = closed.rcvd.code if closed.rcvd is not None else -1
            raise
        message = json.loads(raw)
        self.got.append((time.monotonic(), len(raw), message))
        return dict(message)

    async def until(self, kind: str, timeout: float = 60, **fields: Any) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            while True:
                message = await self.next()
                if message["type"] == kind and all(message.get(k) == v for k, v in fields.items()):
                    return message

    async def keep_reading(self, pause: float = 0, seat: int | None = None) -> None:
        """Read until the connection closes, ``pause`` seconds after each message; at ``seat``,
        play the first legal move whenever it is its turn."""
        with contextlib.suppress(websockets.ConnectionClosed):
            while True:
                message = await self.next()
                view = message.get("view")
                if seat is not None and view and view["turn"] == seat and view["legal"]:
                    await self.ws.send(json.dumps({"type": "play", "move": view["legal"][0]}))
                if seat is not None:
                    await answer(self, message)
                if pause:
                    await asyncio.sleep(pause)

    def since(self, start: float) -> list[tuple[int, dict[str, Any]]]:
        return [(size, m) for at, size, m in self.got if at >= start]


def told_mirones(messages: list[tuple[int, dict[str, Any]]]) -> list[tuple[int, dict[str, Any]]]:
    return [(s, m) for s, m in messages if m["type"] in ("mesa", "mirones")]


def allowed(seconds: float) -> float:
    """Messages about the mirones one connection may get in ``seconds``: one at once, then at
    most one per ``MIRONES_EVERY_SECONDS``, and the last one after them."""
    return 3 + seconds / MIRONES_EVERY_SECONDS


def count_of(message: dict[str, Any]) -> int:
    """How many watch, as a mirones, mesa or welcome message says."""
    mesa = message.get("mesa", message)
    return int(mesa["mirones_count"])


def shown(message: dict[str, Any]) -> list[str | None]:
    return list(message.get("mesa", message)["mirones"])


async def play_on(ana: Reader, moves: int) -> None:
    """Ana (seat 0) plays ``moves`` more moves, seeing each come back, ready after each hand."""
    view = next((m["view"] for _, _, m in reversed(ana.got) if m.get("view")), None)
    played = 0
    async with asyncio.timeout(60):
        while played < moves:
            if view and not view["ended"] and view["turn"] == 0 and view["legal"]:
                await ana.ws.send(json.dumps({"type": "play", "move": view["legal"][0]}))
                while True:
                    message = await ana.next()
                    if message["type"] in ("move", "hand_end") and message["move"]["seat"] == 0:
                        played += 1
                        break
            else:
                message = await ana.next()
            await answer(ana, message)
            if message["type"] == "partida_end":
                return
            view = message.get("view") or view


async def answer(reader: Reader, message: dict[str, Any]) -> None:
    """Ready after a hand, as a player is."""
    if message["type"] == "hand_end":
        hand = message["hand"]
        ready = {"type": "ready", "partida": hand["partida"], "after": hand["number"]}
        await reader.ws.send(json.dumps(ready))


async def churn(server: ServerProcess, mirones: int, pause: float | None) -> None:
    """``mirones`` anonymous mirones say hello, all of them, then leave, while Ana (seat 0 of a
    mano a mano against a bot) reads one message every ``pause`` seconds and plays, or (None)
    reads nothing until they are gone."""
    created = await create_mesa(
        server, rules="mano_a_mano", seats=[None, "tirafichas"], name="Ana", seat=0
    )
    code = created["code"]
    ana = await Reader.open(server, code, created["token"])
    await ana.until("welcome")
    await ana.ws.send(json.dumps({"type": "start"}))
    await ana.until("hand_start")
    playing = None
    if pause is not None:
        playing = asyncio.create_task(ana.keep_reading(pause, seat=0))

    start = time.monotonic()
    crowd: list[Reader] = []
    readers: list[asyncio.Task[None]] = []
    joined: dict[int, float] = {}
    for first in range(0, mirones, BATCH):
        batch = await asyncio.gather(
            *(Reader.open(server, code) for _ in range(first, min(mirones, first + BATCH)))
        )
        await asyncio.gather(*(m.until("welcome") for m in batch))
        for m in batch:
            joined[id(m)] = time.monotonic()
            readers.append(asyncio.create_task(m.keep_reading()))
        crowd.extend(batch)
    watcher = crowd[0]
    # Everybody is counted: the mirones' own count reaches them all, with a few names at most.
    await until_told(watcher, mirones)
    left: dict[int, float] = {}
    for first in range(1, mirones, BATCH):
        batch = crowd[first : first + BATCH]
        await asyncio.gather(*(m.ws.close() for m in batch))
        for m in batch:
            left[id(m)] = time.monotonic()
    await until_told(watcher, 1)
    churned = time.monotonic() - start

    # Ana was never pushed off; reading again, she hears what there is to hear and plays on.
    if playing is not None:
        playing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await playing
    await ana.ws.send(json.dumps({"type": "ping", "ref": "after"}))
    await ana.until("pong", ref="after")
    assert ana.closed is None
    told = told_mirones(ana.since(start))
    assert told and count_of(told[-1][1]) == 1, "Ana knows one mirón is left"
    assert len(told) <= allowed(churned), (
        f"Ana was told of the mirones {len(told)} times in {churned:.1f} s "
        f"for {2 * mirones} arrivals and departures"
    )
    assert all(size < SMALL for size, m in told if m["type"] == "mirones")
    assert sum(size for size, _ in told) <= allowed(churned) * 4 * SMALL
    await play_on(ana, 3)

    # Each mirón heard of the others a few times a second at most, in small messages only.
    for reader in readers[1:]:
        await reader
    for m in crowd[1:]:
        after = m.got[1:]
        seconds = left[id(m)] - joined[id(m)]
        assert {message["type"] for _, _, message in after} <= {"mirones"}
        assert len(after) <= allowed(seconds), (len(after), seconds)
        assert all(size < SMALL for _, size, _ in after)
        assert m.got[0][2]["mesa"]["mirones_count"] >= 1
        assert len(m.got[0][2]["mesa"]["mirones"]) <= MIRONES_SHOWN
    await watcher.ws.close()
    await readers[0]
    # The last one gone, Ana is told nobody watches.
    async with asyncio.timeout(30):
        while True:
            told = told_mirones(ana.since(start))
            if count_of(told[-1][1]) == 0:
                break
            await ana.next()
    assert shown(told[-1][1]) == []
    await ana.ws.close()


async def until_told(reader: Reader, count: int) -> None:
    """Wait until ``reader`` is told that ``count`` mirones watch (with a few names at most)."""
    async with asyncio.timeout(120):
        while True:
            for _, _, message in reversed(reader.got):
                if message["type"] in ("mesa", "mirones", "welcome"):
                    if count_of(message) == count:
                        assert len(shown(message)) == min(count, MIRONES_SHOWN)
                        return
                    break
            await asyncio.sleep(0.01)


def test_a_hundred_mirones_come_and_go_while_a_player_does_not_read(
    server: ServerProcess,
) -> None:
    asyncio.run(churn(server, 100, None))


@pytest.mark.slow
def test_a_thousand_mirones_come_and_go_while_a_player_reads_slowly_and_plays(
    server: ServerProcess,
) -> None:
    asyncio.run(churn(server, 1000, 0.005))


class Socket:
    """What a connection writes to, kept."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def test_a_slow_reader_gets_the_latest_state_and_every_move() -> None:
    conn = Connection(None)  # type: ignore[arg-type]
    conn.tell("move 1")
    for n in range(1000):
        conn.tell(f"mirones {n}", state="mirones")
    conn.tell("move 2")
    conn.tell("mesa 1", state="mesa")  # it says who watches too: the waiting count goes
    conn.send("pong")
    conn.tell("mirones 1000", state="mirones")
    conn.tell("mesa 2", state="mesa")
    assert conn.waiting() == ["move 1", "move 2", "pong", "mesa 2"]


def test_a_reader_hopelessly_behind_gets_a_fresh_welcome_and_is_not_closed() -> None:
    async def scenario() -> None:
        socket = Socket()
        conn = Connection(socket)  # type: ignore[arg-type]

        async def resync() -> Any:
            conn.tell("move told while the welcome is made")  # it is in the welcome
            return {"type": "welcome", "seq": 7}

        conn.resync = resync
        conn.send("error 1")
        for n in range(OUTBOX_LIMIT + 50):
            conn.tell(f"move {n}")
        conn.tell("mesa", state="mesa")
        conn.send("pong")
        assert conn.waiting() == ["error 1", "pong"] and not conn.closed
        writer = asyncio.create_task(conn.write_loop())
        async with asyncio.timeout(10):
            while len(socket.sent) < 3:
                await asyncio.sleep(0)
        conn.tell("move after")
        conn.close(1000)
        await writer
        welcome = json.dumps({"type": "welcome", "seq": 7}).replace(" ", "")
        assert socket.sent == ["error 1", welcome, "pong", "move after"]
        assert socket.closed == (1000, "")

    asyncio.run(scenario())


def test_a_connection_that_sends_without_reading_is_closed() -> None:
    """Replies are never dropped, so a client that asks and never reads is let go (1013); so is
    one behind that has no mesa to be told anew."""
    for flood in ("send", "tell"):
        conn = Connection(None)  # type: ignore[arg-type]
        for n in range(OUTBOX_LIMIT + 1):
            getattr(conn, flood)(f"pong {n}")
        assert conn.closed and conn._outbox[-1].close == (CLOSE_SLOW, "")
        assert len(conn.waiting()) == OUTBOX_LIMIT


class StuckSocket(Socket):
    """A reader that reads nothing until it is ``freed``."""

    def __init__(self) -> None:
        super().__init__()
        self.freed = asyncio.Event()

    async def send_text(self, text: str) -> None:
        await self.freed.wait()
        self.sent.append(text)


@pytest.mark.slow  # a whole bot partida; the in-process fresh-welcome test above stays quick
def test_a_mirón_who_stops_reading_at_a_bots_mesa_catches_up_with_a_fresh_welcome(
    tmp_path: Path,
) -> None:
    """Four bots play a whole partida at once while a mirón reads nothing: it is never closed;
    once it reads again it gets the whole state anew and then every move after it, in order."""

    async def scenario() -> None:
        db = storage.Storage(f"sqlite:///{tmp_path / 'stuck.sqlite3'}")
        await db.run(migrate, db.engine)
        service = TableService(db, LocalBotPool(1))
        options = p.MesaOptions(bot_pause_ms=0)
        request = p.CreateMesa(
            rules={"preset": "dominicana", "target": 500}, seats=["tirafichas"] * 4, options=options
        )
        created = await service.create(request, "http://127.0.0.1")
        code = created["code"]
        socket = StuckSocket()
        conn = Connection(socket)  # type: ignore[arg-type]
        writer = asyncio.create_task(conn.write_loop())
        for message in (
            {"type": "hello", "code": code, "token": created["token"]},
            {"type": "start"},
        ):
            await service.handle(conn, p.read_intention(json.dumps(message)))
        mesa = service.rooms[code].mesa
        await until(lambda: conn._behind, 120)  # (more than OUTBOX_LIMIT moves wait)
        assert not conn.closed and len(conn.waiting()) < OUTBOX_LIMIT
        socket.freed.set()

        def over() -> bool:  # the last thing told: the mesa, its partida over
            last = json.loads(socket.sent[-1]) if socket.sent else {}
            return last.get("type") == "mesa" and last["mesa"]["status"] == "partida_over"

        await until(over, 120)
        conn.close(1000)
        await writer
        told = [json.loads(text) for text in socket.sent]
        welcomes = [i for i, m in enumerate(told) if m["type"] == "welcome"]
        assert len(welcomes) >= 2 and socket.closed == (1000, "")
        # After the fresh welcome, every move it does not hold, each once, in order.
        fresh = told[welcomes[-1]]
        moves = [m for m in told[welcomes[-1] + 1 :] if m["type"] in ("move", "hand_end")]
        seqs = [m["seq"] for m in moves]
        assert seqs == sorted(set(seqs)) and all(seq > fresh["seq"] for seq in seqs)
        assert told[-1]["seq"] == mesa.version

    asyncio.run(scenario())
