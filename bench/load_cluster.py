"""Cluster load, side by side in one run: one ``fichaflow serve`` alone, then two behind HAProxy
(round robin, no sticky sessions, ``deploy/haproxy.cfg``) with one ``fichaflow worker``, each on
a PostgreSQL database of its own and the second with a ``redis-server`` of its own; the same
mesas of four WebSocket clients each, answering ``--delay`` seconds after their turn, as
``bench/load_server.py`` drives them (its players and its figures).

Through the balancer half of the mesas are made on each server. With ``--routing named`` (the
default) each client's WebSocket names its mesa's server, as the web page does (``?node=``, from
the join's answer), and the balancer sends it straight there; with ``round-robin`` it names none
and reaches either server, so about half of the connections are piped by the server that does
not hold the mesa to the one that does (the relay's hop, as with a balancer that ignores the
name); ``both`` measures the cluster both ways after the single server. Only 127.0.0.1 is
contacted; the databases are dropped and every process stopped at the end.

CPU per move: every process's CPU time over the measured window (a process with its children: a
server's bot pool, the worker's processes), divided by the moves made in it, for each server, the
worker, the balancer, Redis and the PostgreSQL backends serving the run's database (the
database's own background processes, shared by every database, are left out).

    python bench/load_cluster.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        --tables 100 --delay 0.5 --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import platform
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import uvloop
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url

sys.path.insert(0, str(Path(__file__).parent))
from load_server import (
    SERVE,
    add_client_option,
    drive,
    free_port,
    make_tables,
    percentile,
    raise_open_files,
)

WORKER = [sys.executable, "-c", "from fichaflow.cli import main; main()", "worker"]
PY_SPY = str(Path(sys.executable).parent / "py-spy")
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


def tree_cpu(roots: list[int]) -> float:
    """CPU seconds of these processes, their living descendants, and the children they have
    waited for (Linux /proc)."""
    stats: dict[int, tuple[int, float]] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                used = sum(int(x) for x in fields[11:15]) / tick  # utime stime cutime cstime
                stats[int(entry.name)] = (int(fields[1]), used)
    total, seen, todo = 0.0, set(), [r for r in roots if r in stats]
    while todo:
        pid = todo.pop()
        if pid not in seen:
            seen.add(pid)
            total += stats[pid][1]
            todo += [child for child, (parent, _) in stats.items() if parent == pid]
    return total


def backends(admin: Engine, name: str) -> list[int]:
    """The PostgreSQL server processes of database ``name``'s connections."""
    with admin.connect() as connection:
        rows = connection.execute(
            text("SELECT pid FROM pg_stat_activity WHERE datname = :n"), {"n": name}
        )
        return [int(pid) for (pid,) in rows]


class CpuSampler(threading.Thread):
    """Each role's CPU seconds every 0.1 s, to read over the measured window afterwards."""

    def __init__(self, roles: dict[str, Callable[[], list[int]]]) -> None:
        super().__init__(daemon=True)
        self.roles = roles
        self.samples: list[tuple[float, dict[str, float]]] = []
        self.halt = threading.Event()

    def run(self) -> None:
        pids = {role: find() for role, find in self.roles.items()}
        found = time.perf_counter()
        while not self.halt.is_set():
            if time.perf_counter() - found > 1:  # (new connections, new child processes)
                pids = {role: sorted({*pids[role], *find()}) for role, find in self.roles.items()}
                found = time.perf_counter()
            now = time.perf_counter()
            self.samples.append((now, {role: tree_cpu(p) for role, p in pids.items()}))
            self.halt.wait(0.1)

    def between(self, begin: float, end: float) -> dict[str, float]:
        first = min(self.samples, key=lambda s: abs(s[0] - begin))
        last = min(self.samples, key=lambda s: abs(s[0] - end))
        return {role: last[1][role] - first[1][role] for role in self.roles}


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


