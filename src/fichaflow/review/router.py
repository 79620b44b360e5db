"""The Repaso's HTTP endpoints, served by ``fichaflow serve`` beside the game.

* ``GET /api/mesas/{code}/partidas/{number}/hands/{hand}/repaso[?seat=S&precision=P]``: a
  finished hand of a mesa rebuilt move by move, and with a seat, that seat's review. Only hands
  that have ended are ever read (the mesa's record holds nothing else), and those are face up.
* ``POST /api/repaso`` with ``{"record": ..., "hand": K, "seat": S, "precision": P}``: the same
  for a record the browser loaded from a file.
* ``POST /api/mesas/{code}/pista`` with ``{"token": ...}``: the moves of the player to move,
  ranked from that player's own view, only at a mesa where bots play every other seat.

Reviews take seconds of work, so they run in a small pool of processes of their own (the game's
mesas and bots are never held up), or with ``fichaflow serve --redis``, in ``fichaflow worker``
processes (:data:`WORKER_JOBS`), a few at a time, and answers are remembered: a finished hand
never changes.
"""

from __future__ import annotations

import asyncio
import atexit
import hashlib
import json
import logging
import os
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any, Final

from fastapi import APIRouter, FastAPI, Request

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.view import SeatView
from fichaflow.http import ErrorRoute, read_json, whole_number
from fichaflow.http.jobs import Handler, JobFailed, JobQueue
from fichaflow.http.workers import worker_pool
from fichaflow.review.service import check_request, hand_review, hand_timeline, pista

log = logging.getLogger(__name__)

MAX_BODY: Final = 256 * 1024
"""A record posted for review may be this long at most."""
PENDING_LIMIT: Final = 4
"""Reviews waiting or running at once; past that, the server asks to try again later."""
CACHE_SIZE: Final = 128
HINT_PRECISIONS: Final = ("fast", "normal")
STATUSES: Final = {
    "review.busy": 503,
    "review.too_big": 413,
    "server.no_mesa": 404,
    "server.no_partida_number": 404,
}
"""The errors that are not a plain 400: too much work waiting, a body over the limit, and a mesa
or partida the game does not know (from ``RecordOf``)."""


RecordOf = Callable[[str, int], Awaitable[Mapping[str, object]]]
"""The game's record of a mesa's partida, by the mesa's code and the partida's number."""
PistaViewOf = Callable[[str, str], Awaitable[SeatView]]
"""The game's view for a pista: by the mesa's code and the asking player's token, the view of
that player's seat, when the game allows a pista there (a Spanish error otherwise)."""


REMOTE_WAIT_SECONDS: Final = 120.0
"""How long a review or a pista waits for ``fichaflow worker`` (Redis away, workers busy) before
the asker is told to try again (``review.busy``)."""


def _review_worker(data: object, hand: int, seat: int, precision: str) -> dict[str, Any]:
    """Runs in a worker process: check the request again and review the hand."""
    return hand_review(check_request(data, hand, seat, precision))


def review_job(payload: Mapping[str, Any]) -> dict[str, Any]:
    """Runs in ``fichaflow worker``: a hand's review, the request checked again."""
    hand, seat = payload.get("hand"), payload.get("seat")
    if not isinstance(hand, int) or not isinstance(seat, int):
        raise ValueError("a review names its hand and its seat")
    return _review_worker(payload.get("record"), hand, seat, str(payload.get("precision")))


def pista_job(payload: Mapping[str, Any]) -> dict[str, Any]:
    """Runs in ``fichaflow worker``: a pista from the seat view the server sent."""
    return pista(SeatView.from_json(payload.get("view")), str(payload.get("precision")))


WORKER_JOBS: Final[Mapping[str, Handler]] = {"review": review_job, "pista": pista_job}
"""What ``fichaflow worker`` does for the Repaso."""


