"""The table service: every mesa in memory, each behind its own lock, every accepted action
committed before anybody hears of it.

An action is checked and applied to the mesa in memory (the core decides), its changes are
committed in one transaction, and only then is each connection sent what its seat may see. If the
commit fails, the mesa is rebuilt from what was last committed (kept in memory, so this works
while the database is down): it is as if the action never came. Bots, turn timers and deals that
could not be committed try again, waiting longer each time, until the database is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Coroutine,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass, field
from typing import Any, cast

from fichaflow.bots.ladder import PLAYER_BOTS
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import PASS, Move
from fichaflow.core.names import player_name
from fichaflow.core.rules import DEFAULT_PRESET, Mode, Rules
from fichaflow.core.view import HandMemo, seat_view
from fichaflow.http import is_code, shown_code
from fichaflow.http.locks import KeyedLocks
from fichaflow.ratings.bots import bot_ratings
from fichaflow.ratings.model import SHOWN_AT_MU
from fichaflow.server import changes as ch
from fichaflow.server import protocol as p
from fichaflow.server import storage as st
from fichaflow.server import wire
from fichaflow.server.autopass import seat_to_pass
from fichaflow.server.botpool import BotPool
from fichaflow.server.hub import CLOSE_RECONNECT, Connection
from fichaflow.server.lobby import Lobby
from fichaflow.server.mesa import Mesa, MoveResult, new_code, token_hash
from fichaflow.server.settings import MIRONES_EVERY_SECONDS, MIRONES_SHOWN, bot_seed
from fichaflow.server.talk import (
    ChatMessage,
    Report,
    Said,
    Talk,
    clean,
    phrase,
    store_block,
    store_report,
    stored_blocks,
)

log = logging.getLogger(__name__)

QUICK_PRESETS = {Mode.PAREJAS: DEFAULT_PRESET, Mode.MANO_A_MANO: "mano_a_mano", Mode.TRES: "tres"}
"""The rules a mesa «Jugar ya» opens is played by, per mode."""
QUICK_FRESH_SECONDS = 15.0
"""A mesa this new counts as peopled though nobody has connected yet (its maker's page is still
on its way): the lobby lists it, «Jugar ya» seats people at it."""
AWAY_GRACE_SECONDS = 5.0
"""A mesa whose last person went away this recently still counts as peopled (a page that
reloads, a phone between two networks): it does not leave the lobby and come back."""
QUICK_WINDOW = 400
"""«Jugar ya» seats a player only at a mesa whose people's mean rating is within this many points
of theirs; farther, it opens a mesa of their own (bots near them fill it after the wait)."""
GUEST_RATING = SHOWN_AT_MU
"""The rating «Jugar ya» matches a guest (or a provisional player) by: a new player's."""

RETRY_MAX = 8.0
"""The longest a bot, timer or deal waits between tries while the database is down."""
RESUME_GRACE = 5.0
"""A turn timer that goes on after a restart or a takeover leaves the seat at least this many
seconds (or its whole turn, if shorter): time for the player's page to reconnect."""

PartidaPlayed = Callable[[dict[str, Any]], Awaitable[Sequence[Mapping[str, Any]] | None]]
"""What the server tells the players' side (``app.py`` hands it in: the accounts keep the
ratings and every signed-in player's partidas) when a partida ends at which somebody played
signed in: :func:`played_partida`'s dict; the answer is the rating changes of a rated partida."""
RatingsOf = Callable[[str], Awaitable[Mapping[str, int]]]
"""An account's shown rating per mode (the modes it has played rated), from the players' side."""
PartidaEnded = Callable[[str, int], Coroutine[Any, Any, None]]
JoinElsewhere = Callable[[str, p.Join, Mapping[str, str]], Awaitable[wire.Joined | None]]
"""(mesa code, join, the asker's credentials) -> the join made at the server holding the mesa,
None if refused. The credentials are the asker's own request's (``relay.credentials``): the
holder signs a player in from them itself, as it would the player's own request."""


def places_of(scores: Sequence[int], winner: int) -> list[int]:
    """Each side's finish for the ratings: 0 for the winner, then the others by their scores
    (de a tres, the higher second; level scores share a place)."""
    others = sorted({s for t, s in enumerate(scores) if t != winner}, reverse=True)
    return [0 if t == winner else 1 + others.index(s) for t, s in enumerate(scores)]


def played_partida(mesa: Mesa, result: MoveResult) -> dict[str, Any] | None:
    """A partida just ended, for the players' side: each seat's account (or bot), the sides'
    places, and whether it is rated (the mesa says so and every person at it played signed in);
    None when nobody played signed in."""
    partida = mesa.partida
    assert partida is not None and partida.winner is not None
    seats = []
    for seat, chair in enumerate(result.seated):
        person = mesa.people.get(chair.person) if chair.person is not None else None
        seats.append(
            {
                "seat": seat,
                "account": person.account if person is not None else None,
                "bot": chair.bot if person is None else None,
                "name": (partida.players or ())[seat] if partida.players else "",
            }
        )
    if all(s["account"] is None for s in seats):
        return None
    humans = [s for s in seats if s["bot"] is None]
    return {
        "mesa": mesa.code,
        "partida": mesa.partida_number,
        "mode": str(partida.rules.mode),
        "rated": mesa.options.rated and all(s["account"] is not None for s in humans),
        "seats": seats,
        "teams": [partida.rules.team_of(s) for s in range(partida.rules.seats)],
        "places": places_of(partida.scores, partida.winner),
        "scores": list(partida.scores),
        "winner": partida.winner,
    }


