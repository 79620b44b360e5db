"""The trainer's endpoints on a real database (SQLite, and PostgreSQL in the full run) with a
small set of puzzles made here (the shipped set is fichaflow.problemas'): a right answer raises
the player and the line goes on, a wrong one shows what it loses and lowers them, the answer is
never sent before the attempt ends, a guest's rating comes from the browser, a signed-in
player's from the database, bad input is refused in Spanish and changes nothing."""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Awaitable, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request
from fastapi.testclient import TestClient

from fichaflow.core.errors import FichaFlowError
from fichaflow.http import HttpLimits
from fichaflow.storage import Database, migrate
from fichaflow.trainer import router as trainer
from fichaflow.trainer import store
from fichaflow.trainer.puzzles import Judged
from tests.server.kit import POSTGRES_ENV, POSTGRESQL, postgres_schema_url

LINES: dict[str, list[tuple[str, list[str]]]] = {
    "uno": [("6-4:left", ["4-2", "pass", "pass"])],
    "dos": [("5-5", ["5-1", "pass"]), ("1-0:right", [])],
}
THEMES = {"uno": ["domino"], "dos": ["capicua", "domino"]}
POSITIONS: dict[str, dict[str, Any]] = {
    "uno": {"line": [[6, 6], [6, 3]], "ends": [6, 3], "hand": ["6-4", "3-1", "2-2"]},
    "dos": {"line": [[5, 6], [6, 6]], "ends": [5, 6], "hand": ["5-5", "1-0", "4-4"]},
}


class Fixture:
    """Two puzzles: «uno» is one move (6-4 at the left), «dos» two (5-5, then 1-0 at the right)."""

    def ids(self) -> Sequence[str]:
        return list(LINES)

    def refresh(self, engine: Any) -> bool:
        return False  # nothing mined: the set is these two

    def themes(self, puzzle: str) -> Sequence[str]:
        return THEMES[puzzle]

    def rating(self, puzzle: str) -> int:
        return 1500

    def position(self, puzzle: str) -> dict[str, Any]:
        return POSITIONS[puzzle]

    def judge(self, puzzle: str, moves: Sequence[str], move: str) -> Judged:
        line = LINES[puzzle]
        if [m for m, _ in line[: len(moves)]] != list(moves) or len(moves) >= len(line):
            raise FichaFlowError("trainer.moves")
        right, replies = line[len(moves)]
        if move == right:
            return Judged(True, len(moves) + 1 == len(line), replies, 0, right)
        return Judged(False, True, (), 9, right, "error.trainer.move", {"move": move})


def fake_accounts(signed_in: dict[str, str]) -> Callable[[Request, bool], Awaitable[str | None]]:
    async def account_of(request: Request, change: bool) -> str | None:
        token = request.cookies.get("session")
        if token is None:
            return None
        if change and request.headers.get("X-CSRF-Token") != "ok":
            raise FichaFlowError("accounts.csrf")
        return signed_in.get(token)

    return account_of


@pytest.fixture(scope="module", params=["sqlite", POSTGRESQL])
def database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    if request.param == "sqlite":
        folder: Path = tmp_path_factory.mktemp("trainer-api")
        yield f"sqlite:///{folder / 'fichaflow.sqlite3'}"
        return
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set: no PostgreSQL to test against")
    with postgres_schema_url(base, f"trainer_api_{secrets.token_hex(4)}") as url:
        yield url


class TrainerClient(TestClient):
    """A test client of the trainer's app that also holds the database the app stores to."""

    database: Database


@pytest.fixture(scope="module")
def client(database_url: str) -> Iterator[TrainerClient]:
    database = Database(database_url)
    migrate(database.engine)
    app = FastAPI()
    trainer.install(
        app,
        database,
        HttpLimits(0),
        Fixture(),
        fake_accounts({"ana": "acct-ana", "bea": "acct-bea"}),
    )
    with TrainerClient(app) as made:
        made.database = database
        yield made
    database.close()


def _attempts(client: TrainerClient) -> int:
    return len(store.history(client.database.engine, "acct-ana", 1000))


def test_a_puzzle_is_sent_without_its_answer(client: TestClient) -> None:
    got = client.get("/api/problemas/next", params={"theme": "capicua"})
    assert got.status_code == 200
    assert got.json()["id"] == "dos" and got.json()["themes"] == ["capicua", "domino"]
    assert "5-5" not in str({k: v for k, v in got.json().items() if k != "position"})
    daily = client.get("/api/problemas/daily").json()
    assert daily["id"] in LINES and daily == client.get("/api/problemas/daily").json()


def test_a_guest_solves_a_two_move_puzzle_and_the_rating_moves(client: TestClient) -> None:
    first = client.post("/api/problemas/dos/attempt", json={"move": "5-5"}).json()
    assert first == {"correct": True, "done": False, "replies": ["5-1", "pass"]}
    last = client.post(
        "/api/problemas/dos/attempt",
        json={"moves": ["5-5"], "move": "1-0:right", "rating": {"mu": 25, "sigma": 8.0}},
    ).json()
    assert last["correct"] and last["done"] and last["best"] == "1-0:right"
    assert last["rating"]["before"] == 1500 < last["rating"]["shown"]
    assert not last["signed_in"]
    assert last["puzzle_rating"] < 1500


