"""The torneos' HTTP endpoints, served by ``fichaflow serve`` next to the game and the anotador.

Thin: each action loads the torneo's record, asks :mod:`fichaflow.torneo` to do one thing (it
checks everything before it changes anything), and stores the result in one transaction (the
record's new head and the new lines of its results log), so a refused or failed action leaves
nothing half-written. The organizer acts with the torneo's secret code; its public code reads
the standings, the rounds and the public record. The clock is read and the duplicate seeds are
drawn here, never in the engine. See ``docs/torneos.md``.
"""

from __future__ import annotations

import csv
import io
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from typing import Any, Final, TypeVar

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.responses import JSONResponse

from fichaflow import i18n
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.tiles import bits, name
from fichaflow.http import ErrorRoute, HttpLimits, is_code, read_json, shown_code, whole_number
from fichaflow.http.export import csv_cell
from fichaflow.storage import Database
from fichaflow.torneo import model
from fichaflow.torneo.duplicate import leader, round_deals
from fichaflow.torneo.standings import standing_json, standings
from fichaflow.torneos import store

MAX_BODY: Final = 512 * 1024
"""The largest request: a torneo of many entrants, or a result with its partida's record."""
SEED_BYTES: Final = 32
TRIES: Final = 5
"""How often an action is tried again from what is stored when another one wrote first."""
DEFAULT_BY: Final = "organizador"
RESULT_KEYS: Final = ("score", "forfeit", "deals", "record", "by", "note", "correct")
STATUS: Final = {
    "torneo.not_found": 404,
    "torneo.read_only": 403,
    "torneo.unknown_round": 404,
    "torneo.unknown_table": 404,
    "torneo.unknown_entrant": 404,
    "torneo.not_duplicate": 409,
    "torneo.already_entered": 409,
    "torneo.busy": 503,
    "server.too_big_http": 413,
    "server.too_many": 429,
}
T = TypeVar("T")


def _lang(request: Request) -> str:
    return "en" if request.query_params.get("lang") == "en" else "es"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


async def _body(request: Request) -> dict[str, Any]:
    data = await read_json(
        request,
        MAX_BODY,
        partial(FichaFlowError, "server.too_big_http", limit=MAX_BODY),
        partial(FichaFlowError, "torneo.body_json"),
    )
    if not isinstance(data, dict):
        raise FichaFlowError("torneo.request_object")
    return data


def _result_json(result: model.Result) -> dict[str, Any]:
    out = model.result_dump(result)
    out.pop("record", None)  # the audit names the result, not the partida it came from
    return out


def view(stored: store.Stored, torneo: model.Torneo, organizer: bool) -> dict[str, Any]:
    """What the pages read: the record (the public copy for the public), the standings, the
    corrections, and whether the next round can be paired."""
    made = len(torneo.rounds)
    can_pair = made < torneo.settings.rounds and (made == 0 or torneo.round_complete(made))
    out: dict[str, Any] = {
        "version": stored.version,
        "public": stored.public,
        "record": model.dump(torneo, public=not organizer),
        "standings": [standing_json(torneo, s) for s in standings(torneo)],
        "audit": [
            {
                "round": c.round,
                "table": c.table,
                "before": _result_json(c.before),
                "after": _result_json(c.after),
                "by": c.by,
                "at": c.at,
                "note": c.note,
            }
            for c in torneo.audit()
        ],
        "can_pair": can_pair,
    }
    if organizer:
        out["code"] = stored.code
    return out


def standings_csv(torneo: model.Torneo, lang: str) -> str:
    """The standings as a spreadsheet: one row per entrant, every text cell escaped."""
    figures = ["pj", "pg", "pp", "pf", "pc", "diff"]
    head = [
        "#",
        i18n.text("torneo.name", lang),
        i18n.text("torneo.pj", lang),
        i18n.text("torneo.pg", lang),
        i18n.text("torneo.pp", lang),
        i18n.text("torneo.pf", lang),
        i18n.text("torneo.pc", lang),
        i18n.text("torneo.diff", lang),
    ]
    if torneo.settings.duplicate:
        figures += ["mp", "percent"]
        head += [i18n.text("torneo.mp", lang), "%"]
    rows: list[list[Any]] = [head]
    for s in standings(torneo):
        line = standing_json(torneo, s)
        rows.append([line["position"], line["name"], *(line[f] for f in figures)])
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerows(
        [csv_cell(cell) if isinstance(cell, int | str) else cell for cell in row] for row in rows
    )
    return buffer.getvalue()