@dataclass(eq=False)
class Room:
    """A mesa and what only the running server knows about it: who is connected, since when
    people are away, its bot and timer tasks."""

    mesa: Mesa
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    away_since: dict[int, float] = field(default_factory=dict)
    deadline: float | None = None  # the turn timer's end, Unix time in milliseconds
    tasks: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    quiet_since: float = field(default_factory=time.monotonic)
    """When the last connection left (or the room was loaded)."""
    unloaded: bool = False
    """Set, under the lock, when the room leaves memory: whoever waited for the lock must take
    the mesa again from the service."""
    committed: ch.MesaSnapshot | None = None
    """The mesa as last committed (None until its creation is): what a failed commit goes back
    to, without reading the database."""
    fence: int = 0
    """The fencing token of this server's lease on the mesa: every commit checks it."""
    loaded_at: float = field(default_factory=time.monotonic)
    """When this server took the mesa (a lease renewal that started earlier does not know)."""
    failures: int = 0
    """Commits failed in a row: the work the server does by itself (bots, timers, deals) waits
    longer after each before trying again."""
    left_at: float | None = None
    """When the last person connected went away (``time.monotonic``; None: nobody has since
    the mesa was loaded)."""
    mirones_told: float = -MIRONES_EVERY_SECONDS
    """When everybody was last told who watches (``time.monotonic``)."""
    talk: Talk = field(default_factory=Talk)
    """The table talk: in this server's memory only (a restart, or the mesa leaving memory,
    forgets it)."""
    views: HandMemo = field(default_factory=HandMemo)
    """The hand's public turns as the views of each move share them (``core.view.HandMemo``)."""
    resumed_turn: float | None = None
    """When the turn under way began, as stored (Unix time in milliseconds), until the first
    turn timer set after the mesa was loaded: a restart or a takeover does not give the seat its
    whole time again."""

    def __post_init__(self) -> None:
        self.talk.accounts = self._accounts

    def _accounts(self) -> dict[int, str]:
        return {pid: who.account for pid, who in self.mesa.people.items() if who.account}

    def backoff(self) -> float:
        """Seconds to wait before the server's own next try after ``failures`` failed commits:
        0.5, 1, 2, 4, then every 8 at most."""
        return 0.0 if not self.failures else min(RETRY_MAX, 0.5 * 2 ** (self.failures - 1))

    def idle(self, now: float, seconds: float) -> bool:
        """Nobody connected for ``seconds``, and no bot, timer or next hand under way: the room
        can leave memory (everything it holds is in the database)."""
        return (
            not self.connections
            and now - self.quiet_since >= seconds
            and all(task.done() for task in self.tasks.values())
        )

    def online(self) -> set[int]:
        return {c.person for c in self.connections if c.person is not None and not c.closed}

    def peopled(self, now: float) -> bool:
        """Somebody is at the mesa, or about to be: a person (a player, or a mirón who joined)
        is connected, or the mesa is newer than ``QUICK_FRESH_SECONDS`` and nobody has come
        yet, or its last person went away less than ``AWAY_GRACE_SECONDS`` ago. A public mesa
        nobody is at is not in the lobby, and «Jugar ya» seats nobody there: whoever sat down
        would wait alone (a watcher without a name does not count: nobody plays with them)."""
        if self.online():
            return True
        if self.left_at is None:
            return now - self.loaded_at < QUICK_FRESH_SECONDS
        return now - self.left_at < AWAY_GRACE_SECONDS

    def state(self) -> wire.MesaState:
        now = time.monotonic()
        away = {person: int(now - since) for person, since in self.away_since.items()}
        return wire.mesa_state(self.mesa, self.online(), away, self.deadline, self.mirones())

    def mirones(self) -> tuple[list[str | None], int]:
        """Who is watching, the first ``MIRONES_SHOWN`` of them, and how many they are: each
        connected person with no chair who is not in the queue (by name, in the order they
        joined the mesa), and each connection that said hello without a token (null)."""
        mesa = self.mesa
        named: dict[int, str] = {}
        anonymous = 0
        for conn in self.connections:
            if conn.closed:
                continue
            if conn.person is None:
                anonymous += 1
            elif mesa.seat_of(conn.person) is None and conn.person not in mesa.queue:
                named[conn.person] = mesa.people[conn.person].name
        names: list[str | None] = [named[person] for person in sorted(named)[:MIRONES_SHOWN]]
        names += [None] * min(anonymous, MIRONES_SHOWN - len(names))
        return names, len(named) + anonymous


