"""CPU work handed to ``fichaflow worker`` processes, on this machine or others, through Redis.

The servers add each job to one Redis stream; the workers read it through one consumer group, so
each job goes to one worker, and answer on the asking server's own reply stream. Nothing lives
only in Redis: a job is made again from what the server holds (a mesa's state is in the
database), so Redis may restart empty at any time.

* A worker killed in the middle of a job never acknowledges it; once it has been silent for
  ``claim_after`` seconds another worker claims it (``XAUTOCLAIM``) and does it again.
* A server sends its jobs again when Redis comes back after an outage (whatever Redis held may
  be gone), and any job whose copy has left the stream unanswered (checked every
  ``resend_after`` seconds); a job still in the stream keeps its place in the queue. A job has
  at most one copy in the stream: the old one is deleted when it is sent again.
* The first answer to a job wins; any later one (a claimed job whose first worker was only slow)
  finds nobody waiting and is dropped.

Jobs and answers are JSON, never pickles: a worker runs only the kinds of job it was given
handlers for, and a handler checks its input as it would a stranger's.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import multiprocessing
import os
import signal
import socket
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

import redis
import redis.asyncio as aredis
from redis.exceptions import RedisError, ResponseError

from fichaflow.http.workers import watch_parent

log = logging.getLogger(__name__)

STREAM: Final = "fichaflow:jobs"
"""The stream every server adds its jobs to."""
GROUP: Final = "workers"
"""The consumer group every worker reads the stream through."""
REPLIES: Final = "fichaflow:replies:"
"""A server's answers arrive on the stream of this prefix and its own random name."""
REPLY_KEEP: Final = 1000
"""Answers a reply stream keeps (a server reads each within milliseconds)."""
REPLY_TTL_SECONDS: Final = 3600
"""A reply stream nobody reads any more (its server is gone) leaves Redis after this long."""
CLAIM_AFTER_SECONDS: Final = 5.0
"""A job a worker has held this long without answering is taken by another (it was killed, or
its machine was lost). A bot's move takes a fraction of a second."""
RESEND_AFTER_SECONDS: Final = 30.0
"""A server sends a job again if no answer came in this long."""
FORGET_AFTER_SECONDS: Final = 600
"""A consumer of the group silent this long with no job held is a worker gone: the next worker
to start removes its name (a live one reads every second)."""
MAX_DELIVERIES: Final = 3
"""A job whose workers were lost this many times (it may be what kills them) is answered with
an error instead of being done again."""
BLOCK_SECONDS: Final = 1.0
"""How long one read waits on Redis for work (or answers) before it looks around again."""
BACKOFF_SECONDS: Final = (0.1, 0.2, 0.5, 1.0, 2.0)
"""The waits between tries while Redis cannot be reached: quick at first, then every 2 s."""

Handler = Callable[[Mapping[str, Any]], Mapping[str, Any]]
"""One kind of job: its payload (parsed JSON) in, its answer (JSON-ready) out."""


class JobFailed(Exception):
    """The worker's handler refused the job or failed at it (its message is the worker's)."""


def check_url(url: str) -> str:
    """``url`` if it is a Redis URL redis-py can use, else a ValueError."""
    redis.connection.parse_url(url)  # type: ignore[no-untyped-call]  # a ValueError says why
    return url