class TorneoService:
    """The torneos in the database: each request reads what is stored, so several server
    processes may share one database."""

    def __init__(self, storage: Database) -> None:
        self.storage = storage

    async def read(
        self, code: str | None = None, public: str | None = None
    ) -> tuple[store.Stored, model.Torneo]:
        asked = code if code is not None else public or ""
        if not is_code(asked):  # nothing has it; nor may it reach the database
            raise FichaFlowError("torneo.not_found", torneo=shown_code(asked))
        stored = await self.storage.run(store.load, self.storage.engine, code, public)
        if stored is None:
            raise FichaFlowError("torneo.not_found", torneo=asked)
        return stored, model.load(stored.record)

    async def organizer(self, code: str) -> tuple[store.Stored, model.Torneo]:
        """The torneo whose organizer's code is ``code``; its public code is refused as such."""
        try:
            return await self.read(code)
        except FichaFlowError as exc:
            if exc.code != "torneo.not_found":
                raise
            await self.read(public=code)  # not_found again when it is neither
            raise FichaFlowError("torneo.read_only") from None

    async def create(self, data: object) -> tuple[store.Stored, model.Torneo]:
        torneo = model.create(data)
        code, public = secrets.token_urlsafe(18), secrets.token_urlsafe(12)
        record = model.dump(torneo)
        await self.storage.run(store.insert_torneo, self.storage.engine, code, public, record)
        return store.Stored(code, public, 0, record), torneo

    async def act(
        self, code: str, action: Callable[[model.Torneo], T]
    ) -> tuple[store.Stored, model.Torneo, T]:
        """Do ``action`` on the stored torneo and store what it changed, in one transaction;
        a refusal (``FichaFlowError``) stores nothing."""
        for _ in range(TRIES):
            stored, torneo = await self.organizer(code)
            before = len(torneo.log)
            outcome = action(torneo)
            record = model.dump(torneo)
            lines = record["log"][before:]
            try:
                await self.storage.run(
                    store.save, self.storage.engine, code, stored.version, record, lines
                )
            except store.Conflict:
                continue
            saved = store.Stored(stored.code, stored.public, stored.version + 1, record)
            return saved, torneo, outcome
        raise FichaFlowError("torneo.busy")


def _register(data: dict[str, Any]) -> Callable[[model.Torneo], model.Entrant]:
    model_keys = ("name", "players")
    for key in data:
        if key not in model_keys:
            raise FichaFlowError(
                "torneo.unknown_key", key=key, what="entrant", allowed=", ".join(model_keys)
            )
    players = data.get("players", [])
    if not isinstance(players, list):
        raise FichaFlowError("torneo.shape", what="players")
    return lambda torneo: torneo.register(data.get("name"), players)


def _result(data: dict[str, Any]) -> tuple[model.Result, bool]:
    for key in data:
        if key not in RESULT_KEYS:
            raise FichaFlowError(
                "torneo.unknown_key", key=key, what="result", allowed=", ".join(RESULT_KEYS)
            )
    correct = data.get("correct", False)
    if not isinstance(correct, bool):
        raise FichaFlowError("torneo.shape", what="correct")
    given = [k for k in ("score", "forfeit", "deals") if data.get(k) is not None]
    if not given and data.get("record") is not None:
        return model.from_partida(data["record"]), correct
    return model.result_from(data), correct


class TorneoRoute(ErrorRoute):
    statuses = STATUS


