"""The torneos' HTTP endpoints, served by ``fichaflow serve`` next to the game and the anotador.

Thin: each action loads the torneo's record, asks :mod:`fichaflow.torneo` to do one thing (it
checks everything before it changes anything), and stores the result in one transaction (the
record's new head and the new lines of its results log), so a refused or failed action leaves
nothing half-written. The organizer acts with the torneo's secret code; its public code reads
the standings, the rounds and the public record. The clock is read and the duplicate seeds are
drawn here, never in the engine. See ``docs/torneos.md``.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import hmac
import io
import logging
import secrets
from collections.abc import Awaitable, Callable, Collection
from datetime import UTC, datetime
from functools import partial
from typing import Any, Final, TypeVar

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi.responses import JSONResponse

from fichaflow import i18n
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.names import LABEL_MAX
from fichaflow.core.partida import time_winner
from fichaflow.core.tiles import bits, name
from fichaflow.http import ErrorRoute, HttpLimits, is_code, read_json, shown_code, whole_number
from fichaflow.http.export import csv_cell
from fichaflow.http.locks import TRIES, KeyedLocks, pause_before_try
from fichaflow.storage import Database
from fichaflow.torneo import model
from fichaflow.torneo.duplicate import leader, round_deals
from fichaflow.torneo.standings import standing_json, standings
from fichaflow.torneos import store

MAX_BODY: Final = 512 * 1024
"""The largest request: a torneo of many entrants, or a result with its partida's record."""
SEED_BYTES: Final = 32
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
    "torneo.registration_closed": 409,
    "torneo.registration_full": 409,
    "torneo.already_registered": 409,
    "torneo.same_name": 409,
    "torneo.mesa_exists": 409,
    "torneo.bad_key": 403,
    "torneo.no_sheet": 404,
    "torneo.bad_side_code": 403,
    "torneo.sheet_unfinished": 409,
    "torneo.sheet_changed": 409,
    "torneo.already_confirmed": 409,
    "torneo.sheet_exists": 409,
    "torneo.sheet_duplicate": 409,
    "torneo.no_anotador": 503,
    "torneo.no_game": 503,
    "torneo.busy": 503,
    "server.too_big_http": 413,
    "server.too_many": 429,
}
SIGNUP_KEYS: Final = ("open", "limit")
ONLINE_BY: Final = "mesa en línea {mesa}"
"""Who entered a result brought from an online mesa's record (the organizer's page's own
words, ``torneo.web.online_by``, so that both kinds read alike in the history)."""
HOST_NAME: Final = "Organizador"
SIDE_CODE_LETTERS: Final = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
"""A side's confirmation code is read off paper and typed on a phone: capitals and digits,
none that looks like another (no I, O, 0, 1)."""
SIDE_CODE_LENGTH: Final = 6
CONFIRM_KEYS: Final = ("code", "score")
APPROVE_KEYS: Final = ("by", "note")
BY_MAX: Final = 100
SHEET_CONFIRMED_BY: Final = "planilla {sheet}: confirmada por los dos lados"
SHEET_APPROVED_BY: Final = "planilla {sheet}: aprobada por {by}"
"""Who entered a result from a table's anotador sheet (``sheet``: its read-only code, with
which anyone can look at the sheet it came from)."""
T = TypeVar("T")
log = logging.getLogger(__name__)

AccountOf = Callable[[Request], Awaitable[tuple[str, str] | None]]
"""The signed-in player behind a request (account id and name), or None: the accounts' word,
handed in by ``app.py`` (only a request with the session's CSRF token counts)."""
MakeMesa = Callable[[dict[str, Any], list[str], str, float | None], Awaitable[dict[str, Any]]]
"""(rules, each seat's name, the links' base, the minutes of a partida by time or None) -> the
game mesa made with those people seated:
``{"code", "join_url", "host": token, "seats": [a token per seat]}`` (``app.py`` makes it
with the game's own create and join, so the game knows nothing of torneos)."""
RecordOf = Callable[[str, int], Awaitable[Any]]
"""(mesa code, partida number) -> that partida's record, from the game (``app.py``)."""
MakeSheet = Callable[[dict[str, Any]], Awaitable[dict[str, str]]]
"""(an anotador mesa's setup: name, rules, players, teams) -> the sheet made, ``{"code",
"watch"}`` (``app.py`` makes it with the anotador's own create)."""
SheetScore = Callable[[str], Awaitable[dict[str, Any]]]
"""(a sheet's writing code) -> its first partida as stored now: ``{"totals": [a, b], "over":
bool, "lines": int}`` (``app.py``, from the anotador)."""


