"""What the servers of a cluster (``fichaflow serve --redis``) tell each other, through Redis
pub/sub: one connection and one subscription per server for every kind of news, each kind on a
channel of its own (the public lobby's changes, ``server/lobby.py``; a deleted account's mesas
and sheets, to leave every server's memory, ``app.py``).

Redis keeps nothing. A message said while this server cannot reach Redis waits in its queue (up
to ``QUEUE_LENGTH``) and goes once Redis is back, heard by the servers subscribed by then; one
that another server was not listening for is lost to it. Each kind says what makes that good:
its ``connected`` runs every time this server subscribes again, after any failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

import orjson

log = logging.getLogger(__name__)

QUEUE_LENGTH: Final = 10_000
"""Messages said while Redis is away, kept to send once it is back; more are dropped."""
RETRY_SECONDS: Final = 1.0
"""The wait before connecting again after Redis failed."""

Message = dict[str, Any]
Heard = Callable[[str, Message], Awaitable[None] | None]
"""(the server that said it, the message): what a kind does with another server's message."""
Connected = Callable[[], Awaitable[None] | None]
"""What a kind does each time this server subscribes (again, after a failure)."""


@dataclass(frozen=True)
class _Kind:
    heard: Heard
    connected: Connected | None


class Bus:
    """This server's end of the cluster's talk: :meth:`channel` for each kind, then :meth:`run`
    for the server's whole life. A server never hears its own messages."""

    def __init__(self, url: str, node: str) -> None:
        self.url, self.node = url, node
        self.connected = False
        """Whether this server is subscribed now (what it says is heard at once)."""
        self._kinds: dict[str, _Kind] = {}
        self._out: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue(maxsize=QUEUE_LENGTH)
        self._unsent: tuple[str, bytes] | None = None  # taken from the queue, not yet sent
        self._handling: set[asyncio.Task[None]] = set()

    def channel(
        self, name: str, heard: Heard, connected: Connected | None = None
    ) -> Callable[[Message], None]:
        """Listen on the channel ``name``: ``heard`` gets each message another server says
        there, and ``connected`` runs each time this server subscribes (a coroutine either
        returns runs as a task of its own). Returns the function that says a message there."""
        self._kinds[name] = _Kind(heard, connected)

        def say(message: Message) -> None:
            self.say(name, message)

        return say

    def say(self, name: str, message: Message) -> None:
        """Send ``message`` to the other servers on the channel ``name``, in order, as soon as
        Redis can be reached."""
        data = orjson.dumps({**message, "node": self.node})
        with contextlib.suppress(asyncio.QueueFull):  # (Redis away for long: see each kind)
            self._out.put_nowait((name, data))

    async def run(self) -> None:
        """For the server's whole life: connect again after any Redis failure."""
        import redis.asyncio as aredis
        from redis.exceptions import RedisError

        while True:
            client = aredis.Redis.from_url(self.url)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.subscribe(*self._kinds)
                    self.connected = True
                    for kind in self._kinds.values():
                        if kind.connected is not None:
                            self._spawn(kind.connected())
                    tasks = [
                        asyncio.ensure_future(self._send(client)),
                        asyncio.ensure_future(self._read(pubsub)),
                    ]
                    try:
                        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
                        for task in done:
                            task.result()  # (the failure that ended it)
                    finally:
                        for task in tasks:
                            task.cancel()
            except (RedisError, OSError) as exc:
                log.warning("cluster bus: Redis could not be used: %s", exc)
            finally:
                self.connected = False
                with contextlib.suppress(Exception):
                    await client.aclose()
            await asyncio.sleep(RETRY_SECONDS)

    async def _send(self, client: Any) -> None:
        while True:
            if self._unsent is None:
                self._unsent = await self._out.get()
            name, data = self._unsent
            await client.publish(name, data)  # (failed: sent again once Redis is back)
            self._unsent = None

    async def _read(self, pubsub: Any) -> None:
        async for raw in pubsub.listen():
            if raw.get("type") != "message":
                continue
            name = raw["channel"].decode() if isinstance(raw["channel"], bytes) else raw["channel"]
            kind = self._kinds.get(name)
            if kind is None:
                continue
            try:
                message = orjson.loads(raw["data"])
                node = str(message["node"])
                if node == self.node:
                    continue
                handled = kind.heard(node, message)
            except (ValueError, KeyError, TypeError):
                log.warning("cluster bus: a message on %s could not be read", name)
                continue
            self._spawn(handled)

    def _spawn(self, handled: Awaitable[None] | None) -> None:
        if inspect.isawaitable(handled):
            task = asyncio.ensure_future(handled)
            self._handling.add(task)
            task.add_done_callback(self._handled)

    def _handled(self, task: asyncio.Task[None]) -> None:
        self._handling.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("cluster bus: news could not be acted on", exc_info=task.exception())
