"""Test helpers: a real server process, WebSocket clients that record every message they get
and can play by themselves, and the knowledge check for leaks."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import quote

import httpx
import pytest
import websockets
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from fichaflow.core.deal import Deal
from fichaflow.core.tiles import tile_of
from fichaflow.server.settings import TEST_SEED_ENV, fixed_deal_seed

SEND_SPACING = 0.06
TEST_SEED = "fichaflow-tests"
"""The seed the test servers run with (``FICHAFLOW_TEST_SEED``): hand ``n`` of a mesa's partida
``p`` is ``known_deal(seats, hand=n, partida=p)`` and every bot's move is fixed by its view, so a
test can say exactly what happens, and a test that plays many hands meets a different deal in
each, the same in every run."""


def known_deal(seats: int, seed: str = TEST_SEED, hand: int = 1, partida: int = 1) -> Deal:
    """The deal of hand ``hand`` of partida ``partida`` at a test server started with ``seed``."""
    deal_seed = fixed_deal_seed(seed, hand, partida)
    assert deal_seed is not None
    return Deal.from_seed(seats, deal_seed)


TILE = re.compile(r"^([0-6])-([0-6])(:left|:right)?$")
PUBLIC_KEYS = {"sorteo", "forced_lead"}
"""Public by the rules: the tiles turned up in a sorteo (before the shuffle), and the tile the
leader is forced to lead (the cochina in a first hand of doble_seis), named before it is played."""


def named(value: Any, key: str | None = None) -> set[int]:
    """Every tile a piece of a message names: tile strings anywhere, and the line's pairs (the
    leak checks compare it with what the receiver may know)."""
    if key in PUBLIC_KEYS:
        return set()
    if isinstance(value, str):
        match = TILE.match(value)
        return {tile_of(int(match[1]), int(match[2]))} if match else set()
    if isinstance(value, dict):
        return set().union(*(named(v, k) for k, v in value.items()))
    if isinstance(value, list):
        if key == "line":
            return {tile_of(a, b) for a, b in value}
        return set().union(*(named(v, key) for v in value))
    return set()


POSTGRES_ENV = "FICHAFLOW_TEST_POSTGRES_URL"
"""Where the PostgreSQL runs find their database (a URL); they are skipped without it."""
POSTGRESQL = pytest.param("postgresql", marks=pytest.mark.slow)
"""The database parameter of tests that run on SQLite and again on PostgreSQL: the PostgreSQL runs
are in the full run (``pytest --slow``, CI); a bare ``pytest`` stays quick on SQLite alone."""

SERVE = [sys.executable, "-c", "from fichaflow.cli import main; main()", "serve"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def postgres_schema_url(base: str, schema: str) -> Iterator[str]:
    engine = create_engine(base)
    with engine.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    separator = "&" if "?" in base else "?"
    try:
        yield f"{base}{separator}options={quote(f'-csearch_path={schema}')}"
    finally:
        with engine.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@contextlib.contextmanager
def postgres_database(base: str, prefix: str) -> Iterator[str]:
    """A PostgreSQL database of its own (``prefix`` and random letters) on the server of the URL
    ``base``, for tests that do to a database what no shared one may suffer (refuse connections,
    serve two servers); dropped at the end, whatever its clients still hold."""
    name = f"{prefix}_{secrets.token_hex(4)}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true'))
            connection.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()


@contextlib.contextmanager
def database_server(database: str, folder: Path, prefix: str) -> Iterator[ServerProcess]:
    """A real server on ``database`` (``"sqlite"``, or ``POSTGRESQL``: a fresh database of its
    own, named from ``prefix``), its files and log in ``folder``; a PostgreSQL run skips, saying
    why, when ``FICHAFLOW_TEST_POSTGRES_URL`` is not set."""
    log = folder / "server.log"
    if database == "sqlite":
        with ServerProcess(f"sqlite:///{folder / 'fichaflow.sqlite3'}", log=log) as srv:
            yield srv
        return
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set: no PostgreSQL to test against")
    with postgres_database(base, prefix) as url, ServerProcess(url, log=log) as srv:
        yield srv


def wait_until_serving(base: str, process: subprocess.Popen[Any], timeout: float = 90) -> bool:
    """Wait until the server at ``base`` answers its health check: True, or False when its
    process ends or ``timeout`` seconds pass first. (A server that works answers in about a
    second; on a shared machine busy with other tests' servers and bots it once took over 30.)"""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                return True
        time.sleep(0.1)
    return False


class ServesHttp(Protocol):
    """What the HTTP helpers use of a server: one node (:class:`ServerProcess`), or the load
    balancer in front of several (the cluster tests)."""

    def http(self) -> httpx.AsyncClient: ...


class ServesWebSockets(Protocol):
    """What a :class:`Client` uses of a server: where to open its WebSocket."""

    @property
    def ws_url(self) -> str: ...


class ServerProcess:
    """``fichaflow serve`` on a free port of 127.0.0.1."""

    def __init__(
        self,
        database_url: str,
        port: int | None = None,
        http_limit: int = 0,
        log: Path | None = None,
        seed: str | None = None,
        options: Sequence[str] = (),
    ) -> None:
        self.database_url = database_url
        self.options = list(options)  # more ``fichaflow serve`` options, as written
        self.seed = seed  # None: secret deal seeds, as in real play; else see TEST_SEED
        self.port = port or free_port()
        self.http_limit = http_limit  # tests create mesas faster than people do: no limit
        # What the server prints goes to a file (a pipe nobody reads could fill and stop it);
        # a log of our own making is removed when the server stops.
        self.own_log = log is None
        self.log = log or Path(tempfile.mkstemp(prefix="fichaflow-server-", suffix=".log")[1])
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, timeout: float = 90) -> None:
        command = [
            *SERVE,
            "--port",
            str(self.port),
            "--db",
            self.database_url,
            # (with --redis the bots think in fichaflow worker, and serve refuses --bot-workers)
            *([] if "--redis" in self.options else ["--bot-workers", "1"]),
            "--http-limit",
            str(self.http_limit),
            # tests connect many clients from one address, as no family does (options given
            # to the constructor come later and win)
            "--ws-per-address",
            "0",
            *self.options,
        ]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop(TEST_SEED_ENV, None)
        if self.seed is not None:
            env[TEST_SEED_ENV] = self.seed
        with self.log.open("ab") as sink:
            self.process = subprocess.Popen(command, stdout=sink, stderr=subprocess.STDOUT, env=env)
        if not wait_until_serving(self.url, self.process, timeout):
            said = self.log.read_text()
            self.stop()  # never leave a server (and its bots) running behind a failed start
            raise RuntimeError(f"the server did not start:\n{said}")

    def kill(self) -> None:
        """SIGKILL: no chance to flush or say goodbye."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        if self.own_log:
            self.log.unlink(missing_ok=True)

    def restart(self) -> None:
        """Stop and start again on the same database and port."""
        self.stop()
        self.start()

    def http(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.url, timeout=10)

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


async def create_mesa(server: ServesHttp, **body: Any) -> dict[str, Any]:
    body.setdefault("options", {})
    body["options"].setdefault("bot_pause_ms", 0)
    async with server.http() as http:
        response = await http.post("/api/mesas", json=body)
        assert response.status_code == 201, response.text
        return dict(response.json())


async def join(server: ServesHttp, code: str, name: str, seat: int | None) -> dict[str, Any]:
    async with server.http() as http:
        response = await http.post(f"/api/mesas/{code}/join", json={"name": name, "seat": seat})
        assert response.status_code == 201, response.text
        return dict(response.json())


async def get_json(server: ServesHttp, path: str) -> dict[str, Any]:
    async with server.http() as http:
        response = await http.get(path)
        assert response.status_code == 200, response.text
        return dict(response.json())


async def until(condition: Callable[[], bool], timeout: float = 30) -> None:
    """Wait until ``condition()`` holds (checked as the other tasks run), at most ``timeout``
    seconds: a test waits for what it needs, never for a guessed length of time."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


