"""The lobby and «Jugar ya» with accounts (#16): a signed-in player's rating at the mode is the
one the lobby lists beside their name, and «Jugar ya» matches them by it: of two waiting mesas
of the mode, they are seated at the one whose people are nearest their rating."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

import httpx
from sqlalchemy import create_engine, insert

from fichaflow.accounts.tables import RatingRow
from fichaflow.ratings.model import mu_of
from tests.accounts.kit import Player, fresh_name
from tests.server.kit import ServerProcess


def rate(server: ServerProcess, account: str, mode: str, points: int) -> None:
    """The account's stored rating at ``mode`` set to ``points`` (as rated partidas would)."""
    engine = create_engine(server.database_url)
    row = {
        "account": account,
        "mode": mode,
        "mu": mu_of(points),
        "sigma": 2.0,
        "partidas": 30,
        "updated_at": datetime.now(UTC),
    }
    with engine.begin() as connection:
        connection.execute(insert(RatingRow.__table__), row)  # type: ignore[arg-type]
    engine.dispose()


def quick(player: Player, mode: str, wait: int = 60) -> dict[str, Any]:
    assert player.csrf is not None
    answer = player.http.post(
        "/api/quick",
        json={"mode": mode, "name": "da igual", "wait_seconds": wait},
        headers={"X-CSRF-Token": player.csrf},
    )
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def listed(server: ServerProcess, code: str, people: int) -> dict[str, Any]:
    """The mesa's lobby entry once it lists ``people`` people (the lobby tells changes within
    50 ms: it is asked again for a few seconds at most)."""
    deadline = time.monotonic() + 5
    while True:
        for mesa in httpx.get(f"{server.url}/api/lobby").json()["mesas"]:
            if mesa["code"] == code and sum(s["kind"] == "human" for s in mesa["seats"]) == people:
                return dict(mesa)
        assert time.monotonic() < deadline, f"{code} is not listed with {people} people"
        time.sleep(0.05)


def test_jugar_ya_matches_by_the_accounts_rating_and_the_lobby_shows_it(
    server: ServerProcess,
) -> None:
    players = [Player(server) for _ in range(3)]
    try:
        strong, weak, newcomer = players
        names = [fresh_name(n) for n in ("Fuerte", "Flojo", "Nuevo")]
        ids = [p.sign_up(n)["account"]["id"] for p, n in zip(players, names, strict=True)]
        rate(server, ids[0], "tres", 2100)
        rate(server, ids[1], "tres", 1800)
        rate(server, ids[2], "tres", 2000)
        high = quick(strong, "tres")
        low = quick(weak, "tres")
        # The first «Jugar ya» of a mode opens a mesa; the second joins it (one mesa waiting).
        assert low["code"] == high["code"]
        entry = listed(server, high["code"], 2)
        assert entry["seats"][0] == {"kind": "human", "name": names[0], "rating": 2100}
        assert entry["seats"][1] == {"kind": "human", "name": names[1], "rating": 1800}
        # A 2000 player gets the last chair: the partida starts with three people.
        third = quick(newcomer, "tres")
        assert third["code"] == high["code"]
        mesa = httpx.get(f"{server.url}/api/mesas/{high['code']}").json()["mesa"]
        assert mesa["status"] == "playing"
    finally:
        for p in players:
            p.close()


def test_jugar_ya_seats_a_player_at_the_mesa_nearest_their_rating(server: ServerProcess) -> None:
    players = [Player(server) for _ in range(3)]
    try:
        ids = [p.sign_up(fresh_name("Jugador"))["account"]["id"] for p in players]
        for account, points in zip(ids, (2200, 1000, 1900), strict=True):
            rate(server, account, "parejas", points)
        # An older waiting mesa of the mode, made by the 1000 player through the create form.
        made = players[1].http.post(
            "/api/mesas",
            json={
                "rules": "dominicana",
                "seat": 0,
                "options": {"public": True, "quick_seconds": 60},
            },
            headers={"X-CSRF-Token": players[1].csrf or ""},
        )
        assert made.status_code == 201, made.text
        first = quick(players[0], "parejas")  # 1200 points away: a mesa of their own, later
        assert first["code"] != made.json()["code"]
        joined = quick(players[2], "parejas")
        assert joined["code"] == first["code"]  # 1900 is nearer 2200 than 1000, older or not
    finally:
        for p in players:
            p.close()
