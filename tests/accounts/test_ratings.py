"""Rated partidas, the leaderboards and a player's page, through a real server on SQLite and
PostgreSQL: a signed-in player plays a rated partida against a bot, the rating moves (the bot's
does not), the partida is on the player's page with its rivals, result and statistics, and the
account's deletion takes its ratings and partidas with it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from fichaflow.core.rules import Mode
from fichaflow.ratings.bots import bot_ratings
from tests.accounts.kit import Player, error_code, fresh_name
from tests.server.kit import Client, ServerProcess, all_told_partida_over, is_spanish_error

QUICK = {"preset": "mano_a_mano", "target": 10}


@pytest.fixture
def ana(server: ServerProcess) -> Iterator[Player]:
    player = Player(server)
    yield player
    player.close()


def signed_in_mesa(player: Player, rated: bool = True, **more: Any) -> dict[str, Any]:
    """A mesa the signed-in ``player`` makes (their session's CSRF token sent: they sit down as
    their account), mano a mano against tirafichas."""
    body = {
        "name": "otro nombre",
        "seat": 0,
        "rules": QUICK,
        "seats": [None, "tirafichas"],
        "options": {"bot_pause_ms": 0, "rated": rated},
        **more,
    }
    assert player.csrf is not None
    made = player.http.post("/api/mesas", json=body, headers={"X-CSRF-Token": player.csrf})
    assert made.status_code == 201, made.text
    data: dict[str, Any] = made.json()
    return data


async def play_out(server: ServerProcess, mesa: dict[str, Any]) -> dict[str, Any]:
    """Start the partida and play it out; the partida's end as told to the player."""
    player = Client(server, mesa["code"], mesa["token"], autoplay=True)
    await player.connect()
    await player.send({"type": "start"})
    await all_told_partida_over([player], 120)
    await player.close()
    return next(m for m in player.log if m["type"] == "partida_end")


def test_a_rated_partida_moves_the_players_rating_and_not_the_bots(
    server: ServerProcess, ana: Player
) -> None:
    name = fresh_name("Ana")
    me = ana.sign_up(name)["account"]
    mesa = signed_in_mesa(ana)
    seat = mesa["mesa"]["seats"][0]
    assert seat["name"] == name and seat["signed_in"] is True  # the account's name, not the body's
    assert mesa["mesa"]["options"]["rated"] is True
    bot_before = bot_ratings(Mode.MANO_A_MANO)["tirafichas"]

    end = asyncio.run(play_out(server, mesa))
    changes = {c["seat"]: c for c in end["ratings"]}
    mine, bot = changes[0], changes[1]
    assert mine["name"] == name and mine["before"] == 1500 and mine["provisional"] is True
    assert mine["after"] != 1500 and mine["change"] == mine["after"] - 1500
    won = end["partida"]["winner"] == 0
    assert (mine["change"] > 0) == won
    assert bot == {
        "seat": 1,
        "name": "tirafichas",
        "bot": True,
        "before": bot_before,
        "after": bot_before,
        "change": 0,
        "provisional": False,
    }

    page = httpx.get(f"{server.url}/api/players/{me['id']}").json()
    assert page["name"] == name
    assert page["ratings"]["mano_a_mano"] == {
        "rating": mine["after"],
        "partidas": 1,
        "provisional": True,
    }
    assert page["ratings"]["parejas"]["partidas"] == 0
    assert [h["rating"] for h in page["history"]["mano_a_mano"]] == [mine["after"]]
    (played,) = page["partidas"]
    assert played["mesa"] == mesa["code"] and played["partida"] == 1
    assert played["won"] is won and played["rated"] is True
    assert (played["before"], played["after"]) == (1500, mine["after"])
    assert played["rules"] == {"preset": "mano_a_mano", "mode": "mano_a_mano", "target": 10}
    assert played["partners"] == [] and played["rivals"] == ["tirafichas"]
    stats = page["stats"]
    assert stats["partidas"] == 1 and stats["partidas_won"] == int(won)
    assert stats["hands"] == played["hands"] >= 1
    assert stats["hands_won"] == stats["dominadas_won"] + stats["tranques_won"]
    assert stats["tantos"] == played["scores"][0]

    # the leaderboard: the bots on the same scale, the new player below, provisional
    board = httpx.get(f"{server.url}/api/players/leaderboard/mano_a_mano").json()
    entries = board["entries"]
    names = [e["name"] for e in entries]
    assert name in names and "tirafichas" in names
    entry = entries[names.index(name)]
    assert entry["provisional"] is True and entry["rating"] == mine["after"]
    assert all(not e["provisional"] for e in entries[: names.index(name)])

    # the lobby shows her new rating at a public mesa she makes
    public = signed_in_mesa(ana, options={"bot_pause_ms": 0, "public": True})
    assert lobby_rating(server, public["code"]) == mine["after"]

    # the export has it; deleting the account takes ratings and partidas with it
    exported = ana.took(ana.get("/export"))
    assert exported["ratings"][0]["rating"] == mine["after"]
    assert exported["partidas"][0]["mesa"] == mesa["code"]
    ana.took(ana.delete("/me"))
    gone = httpx.get(f"{server.url}/api/players/{me['id']}")
    assert gone.status_code == 404 and error_code(gone) == "players.unknown"
    board = httpx.get(f"{server.url}/api/players/leaderboard/mano_a_mano").json()
    assert name not in str(board)
    record = httpx.get(f"{server.url}/api/mesas/{mesa['code']}/partidas/1/record").text
    assert name not in record and "jugador borrado" in record


