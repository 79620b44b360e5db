"""The public lobby with many open mesas (#16): a real ``fichaflow serve`` on SQLite, on the
loopback address only.

``--mesas`` public parejas mesas are made (a host seated and connected in each: a mesa nobody is
at is not listed; three chairs free). Then:

1. **A new browser's list**: ``--samples`` times, a new WebSocket to ``/ws/lobby`` until its
   first message (the whole list) is read and parsed; and as many ``GET /api/lobby`` (gzip, as a
   browser asks). Median and p99, the list's size.
2. **A change to every watcher**: ``--watchers`` lobby WebSockets stay open; ``--changes`` times,
   a person joins a random listed mesa (``POST /api/mesas/{code}/join``, one change at a time,
   ``--spacing`` seconds apart); each watcher notes when the diff that shows the chair taken
   arrives. The latency is from just before the join is sent to that arrival, for every watcher
   and change: median, p99, max.

    python bench/lobby.py --mesas 2000 --watchers 200
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import platform
import random
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import uvloop
import websockets

from load_server import SERVE, cpu_seconds, free_port, raise_open_files


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def ms(value: float) -> float:
    return round(value * 1000, 1)


class Watcher:
    def __init__(self) -> None:
        self.ws: Any = None
        self.seen: dict[tuple[str, int], float] = {}  # (code, free) -> when it arrived

    async def open(self, url: str) -> None:
        self.ws = await websockets.connect(url, max_size=2**26, ping_interval=None)
        json.loads(await self.ws.recv())

    async def read(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in self.ws:
                now = time.perf_counter()
                for entry in json.loads(raw)["mesas"]:
                    self.seen.setdefault((entry["code"], entry["free"]), now)


async def make_mesas(base: str, ws_url: str, count: int) -> tuple[list[str], list[Any]]:
    """``count`` public mesas, each with its host seated and connected (a mesa nobody is at is
    not listed): their codes, and the hosts' open sockets."""
    codes: list[str] = []
    hosts: list[Any] = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        semaphore = asyncio.Semaphore(16)

        async def one(n: int) -> None:
            body = {
                "rules": "dominicana",
                "name": f"Anfitrión {n}",
                "seat": 0,
                "options": {"public": True},
            }
            async with semaphore:
                answer = await http.post("/api/mesas", json=body)
                answer.raise_for_status()
                made = answer.json()
                ws = await websockets.connect(ws_url, max_size=2**22, ping_interval=None)
                hello = {"type": "hello", "code": made["code"], "token": made["token"]}
                await ws.send(json.dumps(hello))
                await ws.recv()  # the welcome
            codes.append(made["code"])
            hosts.append(ws)

        await asyncio.gather(*(one(n) for n in range(count)))
    return codes, hosts


async def drain(ws: Any) -> None:
    """A host reads what its mesa says (and answers the server's pings), and keeps nothing."""
    with contextlib.suppress(websockets.ConnectionClosed):
        async for _ in ws:
            pass


async def bench(base: str, ws_url: str, args: argparse.Namespace) -> dict[str, Any]:
    started = time.perf_counter()
    codes, hosts = await make_mesas(base, ws_url, args.mesas)
    made_in = time.perf_counter() - started
    draining = [asyncio.ensure_future(drain(ws)) for ws in hosts]
    # This process holds the 2,000 hosts' sockets: its own garbage collections (a full one
    # every few newcomers' parsed lists) stalled it for ~150 ms and were counted as the
    # server's. What it holds now is kept out of the collections, which wait until the end.
    gc.collect()
    gc.freeze()
    gc.disable()
    await asyncio.sleep(0.5)
    lobby_url = f"{ws_url}/lobby"
    ws_times: list[float] = []
    size = 0
    listed = 0
    for _ in range(args.samples):
        t0 = time.perf_counter()
        async with websockets.connect(lobby_url, max_size=2**26, ping_interval=None) as ws:
            raw = await ws.recv()
            listed = len(json.loads(raw)["mesas"])
            ws_times.append(time.perf_counter() - t0)
            size = len(raw)
    http_times: list[float] = []
    gz = 0
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for _ in range(args.samples):
            t0 = time.perf_counter()
            answer = await http.get("/api/lobby", headers={"Accept-Encoding": "gzip"})
            answer.json()
            http_times.append(time.perf_counter() - t0)
            gz = int(answer.headers.get("content-length") or 0)
    watchers = [Watcher() for _ in range(args.watchers)]
    for w in watchers:
        await w.open(lobby_url)
    readers = [asyncio.ensure_future(w.read()) for w in watchers]
    free = dict.fromkeys(codes, 3)
    sent: list[tuple[str, int, float]] = []
    rng = random.Random(7)
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for n in range(args.changes):
            code = rng.choice([c for c in codes if free[c] > 0])
            seat = 4 - free[code]
            t0 = time.perf_counter()
            answer = await http.post(
                f"/api/mesas/{code}/join", json={"name": f"Jugador {n}", "seat": seat}
            )
            answer.raise_for_status()
            free[code] -= 1
            sent.append((code, free[code], t0))
            await asyncio.sleep(args.spacing)
    await asyncio.sleep(1.0)
    latencies: list[float] = []
    missing = 0
    for code, left, t0 in sent:
        for w in watchers:
            at = w.seen.get((code, left))
            if at is None:
                missing += 1
            else:
                latencies.append(at - t0)
    for r in readers:
        r.cancel()
    for w in watchers:
        await w.ws.close()
    for task in draining:
        task.cancel()
    for ws in hosts:
        await ws.close()
    gc.enable()
    gc.unfreeze()
    return {
        "mesas_made": len(codes),
        "made_seconds": round(made_in, 1),
        "listed": listed,
        "list_bytes": size,
        "list_gzip_bytes": gz,
        "new_client_ws_ms": {
            "median": ms(statistics.median(ws_times)),
            "p99": ms(percentile(ws_times, 0.99)),
        },
        "new_client_http_ms": {
            "median": ms(statistics.median(http_times)),
            "p99": ms(percentile(http_times, 0.99)),
        },
        "watchers": args.watchers,
        "changes": args.changes,
        "change_to_watcher_ms": {
            "median": ms(statistics.median(latencies)),
            "p99": ms(percentile(latencies, 0.99)),
            "max": ms(max(latencies)),
        },
        "missed": missing,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mesas", type=int, default=2000)
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--changes", type=int, default=100)
    parser.add_argument("--samples", type=int, default=50)
    parser.add_argument("--spacing", type=float, default=0.1)
    args = parser.parse_args()
    raise_open_files()
    folder = Path(tempfile.mkdtemp(prefix="fichaflow-lobby-"))
    port = free_port()
    base, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws"
    database = f"sqlite:///{folder / 'lobby.sqlite3'}"
    command = [*SERVE, "--port", str(port), "--db", database, "--http-limit", "0"]
    command += ["--ws-per-address", "0", "--bot-workers", "1"]
    log = (folder / "server.log").open("wb")
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
    try:
        for _ in range(300):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            time.sleep(0.1)
        cpu_start = cpu_seconds(server.pid)
        result = uvloop.run(bench(base, ws_url, args))
        result["server_cpu_seconds"] = round(cpu_seconds(server.pid) - cpu_start, 1)
    finally:
        server.terminate()
        server.wait(20)
        log.close()
    result = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{os.cpu_count()} cores, {platform.machine()}, shared",
        **result,
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