async def all_told_partida_over(clients: list[Client], timeout: float = 30) -> None:
    """Wait until every one of ``clients`` has been told the partida is over."""
    await asyncio.wait_for(asyncio.gather(*(c.partida_over.wait() for c in clients)), timeout)


class Client:
    """One WebSocket client of a mesa. It keeps every message it receives (``log``, as sent;
    ``seen`` and ``inbox`` with each move's view made whole: :func:`whole_view`), and, with
    ``autoplay``, plays a random legal move whenever its view says it is its turn and says it is
    ready after each hand. With ``reconnect`` it comes back by itself when the server goes."""

    def __init__(
        self,
        server: ServesWebSockets,
        code: str,
        token: str | None = None,
        *,
        autoplay: bool = False,
        reconnect: bool = False,
        seed: int = 0,
        turns: bool = True,
    ) -> None:
        self.server, self.code, self.token = server, code, token
        self.turns = turns  # its hello asks for each move's turns, not the whole view
        self.autoplay, self.reconnect = autoplay, reconnect
        self.rng = random.Random(seed)
        self.log: list[dict[str, Any]] = []  # every message as sent
        self.seen: list[dict[str, Any]] = []  # the same, each view made whole (whole_view)
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.ws: Any = None
        self.seat: int | None = None
        self.welcomes = 0
        self.drops = 0  # connections lost (the server went away, or closed this one)
        self.partida_over = asyncio.Event()
        self.closed = asyncio.Event()
        self.close_code: int | None = None
        self.view: dict[str, Any] | None = None  # the latest view, made whole (whole_view)
        self._task: asyncio.Task[None] | None = None
        self._last_played: tuple[int, int] | None = None
        self._last_send = 0.0

    async def connect(self) -> dict[str, Any]:
        await self._open()
        self._task = asyncio.get_running_loop().create_task(self._run())
        return await self.expect("welcome")

    async def _open(self) -> None:
        self.ws = await websockets.connect(self.server.ws_url, max_size=2**22)
        hello = {"type": "hello", "code": self.code, "token": self.token}
        await self.ws.send(json.dumps({**hello, "turns": True} if self.turns else hello))

    async def _run(self) -> None:
        while True:
            try:
                async for raw in self.ws:
                    message = json.loads(raw)
                    self.log.append(message)
                    if message.get("view") is not None:
                        self.view = whole_view(self.view, message)
                        message = {**message, "view": self.view}
                    self.seen.append(message)
                    await self._on(message)
                    self.inbox.put_nowait(message)
                self.close_code = self.ws.close_code
            except (websockets.ConnectionClosed, OSError):
                self.close_code = getattr(self.ws, "close_code", None)
            self.drops += 1
            if not self.reconnect:
                self.closed.set()
                return
            await self._reopen()

    async def _reopen(self) -> None:
        while True:
            await asyncio.sleep(0.1)
            with contextlib.suppress(OSError, websockets.InvalidHandshake):
                await self._open()
                return

    async def _on(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "welcome":
            self.welcomes += 1
            self._last_played = None  # a move sent to a server that died may be lost
            you = message.get("you")
            self.seat = you["seat"] if you else None
        if kind == "partida_end" or (
            kind == "welcome" and message["mesa"]["status"] == "partida_over"
        ):
            # (A partida that ended while this client was away is over all the same.)
            self.partida_over.set()
        if not self.autoplay:
            return
        if kind == "hand_end":
            hand = message["hand"]
            await self.send({"type": "ready", "partida": hand["partida"], "after": hand["number"]})
        if kind == "welcome" and message["mesa"]["status"] == "hand_over":
            await self.send({"type": "ready", "after": message["view"]["hand_number"]})
        view = message.get("view")
        if view and self.seat is not None and view["turn"] == self.seat and view["legal"]:
            at = (view["hand_number"], len(view["history"]))
            if at != self._last_played:
                self._last_played = at
                await self.send({"type": "play", "move": self.rng.choice(view["legal"])})

    async def send(self, message: dict[str, Any] | str) -> None:
        """Send, keeping under the server's flood limit (20 messages a second) as a person
        would; the flood test writes to ``ws`` directly."""
        wait = self._last_send + SEND_SPACING - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        self._last_send = time.monotonic()
        text = message if isinstance(message, str) else json.dumps(message)
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.ws.send(text)

    async def expect(
        self, kind: str, timeout: float = 15, where: Callable[[dict[str, Any]], bool] | None = None
    ) -> dict[str, Any]:
        """The next message of type ``kind`` (others are skipped)."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.inbox.get()
                if message["type"] == kind and (where is None or where(message)):
                    return message

    async def ask(self, message: dict[str, Any], timeout: float = 10) -> dict[str, Any]:
        """Send ``message`` with a ref and return the error it got (or fail)."""
        ref = f"r{random.getrandbits(32)}"
        await self.send({**message, "ref": ref})
        return await self.expect("error", timeout, lambda m: m.get("ref") == ref)

    async def ping(self) -> None:
        """A round trip: proves the connection is open and earlier messages were handled."""
        ref = f"p{random.getrandbits(32)}"
        await self.send({"type": "ping", "ref": ref})
        await self.expect("pong", 10, lambda m: m.get("ref") == ref)

    async def close(self) -> None:
        self.reconnect = False
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()

    def last_view(self) -> dict[str, Any] | None:
        return None if self.view is None else dict(self.view)


def whole_view(held: dict[str, Any] | None, message: dict[str, Any]) -> dict[str, Any]:
    """The receiver's view after ``message``, as a client rebuilds it: a ``move`` to a client
    that asked for ``turns`` carries its view without the history and the turns it added (from
    ``turns_from`` on) to the ``held`` view's; any other message the whole view. A move that
    does not follow ``held`` fails."""
    view: dict[str, Any] = message["view"]
    if message["type"] != "move" or "turns" not in message:
        return view
    assert held is not None and held["hand_number"] == view["hand_number"], "a move of no hand"
    start = message["turns_from"]
    assert len(held["history"]) >= start, f"turns {len(held['history'])} to {start} never told"
    assert "history" not in view, "a move's view repeats the whole history"
    return {**view, "history": held["history"][:start] + message["turns"]}


def is_spanish_error(message: dict[str, Any], code: str) -> bool:
    return (
        message["type"] == "error"
        and message["code"] == code
        and isinstance(message["message"], str)
        and message["message"] != message["message_en"]
        and len(message["message"]) > 10
    )


# -- the moves as stored, and turns played by whoever is to move ----------------------------


def stored_moves(url: str, code: str) -> list[tuple[int, int, str]]:
    """(hand, number, notation) of every stored move of the mesa's first partida, in order."""
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text(
                    "SELECT hand, number, notation FROM moves WHERE mesa = :code AND partida = 1 "
                    "ORDER BY hand, number"
                ),
                {"code": code},
            ).all()
    finally:
        engine.dispose()
    return [(r[0], r[1], r[2]) for r in rows]


def contiguous(moves: list[tuple[int, int, str]]) -> bool:
    """Each hand's moves are numbered 1, 2, 3… with no gap."""
    hands: dict[int, list[int]] = {}
    for hand, number, _ in moves:
        hands.setdefault(hand, []).append(number)
    return all(numbers == list(range(1, len(numbers) + 1)) for numbers in hands.values())


def last_seq(client: Client) -> int:
    return max((m["seq"] for m in client.log if "seq" in m), default=0)


def history(client: Client) -> list[Any]:
    view = client.last_view()
    assert view is not None
    return list(view["history"])


async def play_turn(clients: list[Client]) -> None:
    """The client whose turn it is plays its first legal move; wait until everyone is told."""
    mover = next(c for c in clients if (v := c.last_view()) and v["turn"] == c.seat and v["legal"])
    view = mover.last_view()
    assert view is not None
    before = [last_seq(c) for c in clients]
    await mover.send({"type": "play", "move": view["legal"][0]})
    await until(lambda: all(last_seq(c) > b for c, b in zip(clients, before, strict=True)))