class ReviewPool:
    """A few processes for reviews and hints (this server's own, or ``fichaflow worker``'s
    through ``queue``), with a limit on waiting work and a memory of answers."""

    def __init__(self, workers: int | None = None, queue: JobQueue | None = None) -> None:
        self.workers = workers or max(1, min(2, (os.cpu_count() or 1) // 2))
        self.queue = queue
        self._pool: ProcessPoolExecutor | None = None
        self.pending = 0
        self.cache: OrderedDict[tuple[object, ...], dict[str, Any]] = OrderedDict()

    async def review(self, data: object, hand: int, seat: int, precision: str) -> dict[str, Any]:
        job = {"record": data, "hand": hand, "seat": seat, "precision": precision}
        return await self.run(_review_worker, data, hand, seat, precision, job=("review", job))

    async def hint(self, view: SeatView, precision: str) -> dict[str, Any]:
        job = {"view": view.to_json(), "precision": precision}
        return await self.run(pista, view, precision, job=("pista", job))

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = worker_pool(self.workers)
        return self._pool

    async def run(
        self,
        work: Callable[..., dict[str, Any]],
        *args: Any,
        job: tuple[str, dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """``work(*args)`` in this server's processes, or with a queue, ``job`` (its kind and
        payload for :data:`WORKER_JOBS`) in ``fichaflow worker``'s."""
        if self.pending >= PENDING_LIMIT:
            raise FichaFlowError("review.busy")
        self.pending += 1
        try:
            if self.queue is not None and job is not None:
                return await self._remote(*job)
            loop = asyncio.get_running_loop()
            try:
                return await loop.run_in_executor(self._executor(), work, *args)
            except BrokenProcessPool:
                log.warning("review pool broke; starting a new one")
                self._pool = None
                return await loop.run_in_executor(self._executor(), work, *args)
        finally:
            self.pending -= 1

    async def _remote(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        assert self.queue is not None
        try:
            return await asyncio.wait_for(self.queue.run(kind, payload), REMOTE_WAIT_SECONDS)
        except (TimeoutError, JobFailed) as exc:
            log.warning("a %s through the workers failed: %r", kind, exc)
            raise FichaFlowError("review.busy") from exc

    def remembered(self, key: tuple[object, ...]) -> dict[str, Any] | None:
        found = self.cache.get(key)
        if found is not None:
            self.cache.move_to_end(key)
        return found

    def remember(self, key: tuple[object, ...], answer: dict[str, Any]) -> None:
        self.cache[key] = answer
        while len(self.cache) > CACHE_SIZE:
            self.cache.popitem(last=False)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


class RepasoRoute(ErrorRoute):
    statuses = STATUSES


async def _json_body(request: Request) -> dict[str, Any]:
    data = await read_json(
        request,
        MAX_BODY,
        partial(FichaFlowError, "review.too_big", limit=MAX_BODY),
        partial(FichaFlowError, "review.not_json"),
    )
    if not isinstance(data, dict):
        raise FichaFlowError("review.not_json")
    return data


def _whole(data: dict[str, Any], key: str, default: int | None = None) -> int | None:
    value = data.get(key, default)
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise FichaFlowError("review.whole", key=key)


def _number(text: str, key: str) -> int:
    """A whole number from the address (path or query); a Spanish error naming ``key`` else."""
    number = whole_number(text)
    if number is None:
        raise FichaFlowError("review.whole", key=key)
    return number


def _text(data: dict[str, Any], key: str, default: str) -> str:
    value = data.get(key, default)
    if isinstance(value, str):
        return value
    raise FichaFlowError("review.text", key=key)


def _hand_key(data: object, hand: int) -> str:
    """What a hand's review depends on: the rules, the players and the hands up to it (the
    earlier ones give the scores its views show). Later hands of the partida change nothing."""
    assert isinstance(data, dict)
    hands = data.get("hands", [])
    parts = [
        data.get("rules"),
        data.get("players"),
        hands[:hand] if isinstance(hands, list) else [],
    ]
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def build_router(pool: ReviewPool, record_of: RecordOf, pista_view_of: PistaViewOf) -> APIRouter:
    router = APIRouter(route_class=RepasoRoute)

    async def answer(data: object, hand: int, seat: int | None, precision: str) -> dict[str, Any]:
        request = check_request(data, hand, seat, precision)
        out: dict[str, Any] = {"hand": hand, "timeline": hand_timeline(request), "review": None}
        if seat is None:
            return out
        key = (_hand_key(data, hand), hand, seat, request.precision)
        review = pool.remembered(key)
        if review is None:
            review = await pool.review(data, hand, seat, request.precision)
            pool.remember(key, review)
        out["review"] = review
        return out

    @router.get("/api/mesas/{code}/partidas/{number}/hands/{hand}/repaso", response_model=None)
    async def mesa_hand(
        code: str,
        number: str,
        hand: str,
        seat: str | None = None,
        precision: str = "normal",
    ) -> dict[str, Any]:
        data = await record_of(code, _number(number, "partida"))
        seat_number = None if seat is None else _number(seat, "seat")
        return await answer(data, _number(hand, "hand"), seat_number, precision)

    @router.post("/api/repaso", response_model=None)
    async def posted(request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        if "record" not in body:
            raise FichaFlowError("review.missing", key="record")
        hand = _whole(body, "hand", 1)
        assert hand is not None
        return await answer(
            body["record"], hand, _whole(body, "seat"), _text(body, "precision", "normal")
        )

    @router.post("/api/mesas/{code}/pista", response_model=None)
    async def hint(code: str, request: Request) -> dict[str, Any]:
        body = await _json_body(request)
        token = _text(body, "token", "")
        precision = _text(body, "precision", "fast")
        if precision not in HINT_PRECISIONS:
            raise FichaFlowError(
                "review.precision", value=precision, allowed=", ".join(HINT_PRECISIONS)
            )
        view = await pista_view_of(code, token)
        return await pool.hint(view, precision)

    return router


def install(
    app: FastAPI, record_of: RecordOf, pista_view_of: PistaViewOf, queue: JobQueue | None = None
) -> ReviewPool:
    """Add the Repaso's endpoints to the server's app (before its static files); the game's
    records and views come through ``record_of`` and ``pista_view_of``; with ``queue``, the
    reviews are done by ``fichaflow worker``."""
    pool = ReviewPool(queue=queue)
    app.include_router(build_router(pool, record_of, pista_view_of))
    app.state.review_pool = pool
    atexit.register(pool.close)
    return pool
