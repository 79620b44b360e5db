"""What a bot decision costs through Redis and ``fichaflow worker``, beside the server's own pool.

Starts its own ``redis-server`` on a free port (nothing kept on disk) and one ``fichaflow
worker --processes P``; in this process, the server's two kinds of pool (``LocalBotPool(P)`` and
``RedisBotPool``) are asked the same decisions (views where a seat had a choice, from fixed
deals): one at a time (the latency a mesa sees, median) and ``--concurrent`` at once (decisions
per second of wall time, as many mesas asking together).

    python bench/redis_bots.py                         # tirafichas and gallo, 2 processes
    python bench/redis_bots.py --bots gallo --decisions 40 --processes 1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import redis

from fichaflow.bots.ladder import make_bot
from fichaflow.core.deal import Deal
from fichaflow.core.hand import Hand
from fichaflow.core.record import draw_until_playable
from fichaflow.core.rules import Rules
from fichaflow.core.view import SeatView, hand_view
from fichaflow.http.jobs import GROUP, STREAM, JobQueue
from fichaflow.server.botpool import BotPool, LocalBotPool, RedisBotPool


def decisions(count: int) -> list[SeatView]:
    """``count`` parejas views where the seat to move had a choice, from fixed deals."""
    rules = Rules.make("venezuela")
    out: list[SeatView] = []
    number = 0
    while len(out) < count:
        deal = Deal.from_seed(4, f"redis-bench-{number}")
        hand = Hand(list(deal.hands), deal.stock, number % 4)
        bots = [make_bot("jugador", seat + 10 * number) for seat in range(4)]
        while not hand.ended and len(out) < count:
            draw_until_playable(hand)
            if hand.ended:
                break
            view = hand_view(rules, hand, hand.turn, hand_number=2)
            if len(view.legal) > 1:
                out.append(view)
            hand.play(bots[hand.turn].choose(view))
        number += 1
    return out


async def measure(
    pool: BotPool, bot: str, views: list[SeatView], concurrent: int
) -> tuple[float, float]:
    """The median latency of one decision alone (ms), and decisions per second with
    ``concurrent`` asked at once."""
    await pool.choose(bot, 0, views[0])  # warm up
    alone = []
    for seed, view in enumerate(views):
        start = time.perf_counter()
        await pool.choose(bot, seed, view)
        alone.append(time.perf_counter() - start)
    gate = asyncio.Semaphore(concurrent)

    async def one(seed: int, view: SeatView) -> None:
        async with gate:
            await pool.choose(bot, seed, view)

    start = time.perf_counter()
    await asyncio.gather(*(one(s, v) for s, v in enumerate(views * 2)))
    return statistics.median(alone) * 1000, 2 * len(views) / (time.perf_counter() - start)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def cluster(processes: int):  # type: ignore[no-untyped-def]
    server = shutil.which("redis-server")
    if server is None:
        sys.exit("redis-server is not installed (Debian: apt-get install redis-server)")
    port, folder = free_port(), tempfile.mkdtemp(prefix="fichaflow-bench-redis-")
    url = f"redis://127.0.0.1:{port}/0"
    command = [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly"]
    command += ["no", "--dir", folder]
    store = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    worker = None
    try:
        client = redis.Redis(port=port)
        for _ in range(100):
            with contextlib.suppress(redis.RedisError):
                if client.ping():
                    break
            time.sleep(0.05)
        worker_command = [sys.executable, "-m", "fichaflow", "worker", "--redis", url]
        worker_command += ["--processes", str(processes)]
        worker = subprocess.Popen(
            worker_command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        for _ in range(600):
            with contextlib.suppress(redis.RedisError):
                if len(client.xinfo_consumers(STREAM, GROUP)) >= processes:
                    break
            time.sleep(0.1)
        yield url
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(20)
        store.terminate()
        store.wait(10)
        shutil.rmtree(folder, ignore_errors=True)


async def run(args: argparse.Namespace, url: str) -> None:
    views = decisions(args.decisions)
    local = LocalBotPool(args.processes)
    local.start()
    remote = RedisBotPool(JobQueue(url))
    remote.start()
    print(f"{len(views)} decisions, {args.processes} processes, {args.concurrent} at once")
    print("| bot | pool | one decision, median ms | decisions/s, many at once |")
    print("|---|---|---:|---:|")
    try:
        for bot in args.bots.split(","):
            for name, pool in (("server's own processes", local), ("Redis + worker", remote)):
                latency, rate = await measure(pool, bot, views, args.concurrent)
                print(f"| {bot} | {name} | {latency:.1f} | {rate:.1f} |", flush=True)
    finally:
        await local.close()
        await remote.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="tirafichas,gallo")
    parser.add_argument("--decisions", type=int, default=30)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--concurrent", type=int, default=8)
    args = parser.parse_args()
    print(f"{platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores")
    with cluster(args.processes) as url:
        asyncio.run(run(args, url))


if __name__ == "__main__":
    main()
