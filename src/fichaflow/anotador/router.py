"""The anotador's HTTP endpoints, served by ``fichaflow serve`` next to the game.

Thin: each request is checked by replaying the mesa's log with the new action (the domain
decides), stored in one transaction, and only then answered, so an entry shows as saved only
once it is. Idempotency keys make a resent action a no-op that answers like the first time.
Mirones follow the score with a read-only code and long polling. See ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Final

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.responses import JSONResponse

from fichaflow.anotador import store
from fichaflow.anotador.entries import Action, Change, dump_change, load_change
from fichaflow.anotador.export import PRINT_STYLE, partida_csv, partida_html, partida_json
from fichaflow.anotador.mesa import MesaSetup
from fichaflow.anotador.sheet import MesaState, PartidaSheet, replay
from fichaflow.anotador.views import state_json
from fichaflow.core.errors import FichaFlowError
from fichaflow.http import ErrorRoute, HttpLimits, is_code, read_json, shown_code, whole_number
from fichaflow.http.locks import TRIES, pause_before_try
from fichaflow.http.security import content_security_policy
from fichaflow.storage import Database

MAX_BODY: Final = 8192
KEY_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
STATUS: Final = {
    "anotador.mesa_not_found": 404,
    "anotador.no_partida": 404,
    "anotador.read_only": 403,
    "anotador.key_reused": 409,
    "anotador.busy": 409,
    "server.too_big_http": 413,
    "server.too_many": 429,
}
WATCH_WAIT: Final = 20.0
"""How long a mirón's request waits for news before answering "nothing new"."""
SHARED_LOOK: Final = 1.0
"""In a cluster, how often a waiting mirón's request looks at the database for lines another
server stored (this server's own wake it at once)."""


@dataclass(eq=False)
class Room:
    """A mesa in memory: its log, the sheet it replays to, and who waits for the next change."""

    code: str
    watch: str
    mesa: MesaSetup
    actions: list[Action]
    keys: dict[str, int]  # idempotency key -> index in actions
    state: MesaState
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def version(self) -> int:
        return len(self.actions)


def _lang(request: Request) -> str:
    return "en" if request.query_params.get("lang") == "en" else "es"


async def _body(request: Request) -> object:
    return await read_json(
        request,
        MAX_BODY,
        partial(FichaFlowError, "server.too_big_http", limit=MAX_BODY),
        partial(FichaFlowError, "anotador.body_json"),
    )