def build_router(service: TorneoService, limits: HttpLimits) -> APIRouter:
    router = APIRouter(prefix="/api/torneos", route_class=TorneoRoute)

    @router.post("", status_code=201)
    async def create_torneo(request: Request) -> Any:
        """A torneo from the JSON ``fichaflow torneo create`` reads (``docs/torneos.md``)."""
        data = await _body(request)
        limits.check("create", request)
        stored, torneo = await service.create(data)
        return JSONResponse(view(stored, torneo, True), status_code=201)

    @router.get("/{code}")
    async def get_torneo(code: str) -> Any:
        """The organizer's view: the whole record (seeds included), standings and audit."""
        stored, torneo = await service.organizer(code)
        return view(stored, torneo, True)

    @router.get("/public/{public}")
    async def get_public(public: str, request: Request) -> Any:
        """Everyone's view: the public record (no seed of a round still being played). With
        ``since=VERSION``, a torneo still at that version answers only ``unchanged``."""
        since = whole_number(request.query_params.get("since", ""))
        if since is not None and is_code(public):
            now = await service.storage.run(store.version_of, service.storage.engine, public)
            if now == since:
                return {"version": now, "unchanged": True}
        stored, torneo = await service.read(public=public)
        return view(stored, torneo, False)

    @router.post("/{code}/entrants", status_code=201)
    async def register(code: str, request: Request) -> Any:
        """A late arrival: ``{"name": ..., "players": [two names]}``; plays from the next round."""
        action = _register(await _body(request))
        stored, torneo, entrant = await service.act(code, action)
        out = view(stored, torneo, True)
        out["entrant"] = model.entrant_dump(entrant)
        return JSONResponse(out, status_code=201)

    @router.post("/{code}/entrants/{number}/withdraw")
    async def withdraw(code: str, number: int) -> Any:
        stored, torneo, _ = await service.act(code, lambda t: t.withdraw(number))
        return view(stored, torneo, True)

    @router.post("/{code}/rounds", status_code=201)
    async def pair(code: str) -> Any:
        """The next round's pairings (the previous round must be complete)."""

        def next_round(torneo: model.Torneo) -> model.Round:
            seed = secrets.token_hex(SEED_BYTES) if torneo.settings.duplicate else None
            return torneo.next_round(seed)

        stored, torneo, made = await service.act(code, next_round)
        out = view(stored, torneo, True)
        out["round"] = model.round_dump(made)
        return JSONResponse(out, status_code=201)

    @router.post("/{code}/rounds/{round_number}/tables/{table}/result")
    async def result(code: str, round_number: int, table: int, request: Request) -> Any:
        """A table's result: ``score``, ``forfeit`` or ``deals`` (or only the ``record`` of
        the partida played online), with ``by`` and ``note``; a table that has one already
        takes a new one only with ``"correct": true`` (a line of the audit)."""
        data = await _body(request)
        given, correct = _result(data)

        def enter(torneo: model.Torneo) -> model.Entry:
            had = (round_number, table) in torneo.results()
            if had and not correct:
                raise FichaFlowError("torneo.already_entered", round=round_number, table=table)
            if correct and not had:
                raise FichaFlowError("torneo.nothing_to_correct", round=round_number, table=table)
            by = data.get("by", DEFAULT_BY)
            return torneo.enter(round_number, table, given, by, _now(), data.get("note", ""))

        stored, torneo, _ = await service.act(code, enter)
        return view(stored, torneo, True)

    @router.get("/{code}/rounds/{round_number}/deals")
    async def deals(code: str, round_number: int) -> Any:
        """A duplicate round's deals for the tournament director's slips (organizer's code
        only: the seed stays secret while the round is played): each deal's leading seat and
        every seat's tiles, the same deals ``fichaflow torneo deals`` prints."""
        _, torneo = await service.organizer(code)
        made = torneo.round(round_number)
        if not torneo.settings.duplicate or made.seed is None:
            raise FichaFlowError("torneo.not_duplicate")
        return {
            "round": round_number,
            "commitment": made.commitment,
            "deals": [
                {
                    "deal": number,
                    "leader": leader(number),
                    "hands": [[name(tile) for tile in bits(hand)] for hand in deal.hands],
                }
                for number, deal in enumerate(
                    round_deals(made.seed, torneo.settings.duplicate_deals), 1
                )
            ],
        }

    @router.get("/export/{code}.{fmt}")
    async def export(code: str, fmt: str, request: Request) -> Any:
        """The standings as ``csv`` or the record as ``json``, by either code (the public code
        gives the public copy: no seed of a round still being played)."""
        try:
            _, torneo = await service.read(code)
            organizer = True
        except FichaFlowError:
            _, torneo = await service.read(public=code)
            organizer = False
        name = "torneo"
        if fmt == "csv":
            return Response(
                standings_csv(torneo, _lang(request)),
                media_type="text/csv; charset=utf-8",
                headers={"Content-Disposition": f'attachment; filename="{name}.csv"'},
            )
        if fmt == "json":
            return JSONResponse(
                model.dump(torneo, public=not organizer),
                headers={"Content-Disposition": f'attachment; filename="{name}.json"'},
            )
        raise FichaFlowError("torneo.bad_choice", what="format", value=fmt, allowed="csv, json")

    return router


def install(app: FastAPI, storage: Database, limits: HttpLimits) -> TorneoService:
    """Add the torneos' endpoints to the server's app (before its static files); new torneos
    count against the server's ``limits``."""
    service = TorneoService(storage)
    app.include_router(build_router(service, limits))
    app.state.torneos = service
    return service
