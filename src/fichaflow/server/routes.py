"""The game's HTTP endpoints and its WebSocket.

Thin on purpose: it reads requests, hands them to the table service and turns every
``FichaFlowError`` into a JSON error with a code and a Spanish text. See ``docs/protocol.md``.
The app that serves these beside the anotador and the Repaso is built in :mod:`fichaflow.app`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any, Final, TypeVar

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ValidationError
from starlette.websockets import WebSocketDisconnect

from fichaflow.bots.ladder import PLAYER_BOTS
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.rules import Mode
from fichaflow.http import ErrorAnswer, ErrorRoute, HttpLimits, read_json, shown_code, whole_number
from fichaflow.http.static import Page
from fichaflow.ratings.bots import bot_ratings
from fichaflow.server import protocol as p
from fichaflow.server import wire
from fichaflow.server.hub import (
    CLOSE_FLOOD,
    CLOSE_INTERNAL,
    CLOSE_POLICY,
    CLOSE_RECONNECT,
    CLOSE_TOO_BIG,
    Addresses,
    Connection,
)
from fichaflow.server.presets import PresetsAnswer, presets_answer
from fichaflow.server.relay import Relay
from fichaflow.server.service import TableService
from fichaflow.server.settings import MAX_MESSAGE_BYTES, MAX_MESSAGES_PER_SECOND, Settings

STATUSES: Final = {
    "server.no_mesa": 404,
    "server.no_partida_number": 404,
    "server.too_big_http": 413,
    "server.storage": 503,
    "server.elsewhere": 503,
    "server.moved": 503,
}
"""The game's errors that are not a plain 400."""
RECONNECT: Final = {"server.elsewhere", "server.moved"}
"""Errors after which a WebSocket is closed with 1012: connect again (later, or elsewhere)."""
M = TypeVar("M", bound=BaseModel)
Seated = TypeVar("Seated", wire.CreatedMesa, wire.Joined)
log = logging.getLogger(__name__)

AccountOf = Callable[[Request], Awaitable[tuple[str, str] | None]]
"""The signed-in player making a request (account id and name), or None for a guest: the
accounts' word, handed in by ``app.py`` (only a request with the session's CSRF token counts)."""
KeepPerson = Callable[[str, str, int, str], Awaitable[None]]
"""The accounts note that the person (mesa code, person id, name) is the account's."""

REFUSALS: Final = {
    400: "Refused: the error's code and texts",
    404: "No such mesa (or partida)",
    413: "The body is over the limit",
    429: "Too many from this address; see Retry-After",
    503: "The database could not be used: nothing changed, try again",
}


def offered_ratings() -> dict[str, dict[str, int]]:
    """The offered bots' fixed ratings per mode (a bot not measured in a mode is left out)."""
    return {
        str(mode): {b: r for b, r in bot_ratings(mode).items() if b in PLAYER_BOTS} for mode in Mode
    }


def refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The refusals an endpoint may answer, for the OpenAPI document: each with the error
    answer's schema."""
    return {s: {"model": ErrorAnswer, "description": REFUSALS[s]} for s in statuses}


