"""The web application ``fichaflow serve`` runs: the one place that puts the services together.

It builds the shared pieces (the database, the bots' processes or their Redis queue, the HTTP
rate limits), gives each service's router what it needs, and serves the browser pages. The
routers (the game's, the anotador's, the torneos', the Repaso's) never import each other: where
the Repaso needs the game (a mesa's record, a seat's view for a pista) it is handed functions
here.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, Response
from sqlalchemy.engine import Connection
from starlette.middleware.gzip import GZipMiddleware

from fichaflow import i18n
from fichaflow.accounts import players
from fichaflow.accounts import router as accounts
from fichaflow.anotador import router as anotador
from fichaflow.anotador import store as anotador_store
from fichaflow.anotador.router import AnotadorService
from fichaflow.core.errors import FichaFlowError
from fichaflow.http import HttpLimits, error_response
from fichaflow.http.bus import Bus
from fichaflow.http.jobs import JobQueue
from fichaflow.http.security import API_DOCS_POLICY, SameOrigin, SecurityHeaders
from fichaflow.http.static import VERSIONED, Page, StaticAssets, game_page, site_pages, version_of
from fichaflow.review import router as repaso
from fichaflow.server import routes as game
from fichaflow.server import talk
from fichaflow.server.botpool import BotPool, LocalBotPool, RedisBotPool
from fichaflow.server.lobby import LobbyBus
from fichaflow.server.miner import Miner
from fichaflow.server.people import (
    DELETED_NAME,
    forget_people,
    leave_memory,
    leave_memory_if_renamed,
    person_of,
    rename_seated,
)
from fichaflow.server.pista import pista_view
from fichaflow.server.protocol import QUICK_MAX_SECONDS, CreateMesa, Join, MesaOptions
from fichaflow.server.relay import Relay
from fichaflow.server.service import TableService
from fichaflow.server.settings import Settings
from fichaflow.server.storage import Storage
from fichaflow.storage import migrate
from fichaflow.torneos import router as torneos
from fichaflow.torneos import store as torneos_store
from fichaflow.trainer import mined as trainer_mined
from fichaflow.trainer import router as trainer
from fichaflow.trainer import store as trainer_store
from fichaflow.trainer.shipped import ShippedPuzzles

WEB: Final = Path(__file__).parent / "web"
FIRST_ANSWERS: Final = ("/i18n/es.json", "/api/presets", "/api/bots")
"""What the game's page asks for before it can draw its first screen (web/js/app.js, start)."""
CATALOGUES: Final = tuple(f"/i18n/{lang}.json" for lang in i18n.LANGUAGES)
PAGES_FIRST_ANSWERS: Final = {
    page: CATALOGUES
    for page in (
        "anotador/index.html",
        "repaso/index.html",
        "problemas/index.html",
        "jugadores/index.html",
        "cuenta/index.html",
        "torneo/index.html",
        "torneo/clasificacion.html",
        "torneo/ronda.html",
        "torneo/confirmar.html",
    )
}
"""What the other pages ask for before they draw: both catalogues, which they load before
anything else to switch language on the spot (``loadCatalogues``, web/js/i18n.js)."""
GZIP_FROM_BYTES: Final = 1000
FORGET_CHANNEL: Final = "fichaflow:forget"
"""In a cluster, where the server that deleted an account names the game mesas and anotador
sheets the deletion renamed, for every other server to let those it holds leave its memory."""
WORKER: Final = WEB / "anotador" / "sw.js"


def offline_worker() -> str:
    """The anotador's service worker with its version written in: a digest of every file the
    server serves to pages (the web folder and both catalogues), so that any change to them is a
    new worker, which the browser installs and the page offers to the player."""
    version = version_of(WEB, [i18n.source(lang) for lang in i18n.LANGUAGES])
    return WORKER.read_text(encoding="utf-8").replace("__VERSION__", version[:16])


def calm_garbage_collector() -> None:
    """Keep Python's full garbage collections rare and small.

    Every move builds several views, so the default thresholds run a full collection every few
    seconds under load, and with hundreds of mesas each one stops the server for a few hundred
    milliseconds while finding nothing (what the server drops is freed by reference counting).
    What was loaded at start is frozen out of the collections, and they run less often."""
    gc.freeze()
    gc.set_threshold(50_000, 50, 100)


async def torneo_mesa(
    service: TableService,
    rules: dict[str, Any],
    names: list[str],
    base_url: str,
    minutes: float | None = None,
) -> dict[str, Any]:
    """A torneo table's game mesa: the torneo's rules, its host the organizer, each seat taken
    by its player (a token each), nobody rotating in; full, its partida starts at once (the
    «Jugar ya» option: people fill every chair), and waits for its players to come. In a torneo
    by time, the mesa calls time ``minutes`` after its partida started."""
    options = MesaOptions(parados=False, quick_seconds=QUICK_MAX_SECONDS, time_minutes=minutes)
    made = await service.create(
        CreateMesa(rules=rules, options=options, name=torneos.HOST_NAME), base_url
    )
    seats = []
    for seat, name in enumerate(names):
        joined = await service.join(made["code"], Join(name=name, seat=seat))
        seats.append(joined["token"])
    return {
        "code": made["code"],
        "join_url": made["join_url"],
        "host": made["token"],
        "seats": seats,
    }


