"""One WebSocket connection: an outbox so that a slow client never holds up a mesa, and the
flood limit; and how many connections each address holds."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter, deque

import orjson
from starlette.websockets import WebSocket

from fichaflow.server.settings import MAX_MESSAGES_PER_SECOND, OUTBOX_LIMIT
from fichaflow.server.wire import Message

CLOSE_FLOOD = 1008
CLOSE_POLICY = 1008
CLOSE_TOO_BIG = 1009
CLOSE_SLOW = 1013
CLOSE_INTERNAL = 1011
"""The server failed on a message it should have refused: a bug, logged."""
CLOSE_RECONNECT = 1012
"""Connect again and say hello: the mesa this connection was at left this server's memory."""


class Connection:
    """A client connected over a WebSocket, before and after it says hello."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.code: str | None = None  # the mesa it said hello to
        self.person: int | None = None  # None: a mirón
        self.closed = False
        self.greeted = False  # it has said hello to a mesa, once at least
        self._outbox: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue()
        self._recent: deque[float] = deque(maxlen=MAX_MESSAGES_PER_SECOND)

    def send(self, message: Message | str) -> None:
        """Queue a message (or its text, when one text goes to many); a client that lets too
        many pile up is dropped."""
        if self.closed:
            return
        if self._outbox.qsize() >= OUTBOX_LIMIT:
            self.close(CLOSE_SLOW)
            return
        text = message if isinstance(message, str) else orjson.dumps(message).decode()
        self._outbox.put_nowait(text)

    def close(self, code: int, reason: str = "") -> None:
        """Close after what is already queued has been sent; ``reason`` goes in the close frame
        (an error code: the error message itself was sent before)."""
        if not self.closed:
            self.closed = True
            self._outbox.put_nowait((code, reason))

    def flooding(self) -> bool:
        """True when this message is one more than the limit allows within a second."""
        now = time.monotonic()
        full = len(self._recent) == self._recent.maxlen
        if full and now - self._recent[0] < 1.0:
            return True
        self._recent.append(now)
        return False

    async def write_loop(self) -> None:
        while True:
            item = await self._outbox.get()
            if isinstance(item, tuple):
                with contextlib.suppress(Exception):
                    await self.websocket.close(*item)
                return
            try:
                await self.websocket.send_text(item)
            except Exception:
                self.closed = True
                return


class Addresses:
    """How many WebSockets each address holds open, within ``limit`` each (0: no limit)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: Counter[str] = Counter()

    def enter(self, address: str) -> bool:
        """Count one more connection from ``address``; False (counting nothing) when it holds
        ``limit`` already."""
        if self.limit and self.open[address] >= self.limit:
            return False
        self.open[address] += 1
        return True

    def leave(self, address: str) -> None:
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]