def lobby_rating(server: ServerProcess, code: str) -> int | None:
    """The rating the public lobby shows for the person in the mesa's first chair (the lobby
    lists a change within a few hundredths of a second)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        listed = httpx.get(f"{server.url}/api/lobby").json()["mesas"]
        entry = next((m for m in listed if m["code"] == code), None)
        if entry is not None:
            rating: int | None = entry["seats"][0]["rating"]
            return rating
        time.sleep(0.05)
    raise AssertionError(f"mesa {code} never listed")


def test_a_rated_mesa_waits_for_every_player_to_sign_in(server: ServerProcess, ana: Player) -> None:
    ana.sign_up(fresh_name("Ana"))
    mesa = signed_in_mesa(ana, seats=[None, None])
    # a guest sits down (no session): the mesa says so, and refuses to start rated
    guest = httpx.post(
        f"{server.url}/api/mesas/{mesa['code']}/join", json={"name": "Beto", "seat": 1}
    )
    assert guest.status_code == 201
    shown = httpx.get(f"{server.url}/api/mesas/{mesa['code']}").json()["mesa"]
    assert [s["signed_in"] for s in shown["seats"]] == [True, False]

    async def start() -> dict[str, Any]:
        host = Client(server, mesa["code"], mesa["token"])
        await host.connect()
        answer = await host.ask({"type": "start"})
        await host.close()
        return answer

    refused = asyncio.run(start())
    assert is_spanish_error(refused, "server.rated_guests")
    assert "Beto" in refused["message"] and "Beto" in refused["message_en"]
    assert httpx.get(f"{server.url}/api/mesas/{mesa['code']}").json()["mesa"]["status"] == (
        "waiting"
    )


def test_without_the_csrf_token_the_cookie_does_not_sit_anybody_down(
    server: ServerProcess, ana: Player
) -> None:
    ana.sign_up(fresh_name("Ana"))
    body = {"name": "Invitada", "seat": 0, "options": {"rated": True}}
    made = ana.http.post("/api/mesas", json=body)  # the cookie alone, as another site would
    assert made.status_code == 201
    seat = made.json()["mesa"]["seats"][0]
    assert seat["name"] == "Invitada" and seat["signed_in"] is False


def test_players_bad_input(server: ServerProcess) -> None:
    for path, code in (
        ("/api/players/leaderboard/domino", "players.mode"),
        ("/api/players/nadie", "players.unknown"),
        ("/api/players/%00%01", "players.unknown"),
    ):
        answer = httpx.get(f"{server.url}{path}")
        assert answer.status_code == 404 and error_code(answer) == code, answer.text
        assert answer.json()["error"]["message"] and answer.json()["error"]["message_en"]
    for mode in ("parejas", "mano_a_mano", "tres"):
        board = httpx.get(f"{server.url}/api/players/leaderboard/{mode}").json()
        assert board["mode"] == mode and any(e["kind"] == "bot" for e in board["entries"])


@pytest.mark.slow
def test_a_guest_who_signs_up_at_a_rated_mesa_may_start_it(
    server: ServerProcess, ana: Player
) -> None:
    """Beto sat down as a guest; he makes his account without getting up and keeps his chair
    (the accounts' keep-mesa): from then on he plays signed in, and the rated partida starts."""
    ana.sign_up(fresh_name("Ana"))
    mesa = signed_in_mesa(ana, seats=[None, None])
    guest = httpx.post(
        f"{server.url}/api/mesas/{mesa['code']}/join", json={"name": "Beto", "seat": 1}
    ).json()
    beto = Player(server)
    try:
        beto.sign_up(fresh_name("Beto"))
        beto.took(beto.post("/mesas", {"mesa": mesa["code"], "token": guest["token"]}))
    finally:
        beto.close()
    shown = httpx.get(f"{server.url}/api/mesas/{mesa['code']}").json()["mesa"]
    assert [s["signed_in"] for s in shown["seats"]] == [True, True]

    async def start() -> list[dict[str, Any]]:
        host = Client(server, mesa["code"], mesa["token"])
        await host.connect()
        await host.send({"type": "start"})
        await host.expect("hand_start")
        await host.close()
        return host.log

    told = asyncio.run(start())
    assert not [m for m in told if m["type"] == "error"]
    assert httpx.get(f"{server.url}/api/mesas/{mesa['code']}").json()["mesa"]["status"] in (
        "playing",
        "hand_over",
    )