async def torneo_sheet(notes: AnotadorService, setup: dict[str, Any]) -> dict[str, str]:
    """A physical torneo table's anotador sheet, made by the anotador's own create."""
    room = await notes.create(setup)
    return {"code": room.code, "watch": room.watch}


async def sheet_score(notes: AnotadorService, code: str) -> dict[str, Any]:
    """A torneo table's sheet as stored now: its first partida's totals, whether it is over,
    and how many lines it has."""
    sheet = await notes.first_partida(code)
    return {"totals": list(sheet.totals), "over": sheet.over, "lines": len(sheet.lines)}


def rename_on_sheet(
    renamed: dict[str, str], connection: Connection, code: str, names: Mapping[str, str]
) -> None:
    """A torneo table's anotador sheet renames its people ``names`` in the caller's transaction
    (an account's deletion); ``renamed`` gets its writing code (to leave this server's memory)
    and its read-only code (to name it to the other servers: a writing code is a secret)."""
    watch = anotador_store.rename(connection, code, names)
    if watch is not None:
        renamed[code] = watch


def create_app(settings: Settings) -> FastAPI:
    storage = Storage(
        settings.database_url, settings.sqlite_synchronous, settings.node, settings.lease_seconds
    )
    # With Redis, the bots and the Repaso's reviews are done by ``fichaflow worker``
    queue = JobQueue(settings.redis_url) if settings.redis_url else None
    bots: BotPool = RedisBotPool(queue) if queue else LocalBotPool(settings.workers)
    service = TableService(storage, bots, settings.idle_seconds)
    if queue is not None:
        queue.watchers.append(service.redis_changed)
    limits = HttpLimits(settings.http_limit)
    relay = Relay(storage, settings.advertise_url) if settings.advertise_url else None
    if relay is not None:  # one of a cluster's servers: pages name it (wire.NODE_PARAM)
        service.node_hint = settings.node
    miner = Miner(settings.database_url, settings.mine_every)
    if relay is not None and settings.redis_url:
        service.join_elsewhere = relay.join  # «Jugar ya» among every server's mesas
    # With Redis, the servers of the cluster tell each other (http/bus.py) the lobby's changes
    # and what a deletion renamed.
    bus = Bus(settings.redis_url, settings.node) if settings.redis_url else None

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await storage.run(migrate, storage.engine)
        bots.start()
        calm_garbage_collector()
        every = min(60.0, max(settings.idle_seconds / 2, 0.1))
        tidy = asyncio.get_running_loop().create_task(service.keep_tidy(every))
        leases = asyncio.get_running_loop().create_task(service.keep_leases())
        # In a cluster, where this server is, for the others to pass a mesa's clients on.
        where = relay and asyncio.get_running_loop().create_task(relay.keep_registered())
        # With Redis, the lobby lists every server's public mesas (server/lobby.py), and what
        # a deletion renamed leaves every server's memory (forget_everywhere, below).
        talk_tasks = []
        if bus is not None:
            lobby_bus = LobbyBus(bus, service.lobby)  # (its channel, before subscribing)
            loop = asyncio.get_running_loop()
            talk_tasks = [loop.create_task(bus.run()), loop.create_task(lobby_bus.run())]
        miner.start()  # after the migration: the miner needs the server's tables
        yield
        await miner.close()
        for task in talk_tasks:
            task.cancel()
        tidy.cancel()
        leases.cancel()
        if where:
            where.cancel()
        await service.release_all()
        await bots.close()
        storage.close()

    app = FastAPI(title="FichaFlow", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.service = service
    # Outermost last: every answer, refusals included, carries the security headers.
    origins = (*settings.allowed_origins, *([settings.public_url] if settings.public_url else []))
    # Pages, modules and JSON go compressed to a browser that asks (about a third of the bytes).
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_FROM_BYTES, compresslevel=6)
    app.add_middleware(SameOrigin, allowed=origins)
    app.add_middleware(SecurityHeaders)
    version = version_of(WEB)[:16]
    game_index = game_page(WEB, version, FIRST_ANSWERS)
    catalogues = {lang: Page(i18n.source(lang)) for lang in i18n.LANGUAGES}

    @app.get("/", include_in_schema=False)
    @app.get("/index.html", include_in_schema=False)
    async def home(request: Request) -> Response:
        return game_index.answer(request.headers)

    @app.get("/api/docs", include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        page = get_swagger_ui_html(openapi_url="/openapi.json", title="FichaFlow - Swagger UI")
        page.headers["Content-Security-Policy"] = API_DOCS_POLICY
        return page

    @app.exception_handler(FichaFlowError)
    async def _fichaflow_error(_request: Request, exc: FichaFlowError) -> JSONResponse:
        # each router answers its own errors; this catches any raised outside a route
        return error_response(exc, {})

    @app.get("/i18n/{lang}.json")
    async def catalogue(lang: str, request: Request) -> Response:
        """Every page's words: the one catalogue per language that the server also speaks."""
        if lang not in i18n.LANGUAGES:
            return JSONResponse({"detail": "Not Found"}, status_code=404)
        return catalogues[lang].answer(request.headers, "application/json")

    worker = Page(offline_worker())

    @app.get("/anotador/sw.js", include_in_schema=False)
    async def anotador_worker(request: Request) -> Response:
        """The anotador's service worker (web/anotador/sw.js), never kept by an HTTP cache
        without asking (``no-cache``, with its ETag): the browser compares it with the running
        one to know of a new version."""
        return worker.answer(request.headers, "text/javascript")

    notes = anotador.install(app, storage, limits, shared=bool(settings.redis_url))  # web/anotador/
    # The game mesas and the anotador sheets a deletion renamed in its transaction (a torneo's
    # tables, which seat people by name), to leave this server's memory once it is committed.
    seated: set[str] = set()
    sheets: dict[str, str] = {}  # writing code -> read-only code

    async def forget_everywhere(people: list[tuple[str, int]]) -> None:
        mesas = await forget_people(service, people, renamed=seated)
        renamed = {code: sheets.pop(code) for code in list(sheets)}
        await notes.forget_rooms(renamed)
        if tell_forgotten is not None and (mesas or renamed):
            # (sheets by their read-only codes: Redis never carries a sheet's writing secret)
            tell_forgotten({"mesas": sorted(mesas), "sheets": sorted(renamed.values())})

    async def forgotten_elsewhere(_node: str, message: dict[str, Any]) -> None:
        """Another server of the cluster deleted an account: the mesas and sheets it renamed
        leave this server's memory too."""
        await leave_memory(service, [str(code) for code in message["mesas"]])
        watches = [str(watch) for watch in message["sheets"]]
        await notes.forget_rooms([notes.watchers[w] for w in watches if w in notes.watchers])

    async def forgotten_while_away() -> None:
        """Subscribed again after Redis failed: a deletion's message may have been missed. The
        mesas whose people the database names otherwise leave memory, and every sheet does
        (read again on its next request: one query each)."""
        await leave_memory_if_renamed(service)
        await notes.forget_rooms(list(notes.rooms))

    tell_forgotten = None
    if bus is not None:
        tell_forgotten = bus.channel(FORGET_CHANNEL, forgotten_elsewhere, forgotten_while_away)

    people = accounts.install(  # its page is web/cuenta/
        app,
        storage,
        limits,
        partial(person_of, service),
        forget_everywhere,
        service.set_account,
        # Each service's rows of an account: in its export, and gone with it when deleted.
        forget_rows=(
            trainer_store.forget,
            trainer_mined.forget,
            talk.forget,
            partial(
                torneos_store.forget,
                deleted=DELETED_NAME,
                rename_at=partial(rename_seated, seated),
                rename_sheet=partial(rename_on_sheet, sheets),
            ),
        ),
        export_rows=(trainer_store.exported, talk.exported, torneos_store.exported),
        # A player who stops allowing their partidas for problemas takes their problemas away.
        withdraw_rows=(trainer_mined.forget,),
    )
    # The game knows who plays signed in, and tells the players' side of each partida's end.
    app.include_router(
        game.build_router(
            service, settings, limits, game_index, relay, people.account_of, people.keep_person
        )
    )
    service.partida_played = partial(storage.run, players.record_partida, storage.engine)
    service.ratings_of = partial(storage.run, players.shown_ratings, storage.engine)
    players.install(app, storage, service.record)  # its page is web/jugadores/
    # A torneo's table played online is a game mesa with its players seated (the torneos never
    # import the game): made here by the game's create and join, its result told at its end.
    # A physical table's sheet is an anotador mesa, its result read from the anotador.
    tables = torneos.install(
        app,
        storage,
        limits,
        people.account_of,
        partial(torneo_mesa, service),
        service.record,
        partial(torneo_sheet, notes),
        partial(sheet_score, notes),
    )  # its pages are web/torneo/
    service.partida_ended = tables.partida_ended
    repaso.install(app, service.record, partial(pista_view, service), queue)  # web/repaso/

    async def trainer_account(request: Request, change: bool) -> str | None:
        """The signed-in player solving problemas, or None (a guest); a change without the
        session's CSRF token is refused, as every cookie-authenticated change is."""
        try:
            return (await people.session(request, change)).account.id
        except FichaFlowError as exc:
            if exc.code == "accounts.csrf":
                raise
            return None

    # web/problemas/: the shipped problemas, and those mined from this server's partidas
    trainer.install(app, storage, limits, ShippedPuzzles(mined=True), trainer_account)
    # The game's page loads its files from here (kept for good: a change is a new version).
    app.mount(VERSIONED.format(version=version), StaticAssets(directory=WEB, versioned=True))
    pages = site_pages(WEB, PAGES_FIRST_ANSWERS)  # each with its modules preloaded
    app.mount("/", StaticAssets(directory=WEB, html=True, pages=pages), name="web")
    return app
