"""The trainer's HTTP endpoints (``/api/problemas/...``): a puzzle near the player's rating
(optionally of one theme), the day's puzzle, an attempt (one move at a time), and the player's
history and rating.

The server is the authority: every move is judged here, and a puzzle's answer is sent only
once the attempt is over (a wrong move, or the last right one). An attempt is rated when it
ends: a signed-in player's rating from the database, a guest's from what their browser sends
(``rating``; checked and kept within bounds, see :mod:`fichaflow.trainer.rating`); the puzzle's
rating moves in the database either way.
"""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from typing import Any, Final

from fastapi import APIRouter, FastAPI, Request

from fichaflow import i18n
from fichaflow.core.errors import FichaFlowError
from fichaflow.http import ErrorRoute, HttpLimits, read_json
from fichaflow.ratings.model import NEW_PLAYER as NEW
from fichaflow.ratings.model import Rating, mu_of
from fichaflow.storage import Database
from fichaflow.trainer import store
from fichaflow.trainer.puzzles import Judged, Puzzles
from fichaflow.trainer.rating import daily, guest_rating, near, rate_attempt, rating_json

PREFIX: Final = "/api/problemas"
MAX_BODY: Final = 4096
MAX_MOVES: Final = 40
MOVE_CHARS: Final = frozenset("0123456789-:leftrighpas")
STATUS: Final = {
    "trainer.unknown_puzzle": 404,
    "trainer.no_puzzle": 404,
    "trainer.unknown_theme": 404,
    "accounts.signed_out": 401,
    "accounts.csrf": 403,
    "server.too_big_http": 413,
    "server.too_many": 429,
}
REFRESH_SECONDS: Final = 5.0
PUZZLE_SIGMA: Final = 4.0
"""A puzzle's starting uncertainty: its mined rating is a guess, but a better one than a new
player's (openskill's 25/3)."""

AccountOf = Callable[[Request, bool], Awaitable[str | None]]
"""The signed-in account of a request (None for a guest), for a change only with its CSRF token:
the accounts' answer, handed in by ``app.py`` (the services do not import each other)."""


class TrainerRoute(ErrorRoute):
    statuses = STATUS


async def _body(request: Request) -> dict[str, Any]:
    data = await read_json(
        request,
        MAX_BODY,
        partial(FichaFlowError, "server.too_big_http", limit=MAX_BODY),
        partial(FichaFlowError, "trainer.body_json"),
    )
    if not isinstance(data, dict):
        raise FichaFlowError("trainer.body_json")
    return data


def _move(value: object) -> str:
    if not isinstance(value, str) or not value or len(value) > 12 or set(value) - MOVE_CHARS:
        raise FichaFlowError("trainer.move", move=str(value)[:12])
    return value


def _moves(value: object) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > MAX_MOVES:
        raise FichaFlowError("trainer.moves")
    return [_move(m) for m in value]


