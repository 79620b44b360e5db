"""How long the trainer takes to serve a puzzle (#18, target: under 50 ms): uvicorn on
127.0.0.1 with the trainer's endpoints (fichaflow.trainer.router) on a fresh SQLite database.

fichaflow.problemas (the shipped set) is not on main yet, so the set served is ``--puzzles``
synthetic ones (small positions, ratings spread 800-2200); every one is first rated once (a
row each in trainer_puzzles), since choosing a puzzle reads every puzzle's rating. Then
``--requests`` times ``GET /api/problemas/next?rating=R`` (R random in 1000-2000) and as many
``GET /api/problemas/daily``, one at a time from one client: median and p99 of each, and of
``POST .../attempt`` (a wrong move: judged, rated, stored in one transaction).

    python bench/problemas_serve.py --puzzles 2000 --requests 500
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI, Request

from fichaflow.http import HttpLimits
from fichaflow.ratings.model import NEW_PLAYER
from fichaflow.storage import Database, migrate
from fichaflow.trainer import router as trainer
from fichaflow.trainer import store
from fichaflow.trainer.puzzles import Judged
from fichaflow.trainer.rating import rate_attempt


class Synthetic:
    def __init__(self, count: int) -> None:
        chooser = random.Random(18)
        self.names = [f"p{n:05d}" for n in range(count)]
        self.ratings = {p: chooser.randint(800, 2200) for p in self.names}

    def ids(self) -> Sequence[str]:
        return self.names

    def themes(self, puzzle: str) -> Sequence[str]:
        return ["domino"]

    def rating(self, puzzle: str) -> int:
        return self.ratings[puzzle]

    def position(self, puzzle: str) -> dict[str, Any]:
        return {"line": [[6, 6], [6, 3]], "ends": [6, 3], "hand": ["6-4", "3-1", "2-2"]}

    def judge(self, puzzle: str, moves: Sequence[str], move: str) -> Judged:
        right = move == "6-4:left"
        return Judged(right, True, (), 0 if right else 9, "6-4:left")


async def guest(_request: Request, _change: bool) -> str | None:
    return None


def timed(client: httpx.Client, method: str, path: str, n: int, **kw: Any) -> list[float]:
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
    parser.add_argument("--puzzles", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = Database(f"sqlite:///{Path(folder) / 'fichaflow.sqlite3'}")
        migrate(database.engine)
        puzzles = Synthetic(args.puzzles)
        for p in puzzles.names:
            store.attempt(
                database.engine,
                rate_attempt,
                account=None,
                guest=NEW_PLAYER,
                puzzle=p,
                start=NEW_PLAYER,
                moves=["6-4:left"],
                solved=True,
                cost=0,
            )
        app = FastAPI()
        trainer.install(app, database, HttpLimits(0), puzzles, guest)
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
        config_port = None
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        config_port = server.servers[0].sockets[0].getsockname()[1]
        chooser = random.Random(1)
        with httpx.Client(base_url=f"http://127.0.0.1:{config_port}", timeout=10) as client:
            timed(client, "GET", "/api/problemas/daily", 20)  # warm up
            nxt = timed(
                client,
                "GET",
                lambda: f"/api/problemas/next?rating={chooser.randint(1000, 2000)}",
                args.requests,
            )
            day = timed(client, "GET", "/api/problemas/daily", args.requests)
            tried = timed(
                client,
                "POST",
                lambda: f"/api/problemas/{chooser.choice(puzzles.names)}/attempt",
                args.requests,
                json={"move": "3-1:right"},
            )
        server.should_exit = True
        thread.join(10)
        database.close()
    print(f"{args.puzzles} puzzles, all rated once")
    print(figures("GET /api/problemas/next", nxt))
    print(figures("GET /api/problemas/daily", day))
    print(figures("POST /api/problemas/{id}/attempt", tried))


if __name__ == "__main__":
    main()