class TableService:
    """The mesas in use live in memory. A mesa is rebuilt from the database when someone asks
    for it (after a restart, their clients say hello again), and leaves memory once nobody has
    been connected to it for ``idle_seconds`` and nothing is under way (:meth:`unload_idle`)."""

    def __init__(self, storage: st.Storage, bots: BotPool, idle_seconds: float = 900) -> None:
        self.storage = storage
        self.bots = bots
        self.idle_seconds = idle_seconds
        self.rooms: dict[str, Room] = {}
        self.tokens: dict[str, tuple[str, int]] = {}  # token hash -> (mesa code, person)
        self._loading = KeyedLocks()  # mesa code -> its load from the database
        self.lobby = Lobby(self.rooms)
        """The public mesas' list; its ``rating_of`` (None: nobody has a rating yet) gives a
        person's rating, for the lobby and «Jugar ya»."""
        self._quick = asyncio.Lock()  # one «Jugar ya» at a time: two players meet, never miss
        self.node_hint: str | None = None
        """The name this server gives for the mesas it holds (its ``--node``: see
        ``wire.NODE_PARAM``) when it is one of a cluster's (``app.py``); None alone, where there
        is nothing to route and no reason to tell clients the machine's name."""
        self.join_elsewhere: JoinElsewhere | None = None
        """In a cluster, a join at a mesa another server holds, made there (``relay.py``): its
        answer, or None when refused (full, started) or unanswered; «Jugar ya» uses it."""
        self.partida_played: PartidaPlayed | None = None
        """Told of each partida that ends with somebody signed in at it (``app.py``)."""
        self.partida_ended: PartidaEnded | None = None
        """Told of every partida that ends (mesa code, partida number), after its commit and
        outside the mesa's lock: the torneos take an online table's result (``app.py``)."""
        self.ratings_of: RatingsOf | None = None
        """An account's stored ratings, from the players' side (``app.py``)."""
        self.ratings: dict[str, dict[str, int]] = {}
        """The shown ratings per mode of the accounts that sat down or said hello here (a mode
        missing: no rated partida there yet), kept up to date by the rated partidas' ends: what
        the lobby and «Jugar ya» read (:meth:`rating_of`)."""
        self.lobby.rating_of = self.rating_of
        self.redis_reachable = True
        """False while this server cannot reach Redis (its bots' turns wait): every client is
        told (:meth:`redis_changed`), and each that says hello meanwhile."""

    # -- mesas in memory ---------------------------------------------------------------------

    def _restore(self, snap: ch.MesaSnapshot, fence: int) -> Room:
        """A stored mesa back in memory under this server's lease (token ``fence``): its people
        away until they say hello, its bots and timers going again."""
        room = Room(Mesa.restore(snap), committed=snap, fence=fence)
        room.resumed_turn = snap.hands[-1].last_action if snap.hands else None
        self._register(room)
        now = time.monotonic()
        for chair in room.mesa.chairs:
            if chair.person is not None:
                room.away_since[chair.person] = now
        self._after(room)
        return room

    def _register(self, room: Room) -> None:
        room.loaded_at = time.monotonic()
        self.rooms[room.mesa.code] = room
        for person in room.mesa.people.values():
            self.tokens[person.token_hash] = (room.mesa.code, person.id)
        self._schedule_fill(room)
        self.lobby.touch(room.mesa.code)
        if room.mesa.options.public:  # nobody came while it was new: it leaves the lobby
            self.lobby.touch_later(room.mesa.code, QUICK_FRESH_SECONDS)

    async def room(self, code: str) -> Room:
        """The mesa ``code``, from memory or else from the database."""
        room = self.rooms.get(code)
        if room is not None:
            return room
        if not is_code(code):  # no mesa has it; nor may it reach the database (a NUL would not)
            raise FichaFlowError("server.no_mesa", mesa=shown_code(code))
        # One load per mesa at a time (many clients of one mesa come back together after a
        # restart), while other mesas load alongside.
        async with self._loading.of(code):
            room = self.rooms.get(code)
            if room is not None:
                return room
            taken = await self.storage.take_mesa(code)  # the lease, then the mesa
            if taken is None:
                raise FichaFlowError("server.no_mesa", mesa=code)
            snap, fence = taken
            try:
                return self._restore(snap, fence)
            except FichaFlowError as exc:
                log.error("mesa %s does not replay: %s", code, exc)
                await self.storage.release_leases({code: fence})
                raise FichaFlowError("server.no_mesa", mesa=code) from None

    @contextlib.asynccontextmanager
    async def locked(self, code: str) -> AsyncIterator[Room]:
        """The mesa ``code`` with its lock held (taken again if it left memory meanwhile)."""
        while True:
            room = await self.room(code)
            async with room.lock:
                if not room.unloaded:
                    yield room
                    return

    async def unload_idle(self) -> list[str]:
        """Let the idle mesas leave memory; returns their codes."""
        now = time.monotonic()
        gone: dict[str, int] = {}
        for code, room in list(self.rooms.items()):
            if not room.idle(now, self.idle_seconds) or room.lock.locked():
                continue
            async with room.lock:
                if self.rooms.get(code) is not room or not room.idle(now, self.idle_seconds):
                    continue
                self._forget(room)
                gone[code] = room.fence
        await self.storage.release_leases(gone)
        return list(gone)

    async def keep_leases(self) -> None:
        """Renew this server's leases every third of their length, for the server's whole life;
        a mesa whose lease another server has taken meanwhile (this one was stopped or cut off
        past its lease) is dropped (:meth:`_drop`)."""
        while True:
            await asyncio.sleep(self.storage.lease_seconds / 3)
            started = time.monotonic()
            try:
                held = await self.storage.renew_leases()
            except Exception as exc:
                log.error("could not renew the leases: %s", st.short_error(exc))
                continue
            for code, room in list(self.rooms.items()):
                if room.loaded_at < started and held.get(code) != room.fence:
                    async with room.lock:
                        if not room.unloaded:
                            log.warning("mesa %s: another server took its lease", code)
                            self._drop(room)

    async def release_all(self) -> None:
        """Let go of every lease this server holds (when it stops), so that another server, or
        this one started again under another name, can take the mesas at once."""
        leases = {code: room.fence for code, room in self.rooms.items()}
        for room in list(self.rooms.values()):
            self._forget(room)
        await self.storage.release_leases(leases)

    def _forget(self, room: Room) -> None:
        """The room leaves memory (called under its lock)."""
        room.unloaded = True
        if self.rooms.get(room.mesa.code) is room:
            del self.rooms[room.mesa.code]
        for person in room.mesa.people.values():
            if self.tokens.get(person.token_hash, (None,))[0] == room.mesa.code:
                del self.tokens[person.token_hash]
        for task in room.tasks.values():
            task.cancel()
        self.lobby.touch(room.mesa.code)

    def _drop(self, room: Room) -> None:
        """The database is past this room's memory, or another server holds the mesa: it leaves
        memory, and its clients are told to connect again (they say hello and get the mesa as
        stored, from whichever server holds it)."""
        self._forget(room)
        error = FichaFlowError("server.moved")
        for conn in list(room.connections):
            conn.send(wire.error(error))
            conn.close(CLOSE_RECONNECT, error.code)
        room.connections.clear()

    async def keep_tidy(self, every: float = 60) -> None:
        """Run :meth:`unload_idle` every ``every`` seconds, for the server's whole life."""
        while True:
            await asyncio.sleep(every)
            gone = await self.unload_idle()
            if gone:
                log.info("%d idle mesas left memory", len(gone))

    # -- committing ------------------------------------------------------------------------

    async def _commit(self, room: Room, changes: Sequence[ch.Change]) -> None:
        """Commit an action already applied in memory. If the commit fails, the mesa goes back
        to what was last committed (no database read: the database may be the trouble) and the
        actor gets ``server.storage``; if the database is past this memory, or another server has
        taken the mesa's lease, the room is dropped (:meth:`_drop`) and the actor gets
        ``server.moved``."""
        mesa = room.mesa
        mesa.version += 1
        try:
            await self.storage.commit(
                [*changes, ch.SetVersion(mesa.code, mesa.version, room.fence)]
            )
        except st.StaleMesa:
            log.error("mesa %s: the database is past this server's memory of it", mesa.code)
            self._drop(room)
            raise FichaFlowError("server.moved") from None
        except Exception as exc:
            room.failures += 1
            log.error(
                "could not commit an action at mesa %s (failure %d in a row): %s",
                mesa.code,
                room.failures,
                st.short_error(exc),
            )
            self._undo(room)
            raise FichaFlowError("server.storage") from None
        room.failures = 0
        room.committed = mesa.snapshot()

    def _undo(self, room: Room) -> None:
        """Put the mesa back as last committed, and set its bots, timer and next deal going
        again (later each time, see :meth:`Room.backoff`). A deal that failed stays due."""
        snap = room.committed
        if snap is None:  # its creation failed: there is nothing to go back to
            return
        failed = room.mesa
        mesa = Mesa.restore(snap)
        same_hand = len(mesa.hands) == len(failed.hands)
        mesa.ready = set(failed.ready) if same_hand else set(range(len(mesa.chairs)))
        room.mesa = mesa
        self._after(room)

    # -- HTTP ------------------------------------------------------------------------------

    async def create(
        self, request: p.CreateMesa, base_url: str, account: tuple[str, str] | None = None
    ) -> wire.CreatedMesa:
        """A new mesa; ``account`` is the signed-in host's (id, name): their name at it."""
        await self.know_ratings(account and account[0])
        code = new_code()
        while code in self.rooms:
            code = new_code()
        mesa, host, token, changes = Mesa.create(
            code,
            Rules.load(request.rules),
            request.options,
            request.seats,
            account[1] if account else "Anfitrión" if request.name is None else request.name,
            request.seat,
            account[0] if account else None,
        )
        room = Room(mesa, fence=1)
        await self._commit(room, [*changes, self.storage.new_lease(code)])
        self._register(room)
        return {
            "code": code,
            "join_url": f"{base_url.rstrip('/')}/m/{code}",
            "token": token,
            "person": host.id,
            "seat": mesa.seat_of(host.id),
            "mesa": room.state(),
            "node": self.node_hint,
        }

    async def join(
        self, code: str, request: p.Join, account: tuple[str, str] | None = None
    ) -> wire.Joined:
        """A newcomer at the mesa; ``account`` is the signed-in player's (id, name): the
        account's name is theirs at the mesa."""
        await self.know_ratings(account and account[0])
        async with self.locked(code) as room:
            name = account[1] if account else request.name
            person, token, changes = room.mesa.join(name, request.seat, account and account[0])
            await self._commit(room, changes)
            self.tokens[person.token_hash] = (code, person.id)
            mesa = room.mesa
            full = not any(c.empty for c in mesa.chairs)
            if mesa.options.quick_seconds and mesa.status == "waiting" and full:
                room.tasks.pop("fill", None)  # people filled it: no bots needed
                with _retried_later():
                    await self._fill_and_start(room)
            self._broadcast_mesa(room)
            return {
                "code": code,
                "token": token,
                "person": person.id,
                "seat": room.mesa.seat_of(person.id),
                "queued": person.id in room.mesa.queue,
                "node": self.node_hint,
            }

    # -- «Jugar ya» ---------------------------------------------------------------------------

    def _rating(self, code: str, person: int, mode: Mode) -> int:
        rating_of = self.lobby.rating_of
        found = rating_of(code, person, mode) if rating_of is not None else None
        return GUEST_RATING if found is None else found

    def _level(self, room: Room) -> float | None:
        """The mean rating of the people at the mesa's chairs (None: nobody sits)."""
        mesa = room.mesa
        people = [c.person for c in mesa.chairs if c.person is not None]
        if not people:
            return None
        mode = mesa.rules.mode
        return sum(self._rating(mesa.code, p, mode) for p in people) / len(people)

    async def quick(
        self,
        request: p.Quick,
        base_url: str,
        account: tuple[str, str] | None = None,
        credentials: Mapping[str, str] | None = None,
    ) -> wire.Joined:
        """«Jugar ya»: a free chair at the waiting public «Jugar ya» mesa of the mode nearest the
        player's rating (a guest's, or a signed-in player's with no rated partida at the mode:
        a new player's), within ``QUICK_WINDOW``, or else a new such mesa, its maker seated and
        host, whose empty chairs bots fill after ``wait_seconds``; ``account`` is the signed-in
        player's (id, name), and ``credentials`` what a mesa another server holds signs them in
        by there (:data:`JoinElsewhere`)."""
        name = player_name(request.name)
        mode = Mode(request.mode)
        await self.know_ratings(account and account[0])
        known = self.ratings.get(account[0], {}).get(str(mode)) if account else None
        rating = GUEST_RATING if known is None else known
        async with self._quick:
            now = time.monotonic()
            found: list[tuple[float, int, float, str]] = []
            for code, room in self.rooms.items():
                mesa = room.mesa
                if (
                    room.unloaded
                    or not mesa.options.public
                    or not mesa.options.quick_seconds
                    or mesa.status != "waiting"
                    or mesa.rules.mode != mode
                    or not any(c.empty for c in mesa.chairs)
                    or not room.peopled(now)
                ):
                    continue
                level = self._level(room)
                distance = 0.0 if level is None else abs(level - rating)
                if distance <= QUICK_WINDOW:
                    found.append((distance, 0, room.loaded_at, code))
            if self.join_elsewhere is not None:
                found += _elsewhere(self.lobby, self.rooms, mode, rating)
            for _distance, remote, _at, code in sorted(found):
                if not remote:
                    room = self.rooms[code]
                    seat = next(s for s, c in enumerate(room.mesa.chairs) if c.empty)
                    return await self.join(code, p.Join(name=name, seat=seat), account)
                entry = self.lobby.entries.get(code)
                seats = entry["seats"] if entry else []
                free = next((s for s, c in enumerate(seats) if c["kind"] == "empty"), None)
                if free is None or self.join_elsewhere is None:
                    continue
                joined = await self.join_elsewhere(
                    code, p.Join(name=name, seat=free), credentials or {}
                )
                if joined is not None:
                    return joined
            options = p.MesaOptions(public=True, quick_seconds=request.wait_seconds)
            create = p.CreateMesa(rules=QUICK_PRESETS[mode], options=options, name=name, seat=0)
            made = await self.create(create, base_url, account)
            return {
                "code": made["code"],
                "token": made["token"],
                "person": made["person"],
                "seat": made["seat"],
                "queued": False,
                "node": made["node"],
            }

    def _schedule_fill(self, room: Room, wait: float | None = None) -> None:
        """A «Jugar ya» mesa still waiting: its bots sit down when its wait is over."""
        mesa = room.mesa
        seconds = mesa.options.quick_seconds
        if not seconds or mesa.status != "waiting":
            return
        self._spawn(room, "fill", self._fill_later(room, seconds if wait is None else wait))

    async def _fill_later(self, room: Room, wait: float) -> None:
        await asyncio.sleep(wait)
        async with room.lock:
            if room.unloaded or room.mesa.status != "waiting":
                return
            room.tasks.pop("fill", None)
            if not room.online():
                return  # everybody left: no partida of bots for nobody
            try:
                await self._fill_and_start(room)
            except FichaFlowError as exc:
                if exc.code != "server.storage":
                    raise
                self._schedule_fill(room, max(1.0, room.backoff()))

    def nearest_bots(self, mode: Mode, level: float | None) -> list[str]:
        """The offered bots with a rating at ``mode``, nearest ``level`` first."""
        rated = {b: r for b, r in bot_ratings(mode).items() if b in PLAYER_BOTS}
        target = GUEST_RATING if level is None else level
        return sorted(rated, key=lambda b: (abs(rated[b] - target), rated[b]))

    async def _fill_and_start(self, room: Room) -> None:
        """The bots nearest the people's rating in the empty chairs (the nearest first, then the
        next), and the partida starts."""
        mesa = room.mesa
        nearest = self.nearest_bots(mesa.rules.mode, self._level(room))
        nearest = nearest or [mesa.options.timeout_bot]
        changes: list[ch.Change] = []
        empty = [s for s, c in enumerate(mesa.chairs) if c.empty]
        for i, seat in enumerate(empty):
            changes += mesa.seat_bot(seat, nearest[i % len(nearest)], None)
        changes += mesa.start()
        await self._commit(room, changes)
        self._after(room)
        self._broadcast_mesa(room)
        self._broadcast_hand_start(room)

    async def public(self, code: str) -> wire.MesaPublic:
        async with self.locked(code) as room:
            return {"mesa": room.state(), "partida": wire.partida_summary(room.mesa)}

    async def record(self, code: str, number: int) -> wire.PartidaRecord:
        async with self.locked(code) as room:
            mesa = room.mesa
            if number == mesa.partida_number and mesa.partida is not None:
                return wire.record(mesa)
            if not 0 < number < mesa.partida_number:  # never played: no need to ask the database
                raise FichaFlowError("server.no_partida_number", number=number)
        snap = await self.storage.load_mesa(code, number)
        if snap is None or snap.partida is None or snap.partida.number != number:
            raise FichaFlowError("server.no_partida_number", number=number)
        return wire.record(Mesa.restore(snap))

    # -- WebSocket -------------------------------------------------------------------------

    async def handle(self, conn: Connection, intention: p.Intention) -> None:
        if isinstance(intention, p.Ping):
            conn.send({"type": "pong", "ref": intention.ref})  # a reply: never dropped
            return
        if isinstance(intention, p.Hello):
            await self.hello(conn, intention)
            return
        if conn.code is None or conn.code not in self.rooms:
            raise FichaFlowError("server.hello_first")
        room = self.rooms[conn.code]
        async with room.lock:
            await self._act(room, conn, intention)

    async def hello(self, conn: Connection, hello: p.Hello) -> None:
        person = None
        account = None
        # Check first (a bad hello leaves the connection where it was); a mesa out of memory
        # comes back, and its people's tokens with it.
        async with self.locked(hello.code) as checked:
            if hello.token is not None:
                entry = self.tokens.get(token_hash(hello.token))
                if entry is None or entry[0] != hello.code:
                    raise FichaFlowError("server.bad_token")
                person = entry[1]
                account = checked.mesa.people[person].account
        await self.know_ratings(account)  # for the lobby: a signed-in player's ratings
        blocks = await self._stored_blocks(account)
        await self.leave(conn)
        async with self.locked(hello.code) as room:
            conn.code, conn.person, conn.turns = hello.code, person, hello.turns
            conn.greeted = True
            conn.resync = functools.partial(self._resync, room, conn)
            room.connections.add(conn)
            if person is not None and blocks is not None:
                room.talk.stored[person] = blocks
            if person is not None:
                room.away_since.pop(person, None)
                back = room.mesa.reclaim(person)
                if back:
                    await self._commit(room, back)
                    self._after(room)
            conn.tell(self._welcome(room, conn))
            if not self.redis_reachable:
                conn.tell(self._status(), state="status")
            self._came_or_went(room, conn, skip=conn)

    async def leave(self, conn: Connection) -> None:
        """A connection went away (or said hello elsewhere): mark its person away."""
        room = self.rooms.get(conn.code) if conn.code is not None else None
        if room is None or conn not in room.connections:
            return
        async with room.lock:
            room.connections.discard(conn)
            if conn.person is not None and conn.person not in room.online():
                room.away_since[conn.person] = time.monotonic()
                if not room.online():  # the last person went: soon out of the lobby
                    room.left_at = time.monotonic()
                    if room.mesa.options.public:
                        self.lobby.touch_later(room.mesa.code, AWAY_GRACE_SECONDS)
            if not room.connections:
                room.quiet_since = time.monotonic()
            conn.code = None
            self._came_or_went(room, conn)
            self._maybe_next_hand(room)

    def _came_or_went(self, room: Room, conn: Connection, skip: Connection | None = None) -> None:
        """Tell the others that ``conn`` came or went: a seated person's chair shows it (the
        mesa's state); anybody else only changes who watches, a small ``mirones`` message."""
        person = conn.person
        if person is not None and room.mesa.seat_of(person) is not None:
            self._broadcast_mesa(room, skip=skip)
        else:
            self._mirones_changed(room)

    async def _resync(self, room: Room, conn: Connection) -> wire.Welcome | None:
        """The whole state anew for a connection too far behind to be told the rest."""
        async with room.lock:
            if room.unloaded or conn not in room.connections:
                return None
            return self._welcome(room, conn)

    def _welcome(self, room: Room, conn: Connection) -> wire.Welcome:
        mesa = room.mesa
        person = mesa.people.get(conn.person) if conn.person is not None else None
        seat = mesa.seat_of(person.id) if person is not None else None
        you: wire.You | None = None
        if person is not None:
            you = {
                "id": person.id,
                "name": person.name,
                "seat": seat,
                "host": person.is_host,
                "queued": person.id in mesa.queue,
            }
        return {
            "type": "welcome",
            "seq": mesa.version,
            "role": "miron" if seat is None else "player",
            "you": you,
            "mesa": room.state(),
            "partida": wire.partida_summary(mesa),
            "hand": wire.hand_header(mesa, mesa.hands[-1]) if mesa.hand is not None else None,
            "view": wire.view(mesa, seat),
            "chat": room.talk.visible(conn.person, seat is not None),
            "blocked": sorted(room.talk.blocked_by(conn.person)),
            "node": self.node_hint,
        }

    def _person(self, room: Room, conn: Connection) -> int:
        if conn.person is None:
            raise FichaFlowError("server.miron")
        return conn.person

    def _host(self, room: Room, conn: Connection) -> None:
        person = self._person(room, conn)
        if not room.mesa.people[person].is_host:
            raise FichaFlowError("server.not_host")

    def _seat(self, room: Room, conn: Connection) -> int:
        seat = room.mesa.seat_of(self._person(room, conn))
        if seat is None:
            raise FichaFlowError("server.not_seated")
        return seat

    async def _act(self, room: Room, conn: Connection, intention: p.Intention) -> None:
        mesa = room.mesa
        match intention:
            case p.Play(move=token):
                seat = self._seat(room, conn)
                move = mesa.parse_move(seat, token)
                await self._play(room, seat, move)
                return
            case p.Ready(after=after, partida=partida):
                self._ready(room, conn, after, partida)
                return
            case p.NextHand():
                self._host(room, conn)
                if mesa.status != "hand_over":
                    raise FichaFlowError("server.not_hand_over")
                await self._next_hand(room)
                return
            case p.Start():
                self._host(room, conn)
                await self._commit(room, mesa.start())
                self._after(room)
                self._broadcast_mesa(room)
                self._broadcast_hand_start(room)
                return
            case p.Sit(seat=seat):
                await self._commit(room, mesa.sit(self._person(room, conn), seat))
            case p.Stand():
                await self._commit(room, mesa.stand(self._person(room, conn)))
            case p.Queue():
                await self._commit(room, mesa.enqueue(self._person(room, conn)))
            case p.Unqueue():
                await self._commit(room, mesa.unqueue(self._person(room, conn)))
            case p.SeatBot(seat=seat, bot=bot):
                self._host(room, conn)
                chair = mesa.chairs[seat] if 0 <= seat < len(mesa.chairs) else None
                away = None
                if chair is not None and chair.person is not None:
                    since = room.away_since.get(chair.person)
                    away = None if since is None else time.monotonic() - since
                await self._commit(room, mesa.seat_bot(seat, bot, away))
                self._after(room)
            case p.ClearSeat(seat=seat):
                self._host(room, conn)
                await self._commit(room, mesa.clear_seat(seat))
            case p.Reorder(queue=order):
                self._host(room, conn)
                await self._commit(room, mesa.reorder(order))
            case p.Configure(rules=rules, options=options):
                self._host(room, conn)
                new_rules = None if rules is None else Rules.load(rules)
                await self._commit(room, mesa.configure(new_rules, options))
            case p.Say(text=text, phrase=key):
                self._say(room, conn, text, key)
                return
            case p.Block(person=other, on=on):
                me = self._person(room, conn)
                if other == me or other not in mesa.people:
                    raise FichaFlowError("server.chat_block_who", person=other)
                # Between two accounts the block is stored; with a guest, this mesa's only.
                mine, theirs = mesa.people[me].account, mesa.people[other].account
                kept = theirs if mine is not None and mine != theirs else None
                if mine is not None and kept is not None:
                    await self._store_block(mine, kept, on)
                people = room.talk.block(me, other, on, kept)
                for c in room.connections:
                    if c.person == me:
                        c.send({"type": "blocked", "people": people})
                return
            case p.Report(id=saying):
                await self._report(room, conn, saying)
                return
            case _:
                raise FichaFlowError("server.hello_first")
        self._broadcast_mesa(room)

    def _say(self, room: Room, conn: Connection, text: str | None, key: str | None) -> None:
        """Something said at the mesa, told to each connection that may hear it: a mirón's
        words never reach a seated player's connection while a hand is in play."""
        if conn.person is None:
            raise FichaFlowError("server.chat_anonymous")
        if (text is None) == (key is None):
            raise FichaFlowError("server.chat_what")
        words = None if text is None else clean(text)
        said_phrase = None if key is None else phrase(key)
        mesa, talk = room.mesa, room.talk
        talk.check_rate(conn.person)
        seated = mesa.seat_of(conn.person) is not None
        talk.count += 1
        message: ChatMessage = {
            "type": "chat",
            "id": talk.count,
            "person": conn.person,
            "name": mesa.people[conn.person].name,
            "role": "player" if seated else "miron",
            "text": words,
            "phrase": said_phrase,
            "at": time.time() * 1000,
        }
        said = Said(message, wire.json_text(message), not seated and mesa.status == "playing")
        talk.history.append(said)
        for c in room.connections:
            listener_seated = c.person is not None and mesa.seat_of(c.person) is not None
            if talk.may_hear(said, c.person, listener_seated):
                c.tell(said.text)

    async def _stored_blocks(self, account: str | None) -> set[str] | None:
        """The accounts a signed-in person blocked (None for a guest, or when they cannot be
        read: the talk goes on with the blocks this server remembers)."""
        if account is None:
            return None
        try:
            return await self.storage.run(stored_blocks, self.storage.engine, account)
        except Exception as exc:
            log.warning("could not read an account's blocks: %s", st.short_error(exc))
            return None

    async def _store_block(self, blocker: str, blocked: str, on: bool) -> None:
        try:
            await self.storage.run(store_block, self.storage.engine, blocker, blocked, on)
        except Exception as exc:
            log.error("could not store a block: %s", st.short_error(exc))
            raise FichaFlowError("server.storage") from None

    async def _report(self, room: Room, conn: Connection, saying: int) -> None:
        """Store a saying this connection heard as reported (once per person and saying), and
        tell the reporter's connection so."""
        if conn.person is None:
            raise FichaFlowError("server.chat_anonymous")
        mesa, talk = room.mesa, room.talk
        seated = mesa.seat_of(conn.person) is not None
        said = talk.reportable(saying, conn.person, seated)
        if (conn.person, saying) not in talk.reported:
            speaker = mesa.people.get(said.message["person"])
            reporter = mesa.people[conn.person]
            report = Report(
                mesa.code,
                said.message,
                speaker.account if speaker is not None else None,
                reporter.id,
                reporter.name,
                reporter.account,
            )
            try:
                await self.storage.run(store_report, self.storage.engine, report)
            except Exception as exc:
                log.error("could not store a report at mesa %s: %s", mesa.code, st.short_error(exc))
                raise FichaFlowError("server.storage") from None
            talk.reported.add((conn.person, saying))
        conn.send({"type": "reported", "id": saying})

    # -- play ------------------------------------------------------------------------------

    async def _play(self, room: Room, seat: int, move: Move, timed_out: bool = False) -> None:
        mesa = room.mesa
        assert mesa.hand is not None
        turns_from = len(mesa.hand.history)  # what every view held before: the move's turns follow
        result, changes = mesa.play(seat, move, timed_out)
        await self._commit(room, changes)
        self._after(room)
        ratings = None
        if result.seated and self.partida_ended is not None:
            self._spawn(room, "ended", self.partida_ended(mesa.code, mesa.partida_number))
        if result.seated and self.partida_played is not None:
            ratings = await self._partida_played(mesa, result)
        self._broadcast_move(room, result, turns_from, ratings)

    async def _partida_played(
        self, mesa: Mesa, result: MoveResult
    ) -> list[wire.RatingChange] | None:
        """Tell the players' side of the partida that ended (their partidas, the ratings of a
        rated one). The partida is committed already; if the ratings cannot be stored, the
        partida stands, unrated, and the log says so."""
        played = played_partida(mesa, result)
        if played is None or self.partida_played is None:
            return None
        try:
            changes = await self.partida_played(played)
        except Exception:
            log.exception("mesa %s: the partida's ratings could not be stored", mesa.code)
            return None
        if changes is not None:
            self._moved(played, changes)
        return None if changes is None else [cast(wire.RatingChange, dict(c)) for c in changes]

    def rating_of(self, code: str, person: int, mode: Mode) -> int | None:
        """The shown rating at ``mode`` of a person at a mesa in memory: their account's, None
        for a guest or an account with no rated partida there yet."""
        room = self.rooms.get(code)
        who = room.mesa.people.get(person) if room is not None else None
        if who is None or who.account is None:
            return None
        return self.ratings.get(who.account, {}).get(str(mode))

    async def know_ratings(self, account: str | None) -> None:
        """Learn an account's ratings (once: rated partidas' ends keep them up to date); a
        failure leaves them unknown, shown as a new player's."""
        if account is None or account in self.ratings or self.ratings_of is None:
            return
        try:
            self.ratings[account] = dict(await self.ratings_of(account))
        except Exception as exc:
            log.warning("could not read the ratings of an account: %s", st.short_error(exc))

    def _moved(self, played: dict[str, Any], changes: Sequence[Mapping[str, Any]]) -> None:
        """A rated partida's new ratings, for the lobby."""
        accounts = {s["seat"]: s["account"] for s in played["seats"]}
        for change in changes:
            account = accounts.get(change["seat"])
            if account is not None:
                self.ratings.setdefault(account, {})[played["mode"]] = int(change["after"])

    async def set_account(self, code: str, person: int, account: str) -> None:
        """The guest ``person`` signed up: the account's person at the mesa from now on."""
        async with self.locked(code) as room:
            if room.mesa.people[person].account == account:
                return
            await self._commit(room, room.mesa.set_account(person, account))
            self._broadcast_mesa(room)

    def _ready(self, room: Room, conn: Connection, after: int | None, partida: int | None) -> None:
        mesa = room.mesa
        seat = self._seat(room, conn)
        if partida is not None and partida < mesa.partida_number:
            return  # a ready from a partida already over
        if after is not None and (len(mesa.hands) > after or not mesa.playing):
            return  # the next hand is already dealt, or the partida is over: nothing to wait for
        if mesa.status != "hand_over":
            raise FichaFlowError("server.not_hand_over")
        mesa.ready.add(seat)
        self._broadcast_mesa(room)
        self._maybe_next_hand(room)

    def _waiting_for(self, room: Room) -> list[int]:
        """Connected people at their own chairs who have not said they are ready."""
        mesa, online = room.mesa, room.online()
        return [
            s
            for s, c in enumerate(mesa.chairs)
            if c.bot is None and c.person in online and s not in mesa.ready
        ]

    def _maybe_next_hand(self, room: Room) -> None:
        """Deal the next hand when every connected player is ready (at once), or after a pause
        when nobody connected is at the mesa's chairs (bots play on)."""
        mesa = room.mesa
        if mesa.status != "hand_over" or self._waiting_for(room):
            return
        any_online = any(c.bot is None and c.person in room.online() for c in mesa.chairs)
        pause = 0.0 if any_online else 3 * mesa.options.bot_pause_ms / 1000
        pause = max(pause, room.backoff())
        self._spawn(room, "next_hand", self._next_hand_later(room, mesa.version, pause))

    async def _next_hand_later(self, room: Room, version: int, pause: float) -> None:
        await asyncio.sleep(pause)
        async with room.lock:
            if room.mesa.version == version and room.mesa.status == "hand_over":
                room.tasks.pop("next_hand", None)
                with _retried_later():
                    await self._next_hand(room)

    async def _next_hand(self, room: Room) -> None:
        mesa = room.mesa
        await self._commit(room, mesa.deal_next_hand())
        self._after(room)
        self._broadcast_mesa(room)
        self._broadcast_hand_start(room)

    def _after(self, room: Room) -> None:
        """After each accepted action: wake the bot whose turn it is, set the turn timer (and
        the clock of a partida played by time)."""
        mesa = room.mesa
        for name in ("bot", "timer", "auto_pass"):
            task = room.tasks.pop(name, None)
            if task is not None:
                task.cancel()
        room.deadline = None
        resumed, room.resumed_turn = room.resumed_turn, None
        self._set_clock(room)
        hand = mesa.hand
        if hand is None:
            self._maybe_next_hand(room)
            return
        bot = mesa.bot_to_move()
        if bot is not None:
            pause = max(mesa.options.bot_pause_ms / 1000, room.backoff())
            self._spawn(room, "bot", self._bot_turn(room, mesa.version, bot, pause, False))
        elif (seat := seat_to_pass(mesa)) is not None:
            pause = max(mesa.options.auto_pass_ms / 1000, room.backoff())
            self._spawn(room, "auto_pass", self._auto_pass(room, mesa.version, seat, pause))
        elif mesa.options.turn_seconds:
            seconds = float(mesa.options.turn_seconds)
            now = time.time()
            if resumed is not None:  # loaded again: the turn's time goes on from where it was
                seconds = max(min(seconds, RESUME_GRACE), resumed / 1000 + seconds - now)
            room.deadline = (now + seconds) * 1000
            timeout_bot = mesa.options.timeout_bot
            self._spawn(
                room, "timer", self._bot_turn(room, mesa.version, timeout_bot, seconds, True)
            )

    def _set_clock(self, room: Room) -> None:
        """A mesa that plays by time: until time is called, a task waits for the partida's
        time to be up. Its end is derived from the partida's stored start, so that a restarted
        server (or the one that takes the mesa over) calls time when the first would have."""
        mesa = room.mesa
        ends = mesa.time_ends
        partida = mesa.partida
        if ends is None or partida is None or partida.over or partida.time_up is not None:
            task = room.tasks.pop("clock", None)
            if task is not None:
                task.cancel()
            return
        running = room.tasks.get("clock")
        if running is not None and not running.done():
            return
        wait = max(ends / 1000 - time.time(), room.backoff())
        self._spawn(room, "clock", self._clock(room, mesa.partida_number, wait))

    async def _clock(self, room: Room, number: int, wait: float) -> None:
        await asyncio.sleep(wait)
        async with room.lock:
            mesa = room.mesa
            partida = mesa.partida
            if room.unloaded or mesa.partida_number != number or partida is None:
                return
            if partida.over or partida.time_up is not None:
                return
            room.tasks.pop("clock", None)
            with _retried_later():
                await self._call_time(room)

    async def _call_time(self, room: Room) -> None:
        """Time is up: the call committed, everybody told (the «Tiempo» notice is in the mesa's
        clock); a partida that ends with it (between hands, not tied) ends as after a move."""
        mesa = room.mesa
        result, changes = mesa.call_time()
        await self._commit(room, changes)
        self._after(room)
        ratings = None
        if result.seated and self.partida_ended is not None:
            self._spawn(room, "ended", self.partida_ended(mesa.code, mesa.partida_number))
        if result.seated and self.partida_played is not None:
            ratings = await self._partida_played(mesa, result)
        if result.seated:
            message = wire.json_text(wire.partida_end(mesa, result, ratings))
            for conn in room.connections:
                conn.tell(message)
        self._broadcast_mesa(room)

    def _spawn(self, room: Room, name: str, work: Coroutine[Any, Any, None]) -> None:
        old = room.tasks.pop(name, None)
        if old is not None:
            old.cancel()
        task = asyncio.get_running_loop().create_task(work)
        room.tasks[name] = task
        task.add_done_callback(_report)

    async def _bot_turn(
        self, room: Room, version: int, bot: str, pause: float, timed_out: bool
    ) -> None:
        """A bot's move (or the turn timer's), chosen in the pool from the seat's view only."""
        await asyncio.sleep(pause)
        mesa = room.mesa
        if mesa.version != version or mesa.partida is None or mesa.hand is None:
            return
        seat = mesa.hand.turn
        view = seat_view(mesa.partida, seat)
        assert view is not None
        try:
            move = await self.bots.choose(bot, bot_seed(), view)
        except Exception:
            log.exception("bot %s failed at mesa %s; it plays its first legal move", bot, mesa.code)
            move = view.legal[0]
        async with room.lock:
            if room.mesa is not mesa or mesa.version != version:
                return
            room.tasks.pop("timer" if timed_out else "bot", None)
            with _retried_later():
                await self._play(room, seat, move, timed_out)

    async def _auto_pass(self, room: Room, version: int, seat: int, pause: float) -> None:
        """Paso automático: the seat's forced pass, made after a moment the table can see."""
        await asyncio.sleep(pause)
        async with room.lock:
            mesa = room.mesa
            if mesa.version != version or seat_to_pass(mesa) != seat:
                return
            room.tasks.pop("auto_pass", None)
            with _retried_later():
                await self._play(room, seat, PASS)

    # -- telling everybody -----------------------------------------------------------------

    def _status(self) -> str:
        ok = self.redis_reachable
        status: wire.Status = {"type": "status", "ok": ok, "waiting_for": [] if ok else ["redis"]}
        return wire.json_text(status)

    def redis_changed(self, reachable: bool) -> None:
        """Redis went away or came back: every connection of this server is told at once (the
        page shows «reconectando…» meanwhile, and recovers by itself)."""
        self.redis_reachable = reachable
        message = self._status()
        for room in list(self.rooms.values()):
            for conn in room.connections:
                conn.tell(message, state="status")

    def _broadcast_mesa(self, room: Room, skip: Connection | None = None) -> None:
        self.lobby.touch(room.mesa.code)
        state: wire.MesaMessage = {"type": "mesa", "seq": room.mesa.version, "mesa": room.state()}
        message = wire.json_text(state)
        for conn in room.connections:
            if conn is not skip:
                conn.tell(message, state="mesa")

    def _mirones_changed(self, room: Room) -> None:
        """Who watches changed: tell everybody now, or, when they were told less than
        ``MIRONES_EVERY_SECONDS`` ago, once at the end of that interval (whatever else changes
        meanwhile goes with it). However fast mirones come and go, a connection hears of them a
        few times a second at most, in a message of a few names."""
        later = room.tasks.get("mirones")
        if later is not None and not later.done():
            return
        wait = room.mirones_told + MIRONES_EVERY_SECONDS - time.monotonic()
        if wait <= 0:
            self._broadcast_mirones(room)
        else:
            self._spawn(room, "mirones", self._mirones_later(room, wait))

    async def _mirones_later(self, room: Room, wait: float) -> None:
        await asyncio.sleep(wait)
        async with room.lock:  # (never in the middle of an action not yet committed)
            if not room.unloaded:
                self._broadcast_mirones(room)

    def _broadcast_mirones(self, room: Room) -> None:
        room.mirones_told = time.monotonic()
        self.lobby.touch(room.mesa.code)
        names, count = room.mirones()
        told: wire.MironesMessage = {
            "type": "mirones",
            "seq": room.mesa.version,
            "mirones": names,
            "mirones_count": count,
        }
        message = wire.json_text(told)
        for conn in room.connections:
            conn.tell(message, state="mirones")

    def _per_seat(
        self, room: Room, message: wire.PerSeat, with_turns: wire.PerSeat | None = None
    ) -> None:
        """Send each connection ``message`` made with its own view of the hand (``with_turns``
        instead, when given, to a connection whose hello asked for a move's turns)."""
        mesa = room.mesa
        seat_of = {
            conn: mesa.seat_of(conn.person) if conn.person is not None else None
            for conn in room.connections
        }
        views = wire.views(mesa, set(seat_of.values()), room.views)
        texts: dict[tuple[int | None, bool], str] = {}
        for conn, seat in seat_of.items():
            build = with_turns if with_turns is not None and conn.turns else message
            key = (seat, build is with_turns)
            text = texts.get(key)
            if text is None:
                text = texts[key] = wire.json_text(build(views[seat]))
            conn.tell(text)

    def _broadcast_hand_start(self, room: Room) -> None:
        mesa = room.mesa
        header = wire.hand_header(mesa, mesa.hands[-1])
        self._per_seat(
            room,
            lambda view: {
                "type": "hand_start",
                "seq": mesa.version,
                "hand": header,
                "turn_deadline": room.deadline,
                "view": view,
            },
        )

    def _broadcast_move(
        self,
        room: Room,
        result: MoveResult,
        turns_from: int,
        ratings: list[wire.RatingChange] | None = None,
    ) -> None:
        mesa = room.mesa
        partida = mesa.partida
        assert partida is not None
        move: wire.MoveDone = {
            "seat": result.seat,
            "move": result.notation,
            "timed_out": result.timed_out,
        }
        if result.played is None:
            self._per_seat(
                room,
                lambda view: wire.move_message(mesa.version, move, room.deadline, view),
                lambda view: wire.move_message(mesa.version, move, room.deadline, view, turns_from),
            )
            return
        info = mesa.hands[len(partida.played) - 1]
        summary = wire.hand_summary(partida, result.played, info, mesa.partida_number)
        self._per_seat(
            room,
            lambda view: {
                "type": "hand_end",
                "seq": mesa.version,
                "move": move,
                "hand": summary,
                "view": view,
            },
        )
        if partida.over:
            message = wire.json_text(wire.partida_end(mesa, result, ratings))
            for conn in room.connections:
                conn.tell(message)
        self._broadcast_mesa(room)