def shown_url(url: str) -> str:
    """``url`` without its password, for a log or a terminal."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"


def _backoff() -> itertools.chain[float]:
    return itertools.chain(BACKOFF_SECONDS, itertools.repeat(BACKOFF_SECONDS[-1]))


# -- the server's side ------------------------------------------------------------------------


@dataclass(eq=False)
class _Job:
    kind: str
    payload: str
    answer: asyncio.Future[dict[str, Any]]
    entry: str | None = None  # its copy in the stream, once sent


class JobQueue:
    """A server's end: :meth:`run` sends a job and returns its answer, however long Redis or the
    workers take (it waits, sends again and never gives up; cancel it to stop waiting)."""

    def __init__(
        self,
        url: str,
        *,
        resend_after: float = RESEND_AFTER_SECONDS,
        stream: str = STREAM,
    ) -> None:
        self.url = check_url(url)
        self.stream = stream
        self.resend_after = resend_after
        self.replies = f"{REPLIES}{uuid.uuid4().hex}"
        self._redis: aredis.Redis | None = None
        self._jobs: dict[str, _Job] = {}
        self._reader: asyncio.Task[None] | None = None
        self.reachable = True
        """False from the first failed read of Redis until the first good one."""
        self.watchers: list[Callable[[bool], None]] = []
        """Called with :attr:`reachable` each time it changes (the server tells its clients)."""
        self._resend = False  # a send failed: the reader sends every job again
        self._closing = False

    def start(self) -> None:
        """Start reading answers (needs the running event loop; Redis need not be up)."""
        if self._reader is None:
            self._redis = aredis.Redis.from_url(
                self.url, socket_timeout=BLOCK_SECONDS + 4, socket_connect_timeout=2
            )
            self._reader = asyncio.get_running_loop().create_task(self._read_answers())

    async def close(self) -> None:
        if self._reader is not None:
            # (redis-py may swallow a cancel that lands in a blocking read: the loop also stops
            # at its next turn, within a read's block)
            self._closing = True
            self._reader.cancel()
            await asyncio.wait([self._reader], timeout=BLOCK_SECONDS + 5)
            self._reader = None
        if self._redis is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._redis.delete(self.replies)
            await self._redis.aclose()
            self._redis = None

    async def run(self, kind: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        """The answer of a worker to the job ``kind`` with ``payload``; :class:`JobFailed` if
        the worker's handler refused it."""
        self.start()
        name = uuid.uuid4().hex
        job = _Job(kind, json.dumps(payload), asyncio.get_running_loop().create_future())
        self._jobs[name] = job
        try:
            await self._send(name, job)
            told = False
            while True:
                with contextlib.suppress(TimeoutError):
                    return await asyncio.wait_for(asyncio.shield(job.answer), self.resend_after)
                if not await self._waiting(job):
                    log.warning("job %s: lost after %.0f s; sent again", name, self.resend_after)
                    await self._send(name, job)
                elif not told:  # once a job: is any fichaflow worker running?
                    log.warning("job %s: no worker has answered in %.0f s", name, self.resend_after)
                    told = True
        finally:
            del self._jobs[name]
            if job.entry is not None and not job.answer.done():  # nobody need do it any more
                await self._forget(job.entry)

    async def _send(self, name: str, job: _Job) -> None:
        """Put the job's one copy in the stream (a failure is left to the reader, which sends
        every job again when Redis is back)."""
        assert self._redis is not None
        fields = {"job": name, "kind": job.kind, "reply": self.replies, "payload": job.payload}
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                if job.entry is not None:
                    pipe.xdel(self.stream, job.entry)
                pipe.xadd(self.stream, fields)  # type: ignore[arg-type]
                *_, entry = await pipe.execute()
        except (RedisError, OSError) as exc:
            # the reader sends every job again as soon as one of its reads succeeds
            log.debug("job %s not sent (%s); it goes again when Redis answers", name, exc)
            self._resend = True
            return
        job.entry = entry.decode() if isinstance(entry, bytes) else str(entry)

    async def _waiting(self, job: _Job) -> bool:
        """Whether the job's copy is still in the stream: waiting its turn (it keeps its place
        in the queue), or being done (a silent worker's is claimed by another)."""
        assert self._redis is not None
        if job.entry is None:
            return False
        try:
            return bool(await self._redis.xrange(self.stream, job.entry, job.entry))
        except (RedisError, OSError):
            return False

    async def _forget(self, entry: str) -> None:
        assert self._redis is not None
        with contextlib.suppress(RedisError, OSError):
            await self._redis.xdel(self.stream, entry)

    async def _read_answers(self) -> None:
        assert self._redis is not None
        last = "0-0"
        waits = _backoff()
        while not self._closing:
            try:
                found: Any = await self._redis.xread(
                    {self.replies: last}, count=100, block=int(BLOCK_SECONDS * 1000)
                )
            except (RedisError, OSError) as exc:
                if self.reachable:
                    log.warning("Redis %s unreachable (%s): bots wait", shown_url(self.url), exc)
                    self.reachable = False
                    self._tell_watchers()
                await asyncio.sleep(next(waits))
                continue
            if not self.reachable:
                log.warning("Redis %s back: every waiting job is sent again", shown_url(self.url))
                self.reachable, waits, self._resend = True, _backoff(), True
                last = "0-0"  # (a Redis restarted empty numbers its entries anew)
                self._tell_watchers()
            if self._resend:  # (whatever Redis held may be gone)
                self._resend = False
                for name, job in list(self._jobs.items()):
                    await self._send(name, job)
            for _stream, entries in found:
                for entry, fields in entries:
                    last = entry.decode()
                    self._answered(fields)

    def _tell_watchers(self) -> None:
        for watcher in self.watchers:
            try:
                watcher(self.reachable)
            except Exception:
                log.exception("a watcher of Redis's state failed")

    def _answered(self, fields: Mapping[bytes, bytes]) -> None:
        name = fields.get(b"job", b"").decode()
        job = self._jobs.get(name)
        if job is None or job.answer.done():
            return  # a late twin of an answer already taken, or a job nobody waits for now
        try:
            answer = json.loads(fields[b"answer"])
        except (KeyError, ValueError):
            error = fields.get(b"error", b"the worker's answer is not JSON").decode()
            job.answer.set_exception(JobFailed(error))
            return
        job.answer.set_result(answer)