class AnotadorService:
    """Every mesa the anotador keeps, loaded from the database on first use."""

    def __init__(self, storage: Database, shared: bool = False) -> None:
        self.storage = storage
        self.shared = shared  # other servers write to the same database (a cluster)
        self.rooms: dict[str, Room] = {}
        self.watchers: dict[str, str] = {}  # read-only code -> code

    def _room(self, stored: store.StoredMesa, replaced: Room | None = None) -> Room:
        """The stored mesa, in memory from now on; the mirones waiting on the copy it
        ``replaced`` (one another server's lines left behind) hear of the news."""
        keys = {key: i for i, key in enumerate(stored.keys)}
        state = replay(stored.mesa, stored.actions)
        room = Room(stored.code, stored.watch, stored.mesa, list(stored.actions), keys, state)
        self.rooms[room.code] = room
        self.watchers[room.watch] = room.code
        if replaced is not None:
            replaced.changed.set()
        return room

    async def news(self, watch: str, after: int) -> Room:
        """The mesa mirones watch with ``watch``, once its log passes version ``after``, or as
        it is after :data:`WATCH_WAIT` without news. In a cluster the lines may be stored by
        another server: the database is looked at every :data:`SHARED_LOOK` meanwhile."""
        room = await self.room(watch=watch)
        deadline = asyncio.get_running_loop().time() + WATCH_WAIT
        while room.version <= after:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                break
            look = min(left, SHARED_LOOK) if self.shared else left
            changed = room.changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), look)
            again = await self.room(watch=watch)
            # News (the event, even one set as the wait ran out), or the sheet read again from
            # the database (lines another server stored, or people renamed): answer with it.
            if changed.is_set() or again is not room:
                return again
        return room

    async def room(self, code: str | None = None, watch: str | None = None) -> Room:
        asked = code if code is not None else watch or ""
        if not is_code(asked):  # no sheet has it; nor may it reach the database (a NUL would not)
            raise FichaFlowError("anotador.mesa_not_found", mesa=shown_code(asked))
        known = code if code is not None else self.watchers.get(watch or "")
        if known is not None and known in self.rooms:
            room = self.rooms[known]
            if not self.shared:
                return room
            stored_version = await self.storage.run(store.version, self.storage.engine, known)
            if stored_version <= room.version and self.rooms.get(known) is room:
                return room
            # Another server stored lines since this one read the mesa, or the mesa left memory
            # while the version was asked (a deletion renamed people on it): read it again.
            code, watch = known, None
        stored = await self.storage.run(store.load, self.storage.engine, code, watch)
        if stored is None:
            raise FichaFlowError("anotador.mesa_not_found", mesa=code or watch)
        cached = self.rooms.get(stored.code)
        if cached is not None and cached.version >= len(stored.actions):
            return cached
        return self._room(stored, cached)

    async def writer_room(self, code: str) -> Room:
        """The mesa whose writing code is ``code``; a mirón's read-only code is refused as such
        (not as a mesa that does not exist)."""
        try:
            return await self.room(code)
        except FichaFlowError as exc:
            if exc.code != "anotador.mesa_not_found":
                raise
            await self.room(watch=code)  # raises mesa_not_found again when it is neither
            raise FichaFlowError("anotador.read_only") from None

    async def forget_rooms(self, codes: Collection[str]) -> None:
        """The mesas ``codes`` leave this process's memory, the database being ahead of it (a
        deletion renamed people on them): the next request reads them again, and the mirones
        waiting for news are answered now, with the sheet as stored."""
        for code in codes:
            room = self.rooms.get(code)
            if room is None:
                continue
            async with room.lock:
                if self.rooms.get(code) is room:
                    del self.rooms[code]
                    self.watchers.pop(room.watch, None)
                room.changed.set()

    async def first_partida(self, code: str) -> PartidaSheet:
        """The first partida of the mesa whose writing code is ``code``, as the database has it
        now (not this process's copy: another server process may have written since)."""
        stored = await self.storage.run(store.load, self.storage.engine, code, None)
        if stored is None:
            raise FichaFlowError("anotador.mesa_not_found", mesa=shown_code(code))
        return replay(stored.mesa, stored.actions).partidas[0]

    async def create(self, data: object) -> Room:
        mesa = MesaSetup.load(data)
        code, watch = secrets.token_urlsafe(12), secrets.token_urlsafe(12)
        await self.storage.run(store.insert_mesa, self.storage.engine, code, watch, mesa)
        return self._room(store.StoredMesa(code, watch, mesa, (), ()))

    async def act(self, code: str, key: str, change: Change) -> tuple[Room, str, bool]:
        """Apply and store one action; returns the room, the action's id and whether the key
        had been seen (then nothing new was stored). When another server process stored a
        line first, the action is checked again on top of the database's log."""
        for attempt in range(TRIES):
            await pause_before_try(attempt)
            room = await self.writer_room(code)
            async with room.lock:
                seen = room.keys.get(key)
                if seen is not None:
                    if dump_change(room.actions[seen].change) != dump_change(change):
                        raise FichaFlowError("anotador.key_reused", key=key)
                    return room, room.actions[seen].id, True
                action = Action(str(room.version + 1), change)
                state = replay(room.mesa, [*room.actions, action])  # refused: raises, no change
                try:
                    await self.storage.run(
                        store.insert_action,
                        self.storage.engine,
                        code,
                        room.version + 1,
                        key,
                        change,
                    )
                except store.DuplicateKey:
                    # Another process wrote first: the next try reads the database's log.
                    if self.rooms.get(code) is room:
                        del self.rooms[code]
                    continue
                room.actions.append(action)
                room.keys[key] = len(room.actions) - 1
                room.state = state
                room.changed.set()
                room.changed = asyncio.Event()
                return room, action.id, False
        raise FichaFlowError("anotador.busy")


