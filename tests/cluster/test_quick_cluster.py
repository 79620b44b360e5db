"""«Jugar ya» across a cluster (#16): two servers on one PostgreSQL database and one Redis (the
test's own, on a free port). Two players sent to different servers press «Jugar ya» in the same
mode and sit at the same mesa: the second server finds the first one's waiting mesa in the
merged lobby and joins it at its holder, and the seat's token works through the server the
player reached. A signed-in player seated so (or by a link's join passed on) sits as their
account: the holder signs them in itself from their session, and a forged one seats a guest."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.accounts.kit import Player, fresh_name
from tests.cluster.kit import needs_redis, two_nodes
from tests.server.kit import (
    Client,
    ServerProcess,
    create_mesa,
)
from tests.server.test_lobby import Watcher, quick

pytestmark = [needs_redis, pytest.mark.slow]  # two servers' starts: the full run


@pytest.fixture(scope="module")
def nodes() -> Iterator[list[ServerProcess]]:
    with two_nodes("fichaflow_quick") as servers:
        yield servers


def test_two_players_on_two_servers_meet_at_one_mesa(nodes: list[ServerProcess]) -> None:
    one, other = nodes

    async def scenario() -> None:
        watcher = Watcher(other)
        await watcher.open()
        first = await quick(one, mode="mano_a_mano", name="Rosa", wait_seconds=60)
        assert first.status_code == 201, first.text
        a = first.json()
        host = Client(one, a["code"], a["token"])
        await host.connect()
        await watcher.until(lambda m: a["code"] in m and m[a["code"]]["free"] == 1)

        second = await quick(other, mode="mano_a_mano", name="Pedro", wait_seconds=60)
        assert second.status_code == 201, second.text
        b = second.json()
        assert b["code"] == a["code"] and {a["seat"], b["seat"]} == {0, 1}
        assert not b["queued"]
        # Pedro's token works on the server he reached (passed on to the holder): his chair,
        # and the partida started at once with the two people, no bot.
        guest = Client(other, b["code"], b["token"])
        welcome = await guest.connect()
        assert guest.seat == b["seat"]
        assert welcome["mesa"]["status"] == "playing"
        assert [s["kind"] for s in welcome["mesa"]["seats"]] == ["human", "human"]
        await watcher.until(lambda m: a["code"] not in m or m[a["code"]]["status"] == "playing")

        # A third player of the mode on that server gets a mesa of his own there.
        third = await quick(other, mode="mano_a_mano", name="Juan", wait_seconds=60)
        assert third.status_code == 201, third.text
        assert third.json()["code"] != a["code"] and third.json()["seat"] == 0
        for client in (host, guest):
            await client.close()
        await watcher.close()

    asyncio.run(scenario())


def test_a_signed_in_player_seated_through_another_server_sits_as_their_account(
    nodes: list[ServerProcess],
) -> None:
    one, other = nodes
    pedro, juan = Player(other), Player(other)  # signed in on the server that holds no mesa
    pedro_name, juan_name = fresh_name("Pedro"), fresh_name("Juan")
    pedro.sign_up(pedro_name)
    juan.sign_up(juan_name)

    def signed_in(player: Player, path: str, body: dict[str, object]) -> dict[str, Any]:
        answer = player.http.post(path, json=body, headers={"X-CSRF-Token": player.csrf or ""})
        assert answer.status_code == 201, answer.text
        data: dict[str, Any] = answer.json()
        return data

    async def scenario() -> None:
        watcher = Watcher(other)
        await watcher.open()
        first = await quick(one, mode="tres", name="Rosa", wait_seconds=60)
        a = first.json()
        host = Client(one, a["code"], a["token"])
        await host.connect()
        await watcher.until(lambda m: a["code"] in m and m[a["code"]]["free"] == 2)

        # «Jugar ya» on the other server: the chair at Rosa's mesa, taken at its holder, is
        # Pedro's account's (its name, not the one the page sent), and kept on the account.
        b = signed_in(pedro, "/api/quick", {"mode": "tres", "name": "Invitado", "wait_seconds": 60})
        assert b["code"] == a["code"]
        state = await host.expect("mesa", where=lambda m: m["mesa"]["seats"][b["seat"]]["name"])
        seat = state["mesa"]["seats"][b["seat"]]
        assert (seat["name"], seat["signed_in"]) == (pedro_name, True)
        kept = pedro.took(pedro.get("/mesas"))["mesas"]
        assert [(k["mesa"], k["person"]) for k in kept] == [(a["code"], b["person"])]

        # A session cookie and token made up by a client sign nobody in: a guest's chair.
        await watcher.until(lambda m: m[a["code"]]["free"] == 1)
        forged = httpx.post(
            f"{other.url}/api/quick",
            json={"mode": "tres", "name": "Mallory", "wait_seconds": 60},
            headers={"X-CSRF-Token": "x" * 43, "Cookie": "fichaflow_session=" + "y" * 43},
            timeout=10,
        )
        assert forged.status_code == 201 and forged.json()["code"] == a["code"], forged.text
        state = await host.expect(
            "mesa", where=lambda m: m["mesa"]["seats"][forged.json()["seat"]]["name"]
        )
        mallory = state["mesa"]["seats"][forged.json()["seat"]]
        assert (mallory["name"], mallory["signed_in"]) == ("Mallory", False)

        # A link's join passed on to the holder seats the signed-in player as their account too.
        mesa = await create_mesa(one, rules="mano_a_mano", name="Eva", seat=0)
        joined = signed_in(juan, f"/api/mesas/{mesa['code']}/join", {"name": "Otro", "seat": 1})
        async with other.http() as http:
            shown = (await http.get(f"/api/mesas/{mesa['code']}")).json()["mesa"]["seats"]
        assert (shown[joined["seat"]]["name"], shown[joined["seat"]]["signed_in"]) == (
            juan_name,
            True,
        )
        await host.close()
        await watcher.close()

    try:
        asyncio.run(scenario())
    finally:
        pedro.close()
        juan.close()
