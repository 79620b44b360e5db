"""Bots think away from the event loop, so that a slow bot at one mesa never holds up another:
in a pool of this server's own processes (:class:`LocalBotPool`), or, with ``fichaflow serve
--redis``, in ``fichaflow worker`` processes on any machine (:class:`RedisBotPool`). The service
asks either the same way (:class:`BotPool`).

A bot is given its seat's view and nothing else, and is built afresh for each move from its name
and a seed (bots keep no memory between moves: everything they may know is in the view).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final, Protocol

from fichaflow.bots.ladder import make_bot
from fichaflow.core.hand import Move, write_move
from fichaflow.core.view import SeatView
from fichaflow.http.jobs import Handler, JobFailed, JobQueue
from fichaflow.http.workers import worker_pool

log = logging.getLogger(__name__)

BOT_JOB: Final = "bot"
"""The kind of job a bot's move is, for ``fichaflow worker``."""


class BotPool(Protocol):
    """Where the service's bots think: ``choose`` a seat's move from its view alone."""

    def start(self) -> None: ...

    async def choose(self, name: str, seed: int, view: SeatView) -> Move: ...

    async def close(self) -> None: ...


def think(name: str, seed: int, view: SeatView) -> Move:
    """Runs in a worker process: one bot, one move."""
    return make_bot(name, seed).choose(view)


def warm_up() -> None:
    """Import the ladder in the worker before the first real move."""
    import fichaflow.bots.ladder  # noqa: F401


class LocalBotPool:
    """This server's own processes (``fichaflow serve --bot-workers N``)."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        self._pool = worker_pool(self.workers, warm_up)

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

    async def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def bot_job(payload: Mapping[str, Any]) -> dict[str, Any]:
    """Runs in ``fichaflow worker``: a bot's move from the seat view a server sent, checked as
    a stranger's would be; the move in the protocol's notation."""
    name, seed = payload.get("bot"), payload.get("seed")
    if not isinstance(name, str) or not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError("a bot job names its bot and its seed")
    return {"move": write_move(think(name, seed, SeatView.from_json(payload.get("view"))))}


WORKER_JOBS: Final[Mapping[str, Handler]] = {BOT_JOB: bot_job}
"""What ``fichaflow worker`` does for the game server."""


class RedisBotPool:
    """``fichaflow worker`` processes, reached through Redis (:mod:`fichaflow.http.jobs`): a
    move waits for as long as Redis or the workers are away, and comes when they are back."""

    def __init__(self, queue: JobQueue) -> None:
        self.queue = queue

    def start(self) -> None:
        self.queue.start()

    async def choose(self, name: str, seed: int, view: SeatView) -> Move:
        payload = {"bot": name, "seed": seed, "view": view.to_json()}
        answer = await self.queue.run(BOT_JOB, payload)
        move = {write_move(m): m for m in view.legal}.get(answer.get("move"))  # type: ignore[arg-type]
        if move is None:
            raise JobFailed(f"the worker answered {answer!r}, not a legal move of the view")
        return move

    async def close(self) -> None:
        await self.queue.close()