def _payload(room: Room, lang: str, writer: bool) -> dict[str, Any]:
    out = {"version": room.version, "watch": room.watch, "state": state_json(room.state, lang)}
    if writer:
        out["code"] = room.code
    return out


def _partida(room: Room, number: int) -> PartidaSheet:
    for sheet in room.state.partidas:
        if sheet.number == number:
            return sheet
    raise FichaFlowError("anotador.no_partida", number=number, count=len(room.state.partidas))


class AnotadorRoute(ErrorRoute):
    statuses = STATUS


def build_router(service: AnotadorService, limits: HttpLimits) -> APIRouter:
    router = APIRouter(prefix="/api/anotador", route_class=AnotadorRoute)

    @router.post("/mesas", status_code=201)
    async def create_mesa(request: Request) -> Any:
        data = await _body(request)
        limits.check("create", request)
        room = await service.create(data)
        return JSONResponse(_payload(room, _lang(request), True), status_code=201)

    @router.get("/mesas/{code}")
    async def get_mesa(code: str, request: Request) -> Any:
        return _payload(await service.writer_room(code), _lang(request), True)

    @router.post("/mesas/{code}/actions")
    async def post_action(code: str, request: Request) -> Any:
        data = await _body(request)
        if not isinstance(data, dict):
            raise FichaFlowError("anotador.request_object")
        key = data.get("key")
        if (
            not isinstance(key, str)
            or not 8 <= len(key) <= store.KEY_LENGTH
            or not set(key) <= KEY_CHARS
        ):
            raise FichaFlowError("anotador.key_shape", low=8, high=store.KEY_LENGTH)
        room, action_id, duplicate = await service.act(code, key, load_change(data.get("action")))
        out = _payload(room, _lang(request), True)
        out.update(id=action_id, duplicate=duplicate)
        return out

    @router.get("/watch/{watch}")
    async def watch_mesa(watch: str, request: Request) -> Any:
        """The sheet for mirones; with ``after=N``, waits until the log passes version N."""
        after = whole_number(request.query_params.get("after", ""))
        if after is None:
            room = await service.room(watch=watch)
        else:
            room = await service.news(watch, after)
        return _payload(room, _lang(request), False)

    @router.get("/export/{code}/{number}.{fmt}")
    async def export(code: str, number: int, fmt: str, request: Request) -> Any:
        """A partida as ``csv``, ``json`` or ``html`` (printable), by either code."""
        try:
            room = await service.room(code)
        except FichaFlowError:
            room = await service.room(watch=code)
        sheet = _partida(room, number)
        lang = _lang(request)
        name = f"anotador-{number}"
        if fmt == "csv":
            return Response(
                partida_csv(sheet, lang),
                media_type="text/csv; charset=utf-8",
                headers={"Content-Disposition": f'attachment; filename="{name}.csv"'},
            )
        if fmt == "json":
            return JSONResponse(
                partida_json(room.state, sheet, lang),
                headers={"Content-Disposition": f'attachment; filename="{name}.json"'},
            )
        if fmt == "html":
            policy = content_security_policy(styles=[PRINT_STYLE])
            return Response(
                partida_html(room.state, sheet, lang),
                media_type="text/html",
                headers={"Content-Security-Policy": policy},
            )
        raise FichaFlowError("anotador.choice", field="format", allowed="csv, json, html")

    return router


def install(
    app: FastAPI, storage: Database, limits: HttpLimits, shared: bool = False
) -> AnotadorService:
    """Add the anotador's endpoints to the server's app (before its static files); new mesas
    count against the server's ``limits``; ``shared``: other servers of a cluster write to the
    same database, so what this one holds in memory is checked against it."""
    service = AnotadorService(storage, shared)
    app.include_router(build_router(service, limits))
    app.state.anotador = service
    return service
