"""One WebSocket connection: an outbox so that a slow client never holds up a mesa, and the
flood limit; and how many connections each address holds.

The outbox never grows without bound. States that supersede each other (a ``mesa`` state, the
``mirones``) wait once each: a newer one takes the older's place, at the end of the line, so a
slow reader gets the latest state, not every one. The mesa's story (``welcome``, moves, hands)
all arrives, in order; should more than ``OUTBOX_LIMIT`` of it wait, the reader is hopelessly
behind: what waits is dropped and a fresh ``welcome`` (the whole state, built when it is its
turn to be written) goes instead. Replies to the client's own messages (errors, pongs) always
arrive; a client that lets ``OUTBOX_LIMIT`` of them pile up sends without reading, and is closed
(1013)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from typing import Final, Literal

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

log = logging.getLogger(__name__)

State = Literal["mesa", "mirones", "status"]
SUPERSEDES: Final[dict[State, tuple[State, ...]]] = {
    "mesa": ("mesa", "mirones"),  # a mesa state carries the mirones too
    "mirones": ("mirones",),
    "status": ("status",),  # whether the server reaches what it needs (Redis)
}
"""The waiting states a newer state of each kind makes stale."""

Kind = Literal["reply", "story", "state", "resync", "close"]


class _Item:
    __slots__ = ("close", "kind", "state", "text")

    def __init__(
        self,
        kind: Kind,
        text: str = "",
        state: State | None = None,
        close: tuple[int, str] = (1000, ""),
    ) -> None:
        self.kind, self.text, self.state, self.close = kind, text, state, close


class Connection:
    """A client connected over a WebSocket, before and after it says hello."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self.code: str | None = None  # the mesa it said hello to
        self.person: int | None = None  # None: a mirón
        self.turns = False  # its moves bring their turns, not the whole history (its hello)
        self.closed = False
        self.greeted = False  # it has said hello to a mesa, once at least
        self.resync: Callable[[], Awaitable[Message | None]] | None = None
        """The whole state anew (a ``welcome``) for a reader too far behind; None (or an
        answer of None) where there is none: before a hello, after leaving."""
        self._outbox: deque[_Item] = deque()
        self._ready = asyncio.Event()  # something waits in the outbox
        self._waiting: Counter[Kind] = Counter()
        self._states: dict[State, _Item] = {}
        self._behind = False  # a resync waits: the story told meanwhile is in it
        self._recent: deque[float] = deque(maxlen=MAX_MESSAGES_PER_SECOND)

    def send(self, message: Message | str) -> None:
        """Queue a reply to the client's own message (an error, a pong), or its text."""
        if self.closed:
            return
        if self._waiting["reply"] >= OUTBOX_LIMIT:
            self.close(CLOSE_SLOW)
            return
        self._put(_Item("reply", _text(message)))

    def tell(self, message: Message | str, state: State | None = None) -> None:
        """Queue a piece of the mesa's story (or, with ``state``, a state that supersedes the
        waiting one of its kind); the text may be shared by many connections."""
        if self.closed or self._behind:
            return
        text = _text(message)
        if state is not None:
            for kind in SUPERSEDES[state]:
                stale = self._states.pop(kind, None)
                if stale is not None:
                    self._outbox.remove(stale)  # (at most OUTBOX_LIMIT and two states wait)
                    self._waiting["state"] -= 1
            item = self._states[state] = _Item("state", text, state)
            self._put(item)
            return
        if self._waiting["story"] < OUTBOX_LIMIT:
            self._put(_Item("story", text))
            return
        if self.resync is None:
            self.close(CLOSE_SLOW)
            return
        # Hopelessly behind: drop what waits of the story and its states, keep the replies,
        # and send the whole state instead when its turn comes.
        self._outbox = deque(item for item in self._outbox if item.kind == "reply")
        self._waiting = Counter[Kind]({"reply": len(self._outbox)})
        self._states.clear()
        self._behind = True
        self._put(_Item("resync"))

    def close(self, code: int, reason: str = "") -> None:
        """Close after what is already queued has been sent; ``reason`` goes in the close frame
        (an error code: the error message itself was sent before)."""
        if not self.closed:
            self.closed = True
            self._put(_Item("close", close=(code, reason)))

    def waiting(self) -> list[str]:
        """The texts waiting to be written, in order."""
        return [item.text for item in self._outbox if item.text]

    def _put(self, item: _Item) -> None:
        self._outbox.append(item)
        self._waiting[item.kind] += 1
        self._ready.set()

    def _take(self) -> _Item:
        item = self._outbox.popleft()
        self._waiting[item.kind] -= 1
        if item.state is not None:
            del self._states[item.state]
        if not self._outbox:
            self._ready.clear()
        return item

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
            await self._ready.wait()
            item = self._take()
            if item.kind == "close":
                with contextlib.suppress(Exception):
                    await self.websocket.close(*item.close)
                return
            text = item.text
            if item.kind == "resync":
                try:
                    welcome = await self.resync() if self.resync is not None else None
                except Exception:
                    log.exception("could not build a welcome to resync a connection")
                    self.close(CLOSE_INTERNAL)
                    continue
                # (no await between the welcome being built and this: nothing told meanwhile
                # is missing from it, and what is told from here on follows it)
                self._behind = False
                if welcome is None:
                    continue
                text = _text(welcome)
            try:
                await self.websocket.send_text(text)
            except Exception:
                self.closed = True
                return


def _text(message: Message | str) -> str:
    return message if isinstance(message, str) else orjson.dumps(message).decode()


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