def json_body(model: type[BaseModel]) -> dict[str, Any]:
    """The OpenAPI ``requestBody`` of an endpoint that reads ``model`` itself (:func:`read_body`,
    so that a bad body gets the protocol's own error): the document shows the body, its fields
    and their limits, for client generators and the HTTP fuzzer alike."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})

    def inline(node: Any) -> Any:  # OpenAPI's components know nothing of pydantic's $defs
        if isinstance(node, dict):
            ref = node.get("$ref")
            out = {k: inline(v) for k, v in node.items() if k != "$ref"}
            return {**inline(defs[ref.rsplit("/", 1)[1]]), **out} if ref else out
        return [inline(v) for v in node] if isinstance(node, list) else node

    content = {"application/json": {"schema": inline(schema)}}
    return {"requestBody": {"required": bool(schema.get("required")), "content": content}}


class GameRoute(ErrorRoute):
    statuses = STATUSES


async def read_body(request: Request, model: type[M], what: str) -> M:
    data = await read_json(
        request,
        MAX_MESSAGE_BYTES,
        partial(FichaFlowError, "server.too_big_http", limit=MAX_MESSAGE_BYTES),
        partial(FichaFlowError, "server.bad_json"),
    )
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise p.shape_error(exc, what) from None


def build_router(
    service: TableService,
    settings: Settings,
    limits: HttpLimits,
    index: Page,
    relay: Relay | None = None,
    account_of: AccountOf | None = None,
    keep_person: KeepPerson | None = None,
) -> APIRouter:
    """The game's endpoints; ``index`` is the game's page, which a mesa's join link opens. With
    a ``relay`` (a cluster), what concerns a mesa another server holds is passed on to it."""
    router = APIRouter(route_class=relay.route_class(GameRoute) if relay else GameRoute)

    @router.get("/api/health")
    async def health() -> wire.Health:
        return {"ok": True, "mesas": len(service.rooms)}

    @router.get("/api/bots")
    async def bots_offered() -> wire.BotsOffered:
        return {"bots": list(PLAYER_BOTS), "ratings": offered_ratings()}

    @router.get("/api/presets")
    async def presets() -> PresetsAnswer:
        return presets_answer()

    def link_base(request: Request) -> str:
        """Where a new mesa's links point: the address asked, or, asked from this machine's own
        loopback, the address friends' phones can open (``--public-url``)."""
        loopback = request.url.hostname in ("127.0.0.1", "localhost", "::1")
        if loopback and settings.public_url:
            return settings.public_url
        return str(request.base_url)

    async def seated_as_asker(
        request: Request, seat: Callable[[tuple[str, str] | None], Awaitable[Seated]]
    ) -> Seated:
        """A chair for whoever asks: as their account when they are signed in, and then kept on
        the account, so that the partidas played in it are theirs."""
        account = await account_of(request) if account_of else None
        seated = await seat(account)
        if account and keep_person:
            await keep_person(account[0], seated["code"], seated["person"], account[1])
        return seated

    @router.post(
        "/api/mesas",
        status_code=201,
        responses=refusals(400, 413, 429, 503),
        openapi_extra=json_body(p.CreateMesa),
    )
    async def create_mesa(request: Request) -> wire.CreatedMesa:
        body = await read_body(request, p.CreateMesa, "mesa")
        limits.check("create", request)
        return await seated_as_asker(
            request, lambda account: service.create(body, link_base(request), account)
        )

    @router.post(
        "/api/quick",
        status_code=201,
        responses=refusals(400, 413, 429, 503),
        openapi_extra=json_body(p.Quick),
    )
    async def quick(request: Request) -> wire.Joined:
        """«Jugar ya»: a chair at a waiting public mesa of the mode, or a new one."""
        body = await read_body(request, p.Quick, "quick")
        limits.check("join", request)
        # (a chair at a mesa another server holds is taken there, signed in by these)
        credentials = relay.credentials(request) if relay else {}
        return await seated_as_asker(
            request,
            lambda account: service.quick(body, link_base(request), account, credentials),
        )

    @router.get("/api/lobby")
    async def lobby() -> Response:
        """The public mesas, the whole list (``/ws/lobby`` sends it too, then what changes)."""
        return Response(service.lobby.text(), media_type="application/json")

    @router.get("/api/mesas/{code}", responses=refusals(404, 503))
    async def get_mesa(code: str) -> wire.MesaPublic:
        return await service.public(code)

    @router.post(
        "/api/mesas/{code}/join",
        status_code=201,
        responses=refusals(400, 404, 413, 429, 503),
        openapi_extra=json_body(p.Join),
    )
    async def join(code: str, request: Request) -> wire.Joined:
        await service.room(code)
        body = await read_body(request, p.Join, "join")
        limits.check("join", request)
        return await seated_as_asker(request, lambda account: service.join(code, body, account))

    @router.get("/api/mesas/{code}/partidas/{number}/record", responses=refusals(404, 503))
    async def record(code: str, number: str) -> wire.PartidaRecord:
        whole = whole_number(number)
        if whole is None:
            raise FichaFlowError("server.no_partida_number", number=shown_code(number))
        return await service.record(code, whole)

    addresses = Addresses(settings.ws_per_address)

    @router.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        await ws.accept()
        conn = Connection(ws)
        writer = asyncio.get_running_loop().create_task(conn.write_loop())
        address = ws.client.host if ws.client is not None else "-"
        if not addresses.enter(address):
            limit = settings.ws_per_address
            _send_away(conn, FichaFlowError("server.too_many_connections", limit=limit))
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2)
            return
        deadline = asyncio.get_running_loop().create_task(
            _hello_deadline(conn, settings.hello_timeout)
        )
        try:
            await _read_loop(service, conn, ws, relay)
        except WebSocketDisconnect:
            pass
        except Exception:
            # A message the checks let through and the server then failed on: say so (1011),
            # never a silent normal close, and keep the story for the log.
            log.exception("a WebSocket connection failed")
            conn.close(CLOSE_INTERNAL)
        finally:
            addresses.leave(address)
            deadline.cancel()
            await service.leave(conn)
            conn.close(1000)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2)

    @router.websocket("/ws/lobby")
    async def lobby_socket(ws: WebSocket) -> None:
        """The lobby's watchers: the whole list at once, then each change; whatever they send
        is read and dropped (a flood closes them, as at a mesa)."""
        await ws.accept()
        conn = Connection(ws)
        writer = asyncio.get_running_loop().create_task(conn.write_loop())
        address = ws.client.host if ws.client is not None else "-"
        if not addresses.enter(address):
            limit = settings.ws_per_address
            _send_away(conn, FichaFlowError("server.too_many_connections", limit=limit))
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2)
            return
        service.lobby.watch(conn)
        try:
            while not conn.closed:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if conn.flooding():
                    conn.close(CLOSE_FLOOD)
        except WebSocketDisconnect:
            pass
        finally:
            addresses.leave(address)
            service.lobby.unwatch(conn)
            conn.close(1000)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2)

    @router.get("/m/{code}", response_class=HTMLResponse)
    async def join_link(code: str, request: Request) -> Response:
        return index.answer(request.headers)

    return router


