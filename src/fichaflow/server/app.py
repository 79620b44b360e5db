"""The web application: HTTP endpoints, the WebSocket and the web client's files.

Thin on purpose: it reads requests, hands them to the table service and turns every
``FichaFlowError`` into a JSON error with a code and a Spanish text. See ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ValidationError
from starlette.websockets import WebSocketDisconnect

from fichaflow import i18n
from fichaflow.anotador.router import install as install_anotador
from fichaflow.bots import PLAYER_BOTS
from fichaflow.core.errors import FichaFlowError
from fichaflow.review.router import install as install_repaso
from fichaflow.server import protocol as p
from fichaflow.server import wire
from fichaflow.server.botpool import BotPool
from fichaflow.server.hub import CLOSE_FLOOD, CLOSE_TOO_BIG, Connection
from fichaflow.server.limits import HttpLimits
from fichaflow.server.presets import PresetsAnswer, presets_answer
from fichaflow.server.service import TableService
from fichaflow.server.settings import MAX_MESSAGE_BYTES, MAX_MESSAGES_PER_SECOND, Settings
from fichaflow.server.storage import Storage, migrate

WEB = Path(__file__).parent.parent / "web"
NOT_FOUND = {"server.no_mesa", "server.no_partida_number"}
M = TypeVar("M", bound=BaseModel)


def failure(exc: FichaFlowError) -> JSONResponse:
    if exc.code == "server.too_many":
        headers = {"Retry-After": str(exc.params["wait"])}
        return JSONResponse({"error": wire.error(exc)}, status_code=429, headers=headers)
    status = 404 if exc.code in NOT_FOUND else 400
    return JSONResponse({"error": wire.error(exc)}, status_code=status)


async def read_body(request: Request, model: type[M], what: str) -> M:
    body = await request.body()
    if len(body) > MAX_MESSAGE_BYTES:
        raise FichaFlowError("server.too_big_http", limit=MAX_MESSAGE_BYTES)
    try:
        data = json.loads(body or b"{}")
    except ValueError:
        raise FichaFlowError("server.bad_json") from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise p.shape_error(exc, what) from None


def calm_garbage_collector() -> None:
    """Keep Python's full garbage collections rare and small.

    Every move builds several views, so the default thresholds run a full collection every few
    seconds under load, and with hundreds of mesas each one stops the server for a few hundred
    milliseconds while finding nothing (what the server drops is freed by reference counting).
    What was loaded at start is frozen out of the collections, and they run less often."""
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)


def create_app(settings: Settings) -> FastAPI:
    storage = Storage(settings.database_url, settings.sqlite_synchronous)
    bots = BotPool(settings.workers)
    service = TableService(storage, bots, settings.idle_seconds)
    limits = HttpLimits(settings.http_limit)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await storage.run(migrate, storage.engine)
        bots.start()
        calm_garbage_collector()
        every = min(60.0, max(settings.idle_seconds / 2, 0.1))
        tidy = asyncio.get_running_loop().create_task(service.keep_tidy(every))
        yield
        tidy.cancel()
        bots.close()
        storage.close()

    app = FastAPI(title="FichaFlow", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.state.service = service

    @app.exception_handler(FichaFlowError)
    async def _fichaflow_error(_request: Request, exc: FichaFlowError) -> JSONResponse:
        return failure(exc)

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "mesas": len(service.rooms)}

    @app.get("/api/bots")
    async def bots_offered() -> dict[str, Any]:
        return {"bots": list(PLAYER_BOTS)}

    @app.get("/api/presets")
    async def presets() -> PresetsAnswer:
        return presets_answer()

    @app.post("/api/mesas", status_code=201)
    async def create_mesa(request: Request) -> dict[str, Any]:
        body = await read_body(request, p.CreateMesa, "mesa")
        limits.check("create", request)
        base = str(request.base_url)
        loopback = request.url.hostname in ("127.0.0.1", "localhost", "::1")
        if loopback and settings.public_url:
            base = settings.public_url  # a link the friends' phones can open
        return await service.create(body, base)

    @app.get("/api/mesas/{code}")
    async def get_mesa(code: str) -> dict[str, Any]:
        return await service.public(code)

    @app.post("/api/mesas/{code}/join", status_code=201)
    async def join(code: str, request: Request) -> dict[str, Any]:
        await service.room(code)
        body = await read_body(request, p.Join, "join")
        limits.check("join", request)
        return await service.join(code, body)

    @app.get("/api/mesas/{code}/partidas/{number}/record")
    async def record(code: str, number: int) -> dict[str, Any]:
        return await service.record(code, number)

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        await ws.accept()
        conn = Connection(ws)
        writer = asyncio.get_running_loop().create_task(conn.write_loop())
        try:
            await _read_loop(service, conn, ws)
        except WebSocketDisconnect:
            pass
        finally:
            await service.leave(conn)
            conn.close(1000)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2)

    @app.get("/m/{code}")
    async def join_link(code: str) -> FileResponse:
        return FileResponse(WEB / "index.html")

    @app.get("/i18n/{lang}.json")
    async def catalogue(lang: str) -> Response:
        """Every page's words: the one catalogue per language that the server also speaks."""
        if lang not in i18n.LANGUAGES:
            return JSONResponse({"detail": "Not Found"}, status_code=404)
        return Response(i18n.source(lang), media_type="application/json")

    install_anotador(app, storage, limits)  # the anotador's endpoints; its page is web/anotador/
    install_repaso(app)  # the Repaso's endpoints; its page is web/repaso/
    app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    return app


async def _read_loop(service: TableService, conn: Connection, ws: WebSocket) -> None:
    """Read intentions until the client goes or is sent away. A bad message gets an error and
    changes nothing; floods and oversized messages also close the connection."""
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
        try:
            await service.handle(conn, p.read_intention(text))
        except FichaFlowError as exc:
            conn.send(wire.error(exc, p.ref_of(text)))
