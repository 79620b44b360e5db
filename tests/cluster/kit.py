"""Test helpers for servers and ``fichaflow worker`` processes sharing a Redis: each test starts
its own ``redis-server`` (Debian's package) on a free port, keeping nothing on disk, and stops
it; the machine's own Redis is never touched."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from tests.server.kit import POSTGRES_ENV, ServerProcess, free_port, postgres_database

REDIS_SERVER = shutil.which("redis-server")
needs_redis = pytest.mark.skipif(
    REDIS_SERVER is None,
    reason="redis-server is not installed (Debian's package redis-server): the cluster tests "
    "start their own Redis",
)

WORKER = [sys.executable, "-c", "from fichaflow.cli import main; main()", "worker"]


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll ``condition`` (another process's state, which sends no event) until it holds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"after {timeout} s, still not: {what}")
        time.sleep(0.01)


class RedisServer:
    """``redis-server`` on a free port of 127.0.0.1, with no snapshot and no append-only file:
    stopped, it forgets everything, as a Redis restarted empty would."""

    def __init__(self) -> None:
        self.port = free_port()
        self.folder = tempfile.mkdtemp(prefix="fichaflow-redis-")
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_timeout=5)

    def start(self) -> None:
        assert REDIS_SERVER is not None
        command = [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", self.folder]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        client = self.client()

        def answers() -> bool:
            assert self.process is not None
            if self.process.poll() is not None:
                raise AssertionError(f"redis-server ended with {self.process.returncode}")
            with contextlib.suppress(redis.RedisError):
                return bool(client.ping())
            return False

        wait_for(answers, 10, "redis-server answers")
        client.close()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (Linux's /proc)."""
    found: set[int] = set()
    with contextlib.suppress(FileNotFoundError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                found |= {int(child), *descendants(int(child))}
    return found


def alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "State:\tZ" not in status


def outliving(pids: set[int], seconds: float) -> list[int]:
    """Those of ``pids`` still alive after up to ``seconds`` (their server is gone), each then
    killed, so that the machine is left clean even when the test fails on them."""
    deadline = time.monotonic() + seconds
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = [p for p in pids if alive(p)]
    for pid in left:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return left


class WorkerProcess:
    """``fichaflow worker`` with its own log file."""

    def __init__(self, redis_url: str, processes: int = 1, claim_after: float = 1.0) -> None:
        self.command = [*WORKER, "--redis", redis_url, "--processes", str(processes)]
        self.command += ["--claim-after", str(claim_after)]
        self.processes = processes
        self.log = Path(tempfile.mkstemp(prefix="fichaflow-worker-", suffix=".log")[1])
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, client: redis.Redis | None = None) -> None:
        """Start, and with ``client``, wait until it is ready (:meth:`wait_ready`)."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with self.log.open("ab") as sink:
            self.process = subprocess.Popen(
                self.command, stdout=sink, stderr=subprocess.STDOUT, env=env
            )
        if client is not None:
            self.wait_ready(client)

    def wait_ready(self, client: redis.Redis) -> None:
        """Wait until each of its processes reads the job stream (named in the consumer group
        by its process id)."""
        wait_for(lambda: len(self.reading(client)) >= self.processes, 60, "the workers read")

    def reading(self, client: redis.Redis) -> set[int]:
        """This worker's processes that are consumers of the job stream."""
        with contextlib.suppress(redis.RedisError):
            names = {c["name"] for c in client.xinfo_consumers("fichaflow:jobs", "workers")}
            pids = {int(n.decode().rsplit(":", 1)[1]) for n in names}
            return pids & self.children()
        return set()

    def children(self) -> set[int]:
        assert self.process is not None
        return {p for p in descendants(self.process.pid) if alive(p)}

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            left = self.children()
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
            for pid in left:  # leave the machine clean even when a test fails
                if alive(pid):
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
        self.log.unlink(missing_ok=True)

    def __enter__(self) -> WorkerProcess:
        return self

    def __exit__(self, *_exc: Any) -> None:
        self.stop()


@contextlib.contextmanager
def two_nodes(prefix: str) -> Iterator[list[ServerProcess]]:
    """Two servers of one cluster (no bot pool: bots would need a worker) on a PostgreSQL
    database of their own (named from ``prefix``) and a Redis of the test's own; skips, saying
    why, when ``FICHAFLOW_TEST_POSTGRES_URL`` is not set."""
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set: a cluster's nodes share a PostgreSQL database")
    with postgres_database(base, prefix) as database, RedisServer() as redis:
        servers = [
            ServerProcess(
                database,
                options=["--bot-workers", "0", "--redis", redis.url, "--node", f"node{n}"],
            )
            for n in (1, 2)
        ]
        try:
            servers[0].start(timeout=90)  # (it migrates the fresh database; then the other)
            servers[1].start(timeout=90)
            yield servers
        finally:
            for server in servers:
                server.stop()