def measure(
    base: str,
    ws_url: str,
    roles: dict[str, Callable[[], list[int]]],
    args: argparse.Namespace,
    named: bool = False,
) -> dict[str, Any]:
    made = time.perf_counter()
    tables = asyncio.run(make_tables(base, args.tables))
    made = time.perf_counter() - made
    sampler = CpuSampler(roles)
    sampler.start()
    spies = []
    if args.profile:  # py-spy, sampling the servers over the whole drive without stopping them
        args.profile.mkdir(parents=True, exist_ok=True)
        for role, find in roles.items():
            if role.startswith(("server", "node")):
                command = [PY_SPY, "record", "--nonblocking", "--format", "raw", "--rate", "200"]
                command += ["--duration", str(round(args.warmup + args.seconds + 3))]
                command += ["-o", str(args.profile / f"{role}.txt"), "--pid", str(find()[0])]
                spies.append(subprocess.Popen(command, stdout=subprocess.DEVNULL))
    try:
        result = uvloop.run(
            drive(ws_url, tables, args.delay, args.warmup, args.seconds, named, args.client)
        )
    finally:
        sampler.halt.set()
        sampler.join()
        for spy in spies:
            spy.wait(30)
    latencies = result["latencies"]
    cpu = sampler.between(result["begin"], result["end"])
    moves = max(1, result["moves"])
    return {
        "tables_made_s": round(made, 1),
        "moves_per_s": round(result["moves"] / result["window"], 1),
        "moves_measured": len(latencies),
        "p50_ms": round(percentile(latencies, 50) * 1000, 1),
        "p99_ms": round(percentile(latencies, 99) * 1000, 1),
        "max_ms": round(max(latencies, default=float("nan")) * 1000, 1),
        "errors": len(result["errors"]),
        "error_kinds": sorted(set(result["errors"]))[:5],
        "cpu_cores": {role: round(used / result["window"], 2) for role, used in cpu.items()},
        "cpu_us_per_move": {role: round(used / moves * 1e6) for role, used in cpu.items()}
        | {"all_but_clients": round(sum(cpu.values()) / moves * 1e6)},
        "client_cpu_cores": round(result["client_cpu"], 2),
    }


def alone(args: argparse.Namespace) -> dict[str, Any]:
    procs = Processes()
    admin = create_engine(args.postgres)
    with database(args.postgres) as db:
        try:
            port = free_port()
            server = serve(procs, db, port, [])
            wait_serving(f"http://127.0.0.1:{port}")
            roles = {
                "server": lambda: [server.pid],
                "postgres": lambda: backends(admin, _name(db)),
            }
            return measure(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws", roles, args)
        finally:
            procs.stop()
            admin.dispose()


def cluster(
    args: argparse.Namespace, redis_server: str, haproxy: str, named: bool
) -> dict[str, Any]:
    procs = Processes()
    admin = create_engine(args.postgres)
    folder = Path(tempfile.mkdtemp(prefix="fichaflow-bench-"))
    with database(args.postgres) as db:
        try:
            redis_port = free_port()
            redis_process = procs.start(
                [redis_server, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", str(folder)]
            )  # fmt: skip
            redis = f"redis://127.0.0.1:{redis_port}/0"
            worker = procs.start([*WORKER, "--redis", redis, "--processes", "1"])
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
            kept = (x for x in lines if "FICHAFLOW_NODE3" not in x and " node3 " not in x)
            config.write_text("\n".join(kept) + "\n")
            lb = free_port()
            env = {**os.environ, "FICHAFLOW_BIND": f"127.0.0.1:{lb}"}
            env |= {f"FICHAFLOW_NODE{n}": f"127.0.0.1:{p}" for n, p in enumerate(ports, 1)}
            balancer = procs.start([haproxy, "-db", "-f", str(config)], env)
            wait_serving(f"http://127.0.0.1:{lb}")
            roles: dict[str, Callable[[], list[int]]] = {
                f"node{n}": functools.partial(list, [s.pid]) for n, s in enumerate(servers, 1)
            }
            roles |= {
                "worker": lambda: [worker.pid],
                "haproxy": lambda: [balancer.pid],
                "redis": lambda: [redis_process.pid],
                "postgres": lambda: backends(admin, _name(db)),
            }
            return measure(f"http://127.0.0.1:{lb}", f"ws://127.0.0.1:{lb}/ws", roles, args, named)
        finally:
            procs.stop()
            admin.dispose()
            shutil.rmtree(folder, ignore_errors=True)


def _name(url: str) -> str:
    name = make_url(url).database
    assert name is not None
    return name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--postgres", required=True, help="a PostgreSQL URL (a database is made)")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--delay", type=float, default=0.5, help="seconds before each answer")
    parser.add_argument("--seconds", type=float, default=20, help="the measured window")
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--only", choices=("alone", "cluster"), help="run one side only")
    add_client_option(parser)
    parser.add_argument(
        "--routing",
        choices=("named", "round-robin", "both"),
        default="named",
        help="the cluster's WebSockets name their mesa's server (as the page does), or not",
    )
    parser.add_argument(
        "--profile", type=Path, help="a folder for each server's py-spy profile of the drive"
    )
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
        "client": args.client,
        "window_s": args.seconds,
        "load_average_1min_before": round(os.getloadavg()[0], 1),
    }
    if args.only != "cluster":
        summary["one_server"] = alone(args)
    if args.only != "alone" and args.routing != "round-robin":
        summary["two_servers_one_worker_haproxy"] = cluster(args, redis_server, haproxy, True)
    if args.only != "alone" and args.routing != "named":
        summary["two_servers_round_robin"] = cluster(args, redis_server, haproxy, False)
    summary["load_average_1min"] = round(os.getloadavg()[0], 1)
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
