"""Cluster load, side by side in one run: one ``fichaflow serve`` alone, then two behind HAProxy
(round robin, no sticky sessions, ``deploy/haproxy.cfg``) with one ``fichaflow worker``, each on
a PostgreSQL database of its own and the second with a ``redis-server`` of its own; the same
mesas of four WebSocket clients each, answering ``--delay`` seconds after their turn, as
``bench/load_server.py`` drives them (its players and its figures).

Through the balancer half of the mesas are made on each server and each client reaches either
one: about half of the connections are piped by the server that does not hold the mesa to the one
that does, so the cluster's figures include that hop. Only 127.0.0.1 is contacted; the databases
are dropped and every process stopped at the end.

    python bench/load_cluster.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        --tables 100 --delay 0.5 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

sys.path.insert(0, str(Path(__file__).parent))
from load_server import (
    SERVE,
    cpu_seconds,
    drive,
    free_port,
    make_tables,
    percentile,
    raise_open_files,
)

WORKER = [sys.executable, "-c", "from fichaflow.cli import main; main()", "worker"]
HAPROXY_CFG = Path(__file__).parents[1] / "deploy" / "haproxy.cfg"


@contextlib.contextmanager
def database(base: str) -> Iterator[str]:
    name = f"fichaflow_bench_{secrets.token_hex(4)}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()


def wait_serving(url: str) -> None:
    for _ in range(600):
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not start")


class Processes:
    def __init__(self) -> None:
        self.started: list[subprocess.Popen[bytes]] = []

    def start(
        self, command: list[str], env: dict[str, str] | None = None
    ) -> subprocess.Popen[bytes]:
        # (what a process says on stderr shows in the run's: a server that does not start says why)
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=env)
        self.started.append(process)
        return process

    def stop(self) -> None:
        for process in reversed(self.started):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(10)


def serve(procs: Processes, db: str, port: int, extra: list[str]) -> subprocess.Popen[bytes]:
    command = [*SERVE, "--port", str(port), "--db", db, "--http-limit", "0"]
    command += ["--ws-per-address", "0", *extra]
    return procs.start(command)


def measure(base: str, ws_url: str, servers: list[int], args: argparse.Namespace) -> dict[str, Any]:
    tables = asyncio.run(make_tables(base, args.tables))
    cpu_start = {pid: cpu_seconds(pid) for pid in servers}
    started = time.perf_counter()
    result = asyncio.run(drive(ws_url, tables, args.delay, args.warmup, args.seconds))
    elapsed = time.perf_counter() - started
    latencies = result["latencies"]
    return {
        "moves_per_s": round(result["moves"] / result["window"], 1),
        "moves_measured": len(latencies),
        "p50_ms": round(percentile(latencies, 50) * 1000, 1),
        "p99_ms": round(percentile(latencies, 99) * 1000, 1),
        "max_ms": round(max(latencies, default=float("nan")) * 1000, 1),
        "errors": len(result["errors"]),
        "error_kinds": sorted(set(result["errors"]))[:5],
        "server_cpu_cores": [
            round((cpu_seconds(pid) - cpu_start[pid]) / elapsed, 2) for pid in servers
        ],
        "client_cpu_cores": round(result["client_cpu"], 2),
    }


def alone(args: argparse.Namespace) -> dict[str, Any]:
    procs = Processes()
    with database(args.postgres) as db:
        try:
            port = free_port()
            server = serve(procs, db, port, [])
            wait_serving(f"http://127.0.0.1:{port}")
            return measure(
                f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws", [server.pid], args
            )
        finally:
            procs.stop()


def cluster(args: argparse.Namespace, redis_server: str, haproxy: str) -> dict[str, Any]:
    procs = Processes()
    folder = Path(tempfile.mkdtemp(prefix="fichaflow-bench-"))
    with database(args.postgres) as db:
        try:
            redis_port = free_port()
            procs.start(
                [redis_server, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", str(folder)]
            )  # fmt: skip
            redis = f"redis://127.0.0.1:{redis_port}/0"
            procs.start([*WORKER, "--redis", redis, "--processes", "1"])
            ports = [free_port(), free_port()]
            servers = [
                serve(procs, db, port, ["--redis", redis, "--node", f"node{n}"])
                for n, port in enumerate(ports, 1)
            ]
            for port in ports:
                wait_serving(f"http://127.0.0.1:{port}")
            # the tested file, with the third server's line left out
            config = folder / "haproxy.cfg"
            lines = HAPROXY_CFG.read_text().splitlines()
            config.write_text("\n".join(x for x in lines if "FICHAFLOW_NODE3" not in x) + "\n")
            lb = free_port()
            env = {**os.environ, "FICHAFLOW_BIND": f"127.0.0.1:{lb}"}
            env |= {f"FICHAFLOW_NODE{n}": f"127.0.0.1:{p}" for n, p in enumerate(ports, 1)}
            procs.start([haproxy, "-db", "-f", str(config)], env)
            wait_serving(f"http://127.0.0.1:{lb}")
            pids = [s.pid for s in servers]
            return measure(f"http://127.0.0.1:{lb}", f"ws://127.0.0.1:{lb}/ws", pids, args)
        finally:
            procs.stop()
            shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--postgres", required=True, help="a PostgreSQL URL (a database is made)")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--delay", type=float, default=0.5, help="seconds before each answer")
    parser.add_argument("--seconds", type=float, default=20, help="the measured window")
    parser.add_argument("--warmup", type=float, default=5)
    args = parser.parse_args()
    redis_server, haproxy = shutil.which("redis-server"), shutil.which("haproxy")
    if redis_server is None or haproxy is None:
        sys.exit("needs redis-server and haproxy (Debian's packages)")
    raise_open_files()
    # stopped from outside: still stop every process and drop the databases (the finally blocks)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    summary = {
        "date": time.strftime("%Y-%m-%d"),
        "machine": f"{os.cpu_count()} cores, {platform.python_implementation()} "
        f"{platform.python_version()}",
        "tables": args.tables,
        "clients": 4 * args.tables,
        "delay_s": args.delay,
        "window_s": args.seconds,
        "one_server": alone(args),
        "two_servers_one_worker_haproxy": cluster(args, redis_server, haproxy),
        "load_average_1min": round(os.getloadavg()[0], 1),
    }
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
