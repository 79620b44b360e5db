"""What committing one move costs the server: many moves through the table service, in process,
on SQLite, with no clients, so that the figure is the service's own (apply, commit, keep what to
undo with) and not the network's or the views'.

``--tables`` mesas of mano_a_mano, two people each and no bots, play every turn's first legal
move, ``--moves`` in all, each mesa's moves one at a time as its lock allows while the mesas run
alongside (so the writer's group commit works as under load). It prints the moves per second and
the server's CPU microseconds per move (the event loop and the writer thread together), median of
``--runs`` runs. ``--synchronous OFF`` leaves the disk's flush out of it.

    python bench/commit_cost.py --tables 50 --moves 6000 --runs 5 --synchronous OFF

Run it on two checkouts of the code (``PYTHONPATH=that/src``) to compare them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from fichaflow.server import botpool
from fichaflow.server import storage as st
from fichaflow.server.protocol import CreateMesa, Join
from fichaflow.server.service import TableService
from fichaflow.storage import migrate


async def one_run(folder: Path, tables: int, moves: int, synchronous: str) -> tuple[float, float]:
    db = st.Storage(f"sqlite:///{folder / 'cost.sqlite3'}", synchronous)
    await db.run(migrate, db.engine)
    # never started: no bot plays here (older checkouts call the local pool BotPool)
    pool: Any = getattr(botpool, "LocalBotPool", None) or botpool.BotPool
    service = TableService(db, pool(1))
    rooms = []
    for _ in range(tables):
        request = CreateMesa(rules="mano_a_mano", seats=[None, None], name="Ana", seat=0)
        created = await service.create(request, "http://127.0.0.1")
        await service.join(created["code"], Join(name="Beto", seat=1))
        room = service.rooms[created["code"]]
        async with room.lock:
            await service._commit(room, room.mesa.start())
        rooms.append(room)
    done = 0

    async def play(room: object) -> None:
        nonlocal done
        while done < moves:
            async with room.lock:  # type: ignore[attr-defined]
                mesa = room.mesa  # type: ignore[attr-defined]
                if mesa.status != "playing":
                    if mesa.status == "hand_over":
                        await service._commit(room, mesa.deal_next_hand())  # type: ignore[arg-type]
                    else:
                        await service._commit(room, mesa.start())  # type: ignore[arg-type]
                    continue
                hand = mesa.hand
                _result, changes = mesa.play(hand.turn, hand.legal_moves()[0])
                await service._commit(room, changes)  # type: ignore[arg-type]
                done += 1

    wall, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(play(room) for room in rooms))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    for task in [t for room in rooms for t in room.tasks.values()]:
        task.cancel()
    db.close()
    return done / wall, cpu / done * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--moves", type=int, default=6000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--synchronous", default="OFF", choices=["OFF", "NORMAL", "FULL"])
    args = parser.parse_args()
    rates, costs = [], []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="fichaflow-cost-") as folder:
            rate, cost = asyncio.run(
                one_run(Path(folder), args.tables, args.moves, args.synchronous)
            )
        rates.append(rate)
        costs.append(cost)
    print(
        json.dumps(
            {
                "tables": args.tables,
                "moves": args.moves,
                "runs": args.runs,
                "synchronous": args.synchronous,
                "moves_per_second_median": round(statistics.median(rates)),
                "cpu_us_per_move_median": round(statistics.median(costs), 1),
                "cpu_us_per_move_all": [round(c, 1) for c in costs],
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