@contextlib.contextmanager
def _signed_in(client: TestClient, name: str) -> Iterator[None]:
    """The session cookie set on the client, which the module's tests share, and that cookie
    alone taken off after (Starlette deprecates cookies given with each request)."""
    client.cookies.set("session", name)
    try:
        yield
    finally:
        client.cookies.delete("session")


def test_a_wrong_move_shows_its_cost_and_why_in_spanish_and_english(client: TestClient) -> None:
    got = client.post("/api/problemas/uno/attempt", json={"move": "5-5"}).json()
    assert not got["correct"] and got["done"] and got["cost"] == 9 and got["best"] == "6-4:left"
    assert got["explanation"]["es"].startswith("«5-5» no es una jugada")
    assert got["explanation"]["en"].startswith("«5-5» is not a move")
    assert got["rating"]["shown"] < 1500


def test_a_signed_in_players_rating_is_kept_and_its_history_shown(client: TestClient) -> None:
    with _signed_in(client, "ana"):
        refused = client.post("/api/problemas/uno/attempt", json={"move": "6-4:left"})
        assert refused.status_code == 403  # no CSRF token: nothing judged, nothing kept
        assert _attempts(client) == 0
        headers = {"X-CSRF-Token": "ok"}
        won = client.post(
            "/api/problemas/uno/attempt",
            json={"move": "6-4:left", "rating": {"mu": 40, "sigma": 1}},  # a guest's word: ignored
            headers=headers,
        ).json()
        assert won["signed_in"] and won["rating"]["before"] == 1500 < won["rating"]["shown"] < 1700
        again = client.post(
            "/api/problemas/uno/attempt", json={"move": "6-4:left"}, headers=headers
        ).json()
        assert again["rating"]["before"] == won["rating"]["shown"]
        mine = client.get("/api/problemas/me/history").json()
    assert mine["rating"]["shown"] == again["rating"]["shown"]
    assert (mine["streak"], mine["streak_best"]) == (2, 2) == tuple(again["streak"].values())
    assert [a["moves"] for a in mine["attempts"]] == [["6-4:left"], ["6-4:left"]]
    assert client.get("/api/problemas/me/history").status_code == 401


@pytest.mark.parametrize(
    ("path", "body", "code"),
    [
        ("/api/problemas/nada/attempt", {"move": "6-4"}, "trainer.unknown_puzzle"),
        ("/api/problemas/uno/attempt", {"move": "<script>"}, "trainer.move"),
        ("/api/problemas/uno/attempt", {"move": 64}, "trainer.move"),
        ("/api/problemas/uno/attempt", {"moves": "6-4", "move": "6-4"}, "trainer.moves"),
        ("/api/problemas/uno/attempt", {"move": "6-4", "rating": "2900"}, "trainer.guest_rating"),
        ("/api/problemas/uno/attempt", {"move": "6-4", "streak": -1}, "trainer.streak"),
        ("/api/problemas/uno/attempt", [1], "trainer.body_json"),
    ],
)
def test_bad_input_is_refused_in_spanish_and_changes_nothing(
    client: TrainerClient, path: str, body: Any, code: str
) -> None:
    database = client.database
    before = store.puzzle_ratings(database.engine)
    got = client.post(path, json=body)
    assert got.status_code in (400, 404)
    error = got.json()["error"]
    assert error["code"] == code and error["message"] and error["message_en"]
    assert error["message"] != error["message_en"]
    assert store.puzzle_ratings(database.engine) == before
    assert (
        client.get("/api/problemas/next", params={"rating": "abc"}).json()["error"]["code"]
        == "trainer.rating_query"
    )


def test_the_themes_the_set_has_are_listed_and_an_unknown_one_is_refused(
    client: TestClient,
) -> None:
    got = client.get("/api/problemas/themes").json()
    assert got == {"themes": [{"theme": "domino", "count": 2}, {"theme": "capicua", "count": 1}]}
    for _ in range(5):
        assert client.get("/api/problemas/next", params={"theme": "capicua"}).json()["id"] == "dos"
    refused = client.get("/api/problemas/next", params={"theme": "zapato"})
    assert refused.status_code == 404
    error = refused.json()["error"]
    assert error["code"] == "trainer.unknown_theme"
    assert error["message"] == "No hay problemas del tema «zapato»; los temas son: capicua, domino"


def test_a_signed_in_players_streak_is_kept_by_the_server(client: TestClient) -> None:
    def attempt(move: str, streak: int = 0) -> dict[str, Any]:
        body = {"move": move, "streak": streak}
        headers = {"X-CSRF-Token": "ok"}
        got = client.post("/api/problemas/uno/attempt", json=body, headers=headers)
        assert got.status_code == 200, got.text
        answer: dict[str, Any] = got.json()
        return answer

    with _signed_in(client, "bea"):
        assert attempt("6-4:left", 30)["streak"] == {"current": 1, "best": 1}  # 30: not read
        assert attempt("6-4:left")["streak"] == {"current": 2, "best": 2}
        assert attempt("5-5", 7)["streak"] == {"current": 0, "best": 2}
        mine = client.get("/api/problemas/me/history").json()
    assert (mine["streak"], mine["streak_best"]) == (0, 2)
    # a guest's streak is what their browser counts, one more for a solved problema
    guest = client.post("/api/problemas/uno/attempt", json={"move": "6-4:left", "streak": 4})
    assert guest.json()["streak"] == {"current": 5, "best": None}
