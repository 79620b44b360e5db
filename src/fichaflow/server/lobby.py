"""The public lobby: the open public mesas this server holds, as one cached list, and what
changed, pushed to every lobby watcher (``/ws/lobby``) a few times a second at most.

A mesa says it changed (:meth:`Lobby.touch`) whenever its state is told to its own connections
(created, joined, left, started, a hand or the partida over, who watches); the lobby does no work
then, it only notes the code. At most every ``COALESCE_SECONDS`` it builds the entries of the
noted mesas, keeps those that really changed, and sends every watcher one diff text, encoded once
(``{"type": "lobby_diff", "version": …, "mesas": [changed or new entries], "gone": [codes]}``).
A new watcher (or ``GET /api/lobby``) gets the whole list, ``{"type": "lobby", "version": …,
"mesas": […]}``, encoded once per version and kept until the next change.

Where the players' ratings come from: a bot's is its fixed rating (``ratings/bots.py``); a
person's comes from ``rating_of`` (``TableService.rating_of``, None for a guest: the page says
«provisional»). In a cluster each server lists the mesas it holds (see ``docs/lobby.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from fichaflow.core.rules import Mode
from fichaflow.ratings.bots import bot_ratings
from fichaflow.server import wire
from fichaflow.server.hub import Connection

if TYPE_CHECKING:
    from fichaflow.server.service import Room

COALESCE_SECONDS: Final = 0.05
"""Changes of this long are sent together, in one diff."""

LobbyEntry = dict[str, Any]
RatingOf = Callable[[str, int, Mode], int | None]
"""(mesa code, person id, mode) -> the person's shown rating at that mode, None if none."""


def entry_of(room: Room, rating_of: RatingOf | None) -> LobbyEntry | None:
    """The mesa's line in the lobby, or None when it is not listed (private)."""
    mesa = room.mesa
    if not mesa.options.public:
        return None
    mode = mesa.rules.mode
    bots = bot_ratings(mode)
    seats: list[dict[str, Any]] = []
    for seat, chair in enumerate(mesa.chairs):
        if chair.empty:
            seats.append({"kind": "empty", "name": None, "rating": None})
            continue
        rating: int | None
        if chair.bot is not None and chair.person is None:
            rating = bots.get(chair.bot)
        else:
            assert chair.person is not None
            rating = rating_of(mesa.code, chair.person, mode) if rating_of else None
        seats.append(
            {
                "kind": "bot" if chair.bot and chair.person is None else "human",
                "name": mesa.seat_name(seat),
                "rating": rating,
            }
        )
    return {
        "code": mesa.code,
        "rules": mesa.rules.dump(),
        "mode": str(mode),
        "status": mesa.status,
        "free": sum(1 for c in mesa.chairs if c.empty),
        "seats": seats,
        "mirones": room.mirones()[1],
        "quick": mesa.options.quick_seconds,
    }


class Lobby:
    """The lobby of one server's public mesas; ``rooms`` is the service's own dict."""

    def __init__(self, rooms: dict[str, Room], rating_of: RatingOf | None = None) -> None:
        self.rooms = rooms
        self.rating_of = rating_of
        self.entries: dict[str, LobbyEntry] = {}
        self.version = 0
        self.watchers: set[Connection] = set()
        self._dirty: set[str] = set()
        self._flush: asyncio.Task[None] | None = None
        self._text: str | None = None
        self.flushed_at = time.monotonic()

    # -- changes ---------------------------------------------------------------------------

    def touch(self, code: str) -> None:
        """The mesa ``code`` may have changed (or left memory): its entry is looked at within
        ``COALESCE_SECONDS``."""
        self._dirty.add(code)
        if self._flush is None or self._flush.done():
            with contextlib.suppress(RuntimeError):  # (no loop: nothing can watch either)
                self._flush = asyncio.get_running_loop().create_task(self._flush_later())

    async def _flush_later(self) -> None:
        await asyncio.sleep(COALESCE_SECONDS)
        self.flush()

    def flush(self) -> None:
        """Build the noted mesas' entries and send the watchers what changed."""
        dirty, self._dirty = self._dirty, set()
        changed: list[LobbyEntry] = []
        gone: list[str] = []
        for code in dirty:
            room = self.rooms.get(code)
            entry = None if room is None or room.unloaded else entry_of(room, self.rating_of)
            old = self.entries.get(code)
            if entry is None:
                if old is not None:
                    del self.entries[code]
                    gone.append(code)
            elif entry != old:
                self.entries[code] = entry
                changed.append(entry)
        self.flushed_at = time.monotonic()
        if not changed and not gone:
            return
        self.version += 1
        self._text = None
        diff = {"type": "lobby_diff", "version": self.version, "mesas": changed, "gone": gone}
        text = wire.json_text(diff)  # type: ignore[arg-type]
        for conn in list(self.watchers):
            if conn.closed:
                self.watchers.discard(conn)
            else:
                conn.tell(text)

    # -- the whole list --------------------------------------------------------------------

    def text(self) -> str:
        """The whole list, encoded once per version."""
        if self._text is None:
            whole = {"type": "lobby", "version": self.version, "mesas": list(self.entries.values())}
            self._text = wire.json_text(whole)  # type: ignore[arg-type]
        return self._text

    def watch(self, conn: Connection) -> None:
        """A new watcher: the whole list now, then every diff; one too far behind gets the
        whole list again."""

        async def whole() -> str:
            return self.text()

        conn.resync = whole  # type: ignore[assignment]
        conn.greeted = True
        self.watchers.add(conn)
        conn.tell(self.text())

    def unwatch(self, conn: Connection) -> None:
        self.watchers.discard(conn)
