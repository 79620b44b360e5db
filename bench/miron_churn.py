"""Mirón churn (#13): what a mirón's arrival and departure cost the others, against a real
``fichaflow serve`` on SQLite, on the loopback address only.

A mano a mano mesa (Ana in seat 0, who reads everything at once, and a bot) gets ``--mirones``
anonymous mirones, ``--batch`` at a time, each saying hello and waiting for its welcome; once
all of them are there they leave, ``--batch`` at a time. The script reports what every client
received besides its own welcome, in all and per arrival or departure: messages and bytes, and
Ana's share; whether Ana was closed, how long the churn took, the server's CPU time and largest
resident memory. The run stops by itself.

    python bench/miron_churn.py --mirones 2000
    PYTHONPATH=/path/to/an/older/checkout/src python bench/miron_churn.py --mirones 300  # before
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import uvloop
import websockets

from load_server import SERVE, cpu_seconds, free_port, raise_open_files, rss_mb


@dataclass
class Counted:
    """What one client received after its welcome."""

    ws: Any = None
    messages: int = 0
    bytes: int = 0
    closed: int | None = None

    async def open(self, url: str, code: str, token: str | None = None) -> None:
        self.ws = await websockets.connect(url, max_size=2**24, ping_interval=None)
        await self.ws.send(json.dumps({"type": "hello", "code": code, "token": token}))
        while json.loads(await self.ws.recv())["type"] != "welcome":
            pass

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                self.messages += 1
                self.bytes += len(raw)
        except websockets.ConnectionClosed as exc:
            self.closed = exc.rcvd.code if exc.rcvd is not None else -1
        else:
            code = self.ws.close_code
            self.closed = None if code in (1000, 1005, None) else code


async def churn(base: str, ws_url: str, mirones: int, batch: int) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        body = {"rules": "mano_a_mano", "seats": [None, "tirafichas"], "name": "Ana", "seat": 0}
        created = (await http.post("/api/mesas", json=body)).json()
    code = created["code"]
    ana = Counted()
    await ana.open(ws_url, code, created["token"])
    reading = [asyncio.ensure_future(ana.read())]
    crowd: list[Counted] = []
    began = time.perf_counter()
    for first in range(0, mirones, batch):
        group = [Counted() for _ in range(min(batch, mirones - first))]
        await asyncio.gather(*(m.open(ws_url, code) for m in group))
        reading += [asyncio.ensure_future(m.read()) for m in group]
        crowd += group
    for first in range(0, mirones, batch):
        await asyncio.gather(*(m.ws.close() for m in crowd[first : first + batch]))
    churned = time.perf_counter() - began
    await asyncio.sleep(1)  # the last telling of who watches (a quarter of a second at most)
    await ana.ws.close()
    await asyncio.gather(*reading)
    events = 2 * mirones
    messages = sum(m.messages for m in [ana, *crowd])
    sent = sum(m.bytes for m in [ana, *crowd])
    return {
        "mirones": mirones,
        "arrivals_and_departures": events,
        "churn_s": round(churned, 2),
        "messages": messages,
        "bytes": sent,
        "messages_per_event": round(messages / events, 1),
        "bytes_per_event": round(sent / events),
        "ana_messages": ana.messages,
        "ana_bytes": ana.bytes,
        "ana_closed": ana.closed,
        "mirones_closed": sum(1 for m in crowd if m.closed is not None),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirones", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=100, help="mirones arriving at once")
    args = parser.parse_args()
    raise_open_files()
    folder = Path(tempfile.mkdtemp(prefix="fichaflow-churn-"))
    port = free_port()
    base, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws"
    database = f"sqlite:///{folder / 'churn.sqlite3'}"
    command = [*SERVE, "--port", str(port), "--db", database, "--http-limit", "0"]
    command += ["--ws-per-address", "0", "--bot-workers", "1"]
    log = (folder / "server.log").open("wb")
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log)
    memory: list[float] = []
    try:
        for _ in range(300):
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            time.sleep(0.1)
        cpu_start = cpu_seconds(server.pid)

        async def run() -> dict[str, Any]:
            job = asyncio.ensure_future(churn(base, ws_url, args.mirones, args.batch))
            while not job.done():
                memory.append(rss_mb(server.pid))
                await asyncio.wait([job], timeout=0.5)
            return job.result()

        result = uvloop.run(run())
        server_cpu = cpu_seconds(server.pid) - cpu_start
    finally:
        server.terminate()
        server.wait(20)
        log.close()
    summary = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{os.cpu_count()} cores, {platform.python_implementation()} "
        f"{platform.python_version()}",
        **result,
        "server_cpu_s": round(server_cpu, 1),
        "server_rss_max_mb": round(max(memory, default=0), 1),
        "load_average_1min": round(os.getloadavg()[0], 1),
    }
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
