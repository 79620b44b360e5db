"""What one move costs PostgreSQL, and one bot decision costs Redis: the per-move figures a
cluster's capacity plan is built from.

PostgreSQL: ``--tables`` mano a mano mesas of two people play their first legal move each turn
through the table service, in process, on a PostgreSQL database made for the run (as
``bench/commit_cost.py`` does on SQLite), ``--moves`` in all, the mesas alongside so the writer
groups their commits as under load. SQLAlchemy's events count the statements sent, the
transactions (each BEGIN and COMMIT is a round trip of its own with psycopg) and the pool's
checkouts (each pre-pings the connection: one more round trip), per move.

Redis: its own ``redis-server`` and one ``fichaflow worker`` (``bench/redis_bots.py``'s), and the
server's ``RedisBotPool`` asked ``--decisions`` tirafichas decisions, 8 at once; ``INFO
commandstats`` and the network byte counters before and after, per decision. (People's moves
send nothing through Redis: a cluster's relays are WebSockets between the servers.)

    python bench/per_move_cost.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import redis
from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fichaflow.http.jobs import JobQueue
from fichaflow.server import storage as st
from fichaflow.server.botpool import LocalBotPool, RedisBotPool
from fichaflow.server.protocol import CreateMesa, Join
from fichaflow.server.service import TableService
from fichaflow.storage import migrate
from redis_bots import cluster, decisions
from tests.server.kit import postgres_database


async def postgres_cost(url: str, tables: int, moves: int) -> dict[str, float]:
    db = st.Storage(url, "NORMAL")
    await db.run(migrate, db.engine)
    service = TableService(db, LocalBotPool(1))  # never started: no bot plays here
    rooms = []
    for _ in range(tables):
        request = CreateMesa(rules="mano_a_mano", seats=[None, None], name="Ana", seat=0)
        created = await service.create(request, "http://127.0.0.1")
        await service.join(created["code"], Join(name="Beto", seat=1))
        room = service.rooms[created["code"]]
        async with room.lock:
            await service._commit(room, room.mesa.start())
        rooms.append(room)
    counts: Counter[str] = Counter()

    @event.listens_for(db.engine, "before_cursor_execute")
    def _statement(*_args: Any) -> None:
        counts["statements"] += 1

    @event.listens_for(db.engine, "begin")
    def _begin(*_args: Any) -> None:
        counts["begin"] += 1

    @event.listens_for(db.engine, "commit")
    def _commit(*_args: Any) -> None:
        counts["commit"] += 1

    @event.listens_for(db.engine, "checkout")
    def _checkout(*_args: Any) -> None:
        counts["checkout"] += 1  # the pool's pre-ping: a round trip of its own

    done = 0
    other = 0  # deals and new partidas, counted apart

    async def play(room: Any) -> None:
        nonlocal done, other
        while done < moves:
            async with room.lock:
                mesa = room.mesa
                if mesa.status != "playing":
                    other += 1
                    change = mesa.deal_next_hand() if mesa.status == "hand_over" else mesa.start()
                    await service._commit(room, change)
                    continue
                hand = mesa.hand
                _result, changes = mesa.play(hand.turn, hand.legal_moves()[0])
                await service._commit(room, changes)
                done += 1

    started = time.perf_counter()
    await asyncio.gather(*(play(room) for room in rooms))
    wall = time.perf_counter() - started
    for task in [t for room in rooms for t in room.tasks.values()]:
        task.cancel()
    db.close()
    actions = done + other
    return {
        "moves": done,
        "other actions": other,
        "moves/s": done / wall,
        "statements per action": counts["statements"] / actions,
        "transactions per action": counts["commit"] / actions,
        "pool checkouts (pre-pings) per action": counts["checkout"] / actions,
        "round trips per action": (
            counts["statements"] + counts["begin"] + counts["commit"] + counts["checkout"]
        )
        / actions,
    }


def redis_counters(client: redis.Redis) -> tuple[Counter[str], int, int]:
    stats: Any = client.info("commandstats")
    calls = Counter({k.removeprefix("cmdstat_"): int(v["calls"]) for k, v in stats.items()})
    net: Any = client.info("stats")
    return calls, int(net["total_net_input_bytes"]), int(net["total_net_output_bytes"])


async def redis_cost(url: str, count: int) -> dict[str, Any]:
    views = decisions(count)
    pool = RedisBotPool(JobQueue(url))
    pool.start()
    client = redis.Redis.from_url(url)
    await pool.choose("tirafichas", 0, views[0])  # warm up
    calls0, in0, out0 = redis_counters(client)
    gate = asyncio.Semaphore(8)

    async def one(seed: int, view: Any) -> None:
        async with gate:
            await pool.choose("tirafichas", seed, view)

    await asyncio.gather(*(one(s, v) for s, v in enumerate(views)))
    calls1, in1, out1 = redis_counters(client)
    await pool.close()
    calls = calls1 - calls0
    calls.pop("info", None)
    return {
        "decisions": len(views),
        "commands per decision": sum(calls.values()) / len(views),
        "bytes to Redis per decision": (in1 - in0) / len(views),
        "bytes from Redis per decision": (out1 - out0) / len(views),
        "commands": {k: round(v / len(views), 2) for k, v in calls.most_common()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", required=True, help="a PostgreSQL URL to make a database on")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--decisions", type=int, default=200)
    args = parser.parse_args()
    with postgres_database(args.postgres, "fichaflow_per_move") as url:
        for key, value in asyncio.run(postgres_cost(url, args.tables, args.moves)).items():
            print(
                f"postgres: {key}: {value:.2f}" if isinstance(value, float) else f"{key}: {value}"
            )
    with cluster(1) as url:
        for key, value in asyncio.run(redis_cost(url, args.decisions)).items():
            print(f"redis: {key}: {value:.1f}" if isinstance(value, float) else f"{key}: {value}")


if __name__ == "__main__":
    main()
