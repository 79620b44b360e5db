"""«Jugar ya» across a cluster (#16): two servers on one PostgreSQL database and one Redis (the
test's own, on a free port). Two players sent to different servers press «Jugar ya» in the same
mode and sit at the same mesa: the second server finds the first one's waiting mesa in the
merged lobby and joins it at its holder, and the seat's token works through the server the
player reached."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator

import pytest

from tests.cluster.kit import RedisServer, needs_redis
from tests.server.kit import POSTGRES_ENV, Client, ServerProcess, postgres_database
from tests.server.test_lobby import Watcher, quick

pytestmark = [needs_redis, pytest.mark.slow]  # two servers' starts: the full run


@pytest.fixture(scope="module")
def nodes() -> Iterator[list[ServerProcess]]:
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set: a cluster's nodes share a PostgreSQL database")
    with postgres_database(base, "fichaflow_quick") as database, RedisServer() as redis:
        servers = [
            ServerProcess(
                database,
                options=["--bot-workers", "0", "--redis", redis.url, "--node", f"node{n}"],
            )
            for n in (1, 2)
        ]
        try:
            servers[0].start(timeout=90)  # (it migrates the fresh database; then the other)
            servers[1].start(timeout=90)
            yield servers
        finally:
            for server in servers:
                server.stop()


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