class Trainer:
    def __init__(self, database: Database, puzzles: Puzzles, account_of: AccountOf) -> None:
        self.db = database
        self.puzzles = puzzles
        self.account_of = account_of
        self.index()
        self.first = sorted(self.known)  # the day's problema is one of these: it stays the day's
        self.chooser = random.Random()
        self.cached: dict[str, int] | None = None
        self.cached_at = 0.0

    def index(self) -> None:
        """The set's ids, and each theme's puzzles."""
        self.known = frozenset(self.puzzles.ids())
        by_theme: dict[str, set[str]] = {}  # each theme the set has, and its puzzles
        for puzzle in sorted(self.known):
            for theme in self.puzzles.themes(puzzle):
                by_theme.setdefault(theme, set()).add(puzzle)
        self.by_theme = {theme: frozenset(found) for theme, found in by_theme.items()}

    async def refresh(self) -> None:
        """The problemas mined from the server's partidas, read again (added, or taken away
        with their players' consent)."""
        if await self.run(self.puzzles.refresh):
            self.index()

    async def run(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        return await self.db.run(partial(fn, self.db.engine, *args, **kwargs))

    def check(self, puzzle: str) -> str:
        if puzzle not in self.known:
            raise FichaFlowError("trainer.unknown_puzzle", puzzle=puzzle[:64])
        return puzzle

    def start(self, puzzle: str) -> Rating:
        return Rating(mu_of(self.puzzles.rating(puzzle)), PUZZLE_SIGMA, 0)

    async def shown(self) -> dict[str, int]:
        """Every puzzle's shown rating: read from the database at most every
        :data:`REFRESH_SECONDS` (other servers' attempts show within that), this server's own
        attempts at once."""
        now = time.monotonic()
        if self.cached is None or now - self.cached_at > REFRESH_SECONDS:
            await self.refresh()
            rated: dict[str, Rating] = await self.run(store.puzzle_ratings)
            self.cached = {
                p: rated[p].shown if p in rated else self.puzzles.rating(p) for p in self.known
            }
            self.cached_at = now
        return self.cached

    def public(self, puzzle: str, rating: int) -> dict[str, Any]:
        return {
            "id": puzzle,
            "themes": list(self.puzzles.themes(puzzle)),
            "rating": rating,
            "position": self.puzzles.position(puzzle),
        }


def _verdict(judged: Judged, over: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        "correct": judged.correct,
        "done": over,
        "replies": list(judged.replies) if judged.correct else [],
    }
    if over:  # the answer only once the attempt is over
        out["cost"] = judged.cost
        out["best"] = judged.best
        if judged.explanation:
            out["explanation"] = {
                lang: i18n.text(judged.explanation, lang, **judged.params)
                for lang in i18n.LANGUAGES
            }
    return out


def build_router(trainer: Trainer, limits: HttpLimits) -> APIRouter:
    router = APIRouter(prefix=PREFIX, route_class=TrainerRoute)

    @router.get("/themes")
    async def themes() -> Any:
        """The themes the set has, the most puzzles first, and how many each one has (a puzzle
        may have several)."""
        counted = sorted(trainer.by_theme.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        return {"themes": [{"theme": theme, "count": len(found)} for theme, found in counted]}

    @router.get("/next")
    async def next_puzzle(request: Request) -> Any:
        """A puzzle near ``rating`` (the player's shown rating; a signed-in player's own when
        not given), of ``theme`` when asked, not one of ``skip`` (comma-separated ids)."""
        account = await trainer.account_of(request, False)
        target = NEW.shown
        if account is not None:
            target = (await trainer.run(store.player, account)).rating.shown
        asked = request.query_params.get("rating")
        if asked is not None:
            if not asked.isdigit() or len(asked) > 4:
                raise FichaFlowError("trainer.rating_query")
            target = int(asked)
        shown = await trainer.shown()
        theme = request.query_params.get("theme")
        if theme:
            if theme not in trainer.by_theme:
                raise FichaFlowError(
                    "trainer.unknown_theme", theme=theme[:32], themes=", ".join(trainer.by_theme)
                )
            shown = {p: shown[p] for p in trainer.by_theme[theme]}
        skip = frozenset(request.query_params.get("skip", "").split(",")[:20])
        chosen = near(shown, target, trainer.chooser, skip)
        return trainer.public(chosen, shown[chosen])

    @router.get("/daily")
    async def daily_puzzle(request: Request) -> Any:
        """The day's puzzle (UTC), the same for everyone."""
        day = datetime.now(UTC).date()
        chosen = daily(day, trainer.first)
        shown = await trainer.shown()
        return {**trainer.public(chosen, shown[chosen]), "day": day.isoformat()}

    @router.get("/{puzzle}")
    async def one_puzzle(puzzle: str) -> Any:
        shown = await trainer.shown()
        trainer.check(puzzle)
        return trainer.public(puzzle, shown[puzzle])

    @router.post("/{puzzle}/attempt")
    async def attempt(puzzle: str, request: Request) -> Any:
        """One move: ``{"moves": [the player's earlier moves], "move": "6-4:left", "rating":
        {"mu", "sigma", "attempts"} (a guest's), "streak": n (a guest's)}``. A right move that
        is not the last answers the replies; the attempt's end answers the answer, the new
        ratings and the streak (a signed-in player's is the server's: what was sent is not
        read)."""
        await trainer.shown()  # the set as it is now (mined problemas come and go)
        trainer.check(puzzle)
        data = await _body(request)
        moves, move = _moves(data.get("moves")), _move(data.get("move"))
        guest = guest_rating(data.get("rating"))
        streak = data.get("streak", 0)
        if isinstance(streak, bool) or not isinstance(streak, int) or not 0 <= streak < 10**6:
            raise FichaFlowError("trainer.streak")
        account = await trainer.account_of(request, True)
        limits.check("attempt", request)
        judged = trainer.puzzles.judge(puzzle, moves, move)
        over = judged.done or not judged.correct
        out = _verdict(judged, over)
        if not over:
            return out
        done = await trainer.run(
            store.attempt,
            rate_attempt,
            account=account,
            guest=None if account else guest,
            puzzle=puzzle,
            start=trainer.start(puzzle),
            moves=[*moves, move],
            solved=judged.correct,
            cost=judged.cost,
            guest_streak=streak + 1 if judged.correct else 0,
        )
        out["rating"] = {
            "before": done.player_before.shown,
            **rating_json(done.player_after),
        }
        out["streak"] = {"current": done.streak, "best": done.streak_best}
        out["puzzle_rating"] = done.puzzle_after.shown
        if trainer.cached is not None:
            trainer.cached[puzzle] = done.puzzle_after.shown
        out["signed_in"] = account is not None
        return out

    @router.get("/me/history")
    async def history(request: Request) -> Any:
        """A signed-in player's rating, running and best streaks and latest attempts (a guest's
        are kept by their browser)."""
        account = await trainer.account_of(request, False)
        if account is None:
            raise FichaFlowError("accounts.signed_out")
        standing: store.Standing = await trainer.run(store.player, account)
        lines: Sequence[dict[str, Any]] = await trainer.run(store.history, account)
        return {
            "rating": rating_json(standing.rating),
            "streak": standing.streak,
            "streak_best": standing.streak_best,
            "attempts": list(lines),
        }

    return router


def install(
    app: FastAPI, database: Database, limits: HttpLimits, puzzles: Puzzles, account_of: AccountOf
) -> Trainer:
    """Add the trainer's endpoints to the server's app (before its static files)."""
    trainer = Trainer(database, puzzles, account_of)
    app.include_router(build_router(trainer, limits))
    app.state.trainer = trainer
    return trainer
