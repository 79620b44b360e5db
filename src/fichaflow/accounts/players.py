"""Players: ratings per mode, the partidas each account played signed in, the leaderboards and
a player's page (``/api/players/...``, the page ``web/jugadores/``). See docs/ratings.md.

The game tells the accounts of every partida that ends with somebody signed in at it
(:func:`record_partida`, handed to the game by ``app.py``); the ratings' arithmetic is
:mod:`fichaflow.ratings`'s, bots at their fixed ratings (:mod:`fichaflow.ratings.bots`). What
happened in a partida is never copied here: the profile replays the game's record of it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from typing import Any, Final, cast

from fastapi import APIRouter, FastAPI
from sqlalchemy import Connection, Engine, Table, delete, insert, select
from sqlalchemy.exc import IntegrityError

from fichaflow.accounts.stats import Stats, count, replayed
from fichaflow.accounts.tables import AccountRow, PlayedRow, RatingRow
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.rules import Mode
from fichaflow.http import ErrorRoute, is_code
from fichaflow.ratings import NEW_PLAYER, Rating, Side, rate_partida, shown
from fichaflow.ratings.bots import bot_rating, bot_ratings
from fichaflow.storage import Database, reading

RATINGS = cast(Table, RatingRow.__table__)
PLAYED = cast(Table, PlayedRow.__table__)
ACCOUNTS = cast(Table, AccountRow.__table__)
BOARD_SIZE: Final = 100
"""Players a leaderboard shows (settled ones; provisional ones below them, marked)."""
HISTORY: Final = 50
"""Partidas a player's page lists and counts in its statistics (the newest)."""

Record = Callable[[str, int], Awaitable[Mapping[str, Any]]]
"""The game's record of a partida (mesa code, number), handed in by ``app.py``."""


def _now() -> datetime:
    return datetime.now(UTC)


def _stamp(moment: datetime) -> str:
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.isoformat(timespec="seconds")


def _ratings(connection: Connection, accounts: list[str], mode: str) -> dict[str, Rating]:
    """The accounts' stored ratings at ``mode`` (one query; an account with none is new)."""
    rows = connection.execute(
        select(RATINGS).where(RATINGS.c.account.in_(accounts), RATINGS.c.mode == mode)
    ).all()
    return {row.account: Rating(row.mu, row.sigma, row.partidas) for row in rows}


def _upsert(connection: Connection, rows: list[dict[str, Any]]) -> None:
    """Each account's new rating, written whether it had one or not, in one statement."""
    if connection.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as upsert
    else:
        from sqlalchemy.dialects.sqlite import insert as upsert  # type: ignore[assignment]
    statement = upsert(RATINGS)
    changed = {c: statement.excluded[c] for c in ("mu", "sigma", "partidas", "updated_at")}
    connection.execute(
        statement.on_conflict_do_update(index_elements=["account", "mode"], set_=changed), rows
    )


def record_partida(engine: Engine, played: dict[str, Any]) -> list[dict[str, Any]] | None:
    """A partida that ended with somebody signed in at it (the game's account of it:
    ``server.service.played_partida``): each account's partida is kept and, in a rated one,
    everybody's rating moves (a bot's stays), all in one transaction of three statements (the
    ratings read, written, the partidas written). The answer is each seat's change for the end
    screen (None: not rated). Told twice of one partida, nothing changes the second time (its
    partida rows are there already: the transaction is refused whole)."""
    mode = Mode(played["mode"])
    seats = played["seats"]
    teams: list[int] = played["teams"]
    places: list[int] = played["places"]
    now = _now()
    try:
        with engine.begin() as connection:
            return _record(connection, mode, played, seats, teams, places, now)
    except IntegrityError:
        return None  # told before: this partida's rows are stored