def _elsewhere(
    lobby: Lobby, rooms: Mapping[str, Room], mode: Mode, rating: int
) -> list[tuple[float, int, float, str]]:
    """The waiting «Jugar ya» mesas of ``mode`` the other servers of a cluster list (the merged
    lobby), within ``QUICK_WINDOW`` of ``rating``: (distance, 1, 0, code) each, after this
    server's own at the same distance. A seated person with no rating counts as a new player."""
    found: list[tuple[float, int, float, str]] = []
    for held in lobby.remote.values():
        for code, entry in held.items():
            if (
                code in rooms
                or not entry.get("quick")
                or entry.get("status") != "waiting"
                or entry.get("mode") != str(mode)
                or not entry.get("free")
            ):
                continue
            people = [s for s in entry.get("seats", []) if s.get("kind") == "human"]
            ratings = [GUEST_RATING if s.get("rating") is None else s["rating"] for s in people]
            distance = abs(sum(ratings) / len(ratings) - rating) if ratings else 0.0
            if distance <= QUICK_WINDOW:
                found.append((distance, 1, 0.0, code))
    return found


@contextlib.contextmanager
def _retried_later() -> Iterator[None]:
    """Around the server's own actions (a bot's move, a forced pass, a deal): one whose commit
    failed has been set to try again (:meth:`TableService._undo`), so the failure is no error of
    the task."""
    try:
        yield
    except FichaFlowError as exc:
        if exc.code != "server.storage":
            raise


def _report(task: asyncio.Task[None]) -> None:
    with contextlib.suppress(asyncio.CancelledError):
        exc = task.exception()
        if exc is not None:
            log.error("background task failed", exc_info=exc)