def entrant_key(code: str, entrant: int) -> str:
    """The secret of an entrant's own page: derived from the organizer's code, so that only
    the organizer and the entrant (who was given it) know it, and nothing more is stored."""
    digest = hmac.new(code.encode(), f"entrant:{entrant}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


def player_path(public: str, entrant: int, key: str) -> str:
    return f"/torneo/jugador.html?p={public}&e={entrant}&k={key}"


def sheet_setup(torneo: model.Torneo, round_number: int, table: model.Table) -> dict[str, Any]:
    """The anotador mesa of a physical table: the torneo's rules, its players in their seats
    (side a at 0 and 2, b at 1 and 3: the anotador's first pair and second), the pairs' names
    for the sides, and a name that says which torneo table it is."""
    label = f"Mesa {table.number} · Ronda {round_number} · {torneo.settings.name}"
    setup: dict[str, Any] = {
        "name": label[:LABEL_MAX].strip(),
        "rules": torneo.settings.rules.dump(),
        "players": model.sheet_names(torneo.entrant, table),
    }
    if torneo.settings.format is model.Format.PAIRS:
        setup["teams"] = [torneo.entrant(table.a[0]).name, torneo.entrant(table.b[0]).name]
    return setup


def side_code() -> str:
    return "".join(secrets.choice(SIDE_CODE_LETTERS) for _ in range(SIDE_CODE_LENGTH))


def typed_code(text: object) -> str:
    """A side's code as typed: spaces and dashes left out, any case."""
    if not isinstance(text, str):
        return ""
    return "".join(c for c in text if c not in " -").upper()[: SIDE_CODE_LENGTH * 2]


def score_text(score: tuple[int, int]) -> str:
    return f"{score[0]}-{score[1]}"


def seats_of(torneo: model.Torneo, table: model.Table, entrant: int) -> list[int]:
    """The seats ``entrant`` holds at ``table``: a pair both of its side's, a player one."""
    out = []
    for seat in range(4):
        side = table.a if seat % 2 == 0 else table.b
        half = 0 if seat < 2 else 1
        if (side[half] if len(side) == 2 else side[0]) == entrant:
            out.append(seat)
    return out


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


def view(
    stored: store.Stored,
    torneo: model.Torneo,
    organizer: bool,
    online: list[store.OnlineTable] | None = None,
    signup: store.Signup | None = None,
    sheets: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """What the pages read: the record (the public copy for the public), the standings, the
    corrections, whether the next round can be paired, the tables played online (their mesas,
    for mirones; the host's token for the organizer), and the registration by link; the
    organizer's also has each entrant's own page."""
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
        "mesas": [
            {
                "round": m.round,
                "table": m.table,
                "mesa": m.mesa,
                **({"host": m.tokens["host"]} if organizer else {}),
            }
            for m in online or []
        ],
        "sheets": sheets or [],
    }
    if signup is not None:
        closed = not signup.open or not torneo.takes_entrants()
        out["registration"] = {"open": not closed, "limit": signup.capacity}
    if organizer:
        out["code"] = stored.code
        out["players"] = {
            str(e.id): player_path(stored.public, e.id, entrant_key(stored.code, e.id))
            for e in torneo.entrants
        }
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
        # The actions on one torneo take turns in this process: the eight tables of a round
        # that end together would otherwise race for the same stored version, and the last
        # ones could lose every try.
        self._turns = KeyedLocks()
        self.make_mesa: MakeMesa | None = None
        self.record_of: RecordOf | None = None
        self.make_sheet: MakeSheet | None = None
        self.sheet_score: SheetScore | None = None

    async def show(
        self,
        stored: store.Stored,
        torneo: model.Torneo,
        organizer: bool,
        live: tuple[int, int] | None = None,
    ) -> Any:
        """The view of ``torneo`` with its online tables, its tables kept in the anotador and
        its registration. A sheet's score now is read from the anotador for the organizer's
        view, and in the public one only for the table ``live`` (round, table): the page where
        a side confirms; the players' pages, asked every few seconds, do not read every sheet."""
        online = await self.storage.run(store.mesas_of, self.storage.engine, stored.code)
        signup = await self.storage.run(store.signup, self.storage.engine, stored.code)
        kept = await self.storage.run(store.sheets_of, self.storage.engine, stored.code)
        sheets = [
            await self.sheet_json(
                torneo, sheet, organizer, organizer or (sheet.round, sheet.table) == live
            )
            for sheet in kept
        ]
        return view(stored, torneo, organizer, online, signup, sheets)

    async def sheet_json(
        self, torneo: model.Torneo, sheet: store.Sheet, organizer: bool, read: bool
    ) -> dict[str, Any]:
        """A table kept in the anotador as the pages show it: while its result is pending (and
        ``read``), the sheet's score now, whether it is over (then it can be confirmed or
        approved) and which sides confirmed that score; the organizer's also has the sheet's
        writing code and each side's confirmation code."""
        entered = (sheet.round, sheet.table) in torneo.results()
        out: dict[str, Any] = {
            "round": sheet.round,
            "table": sheet.table,
            "watch": sheet.watch,
            "entered": entered,
            "score": None,
            "over": False,
            "confirmed": {side: sheet.confirmed[side] is not None for side in "ab"},
        }
        if read and not entered and self.sheet_score is not None:
            try:
                now = await self.sheet_score(sheet.sheet)
            except FichaFlowError:
                now = None  # the sheet is gone: nothing to show but that it is pending
            if now is not None:
                score = (int(now["totals"][0]), int(now["totals"][1]))
                out["score"] = list(score)
                out["over"] = self.sheet_over(torneo, now)
                out["confirmed"] = {s: sheet.confirmed[s] == score_text(score) for s in "ab"}
        if organizer:
            out["sheet"] = sheet.sheet
            out["codes"] = dict(sheet.codes)
        return out

    @staticmethod
    def sheet_over(torneo: model.Torneo, now: dict[str, Any]) -> bool:
        """Whether a sheet's partida is finished as this torneo counts it: to the target, its
        winner reached it; by time, the sheet has lines and a side is ahead (the scorekeeper
        plays one more hand on a tie): the rule an online table's partida ends by when time is
        called (``core.partida.time_winner``)."""
        if torneo.settings.length is model.Length.TARGET:
            return bool(now["over"])
        totals = [int(t) for t in now["totals"]]
        return int(now["lines"]) > 0 and time_winner(totals) is not None

    async def final_score(self, torneo: model.Torneo, sheet: store.Sheet) -> tuple[int, int]:
        """The sheet's final score, refused while its partida is not over."""
        if self.sheet_score is None:
            raise FichaFlowError("torneo.no_anotador")
        now = await self.sheet_score(sheet.sheet)
        a, b = int(now["totals"][0]), int(now["totals"][1])
        if not self.sheet_over(torneo, now):
            raise FichaFlowError("torneo.sheet_unfinished", table=sheet.table, a=a, b=b)
        return a, b

    async def bound_sheet(self, code: str, round_number: int, number: int) -> store.Sheet:
        sheet = await self.storage.run(
            store.sheet_of, self.storage.engine, code, round_number, number
        )
        if sheet is None:
            raise FichaFlowError("torneo.no_sheet", round=round_number, table=number)
        return sheet

    async def _still_free(
        self, stored: store.Stored, torneo: model.Torneo, round_number: int, number: int
    ) -> None:
        """Refuse a table that has a result, an online mesa or an anotador sheet already: each
        way of playing a table excludes the others."""
        if (round_number, number) in torneo.results():
            raise FichaFlowError("torneo.already_entered", round=round_number, table=number)
        made = await self.storage.run(store.mesas_of, self.storage.engine, stored.code)
        if any((m.round, m.table) == (round_number, number) for m in made):
            raise FichaFlowError("torneo.mesa_exists", round=round_number, table=number)
        kept = await self.storage.run(
            store.sheet_of, self.storage.engine, stored.code, round_number, number
        )
        if kept is not None:
            raise FichaFlowError("torneo.sheet_exists", round=round_number, table=number)

    async def physical_table(self, code: str, round_number: int, number: int) -> store.Sheet:
        """An anotador sheet bound to a table of the torneo: the torneo's rules, the pairing's
        players in their seats and the pairs' names; each side gets its own confirmation code.
        Refused for a table that has a result, a sheet or an online mesa already, and in a
        duplicate torneo (whose tables enter each deal's points, not a partida)."""
        if self.make_sheet is None:
            raise FichaFlowError("torneo.no_anotador")
        stored, torneo = await self.organizer(code)
        table = torneo.round(round_number).table(number)
        if torneo.settings.duplicate:
            raise FichaFlowError("torneo.sheet_duplicate")
        await self._still_free(stored, torneo, round_number, number)
        given = await self.make_sheet(sheet_setup(torneo, round_number, table))
        codes = {"a": side_code(), "b": side_code()}
        while codes["b"] == codes["a"]:
            codes["b"] = side_code()
        sheet = store.Sheet(
            given["code"], given["watch"], stored.code, round_number, number, codes,
            {"a": None, "b": None},
        )  # fmt: skip
        try:
            await self.storage.run(store.add_sheet, self.storage.engine, sheet)
        except store.Conflict:  # made meanwhile by another request: that one stands
            raise FichaFlowError("torneo.sheet_exists", round=round_number, table=number) from None
        return sheet

    async def confirm(
        self, public: str, round_number: int, number: int, data: dict[str, Any]
    ) -> tuple[store.Stored, model.Torneo, str]:
        """One side of a physical table confirms its sheet's final score with its own code
        (``{"code": …, "score": [a, b]}``, the score it read): when both sides have confirmed
        the same score, it goes into the standings (a line of the log, by the sheet). Refused,
        changing nothing: a code that is neither side's, a sheet not over, a score that is not
        the sheet's now, a side confirming the same score twice, a table with a result."""
        _only_known_keys(data, CONFIRM_KEYS, "confirmation")
        if data.get("score") is None:
            raise FichaFlowError("torneo.confirm_score")
        seen = model.result_from({"score": data.get("score")}).score
        assert seen is not None
        stored, torneo = await self.read(public=public)
        torneo.round(round_number).table(number)
        sheet = await self.bound_sheet(stored.code, round_number, number)
        typed = typed_code(data.get("code")).encode()
        side = next((s for s in "ab" if hmac.compare_digest(typed, sheet.codes[s].encode())), None)
        if side is None:
            raise FichaFlowError("torneo.bad_side_code", table=number)
        key = (round_number, number)
        if key in torneo.results():
            raise FichaFlowError("torneo.already_entered", round=round_number, table=number)
        final = await self.final_score(torneo, sheet)
        if seen != final:
            raise FichaFlowError("torneo.sheet_changed", a=final[0], b=final[1])
        text = score_text(final)
        now = await self.storage.run(store.confirm, self.storage.engine, sheet.sheet, side, text)
        if now is None:
            raise FichaFlowError(
                "torneo.already_confirmed", side=side.upper(), a=final[0], b=final[1]
            )
        if now.confirmed["a"] == now.confirmed["b"] == text:

            def enter(torneo: model.Torneo) -> model.Entry | None:
                if key in torneo.results():
                    return None  # the other side's confirmation entered it meanwhile
                by = SHEET_CONFIRMED_BY.format(sheet=sheet.watch)
                return torneo.enter(*key, model.Result(score=final), by, _now(), "")

            stored, torneo, _ = await self.act(stored.code, enter)
        return stored, torneo, side

    async def approve(
        self, code: str, round_number: int, number: int, data: dict[str, Any]
    ) -> tuple[store.Stored, model.Torneo]:
        """The organizer enters a physical table's result from its finished sheet, without
        waiting for the sides' confirmations (``{"by": …, "note": …}``)."""
        _only_known_keys(data, APPROVE_KEYS, "approval")
        by = data.get("by", DEFAULT_BY)
        if not isinstance(by, str) or not by.strip() or len(by) > BY_MAX:
            raise FichaFlowError("torneo.bad_text", what="by", limit=BY_MAX)
        stored, torneo = await self.organizer(code)
        torneo.round(round_number).table(number)
        sheet = await self.bound_sheet(stored.code, round_number, number)
        key = (round_number, number)
        if key in torneo.results():
            raise FichaFlowError("torneo.already_entered", round=round_number, table=number)
        final = await self.final_score(torneo, sheet)

        def enter(torneo: model.Torneo) -> model.Entry:
            if key in torneo.results():
                raise FichaFlowError("torneo.already_entered", round=round_number, table=number)
            who = SHEET_APPROVED_BY.format(sheet=sheet.watch, by=by.strip())
            note = data.get("note", "")
            return torneo.enter(*key, model.Result(score=final), who, _now(), note)

        stored, torneo, _ = await self.act(code, enter)
        return stored, torneo

    async def online_table(
        self, code: str, round_number: int, number: int, base_url: str
    ) -> store.OnlineTable:
        """A game mesa for a table of the torneo, its seats taken by the table's players (each
        a token, reached from their entrant's page) and the organizer its host; the partida
        starts at once, and its result comes back by itself (:meth:`partida_ended`)."""
        if self.make_mesa is None:
            raise FichaFlowError("torneo.no_game")
        stored, torneo = await self.organizer(code)
        table = torneo.round(round_number).table(number)
        await self._still_free(stored, torneo, round_number, number)
        rules = torneo.settings.rules.dump()
        minutes = torneo.settings.minutes if torneo.settings.length is model.Length.TIME else None
        names = model.seat_names(torneo.entrant, table)
        mesa = await self.make_mesa(rules, names, base_url, minutes)
        tokens = {"host": mesa["host"], "seats": mesa["seats"], "join_url": mesa["join_url"]}
        online = store.OnlineTable(mesa["code"], stored.code, round_number, number, tokens)
        try:
            await self.storage.run(store.add_mesa, self.storage.engine, online)
        except store.Conflict:  # made meanwhile by another request: that one stands
            raise FichaFlowError("torneo.mesa_exists", round=round_number, table=number) from None
        return online

    async def partida_ended(self, mesa: str, number: int) -> None:
        """The game says partida ``number`` of ``mesa`` ended: if the mesa is a torneo table's
        and its first partida, its record goes into the torneo as that table's result, as the
        organizer's «Traer el resultado» would enter it (a line of the log: by the mesa, when),
        unless the table has a result already."""
        online = await self.storage.run(store.mesa, self.storage.engine, mesa)
        if online is None or number != 1 or self.record_of is None:
            return
        record = await self.record_of(mesa, number)
        given = model.from_partida(record)
        key = (online.round, online.table)

        def enter(torneo: model.Torneo) -> model.Entry | None:
            if key in torneo.results():
                return None
            return torneo.enter(*key, given, ONLINE_BY.format(mesa=mesa), _now(), "")

        try:
            await self.act(online.torneo, enter)
        except FichaFlowError as exc:
            log.warning("mesa %s: its result did not go into its torneo: %s", mesa, exc.code)

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
        self,
        code: str,
        action: Callable[[model.Torneo], T],
        account: str | None = None,
        public: bool = False,
    ) -> tuple[store.Stored, model.Torneo, T]:
        """Do ``action`` on the stored torneo and store what it changed, in one transaction;
        a refusal (``FichaFlowError``) stores nothing. ``public``: ``code`` is the public code
        (a registration by the link); ``account``: the account registering, kept with the
        entrant the action returns."""
        async with self._turns.of(code):
            return await self._act(code, action, account, public)

    async def _act(
        self,
        code: str,
        action: Callable[[model.Torneo], T],
        account: str | None,
        public: bool,
    ) -> tuple[store.Stored, model.Torneo, T]:
        for attempt in range(TRIES):
            await pause_before_try(attempt)  # another process wrote first
            if public:
                stored, torneo = await self.read(public=code)
            else:
                stored, torneo = await self.organizer(code)
            before = len(torneo.log)
            outcome = action(torneo)
            record = model.dump(torneo)
            lines = record["log"][before:]
            kept = None
            if account is not None and isinstance(outcome, model.Entrant):
                kept = (account, outcome.id)
            try:
                await self.storage.run(
                    store.save,
                    self.storage.engine,
                    stored.code,
                    stored.version,
                    record,
                    lines,
                    kept,
                )
            except store.Conflict:
                if kept is not None:
                    found = await self.storage.run(
                        store.entrant_of_account, self.storage.engine, stored.code, kept[0]
                    )
                    if found is not None:
                        raise FichaFlowError("torneo.already_registered") from None
                continue
            saved = store.Stored(stored.code, stored.public, stored.version + 1, record)
            return saved, torneo, outcome
        raise FichaFlowError("torneo.busy")