# -- the workers' side ------------------------------------------------------------------------


def run_workers(
    url: str,
    handlers: Mapping[str, Handler],
    processes: int,
    *,
    claim_after: float = CLAIM_AFTER_SECONDS,
    stream: str = STREAM,
    warm_up: Callable[[], None] | None = None,
) -> None:
    """``fichaflow worker``: ``processes`` processes doing jobs until this one is stopped
    (SIGTERM or Ctrl-C). One that dies is started again; each ends by itself within a second
    if this process is killed without a word, so none outlives it."""
    check_url(url)
    context = multiprocessing.get_context("spawn")
    me = os.getpid()
    args = (me, url, dict(handlers), claim_after, stream, warm_up)

    def start() -> multiprocessing.process.BaseProcess:
        process = context.Process(target=_work, args=args, name="fichaflow-worker")
        process.start()
        return process

    stopping = False

    def stop(_signal: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    previous = signal.signal(signal.SIGTERM, stop)
    children = [start() for _ in range(processes)]
    try:
        while not stopping:
            pause = 0.2
            for index, child in enumerate(children):
                if not child.is_alive():
                    log.warning(
                        "worker process %s ended (%s); starting another", child.pid, child.exitcode
                    )
                    children[index] = start()
                    pause = 1.0  # one that keeps failing is started once a second, no faster
            time.sleep(pause)
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        for child in children:
            if child.is_alive():
                child.terminate()
        for child in children:
            child.join(5)
            if child.is_alive():
                child.kill()
                child.join()


def _work(
    parent: int,
    url: str,
    handlers: Mapping[str, Handler],
    claim_after: float,
    stream: str,
    warm_up: Callable[[], None] | None,
) -> None:
    watch_parent(parent)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    if warm_up is not None:
        warm_up()
    with contextlib.suppress(KeyboardInterrupt):
        Worker(url, handlers, claim_after=claim_after, stream=stream).run()


class Worker:
    """One worker process's loop: claim a job left by a silent worker, or read a new one; do
    it; answer; acknowledge. Redis unreachable: wait and try again, for as long as it takes."""

    def __init__(
        self,
        url: str,
        handlers: Mapping[str, Handler],
        *,
        claim_after: float = CLAIM_AFTER_SECONDS,
        stream: str = STREAM,
    ) -> None:
        self.redis = redis.Redis.from_url(
            url, socket_timeout=BLOCK_SECONDS + 4, socket_connect_timeout=2
        )
        self.url = url
        self.handlers = handlers
        self.claim_after_ms = int(claim_after * 1000)
        self.stream = stream
        self.name = f"{socket.gethostname()}:{os.getpid()}"
        """This worker's consumer name in the group: its machine and process."""

    def run(self) -> None:
        log.info("worker %s reads %s at %s", self.name, self.stream, shown_url(self.url))
        waits = _backoff()
        reachable, joined = True, False
        while True:
            try:
                if not joined:
                    self._join()
                    joined = True
                self.step()
            except ResponseError as exc:
                if "NOGROUP" not in str(exc):
                    raise
                joined = False  # a new stream (Redis restarted empty): make the group again
                continue
            except (RedisError, OSError) as exc:
                if reachable:
                    log.warning("Redis %s unreachable (%s): waiting", shown_url(self.url), exc)
                    reachable = False
                time.sleep(next(waits))
                continue
            if not reachable:
                log.warning("Redis %s back", shown_url(self.url))
                reachable, waits = True, _backoff()

    def _join(self) -> None:
        """Make the group if it is missing, and this worker a consumer of it (so that
        ``XINFO CONSUMERS`` lists it from the start)."""
        try:
            self.redis.xgroup_create(self.stream, GROUP, id="0", mkstream=True)
        except ResponseError as exc:
            if "BUSYGROUP" not in str(exc):
                raise
        self.redis.xgroup_createconsumer(self.stream, GROUP, self.name)
        consumers: Any = self.redis.xinfo_consumers(self.stream, GROUP)
        for consumer in consumers:  # the names of workers long gone, holding nothing
            if consumer["pending"] == 0 and consumer["idle"] > FORGET_AFTER_SECONDS * 1000:
                self.redis.xgroup_delconsumer(self.stream, GROUP, consumer["name"])

    def step(self) -> None:
        """Do at most one job: a silent worker's first, else the next new one."""
        claim: Any = self.redis.xautoclaim(
            self.stream, GROUP, self.name, self.claim_after_ms, "0-0", count=1
        )
        claimed = claim[1]
        if claimed:
            entry, fields = claimed[0]
            log.info(
                "worker %s claimed job %s from a silent worker",
                self.name,
                fields.get(b"job", b"?").decode() if fields else "?",
            )
        else:
            found: Any = self.redis.xreadgroup(
                GROUP, self.name, {self.stream: ">"}, count=1, block=int(BLOCK_SECONDS * 1000)
            )
            if not found:
                return
            entry, fields = found[0][1][0]
        fields = fields or {}  # (an entry deleted while it waited has none)
        name = fields.get(b"job", b"").decode()
        reply = fields.get(b"reply", b"").decode()
        # The answer and the acknowledgement go together or not at all: a job still pending
        # was not answered.
        pipe = self.redis.pipeline(transaction=True)
        if name and reply.startswith(REPLIES):
            if claimed and self._deliveries(entry) > MAX_DELIVERIES:
                out = {"error": "given up: every worker that took it was lost"}
            else:
                out = self._do(name, fields)
            answer = {"job": name, **out}
            pipe.xadd(reply, answer, maxlen=REPLY_KEEP, approximate=True)  # type: ignore[arg-type]
            pipe.expire(reply, REPLY_TTL_SECONDS)
        elif fields:
            log.warning("worker %s dropped a job with no name or reply stream", self.name)
        pipe.xack(self.stream, GROUP, entry)
        pipe.xdel(self.stream, entry)
        pipe.execute()

    def _deliveries(self, entry: bytes) -> int:
        """How many times the job ``entry`` was handed to a worker, this time included."""
        pending = self.redis.xpending_range(self.stream, GROUP, entry, entry, 1)
        return int(pending[0]["times_delivered"]) if pending else 1

    def _do(self, name: str, fields: Mapping[bytes, bytes]) -> dict[str, str]:
        try:
            handler = self.handlers[fields[b"kind"].decode()]
            return {"answer": json.dumps(handler(json.loads(fields[b"payload"])))}
        except Exception as exc:  # the handler's failure is the answer (the server decides)
            log.warning("job %s failed: %r", name, exc)
            return {"error": f"{type(exc).__name__}: {exc}"}
