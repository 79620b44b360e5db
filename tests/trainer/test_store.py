"""The trainer's tables on SQLite and on PostgreSQL (a schema of its own per run, when
``FICHAFLOW_TEST_POSTGRES_URL`` is set): an attempt rates the player and the puzzle in one
transaction, a guest's rating is never stored, the best streak is kept, the history is the
account's own, newest first."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select

from fichaflow.ratings.model import NEW_PLAYER, Rating
from fichaflow.storage import make_engine, migrate
from fichaflow.trainer import store
from fichaflow.trainer.rating import rate_attempt
from tests.server.kit import POSTGRES_ENV, POSTGRESQL, postgres_schema_url


@pytest.fixture(scope="module", params=["sqlite", POSTGRESQL])
def engine(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Engine]:
    if request.param == "sqlite":
        folder: Path = tmp_path_factory.mktemp("trainer-store")
        made = make_engine(f"sqlite:///{folder / 'fichaflow.sqlite3'}")
        migrate(made)
        yield made
        made.dispose()
        return
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set: no PostgreSQL to test against")
    with postgres_schema_url(base, f"trainer_{secrets.token_hex(4)}") as url:
        made = make_engine(url)
        migrate(made)
        yield made
        made.dispose()


def _attempts(engine: Engine) -> int:
    with engine.connect() as connection:
        return int(
            connection.execute(
                select(func.count()).select_from(store.TrainerAttemptRow)
            ).scalar_one()
        )


def test_a_right_answer_raises_the_player_and_lowers_the_puzzle(engine: Engine) -> None:
    account = secrets.token_hex(8)
    done = store.attempt(
        engine,
        rate_attempt,
        account=account,
        guest=None,
        puzzle="p-right",
        start=NEW_PLAYER,
        moves=["6-4:left"],
        solved=True,
        cost=0,
    )
    assert done.player_before == NEW_PLAYER
    assert done.player_after.shown > 1500 > done.puzzle_after.shown
    assert store.player(engine, account) == store.Standing(done.player_after, 1, 1)
    assert store.puzzle_ratings(engine)["p-right"] == done.puzzle_after
    # the next attempt starts from what was stored, not from a new player's rating
    again = store.attempt(
        engine,
        rate_attempt,
        account=account,
        guest=None,
        puzzle="p-right",
        start=NEW_PLAYER,
        moves=["5-5"],
        solved=False,
        cost=12,
    )
    assert again.player_before == done.player_after
    assert again.player_after.shown < done.player_after.shown
    # a miss ends the streak; the best one stays
    assert store.player(engine, account) == store.Standing(again.player_after, 0, 1)
    lines = store.history(engine, account)
    assert [(h["puzzle"], h["correct"], h["cost"], h["moves"]) for h in lines] == [
        ("p-right", False, 12, ["5-5"]),
        ("p-right", True, 0, ["6-4:left"]),
    ]
    assert lines[0]["before"] == done.player_after.shown


def test_a_guest_is_rated_from_what_it_sent_and_nothing_of_it_is_kept(engine: Engine) -> None:
    sent = Rating(30.0, 4.0, 12)
    before = _attempts(engine)
    done = store.attempt(
        engine,
        rate_attempt,
        account=None,
        guest=sent,
        puzzle="p-guest",
        start=NEW_PLAYER,
        moves=["3-2"],
        solved=False,
        cost=7,
    )
    assert done.player_before == sent and done.player_after.mu < sent.mu
    assert done.player_after.partidas == 13
    assert _attempts(engine) == before + 1
    with engine.connect() as connection:
        assert (
            connection.execute(
                select(func.count())
                .select_from(store.TrainerPlayerRow)
                .where(store.TrainerPlayerRow.account.is_(None))
            ).scalar_one()
            == 0
        )
    assert store.puzzle_ratings(engine)["p-guest"].shown > 1500  # a missed puzzle climbs


def test_a_failed_rating_writes_nothing(engine: Engine) -> None:
    def broken(_p: Rating, _q: Rating, _s: bool) -> tuple[Rating, Rating]:
        raise RuntimeError("broken")

    before = _attempts(engine)
    with pytest.raises(RuntimeError):
        store.attempt(
            engine,
            broken,
            account="nobody",
            guest=None,
            puzzle="p-none",
            start=NEW_PLAYER,
            moves=["1-1"],
            solved=True,
            cost=0,
        )
    assert _attempts(engine) == before
    assert "p-none" not in store.puzzle_ratings(engine)
    assert store.player(engine, "nobody") == store.Standing(NEW_PLAYER, 0, 0)


def test_a_signed_in_players_streak_is_the_servers_whatever_was_sent(engine: Engine) -> None:
    account = secrets.token_hex(8)

    def one(solved: bool, sent: int = 0) -> store.Attempt:
        return store.attempt(
            engine,
            rate_attempt,
            account=account,
            guest=None,
            puzzle="p-streak",
            start=NEW_PLAYER,
            moves=["6-4:left"],
            solved=solved,
            cost=0 if solved else 5,
            guest_streak=sent,  # what a browser would count: not read for an account
        )

    assert [(a.streak, a.streak_best) for a in (one(True, 40), one(True), one(True))] == [
        (1, 1),
        (2, 2),
        (3, 3),
    ]
    assert store.player(engine, account).streak == 3
    missed = one(False, 9)
    assert (missed.streak, missed.streak_best) == (0, 3)
    assert (one(True).streak, store.player(engine, account).streak_best) == (1, 3)
    guest = store.attempt(
        engine,
        rate_attempt,
        account=None,
        guest=NEW_PLAYER,
        puzzle="p-streak",
        start=NEW_PLAYER,
        moves=["6-4:left"],
        solved=True,
        cost=0,
        guest_streak=6,
    )
    assert (guest.streak, guest.streak_best) == (6, None)  # a guest's best is their browser's
