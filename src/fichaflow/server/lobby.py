"""The public lobby: the open public mesas this server holds, as one cached list, and what
changed, pushed to every lobby watcher (``/ws/lobby``) a few times a second at most.

A mesa says it changed (:meth:`Lobby.touch`) whenever its state is told to its own connections
(created, joined, left, started, a hand or the partida over, who watches), and once more when
its last person went away a few seconds ago (:meth:`Lobby.touch_later`: a public mesa nobody is
at is not listed); the lobby does no work then, it only notes the code. At most every
``COALESCE_SECONDS`` it builds the entries of the noted mesas, keeps those that really changed,
and sends every watcher one diff text, encoded once
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
    from fichaflow.http.bus import Bus
    from fichaflow.server.service import Room

COALESCE_SECONDS: Final = 0.05
"""Changes of this long are sent together, in one diff."""

LobbyEntry = dict[str, Any]
RatingOf = Callable[[str, int, Mode], int | None]
"""(mesa code, person id, mode) -> the person's shown rating at that mode, None if none."""


def entry_of(room: Room, rating_of: RatingOf | None) -> LobbyEntry | None:
    """The mesa's line in the lobby, or None when it is not listed: private, or nobody is at
    it (:meth:`Room.peopled`: everybody left, or its maker never came)."""
    mesa = room.mesa
    if not mesa.options.public or not room.peopled(time.monotonic()):
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
        """What the watchers see: this server's mesas and, in a cluster, the others'."""
        self.local: dict[str, LobbyEntry] = {}
        """This server's own public mesas."""
        self.remote: dict[str, dict[str, LobbyEntry]] = {}
        """Each other server's public mesas, as its last messages said (``LobbyBus``)."""
        self.publish: Callable[[dict[str, Any]], None] | None = None
        """In a cluster, where this server's changes go for the others (``LobbyBus``)."""
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

    def touch_later(self, code: str, seconds: float) -> None:
        """Look at the mesa ``code`` again in ``seconds`` (a mesa nobody is at leaves the list
        once its grace is over, with no change of its own to say so)."""
        with contextlib.suppress(RuntimeError):  # (no loop: nothing can watch either)
            asyncio.get_running_loop().call_later(seconds + COALESCE_SECONDS, self.touch, code)

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
            old = self.local.get(code)
            if entry is None:
                if old is not None:
                    del self.local[code]
                    gone.append(code)
            elif entry != old:
                self.local[code] = entry
                changed.append(entry)
        self.flushed_at = time.monotonic()
        if not changed and not gone:
            return
        if self.publish is not None:
            self.publish({"mesas": changed, "gone": gone})
        self._show(changed, gone)

    def merge(
        self, node: str, mesas: list[LobbyEntry], gone: list[str], whole: bool = False
    ) -> None:
        """Another server's changes (``whole``: its whole list, which replaces what it said
        before; an empty whole list: it is gone)."""
        held = self.remote.setdefault(node, {})
        if whole:
            fresh = {m["code"] for m in mesas}
            gone = [*gone, *(code for code in held if code not in fresh)]
            if not mesas:
                self.remote.pop(node, None)
        for code in gone:
            held.pop(code, None)
        for entry in mesas:
            held[entry["code"]] = entry
        self._show([m for m in mesas if m["code"] not in self.local], gone)

    def _visible(self, code: str) -> LobbyEntry | None:
        if code in self.local:
            return self.local[code]
        return next((held[code] for held in self.remote.values() if code in held), None)

    def _show(self, mesas: list[LobbyEntry], gone: list[str]) -> None:
        """What the watchers see changes: tell them (one text for all)."""
        changed: list[LobbyEntry] = []
        for entry in mesas:
            if self.entries.get(entry["code"]) != entry:
                self.entries[entry["code"]] = entry
                changed.append(entry)
        really_gone: list[str] = []
        for code in gone:
            still = self._visible(code)  # (a mesa that moved to another server stays)
            if still is None:
                if self.entries.pop(code, None) is not None:
                    really_gone.append(code)
            elif self.entries.get(code) != still:
                self.entries[code] = still
                changed.append(still)
        if not changed and not really_gone:
            return
        gone = really_gone
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


BUS_CHANNEL: Final = "fichaflow:lobby"
WHOLE_EVERY_SECONDS: Final = 10.0
"""Each server says its whole list this often: a server that started late, or missed a message
while Redis was away, is whole again within this time."""
FORGET_AFTER_SECONDS: Final = 3 * WHOLE_EVERY_SECONDS
"""A server not heard of for this long is gone: its mesas leave the lobby (another server that
takes them lists them)."""


class LobbyBus:
    """The lobby across a cluster (``fichaflow serve --redis``), on the cluster's bus
    (``http/bus.py``): each server says its own changes on one channel and merges the others';
    each says its whole list every ``WHOLE_EVERY_SECONDS`` and when a server that just
    subscribed asks. Redis keeps nothing: a message missed while it was away is made good by
    the next whole list."""

    def __init__(self, bus: Bus, lobby: Lobby) -> None:
        self.bus, self.lobby = bus, lobby
        self._heard: dict[str, float] = {}
        self._say = bus.channel(BUS_CHANNEL, self._merge, connected=self._connected)
        lobby.publish = self._say

    def _whole(self) -> None:
        self._say({"whole": True, "mesas": list(self.lobby.local.values()), "gone": []})

    def _connected(self) -> None:
        self._say({"ask": True, "mesas": [], "gone": []})
        self._whole()

    async def run(self) -> None:
        """For the server's whole life, while subscribed: say the whole list, and forget the
        servers not heard of for ``FORGET_AFTER_SECONDS``."""
        while True:
            await asyncio.sleep(WHOLE_EVERY_SECONDS)
            if not self.bus.connected:
                continue
            self._whole()
            now = time.monotonic()
            for node, heard in list(self._heard.items()):
                if now - heard > FORGET_AFTER_SECONDS:
                    del self._heard[node]
                    self.lobby.merge(node, [], [], whole=True)

    def _merge(self, node: str, message: dict[str, Any]) -> None:
        self._heard[node] = time.monotonic()
        if message.get("ask"):
            self._whole()
            return
        self.lobby.merge(node, message["mesas"], message["gone"], bool(message.get("whole")))
