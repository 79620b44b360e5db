"""Server load: many mesas at once, each with four real WebSocket clients, against a real
``fichaflow serve`` on SQLite, on the loopback address only.

Every client answers its turn ``--delay`` seconds after its view says it is its turn (a random
legal move), says it is ready the same time after a hand ends, and seat 0 (the host) starts the
next partida the same time after one ends. The script reports, over a steady window after every
table has started: moves accepted per second, the 50th/99th percentile and the largest time from a
move sent to the sender receiving its broadcast, errors of any kind, and the server's largest
resident memory and CPU use, and the client processes' largest resident memory (the load generator
is part of the machine's budget), how late the clients' own event loop runs (every latency
includes it), and whether moves come evenly or in waves (their spread per 50 ms against
independent arrivals). Nothing but 127.0.0.1 is contacted, and the run stops by itself.

The clients read and write on websockets' sans-I/O protocol straight from the event loop's
callbacks (``LeanSocket``), the cheapest WebSocket client we have, since they share the machine
with the server they measure; ``--client websockets`` runs the library's asyncio client instead
(every figure in docs/benchmarks.md before 2026-12-06's late evening was made with it).

    python bench/load_server.py --tables 500 --delay 0.5 --seconds 60
    python bench/load_server.py --tables 200 --delay 0 --seconds 30     # moves per second
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import platform
import random
import resource
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop
import websockets
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.protocol import State
from websockets.uri import WebSocketURI, parse_uri

from fichaflow.cli.serve import WEBSOCKETS

SERVE = [sys.executable, "-c", "from fichaflow.cli import main; main()", "serve"]


def serve_with_ws(ws: str | None) -> list[str]:
    """``fichaflow serve`` with uvicorn's WebSocket implementation forced to ``ws`` (None: the
    server's own choice), to compare two implementations in one run."""
    if ws is None:
        return SERVE
    start = (
        "import uvicorn; run = uvicorn.run; "
        f"uvicorn.run = lambda *a, **k: run(*a, **{{**k, 'ws': {ws!r}}}); "
        "from fichaflow.cli import main; main()"
    )
    return [sys.executable, "-c", start, "serve"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def raise_open_files() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def scheduled(pid: int) -> tuple[float, float]:
    """Seconds the process's threads have run, and waited for a core (Linux schedstat)."""
    ran = waited = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            run, wait, _ = (task / "schedstat").read_text().split()
            ran += int(run) / 1e9
            waited += int(wait) / 1e9
    return ran, waited


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    moves: list[float] = field(default_factory=list)  # when each accepted move was seen
    errors: list[str] = field(default_factory=list)
    partidas: int = 0
    bytes_by_type: Counter[str] = field(default_factory=Counter)  # read while measuring
    frames_by_type: Counter[str] = field(default_factory=Counter)  # read while measuring


class LeanSocket(asyncio.Protocol):
    """A client WebSocket on websockets' sans-I/O protocol, driven straight from the event loop's
    callbacks: a frame read is handed to ``on_text`` at once, with no reader task, queue or
    future a frame as the library's asyncio client keeps. The browsers this bench stands for run
    on their own machines; the leaner the load generator, the less of this machine's two cores it
    takes from the server it measures (``--client websockets`` keeps the library's client)."""

    def __init__(self, where: WebSocketURI, on_text: Any, on_close: Any) -> None:
        self.protocol = ClientProtocol(where, max_size=2**22)
        self.on_text, self.on_close = on_text, on_close
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.transport: Any = None

    @classmethod
    async def connect(cls, url: str, on_text: Any, on_close: Any) -> LeanSocket:
        where = parse_uri(url)
        loop = asyncio.get_running_loop()
        _, socket = await loop.create_connection(
            lambda: cls(where, on_text, on_close), where.host, where.port
        )
        await socket.opened
        return socket

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        self.protocol.send_request(self.protocol.connect())
        self.flush()

    def data_received(self, data: bytes) -> None:
        self.protocol.receive_data(data)
        for event in self.protocol.events_received():
            if isinstance(event, Response):
                if self.protocol.state is State.OPEN:
                    self.opened.set_result(None)
                else:
                    self.opened.set_exception(ConnectionError(f"handshake {event.status_code}"))
            elif isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                self.on_text(event.data)  # (the server sends each message in one frame)
        self.flush()  # pongs, the answer to a close

    def connection_lost(self, exc: Exception | None) -> None:
        self.on_close(self.protocol.close_code)

    def flush(self) -> None:
        for chunk in self.protocol.data_to_send():
            if chunk:
                self.transport.write(chunk)
            elif self.transport.can_write_eof():
                self.transport.write_eof()

    def send(self, text: bytes) -> None:
        if self.protocol.state is State.OPEN:  # (an answer timed before the close is dropped)
            self.protocol.send_text(text)
            self.flush()

    async def close(self) -> None:
        if self.protocol.state is State.OPEN:
            self.protocol.send_close()
            self.flush()
        self.transport.close()


class LibrarySocket:
    """The same calls on websockets' own asyncio client, which reads in a task of its own and
    keeps a queue and a future a frame: what a plain client costs, for comparison."""

    def __init__(self, ws: Any, on_text: Any, on_close: Any) -> None:
        self.ws, self.on_text, self.on_close = ws, on_text, on_close
        self.reader = asyncio.ensure_future(self.read())

    @classmethod
    async def connect(cls, url: str, on_text: Any, on_close: Any) -> LibrarySocket:
        ws = await websockets.connect(url, max_size=2**22, ping_interval=None)
        return cls(ws, on_text, on_close)

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                self.on_text(raw)
        except websockets.ConnectionClosed:
            pass
        self.on_close(self.ws.close_code)

    def send(self, text: bytes) -> None:
        task = asyncio.ensure_future(self.ws.send(text.decode()))
        task.add_done_callback(lambda t: t.exception())

    async def close(self) -> None:
        self.reader.cancel()
        await self.ws.close()


SOCKETS: dict[str, Any] = {"lean": LeanSocket, "websockets": LibrarySocket}


def add_client_option(parser: argparse.ArgumentParser) -> None:
    """``--client``: which of :data:`SOCKETS` the load generator's clients use."""
    parser.add_argument(
        "--client",
        choices=tuple(SOCKETS),
        default="lean",
        help="the clients' WebSocket: sans-I/O on the loop's callbacks, or the library's own",
    )


class Player:
    """One of a mesa's four clients."""

    def __init__(
        self, url: str, code: str, token: str, seat: int, delay: float, stats: Stats,
        client: str = "lean",
    ) -> None:  # fmt: skip
        self.url, self.code, self.token, self.seat = url, code, token, seat
        self.delay, self.stats, self.client = delay, stats, client
        self.rng = random.Random(f"{code}/{seat}")
        self.ws: Any = None
        self.answered: tuple[int, int] | None = None
        self.sent_at: float | None = None
        self.measuring = False
        self.stopping = False

    async def connect(self) -> None:
        self.ws = await SOCKETS[self.client].connect(self.url, self.received, self.closed)
        self.write({"type": "hello", "code": self.code, "token": self.token, "turns": True})

    def received(self, raw: str | bytes) -> None:
        if self.stopping:
            return
        message = orjson.loads(raw)
        if self.measuring:
            self.stats.bytes_by_type[message["type"]] += len(raw)
            self.stats.frames_by_type[message["type"]] += 1
        self.on(message)

    def closed(self, code: int | None) -> None:
        if not self.stopping:
            self.stats.errors.append(f"closed {code}")

    def write(self, message: dict[str, Any]) -> None:
        if not self.stopping:
            self.ws.send(orjson.dumps(message))

    def later(self, message: dict[str, Any]) -> None:
        asyncio.get_running_loop().call_later(self.delay, self.send, message)

    def send(self, message: dict[str, Any]) -> None:
        if message["type"] == "play":
            self.sent_at = time.perf_counter()
        self.write(message)

    def on(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        now = time.perf_counter()
        if kind == "error":
            self.stats.errors.append(message["code"])
            return
        if kind in ("move", "hand_end"):
            if self.seat == 0:
                self.stats.moves.append(now)
            if message["move"]["seat"] == self.seat and self.sent_at is not None:
                if self.measuring:
                    self.stats.latencies.append(now - self.sent_at)
                self.sent_at = None
        if kind == "hand_end":
            hand = message["hand"]
            self.later({"type": "ready", "partida": hand["partida"], "after": hand["number"]})
        if kind == "partida_end" and self.seat == 0:
            self.stats.partidas += 1
            self.later({"type": "start"})
        view = message.get("view")
        if view and not view["ended"] and view["turn"] == self.seat and view["legal"]:
            # (its hello asks for turns: a move brings the turns it added, not the history)
            turns = message["turns_from"] + len(message["turns"]) if kind == "move" else None
            at = (view["hand_number"], len(view["history"]) if turns is None else turns)
            if at != self.answered:
                self.answered = at
                self.later({"type": "play", "move": self.rng.choice(view["legal"])})


Seat = tuple[str, str, int, str | None]
"""A player of a mesa: (code, token, seat, the server holding the mesa as its join said)."""


async def make_tables(base: str, count: int) -> list[list[Seat]]:
    """``count`` mesas of four people; for each, a :data:`Seat` per player."""
    limits = httpx.Limits(max_connections=16)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        gate = asyncio.Semaphore(16)

        async def one(n: int) -> list[Seat]:
            async with gate:
                body = {"rules": "dominicana", "name": f"h{n}", "seat": 0}
                created = (await http.post("/api/mesas", json=body)).json()
                code = created["code"]
                seats: list[Seat] = [(code, created["token"], 0, created.get("node"))]
                for seat in (1, 2, 3):
                    joined = await http.post(
                        f"/api/mesas/{code}/join", json={"name": f"p{n}.{seat}", "seat": seat}
                    )
                    answer = joined.json()
                    seats.append((code, answer["token"], seat, answer.get("node")))
                return seats

        return list(await asyncio.gather(*(one(n) for n in range(count))))


async def drive(
    ws_url: str, tables: list[list[Seat]], delay: float, warmup: float, seconds: float,
    named: bool = False, client: str = "lean",
) -> dict[str, Any]:  # fmt: skip
    """Connect every player, start every mesa, measure over the steady window. With ``named``
    each WebSocket names its mesa's server (``?node=``, as the web page does in a cluster);
    ``client`` names one of :data:`SOCKETS`."""
    stats = Stats()
    stop = asyncio.Event()
    players = [
        Player(f"{ws_url}?node={node}" if named and node else ws_url, c, t, s, delay, stats, client)
        for table in tables
        for c, t, s, node in table
    ]
    for start in range(0, len(players), 100):
        await asyncio.gather(*(p.connect() for p in players[start : start + 100]))
    await asyncio.sleep(1)
    for player in players:
        if player.seat == 0:
            player.send({"type": "start"})
    await asyncio.sleep(warmup)
    for player in players:
        player.measuring = True
    lags: list[float] = []
    watcher = asyncio.ensure_future(watch_loop(stop, lags))
    begin = time.perf_counter()
    cpu_begin = time.process_time()
    await asyncio.sleep(seconds)
    end = time.perf_counter()
    client_cpu = (time.process_time() - cpu_begin) / (end - begin)
    stop.set()
    watcher.cancel()
    for player in players:
        player.stopping = True
    for player in players:
        with contextlib.suppress(Exception):
            await player.ws.close()
    window = [t for t in stats.moves if begin <= t <= end]
    return {
        "move_times": window,  # (perf_counter: the system's monotonic clock, one for all processes)
        "loop_lags": lags,
        "latencies": stats.latencies,
        "moves": len(window),
        "window": end - begin,
        "errors": stats.errors,
        "partidas": stats.partidas,
        "client_cpu": client_cpu,
        "bytes_by_type": stats.bytes_by_type,
        "frames_by_type": stats.frames_by_type,
        "begin": begin,  # (perf_counter: the window, for other processes' CPU over it)
        "end": end,
    }


LAG_TICK = 0.01
BIN = 0.05


async def watch_loop(stop: asyncio.Event, lags: list[float]) -> None:
    """How late this process's event loop wakes from a 10 ms sleep: the load generator's own
    delay, which every latency it measures includes."""
    while not stop.is_set():
        asked = time.perf_counter()
        await asyncio.sleep(LAG_TICK)
        lags.append(time.perf_counter() - asked - LAG_TICK)


def move_bins(times: list[float], begin: float, end: float) -> list[int]:
    """Moves seen in each whole 50 ms of the window: whether they come evenly or in waves."""
    counts = [0] * max(1, int((end - begin) / BIN))
    for t in times:
        slot = int((t - begin) / BIN) if t >= begin else -1
        if 0 <= slot < len(counts):
            counts[slot] += 1
    return counts


def waves(bins: list[int]) -> dict[str, float]:
    """The spread of moves per 50 ms against what moves arriving independently (Poisson)
    would give: a ratio well above 1 means the mesas move in step, in waves."""
    mean = sum(bins) / len(bins)
    spread = (sum((b - mean) ** 2 for b in bins) / len(bins)) ** 0.5
    return {
        "moves_per_50ms_mean": round(mean, 1),
        "moves_per_50ms_max": max(bins),
        "spread_over_poisson": round(spread / mean**0.5, 1) if mean else float("nan"),
    }


def client_process(args: tuple[str, list[Any], float, float, float, bool, str]) -> dict[str, Any]:
    """One process of clients, on uvloop (as the server is) to keep the clients' own cost low."""
    raise_open_files()
    result: dict[str, Any] = uvloop.run(drive(*args))
    # Linux gives the largest resident set in KiB: the load generator's share of the memory.
    result["client_rss_max_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return result


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--delay", type=float, default=0.5, help="seconds before each answer")
    parser.add_argument("--seconds", type=float, default=60, help="the measured window")
    parser.add_argument("--warmup", type=float, default=10)
    parser.add_argument("--procs", type=int, default=1, help="client processes")
    add_client_option(parser)
    parser.add_argument(
        "--ws", default=None, help="uvicorn's WebSocket implementation (default: the server's)"
    )
    args = parser.parse_args()
    raise_open_files()

    folder = Path(tempfile.mkdtemp(prefix="fichaflow-load-"))
    port = free_port()
    base, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws"
    database = f"sqlite:///{folder / 'load.sqlite3'}"
    command = [*serve_with_ws(args.ws), "--port", str(port), "--db", database]
    command += ["--http-limit", "0", "--ws-per-address", "0"]  # every client is on 127.0.0.1
    log = (folder / "server.log").open("wb")
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
    try:
        for _ in range(300):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            time.sleep(0.1)
        setup = time.perf_counter()
        tables = asyncio.run(make_tables(base, args.tables))
        print(f"{args.tables} mesas made in {time.perf_counter() - setup:.1f} s", flush=True)
        shares = [tables[i :: args.procs] for i in range(args.procs)]
        jobs = [
            (ws_url, share, args.delay, args.warmup, args.seconds, False, args.client)
            for share in shares
        ]
        memory: list[float] = []
        cpu_start = cpu_seconds(server.pid)
        ran_start, waited_start = scheduled(server.pid)
        started = time.perf_counter()
        with multiprocessing.get_context("spawn").Pool(args.procs) as pool:
            pending = pool.map_async(client_process, jobs)
            while not pending.ready():
                memory.append(rss_mb(server.pid))
                pending.wait(1)
            results = pending.get()
        server_cpu = (cpu_seconds(server.pid) - cpu_start) / (time.perf_counter() - started)
        ran_end, waited_end = scheduled(server.pid)
        load = os.getloadavg()[0]
    finally:
        server.terminate()
        server.wait(20)
        log.close()
    latencies = [x for r in results for x in r["latencies"]]
    moves = sum(r["moves"] for r in results)
    window = max(r["window"] for r in results)
    errors = [e for r in results for e in r["errors"]]
    lags = [x for r in results for x in r["loop_lags"]]
    # The 50 ms bins over the window every client process measured, on one clock.
    common = max(r["begin"] for r in results), min(r["end"] for r in results)
    bins = move_bins([t for r in results for t in r["move_times"]], *common)
    read = sum((Counter(r["bytes_by_type"]) for r in results), Counter[str]())
    summary = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{os.cpu_count()} cores, {platform.python_implementation()} "
        f"{platform.python_version()}",
        "tables": args.tables,
        "ws": args.ws or WEBSOCKETS,
        "client": args.client,
        "clients": 4 * args.tables,
        "delay_s": args.delay,
        "window_s": round(window, 1),
        "moves_per_s": round(moves / window, 1),
        "moves_measured": len(latencies),
        "p50_ms": round(percentile(latencies, 50) * 1000, 1),
        "p99_ms": round(percentile(latencies, 99) * 1000, 1),
        "max_ms": round(max(latencies, default=float("nan")) * 1000, 1),
        "errors": len(errors),
        "error_kinds": sorted(set(errors))[:5],
        "partidas_finished": sum(r["partidas"] for r in results),
        "server_rss_max_mb": round(max(memory, default=0), 1),
        "clients_rss_max_mb": round(sum(r["client_rss_max_mb"] for r in results), 1),
        "server_cpu_cores": round(server_cpu, 2),
        "client_cpu_cores": round(sum(r["client_cpu"] for r in results), 2),
        # every frame the clients read over the window, per move (each move reaches 4 clients)
        "received_kb_per_move": round(read.total() / max(moves, 1) / 1e3, 2),
        "received_kb_per_move_by_type": {
            kind: round(size / max(moves, 1) / 1e3, 3) for kind, size in read.most_common()
        },
        "frames_per_move_by_type": {
            kind: round(count / max(moves, 1), 2)
            for kind, count in sum(
                (Counter(r["frames_by_type"]) for r in results), Counter()
            ).most_common()
        },
        "client_loop_lag_p99_ms": round(percentile(lags, 99) * 1000, 1),
        "client_loop_lag_max_ms": round(max(lags, default=float("nan")) * 1000, 1),
        **waves(bins),
        "server_ran_s": round(ran_end - ran_start, 1),
        "server_waited_for_cpu_s": round(waited_end - waited_start, 1),
        "load_average_1min": round(load, 1),
    }
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