def _register(data: dict[str, Any]) -> Callable[[model.Torneo], model.Entrant]:
    model_keys = ("name", "players")
    _only_known_keys(data, model_keys, "entrant")
    players = data.get("players", [])
    if not isinstance(players, list):
        raise FichaFlowError("torneo.shape", what="players")
    return lambda torneo: torneo.register(data.get("name"), players)


def _only_known_keys(data: dict[str, Any], allowed: Collection[str], what: str) -> None:
    """Refuse a body that names a key this request does not read (a typo would be ignored)."""
    for key in data:
        if key not in allowed:
            raise FichaFlowError(
                "torneo.unknown_key", key=key, what=what, allowed=", ".join(allowed)
            )


def _result(data: dict[str, Any]) -> tuple[model.Result, bool]:
    _only_known_keys(data, RESULT_KEYS, "result")
    correct = data.get("correct", False)
    if not isinstance(correct, bool):
        raise FichaFlowError("torneo.shape", what="correct")
    given = [k for k in ("score", "forfeit", "deals") if data.get(k) is not None]
    if not given and data.get("record") is not None:
        return model.from_partida(data["record"]), correct
    return model.result_from(data), correct


class TorneoRoute(ErrorRoute):
    statuses = STATUS


def _signup(data: dict[str, Any]) -> store.Signup:
    _only_known_keys(data, SIGNUP_KEYS, "registration")
    is_open = data.get("open", True)
    if not isinstance(is_open, bool):
        raise FichaFlowError("torneo.shape", what="open")
    limit = data.get("limit")
    if limit is not None and (
        isinstance(limit, bool)
        or not isinstance(limit, int)
        or not 2 <= limit <= model.MAX_ENTRANTS
    ):
        raise FichaFlowError("torneo.bad_number", what="limit", low=2, high=model.MAX_ENTRANTS)
    return store.Signup(is_open, limit)


