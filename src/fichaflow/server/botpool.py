"""Bots think in a pool of processes, so that a slow bot at one mesa never holds up another.

A bot is given its seat's view and nothing else, and is built afresh for each move from its name
and a seed (bots keep no memory between moves: everything they may know is in the view).
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from fichaflow.bots.ladder import make_bot
from fichaflow.core.hand import Move
from fichaflow.core.view import SeatView
from fichaflow.http.workers import worker_pool

log = logging.getLogger(__name__)


def think(name: str, seed: int, view: SeatView) -> Move:
    """Runs in a worker process: one bot, one move."""
    return make_bot(name, seed).choose(view)


def _warm_up() -> None:
    """Import the ladder in the worker before the first real move."""
    import fichaflow.bots.ladder  # noqa: F401


class BotPool:
    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        self._pool = worker_pool(self.workers, _warm_up)

    async def choose(self, name: str, seed: int, view: SeatView) -> Move:
        if self._pool is None:
            self.start()
        assert self._pool is not None
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, think, name, seed, view)
        except BrokenProcessPool:
            log.warning("bot pool broke; starting a new one")
            self._pool = None
            self.start()
            return await loop.run_in_executor(self._pool, think, name, seed, view)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
