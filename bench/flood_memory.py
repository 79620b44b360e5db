"""Memory under a flood of huge HTTP bodies: a real ``fichaflow serve`` on SQLite, on the loopback
address only, and the server's resident memory while the floods hit it.

Three floods, one after the other, each sent in full by parallel raw connections from one
buffer (the client holds 1 MB, whatever it sends):

* 8 parallel POSTs of 50 MB to ``/api/mesas`` (limit 4 KiB),
* 4 parallel POSTs of 100 MB to ``/api/repaso`` (limit 256 KiB),
* 1 POST of 100 MB to ``/api/anotador/mesas`` (limit 8 KiB),

each once with ``Content-Length`` and once chunked (no length). Each request keeps sending its
whole body even after the server has answered, as a flood would. For each flood the script reads
the server's peak resident memory (``VmHWM`` in ``/proc/PID/status``, reset before the flood
through ``/proc/PID/clear_refs``, and ``VmRSS`` sampled every 10 ms besides) and prints the
baseline, the peak and the growth. Every request is bounded in time; the run stops by itself.

    python bench/flood_memory.py
    python bench/flood_memory.py --src /tmp/old/src     # the server of another checkout
    python bench/flood_memory.py --only mesas --framing sized --scale 0.1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

SERVE = [sys.executable, "-c", "from fichaflow.cli import main; main()", "serve"]
MB = 1 << 20
CHUNK = b" " * MB


@dataclass(frozen=True)
class Flood:
    name: str
    path: str
    requests: int
    megabytes: int


FLOODS = [
    Flood("mesas", "/api/mesas", 8, 50),
    Flood("repaso", "/api/repaso", 4, 100),
    Flood("anotador", "/api/anotador/mesas", 1, 100),
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def status_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    return 0


def reset_peak(pid: int) -> bool:
    """Reset the process's VmHWM to its current RSS (Linux 4.0 and later); False if refused."""
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
    except OSError:
        return False
    return True


class Sampler:
    """VmRSS every 10 ms in a thread: the peak, should VmHWM not be resettable."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak_kb = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(OSError, ValueError):
                self.peak_kb = max(self.peak_kb, status_kb(self.pid, "VmRSS"))
            self._stop.wait(0.01)

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()


async def post(port: int, path: str, size: int, chunked: bool, timeout: float) -> str:
    """Send one POST of ``size`` bytes in full and return the answer's status ("-" when the
    server closed the connection first, "timeout" when the time ran out)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
    head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    writer.write(f"{head}{framing}\r\n\r\n".encode())
    answer = asyncio.get_running_loop().create_task(reader.readline())

    async def send() -> None:
        left = size
        while left > 0:
            piece = CHUNK if left >= MB else CHUNK[:left]
            writer.write(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
            await writer.drain()
            left -= len(piece)
        if chunked:
            writer.write(b"0\r\n\r\n")
            await writer.drain()

    try:
        async with asyncio.timeout(timeout):
            with contextlib.suppress(ConnectionError):
                await send()
            line = await answer
        return line.split()[1].decode() if line else "-"
    except TimeoutError:
        return "timeout"
    finally:
        answer.cancel()
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


async def flood(port: int, what: Flood, chunked: bool, scale: float, timeout: float) -> list[str]:
    size = int(what.megabytes * MB * scale)
    sends = [post(port, what.path, size, chunked, timeout) for _ in range(what.requests)]
    return list(await asyncio.gather(*sends))


def run(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="fichaflow-flood-"))
    port = free_port()
    database = f"sqlite:///{folder / 'flood.sqlite3'}"
    command = [*SERVE, "--port", str(port), "--db", database, "--http-limit", "0"]
    command += ["--bot-workers", "1"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if args.src:
        env["PYTHONPATH"] = os.pathsep.join([args.src, env.get("PYTHONPATH", "")])
    where = subprocess.run(
        [sys.executable, "-c", "import fichaflow; print(fichaflow.__file__)"],
        env=env, capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    log = (folder / "server.log").open("wb")
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit(
                    f"the server did not start:\n{(folder / 'server.log').read_text()}"
                )
            time.sleep(0.1)
        time.sleep(1)  # let the start settle
        pid = server.pid
        print(f"server: {where} (pid {pid}); {platform.python_version()}, {os.cpu_count()} cores")
        print(f"started: peak {status_kb(pid, 'VmHWM') / 1024:.0f} MB")
        framings = {"sized": [False], "chunked": [True], "both": [False, True]}[args.framing]
        rows = []
        for what in FLOODS:
            if args.only and what.name not in args.only:
                continue
            for chunked in framings:
                baseline = status_kb(pid, "VmRSS")
                resettable = reset_peak(pid)
                started = time.monotonic()
                with Sampler(pid) as sampler:
                    statuses = asyncio.run(flood(port, what, chunked, args.scale, args.timeout))
                took = time.monotonic() - started
                hwm = status_kb(pid, "VmHWM") if resettable else 0
                peak = max(hwm, sampler.peak_kb)
                after = status_kb(pid, "VmRSS")
                framing = "chunked" if chunked else "sized"
                size = int(what.megabytes * args.scale)
                label = f"{what.requests} x {size} MB {what.path} ({framing})"
                rows.append((label, baseline, peak, after))
                answers = ", ".join(f"{s} x{statuses.count(s)}" for s in sorted(set(statuses)))
                print(
                    f"{label}: baseline {baseline / 1024:.0f} MB, peak {peak / 1024:.0f} MB "
                    f"(+{(peak - baseline) / 1024:.0f} MB), after {after / 1024:.0f} MB; "
                    f"answers {answers}; {took:.1f} s"
                )
        growth = [(peak - baseline) / 1024 for _label, baseline, peak, _after in rows]
        if growth:
            print(f"largest growth {max(growth):.0f} MB, median {statistics.median(growth):.0f} MB")
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)
        log.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--src", help="the src folder of the checkout whose server to run")
    parser.add_argument("--framing", choices=["sized", "chunked", "both"], default="both")
    parser.add_argument("--only", nargs="*", choices=[f.name for f in FLOODS])
    parser.add_argument("--scale", type=float, default=1.0, help="body sizes times this")
    parser.add_argument("--timeout", type=float, default=60, help="seconds a request may take")
    run(parser.parse_args())


if __name__ == "__main__":
    main()
