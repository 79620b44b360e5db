"""How long the trainer takes to serve a puzzle (#18, target: under 50 ms): uvicorn on
127.0.0.1 with the trainer's endpoints (fichaflow.trainer.router) on a fresh SQLite database,
serving the shipped problemas (fichaflow.trainer.shipped: each position replayed through the
core when it is served, each move judged on the replayed position).

Every puzzle is first rated once (a row each in trainer_puzzles), since choosing a puzzle reads
every puzzle's rating. Then ``--requests`` times each of ``GET /api/problemas/next?rating=R``
(R random in 1000-2000), the same of one theme, ``GET /api/problemas/daily`` and ``POST
.../attempt`` (a wrong move of a random puzzle, as the page writes it: judged, rated, stored in
one transaction), one at a time from one client: median and p99 of each.

    python bench/problemas_serve.py --requests 300
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI, Request

from fichaflow.core.hand import write_move
from fichaflow.http import HttpLimits
from fichaflow.problemas import load_set
from fichaflow.ratings.model import NEW_PLAYER
from fichaflow.storage import Database, migrate
from fichaflow.trainer import router as trainer
from fichaflow.trainer import store
from fichaflow.trainer.rating import rate_attempt
from fichaflow.trainer.shipped import ShippedPuzzles


async def guest(_request: Request, _change: bool) -> str | None:
    return None


def timed(
    client: httpx.Client, method: str, path: str | Callable[[], str], n: int, **kw: Any
) -> list[float]:
    out = []
    for _ in range(n):
        start = time.perf_counter()
        answer = client.request(method, path() if callable(path) else path, **kw)
        answer.raise_for_status()
        out.append((time.perf_counter() - start) * 1000)
    return out


def figures(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    return f"{name}: median {statistics.median(ms):.2f} ms, p99 {p99:.2f} ms ({len(ms)} requests)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--theme", default="capicua")
    args = parser.parse_args()
    shipped = load_set()
    wrong = {}  # a wrong first move of each puzzle, as the page writes it (its end always)
    for puzzle in shipped:
        best = puzzle.values[puzzle.solution[0]]
        move = next(m for m, v in puzzle.values.items() if v < best)
        wrong[puzzle.id] = write_move(puzzle.hand().parse(move))
    with tempfile.TemporaryDirectory() as folder:
        database = Database(f"sqlite:///{Path(folder) / 'fichaflow.sqlite3'}")
        migrate(database.engine)
        for puzzle in shipped:
            store.attempt(
                database.engine,
                rate_attempt,
                account=None,
                guest=NEW_PLAYER,
                puzzle=puzzle.id,
                start=NEW_PLAYER,
                moves=[wrong[puzzle.id]],
                solved=True,
                cost=0,
            )
        app = FastAPI()
        trainer.install(app, database, HttpLimits(0), ShippedPuzzles(), guest)
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        port = server.servers[0].sockets[0].getsockname()[1]
        chooser = random.Random(1)
        ids = sorted(wrong)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
            timed(client, "GET", "/api/problemas/daily", 20)  # warm up
            nxt = timed(
                client,
                "GET",
                lambda: f"/api/problemas/next?rating={chooser.randint(1000, 2000)}",
                args.requests,
            )
            themed = timed(
                client,
                "GET",
                lambda: (
                    f"/api/problemas/next?rating={chooser.randint(1000, 2000)}&theme={args.theme}"
                ),
                args.requests,
            )
            day = timed(client, "GET", "/api/problemas/daily", args.requests)
            tried = []
            for _ in range(args.requests):
                puzzle_id = chooser.choice(ids)
                tried += timed(
                    client,
                    "POST",
                    f"/api/problemas/{puzzle_id}/attempt",
                    1,
                    json={"move": wrong[puzzle_id]},
                )
        server.should_exit = True
        thread.join(10)
        database.close()
    print(f"{len(shipped)} shipped puzzles, all rated once")
    print(figures("GET /api/problemas/next", nxt))
    print(figures(f"GET /api/problemas/next&theme={args.theme}", themed))
    print(figures("GET /api/problemas/daily", day))
    print(figures("POST /api/problemas/{id}/attempt", tried))


if __name__ == "__main__":
    main()