def _send_away(conn: Connection, error: FichaFlowError) -> None:
    """Tell the client why, then close with the policy code and the error's code as reason."""
    conn.send(wire.error(error))
    conn.close(CLOSE_POLICY, error.code)


async def _hello_deadline(conn: Connection, seconds: float) -> None:
    """Close a connection that has not said hello within ``seconds`` (0: never): an idle socket
    holds the server's memory and tells it nothing."""
    if seconds <= 0:
        return
    await asyncio.sleep(seconds)
    if not conn.greeted:
        _send_away(conn, FichaFlowError("server.hello_timeout", seconds=f"{seconds:g}"))


async def _read_loop(
    service: TableService, conn: Connection, ws: WebSocket, relay: Relay | None
) -> None:
    """Read intentions until the client goes or is sent away. A bad message gets an error and
    changes nothing; floods and oversized messages also close the connection. A hello to a mesa
    another server holds is piped there by the ``relay``, if any."""
    while not conn.closed:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if text is None:
            raw = message.get("bytes") or b""
            size = len(raw)
            text = raw.decode("utf-8", errors="replace")
        else:
            size = len(text) if len(text) * 4 <= MAX_MESSAGE_BYTES else len(text.encode())
        if size > MAX_MESSAGE_BYTES:
            conn.send(wire.error(FichaFlowError("server.too_big", limit=MAX_MESSAGE_BYTES)))
            conn.close(CLOSE_TOO_BIG)
            return
        if conn.flooding():
            error = FichaFlowError("server.flood", limit=MAX_MESSAGES_PER_SECOND)
            conn.send(wire.error(error))
            conn.close(CLOSE_FLOOD)
            return
        intention = None
        try:
            intention = p.read_intention(text)
            await service.handle(conn, intention)
        except FichaFlowError as exc:
            if (
                relay is not None
                and exc.code == "server.elsewhere"
                and isinstance(intention, p.Hello)
                and await relay.pipe(ws, conn, text, intention.code)
            ):
                return  # (piped to the mesa's server until either side went)
            conn.send(wire.error(exc, p.ref_of(text)))
            # The mesa is (or went) to another server, or could not be loaded from the
            # database for a first hello: connect again (later, or elsewhere).
            if exc.code in RECONNECT or (exc.code == "server.storage" and not conn.greeted):
                conn.close(CLOSE_RECONNECT, exc.code)