def _record(
    connection: Connection,
    mode: Mode,
    played: dict[str, Any],
    seats: list[dict[str, Any]],
    teams: list[int],
    places: list[int],
    now: datetime,
) -> list[dict[str, Any]] | None:
    accounts = [s["account"] for s in seats if s["account"] is not None]
    stored = _ratings(connection, accounts, str(mode))
    before: dict[int, Rating] = {}
    fixed: dict[int, bool] = {}
    rated = bool(played["rated"])
    for s in seats:
        if s["account"] is not None:
            before[s["seat"]] = stored.get(s["account"], NEW_PLAYER)
            fixed[s["seat"]] = False
        else:
            bot = bot_rating(s["bot"] or "", mode)
            if bot is None:
                rated = False  # a bot never measured at this mode: no scale to rate on
                break
            before[s["seat"]] = bot
            fixed[s["seat"]] = True
    after: dict[int, Rating] = {}
    if rated:
        sides_seats = [
            [s["seat"] for s in seats if teams[s["seat"]] == t] for t in range(len(places))
        ]
        sides = [
            Side(tuple(before[s] for s in side), tuple(fixed[s] for s in side))
            for side in sides_seats
        ]
        moved = rate_partida(mode, sides, places)
        for side_seats, side_after in zip(sides_seats, moved, strict=True):
            after.update(zip(side_seats, side_after, strict=True))
    changes = []
    new_ratings = []
    partidas = []
    for s in seats:
        seat, account = s["seat"], s["account"]
        old, new = before.get(seat), after.get(seat)
        if account is not None:
            if new is not None:
                new_ratings.append(
                    {
                        "account": account,
                        "mode": str(mode),
                        "mu": new.mu,
                        "sigma": new.sigma,
                        "partidas": new.partidas,
                        "updated_at": now,
                    }
                )
            partidas.append(
                {
                    "account": account,
                    "mesa": played["mesa"],
                    "partida": played["partida"],
                    "seat": seat,
                    "mode": str(mode),
                    "place": places[teams[seat]],
                    "rated": new is not None,
                    "before": old.shown if new is not None and old else None,
                    "after": new.shown if new is not None else None,
                    "provisional": new.provisional if new is not None else True,
                    "finished_at": now,
                }
            )
        if new is not None and old is not None:
            changes.append(
                {
                    "seat": seat,
                    "name": s["name"],
                    "bot": account is None,
                    "before": old.shown,
                    "after": new.shown,
                    "change": new.shown - old.shown,
                    "provisional": new.provisional,
                }
            )
    if new_ratings:
        _upsert(connection, new_ratings)
    connection.execute(insert(PLAYED), partidas)
    return changes if rated else None


def shown_ratings(engine: Engine, account: str) -> dict[str, int]:
    """The account's shown rating per mode it has played rated (for the lobby)."""
    with reading(engine) as connection:
        rows = connection.execute(
            select(RATINGS.c.mode, RATINGS.c.mu).where(RATINGS.c.account == account)
        ).all()
    return {row.mode: shown(row.mu) for row in rows}


def leaderboard(engine: Engine, mode: Mode) -> dict[str, Any]:
    """The mode's players by rating, strongest first, settled ones before provisional ones,
    with the measured bots among them on the same scale (their ratings fixed)."""
    with reading(engine) as connection:
        rows = connection.execute(
            select(RATINGS, ACCOUNTS.c.name)
            .join(ACCOUNTS, ACCOUNTS.c.id == RATINGS.c.account)
            .where(RATINGS.c.mode == str(mode))
            .order_by(RATINGS.c.mu.desc())
            .limit(BOARD_SIZE * 4)
        ).all()
    people = []
    for row in rows:
        rating = Rating(row.mu, row.sigma, row.partidas)
        people.append(
            {
                "kind": "player",
                "id": row.account,
                "name": row.name,
                "rating": rating.shown,
                "partidas": rating.partidas,
                "provisional": rating.provisional,
            }
        )
    bots = [
        {"kind": "bot", "id": None, "name": name, "rating": points, "partidas": None}
        | {"provisional": False}
        for name, points in bot_ratings(mode).items()
    ]
    settled = sorted(
        [p for p in people if not p["provisional"]] + bots, key=lambda e: -int(e["rating"])
    )
    provisional = [p for p in people if p["provisional"]]
    return {"mode": str(mode), "entries": (settled + provisional)[: BOARD_SIZE + len(bots)]}