def _self_registration(
    data: dict[str, Any], signup: store.Signup, account: tuple[str, str] | None
) -> Callable[[model.Torneo], model.Entrant]:
    """A player registering by the torneo's link: their name (a signed-in player's is their
    account's), and for a pair, their partner's; refused while registration is closed, when it
    is full, or for a name already registered."""
    _only_known_keys(data, ("name", "partner"), "entrant")
    name = account[1] if account else data.get("name")
    partner = data.get("partner")

    def register(torneo: model.Torneo) -> model.Entrant:
        if not signup.open or not torneo.takes_entrants():
            raise FichaFlowError("torneo.registration_closed", name=torneo.settings.name)
        present = sum(1 for e in torneo.entrants if e.withdrawn is None)
        if signup.capacity is not None and present >= signup.capacity:
            raise FichaFlowError("torneo.registration_full", limit=signup.capacity)
        if torneo.settings.format is model.Format.INDIVIDUAL:
            return torneo.register(name)
        if not isinstance(name, str) or not isinstance(partner, str) or not partner.strip():
            raise FichaFlowError("torneo.partner_needed")
        pair = f"{name.strip()} y {partner.strip()}"
        return torneo.register(pair, [name, partner])

    return register


def build_router(
    service: TorneoService, limits: HttpLimits, account_of: AccountOf | None = None
) -> APIRouter:
    router = APIRouter(prefix="/api/torneos", route_class=TorneoRoute)

    @router.post("", status_code=201)
    async def create_torneo(request: Request) -> Any:
        """A torneo from the JSON ``fichaflow torneo create`` reads (``docs/torneos.md``)."""
        data = await _body(request)
        limits.check("create", request)
        stored, torneo = await service.create(data)
        return JSONResponse(await service.show(stored, torneo, True), status_code=201)

    @router.get("/{code}")
    async def get_torneo(code: str) -> Any:
        """The organizer's view: the whole record (seeds included), standings and audit."""
        stored, torneo = await service.organizer(code)
        return await service.show(stored, torneo, True)

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
        return await service.show(stored, torneo, False)

    @router.post("/{code}/entrants", status_code=201)
    async def register(code: str, request: Request) -> Any:
        """A late arrival: ``{"name": ..., "players": [two names]}``; plays from the next round."""
        action = _register(await _body(request))
        stored, torneo, entrant = await service.act(code, action)
        out = await service.show(stored, torneo, True)
        out["entrant"] = model.entrant_dump(entrant)
        return JSONResponse(out, status_code=201)

    @router.post("/{code}/registration")
    async def registration(code: str, request: Request) -> Any:
        """Open or close the registration by the torneo's link, and its limit of entrants:
        ``{"open": true, "limit": 16}`` (``limit`` null: none)."""
        wanted = _signup(await _body(request))
        stored, torneo = await service.organizer(code)
        await service.storage.run(store.set_signup, service.storage.engine, stored.code, wanted)
        return await service.show(stored, torneo, True)

    @router.post("/public/{public}/entrants", status_code=201)
    async def register_by_link(public: str, request: Request) -> Any:
        """A player registers themself by the torneo's public link while registration is
        open: ``{"name": ..., "partner": ...}`` (a pair's partner; a signed-in player's name is
        their account's). The answer has their entrant and their own page (with its key: the
        way to their seats at the tables played online)."""
        data = await _body(request)
        limits.check("create", request)
        account = await account_of(request) if account_of else None
        stored, _ = await service.read(public=public)
        if account is not None:
            found = await service.storage.run(
                store.entrant_of_account, service.storage.engine, stored.code, account[0]
            )
            if found is not None:
                raise FichaFlowError("torneo.already_registered")
        signup = await service.storage.run(store.signup, service.storage.engine, stored.code)
        action = _self_registration(data, signup, account)
        stored, torneo, entrant = await service.act(
            public, action, account[0] if account else None, public=True
        )
        out = await service.show(stored, torneo, False)
        out["entrant"] = model.entrant_dump(entrant)
        out["page"] = player_path(public, entrant.id, entrant_key(stored.code, entrant.id))
        return JSONResponse(out, status_code=201)

    @router.get("/public/{public}/entrants/{number}")
    async def entrant_page(public: str, number: int, request: Request) -> Any:
        """An entrant's own page (``?k=KEY``, the key of their registration): the torneo's
        public view, who they are, and their seats at the tables played online (each seat's
        token, to play it)."""
        stored, torneo = await service.read(public=public)
        given = request.query_params.get("k", "")
        entrant = torneo.entrant(number)
        if not hmac.compare_digest(given.encode(), entrant_key(stored.code, number).encode()):
            raise FichaFlowError("torneo.bad_key")
        out = await service.show(stored, torneo, False)
        online = await service.storage.run(store.mesas_of, service.storage.engine, stored.code)
        seats = []
        for m in online:
            table = torneo.round(m.round).table(m.table)
            for seat in seats_of(torneo, table, number):
                seats.append(
                    {
                        "round": m.round,
                        "table": m.table,
                        "mesa": m.mesa,
                        "seat": seat,
                        "name": model.seat_names(torneo.entrant, table)[seat],
                        "token": m.tokens["seats"][seat],
                    }
                )
        out["entrant"] = model.entrant_dump(entrant)
        out["seats"] = seats
        return out

    @router.post("/{code}/entrants/{number}/withdraw")
    async def withdraw(code: str, number: int) -> Any:
        stored, torneo, _ = await service.act(code, lambda t: t.withdraw(number))
        return await service.show(stored, torneo, True)

    @router.post("/{code}/rounds", status_code=201)
    async def pair(code: str) -> Any:
        """The next round's pairings (the previous round must be complete)."""

        def next_round(torneo: model.Torneo) -> model.Round:
            seed = secrets.token_hex(SEED_BYTES) if torneo.settings.duplicate else None
            return torneo.next_round(seed)

        stored, torneo, made = await service.act(code, next_round)
        out = await service.show(stored, torneo, True)
        out["round"] = model.round_dump(made)
        return JSONResponse(out, status_code=201)

    @router.post("/{code}/rounds/{round_number}/tables/{table}/mesa", status_code=201)
    async def online_table(code: str, round_number: int, table: int, request: Request) -> Any:
        """The table played online: a game mesa with the torneo's rules whose seats are taken
        by the table's players (side a at 0 and 2, b at 1 and 3), each reaching their seat
        from their entrant's page; the organizer is its host. Its partida starts at once and,
        when it ends, its result goes into the torneo by itself."""
        limits.check("create", request)
        await service.online_table(code, round_number, table, str(request.base_url))
        stored, torneo = await service.organizer(code)
        return JSONResponse(await service.show(stored, torneo, True), status_code=201)

    @router.post("/{code}/rounds/{round_number}/mesas", status_code=201)
    async def online_round(code: str, round_number: int, request: Request) -> Any:
        """Every table of the round that has neither a result nor a mesa, played online."""
        limits.check("create", request)
        stored, torneo = await service.organizer(code)
        made = torneo.round(round_number)
        online = await service.storage.run(store.mesas_of, service.storage.engine, stored.code)
        kept = await service.storage.run(store.sheets_of, service.storage.engine, stored.code)
        have = {(m.round, m.table) for m in online} | set(torneo.results())
        have |= {(k.round, k.table) for k in kept}
        for table in made.tables:
            if (round_number, table.number) not in have:
                await service.online_table(code, round_number, table.number, str(request.base_url))
        stored, torneo = await service.organizer(code)
        return JSONResponse(await service.show(stored, torneo, True), status_code=201)

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
        return await service.show(stored, torneo, True)

    @router.post("/{code}/rounds/{round_number}/tables/{table}/sheet", status_code=201)
    async def physical_table(code: str, round_number: int, table: int, request: Request) -> Any:
        """The table kept at a physical table in the anotador: a sheet bound to it (the
        torneo's rules, the pairing's players and the pairs' names) and each side's code to
        confirm its result; the answer's ``sheets`` has them."""
        limits.check("create", request)
        await service.physical_table(code, round_number, table)
        stored, torneo = await service.organizer(code)
        return JSONResponse(await service.show(stored, torneo, True), status_code=201)

    @router.post("/{code}/rounds/{round_number}/tables/{table}/sheet/approve")
    async def approve_sheet(code: str, round_number: int, table: int, request: Request) -> Any:
        """The organizer enters the result of a table's finished sheet without waiting for
        both sides to confirm it."""
        stored, torneo = await service.approve(code, round_number, table, await _body(request))
        return await service.show(stored, torneo, True)

    @router.get("/public/{public}/rounds/{round_number}/tables/{table}/sheet")
    async def public_sheet(public: str, round_number: int, table: int) -> Any:
        """The public view with that table's sheet as it stands now (its score, whether it is
        over, which sides confirmed it): what the confirmation page reads; ``sheet`` is the
        table's, or null when it has none."""
        stored, torneo = await service.read(public=public)
        torneo.round(round_number).table(table)
        out = await service.show(stored, torneo, False, (round_number, table))
        key = (round_number, table)
        out["sheet"] = next((s for s in out["sheets"] if (s["round"], s["table"]) == key), None)
        return out

    @router.post("/public/{public}/rounds/{round_number}/tables/{table}/confirm")
    async def confirm_sheet(public: str, round_number: int, table: int, request: Request) -> Any:
        """One side confirms its table's sheet with its own code: ``{"code", "score"}``. The
        answer is the public view, ``side`` (who confirmed) and ``sheet`` (the table's, with
        ``entered`` once both sides did)."""
        data = await _body(request)
        limits.check("join", request)  # a code is short: guessing it takes many tries
        stored, torneo, side = await service.confirm(public, round_number, table, data)
        out = await service.show(stored, torneo, False, (round_number, table))
        out["side"] = side
        out["sheet"] = next(
            s for s in out["sheets"] if (s["round"], s["table"]) == (round_number, table)
        )
        return out

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


def install(
    app: FastAPI,
    storage: Database,
    limits: HttpLimits,
    account_of: AccountOf | None = None,
    make_mesa: MakeMesa | None = None,
    record_of: RecordOf | None = None,
    make_sheet: MakeSheet | None = None,
    sheet_score: SheetScore | None = None,
) -> TorneoService:
    """Add the torneos' endpoints to the server's app (before its static files); new torneos
    count against the server's ``limits``. The game's side is handed in: ``make_mesa`` for the
    tables played online, ``record_of`` for their partidas' records (the game tells
    :meth:`TorneoService.partida_ended` when one ends); the anotador's, ``make_sheet`` and
    ``sheet_score``, for the physical tables; ``account_of``, the signed-in player."""
    service = TorneoService(storage)
    service.make_mesa, service.record_of = make_mesa, record_of
    service.make_sheet, service.sheet_score = make_sheet, sheet_score
    app.include_router(build_router(service, limits, account_of))
    app.state.torneos = service
    return service