def player(engine: Engine, account: str) -> dict[str, Any] | None:
    """An account's name, its ratings per mode and its newest partidas (None: no such
    account)."""
    with reading(engine) as connection:
        found = connection.execute(
            select(ACCOUNTS.c.name, ACCOUNTS.c.created_at).where(ACCOUNTS.c.id == account)
        ).first()
        if found is None:
            return None
        ratings = connection.execute(select(RATINGS).where(RATINGS.c.account == account)).all()
        partidas = connection.execute(
            select(PLAYED)
            .where(PLAYED.c.account == account)
            .order_by(PLAYED.c.finished_at.desc(), PLAYED.c.partida.desc())
            .limit(HISTORY)
        ).all()
        history = connection.execute(
            select(PLAYED.c.mode, PLAYED.c.after, PLAYED.c.finished_at)
            .where(PLAYED.c.account == account, PLAYED.c.rated.is_(True))
            .order_by(PLAYED.c.finished_at, PLAYED.c.partida)
        ).all()
    by_mode = {row.mode: Rating(row.mu, row.sigma, row.partidas) for row in ratings}
    return {
        "id": account,
        "name": found.name,
        "since": _stamp(found.created_at),
        "ratings": {
            str(mode): {
                "rating": by_mode.get(str(mode), NEW_PLAYER).shown,
                "partidas": by_mode.get(str(mode), NEW_PLAYER).partidas,
                "provisional": by_mode.get(str(mode), NEW_PLAYER).provisional,
            }
            for mode in Mode
        },
        "history": {
            str(mode): [
                {"rating": row.after, "at": _stamp(row.finished_at)}
                for row in history
                if row.mode == str(mode)
            ]
            for mode in Mode
        },
        "partidas": [
            {
                "mesa": row.mesa,
                "partida": row.partida,
                "seat": row.seat,
                "mode": row.mode,
                "won": row.place == 0,
                "place": row.place,
                "rated": row.rated,
                "before": row.before,
                "after": row.after,
                "finished_at": _stamp(row.finished_at),
            }
            for row in partidas
        ],
    }


def forget(connection: Connection, account: str) -> None:
    """A deleted account's ratings and partidas go with it (inside its deletion)."""
    connection.execute(delete(PLAYED).where(PLAYED.c.account == account))
    connection.execute(delete(RATINGS).where(RATINGS.c.account == account))


def exported(connection: Connection, account: str) -> dict[str, Any]:
    """The account's ratings and partidas, for its JSON export."""
    ratings = connection.execute(select(RATINGS).where(RATINGS.c.account == account)).all()
    partidas = connection.execute(
        select(PLAYED).where(PLAYED.c.account == account).order_by(PLAYED.c.finished_at)
    ).all()
    return {
        "ratings": [
            {"mode": r.mode, "rating": shown(r.mu), "mu": r.mu, "sigma": r.sigma}
            | {"partidas": r.partidas}
            for r in ratings
        ],
        "partidas": [
            {
                "mesa": p.mesa,
                "partida": p.partida,
                "seat": p.seat,
                "mode": p.mode,
                "place": p.place,
                "rated": p.rated,
                "before": p.before,
                "after": p.after,
                "finished_at": _stamp(p.finished_at),
            }
            for p in partidas
        ],
    }


STATUS: Final = {"players.unknown": 404, "players.mode": 404}


class PlayersRoute(ErrorRoute):
    statuses = STATUS


def _mode(mode: str) -> Mode:
    try:
        return Mode(mode)
    except ValueError:
        allowed = ", ".join(str(m) for m in Mode)
        raise FichaFlowError("players.mode", mode=mode[:20], allowed=allowed) from None


def build_router(database: Database, record: Record) -> APIRouter:
    router = APIRouter(prefix="/api/players", route_class=PlayersRoute)

    @router.get("/leaderboard/{mode}")
    async def board(mode: str) -> Any:
        """The mode's leaderboard: players and bots on one scale, provisional players last and
        marked."""
        return await database.run(leaderboard, database.engine, _mode(mode))

    @router.get("/{account}")
    async def profile(account: str) -> Any:
        """A player's page: ratings per mode and their history, the newest partidas (each with
        its rules, partners, rivals and result, from its record) and the statistics of those
        partidas."""
        found = None
        if is_code(account):
            found = await database.run(player, database.engine, account)
        if found is None:
            raise FichaFlowError("players.unknown")
        stats = Stats()
        for entry in found["partidas"]:
            entry.update(rules=None, players=None)
            try:
                data = await record(entry["mesa"], entry["partida"])
                partida = replayed(dict(data))
            except FichaFlowError:
                continue  # a record the game no longer has: listed, not counted
            count(stats, partida, entry["seat"])
            rules = partida.rules
            names = list(partida.players or ())
            team = rules.team_of(entry["seat"])
            entry["rules"] = {"preset": rules.preset, "mode": str(rules.mode)}
            entry["rules"]["target"] = rules.target
            entry["players"] = names
            entry["partners"] = [
                names[s]
                for s in range(rules.seats)
                if s != entry["seat"] and rules.team_of(s) == team
            ]
            entry["rivals"] = [names[s] for s in range(rules.seats) if rules.team_of(s) != team]
            entry["scores"] = list(partida.scores)
            entry["hands"] = len(partida.played)
        found["stats"] = stats.json()
        return found

    return router


def install(app: FastAPI, database: Database, record: Record) -> None:
    app.include_router(build_router(database, record))


__all__ = ["exported", "forget", "install", "record_partida"]
