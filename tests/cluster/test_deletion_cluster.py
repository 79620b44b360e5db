"""A deleted account across a cluster (#16): two servers on one PostgreSQL database and one Redis
(the test's own, on a free port). The mesas and sheets that name the player are held in the
memory of the second server; the account is deleted through the first. The second server's
clients and readers then see «jugador borrado», within seconds and without any restart: a
player's WebSocket at a mesa linked to the account is sent to connect again and is welcomed
with the new name, a torneo table's game mesa (seated by name) reads with it, and a mirón
waiting on a torneo table's anotador sheet is answered with it."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

import httpx
import pytest
import redis

from fichaflow.anotador.router import WATCH_WAIT
from fichaflow.server.people import DELETED_NAME
from tests.accounts.kit import Player, fresh_name
from tests.accounts.test_mesas import guest_mesa
from tests.cluster.kit import RedisServer, needs_redis, two_nodes, wait_for
from tests.server.kit import Client, ServerProcess
from tests.torneos.test_api import create, post

pytestmark = [needs_redis, pytest.mark.slow]  # two servers' starts: the full run

SOON: Final = 10.0
"""How long the other server may take to show the new name (a Redis message: well under 1 s)."""


@pytest.fixture(scope="module")
def nodes() -> Iterator[list[ServerProcess]]:
    with two_nodes("fichaflow_deletion") as servers:
        yield servers


def delete_through(player: Player, server: ServerProcess) -> None:
    """The player's browser, signed in through another server, deletes the account through
    ``server`` (the session is in the database: any server knows it)."""
    player.http.base_url = httpx.URL(server.url)
    player.took(player.delete("/me"))
    player.close()


def mesa_names(server: ServerProcess, code: str) -> list[str | None]:
    answer = httpx.get(f"{server.url}/api/mesas/{code}", timeout=30)
    assert answer.status_code == 200, answer.text
    return [seat["name"] for seat in answer.json()["mesa"]["seats"]]


def test_a_linked_mesa_another_server_holds_names_the_player_no_more(
    nodes: list[ServerProcess],
) -> None:
    first, holder = nodes
    sat_as = fresh_name("Nora")
    mesa = guest_mesa(holder, sat_as)  # made through the second server: it holds the mesa
    code = mesa["code"]
    player = Player(holder)
    player.sign_up(fresh_name("Nora"))
    player.took(player.post("/mesas", {"mesa": code, "token": mesa["token"]}))
    assert sat_as in mesa_names(holder, code)

    async def scenario() -> None:
        # The other guest is at the mesa, connected to the holder.
        beto = Client(holder, code, mesa["other"]["token"], reconnect=True)
        welcome = await beto.connect()
        assert sat_as in [seat["name"] for seat in welcome["mesa"]["seats"]]
        await asyncio.to_thread(delete_through, player, first)
        # The holder sends him to connect again; he is welcomed with the new name.
        again = await beto.expect("welcome", timeout=SOON)
        names = [seat["name"] for seat in again["mesa"]["seats"]]
        assert DELETED_NAME in names and sat_as not in names and "Beto" in names
        await beto.close()

    asyncio.run(scenario())
    names = mesa_names(holder, code)
    assert DELETED_NAME in names and sat_as not in names


def registered(server: ServerProcess, player: Player, spec: dict[str, Any]) -> tuple[str, int]:
    """A torneo of pairs made through ``server`` (three pairs in), to which the signed-in
    player registers with the partner «Óscar» by the public link, and its first round: the
    torneo's code and the number of the player's table."""
    made = create(server, {**spec, "entrants": ["A y B", "C y D", "E y F"]})
    path = f"{server.url}/api/torneos/public/{made['public']}/entrants"
    headers = {"X-CSRF-Token": player.csrf or ""}
    joined = player.http.post(path, json={"partner": "Óscar"}, headers=headers)
    assert joined.status_code == 201, joined.text
    paired = post(server, f"{made['code']}/rounds")
    assert paired.status_code == 201, paired.text
    [table] = [t for t in paired.json()["round"]["tables"] if 4 in (*t["a"], *t["b"])]
    return made["code"], int(table["table"])


def test_a_torneos_mesa_and_sheet_another_server_holds_name_the_player_no_more(
    nodes: list[ServerProcess],
) -> None:
    first, holder = nodes
    player = Player(holder)
    name = fresh_name("Ana")
    player.sign_up(name)
    # One torneo's table is played online: its game mesa, seated by name, is the holder's.
    online, table = registered(
        holder, player, {"name": "En línea", "rules": "venezuela", "rounds": 2}
    )
    made = post(holder, f"{online}/rounds/1/tables/{table}/mesa")
    assert made.status_code == 201, made.text
    mesa = made.json()["mesas"][0]["mesa"]
    assert name in mesa_names(holder, mesa)
    # Another's table is played on paper: its anotador sheet is read through the holder.
    paper, table = registered(
        holder, player, {"name": "En papel", "rules": "venezuela", "rounds": 2}
    )
    bound = post(holder, f"{paper}/rounds/1/tables/{table}/sheet")
    assert bound.status_code == 201, bound.text
    [sheet] = [s for s in bound.json()["sheets"] if s["table"] == table]
    writer = f"{holder.url}/api/anotador/mesas/{sheet['sheet']}"
    before = httpx.get(writer, timeout=30).json()
    assert name in before["state"]["partida"]["players"]

    # A mirón waits on the holder for the sheet's next change while the account is deleted
    # through the other server.
    watch = f"{holder.url}/api/anotador/watch/{sheet['watch']}"
    with ThreadPoolExecutor(1) as pool:
        waiting = pool.submit(httpx.get, watch, params={"after": before["version"]}, timeout=60)
        time.sleep(2)  # the mirón's request is in and waiting
        deleting_at = time.monotonic()
        delete_through(player, first)
        deleted_at = time.monotonic()
        heard = waiting.result().json()
        took = f"(the deletion itself took {deleted_at - deleting_at:.1f} s)"
        # told, not the wait run out
        assert time.monotonic() - deleting_at < WATCH_WAIT / 2, took
    assert DELETED_NAME in heard["state"]["partida"]["players"]
    assert name not in str(heard)
    after = httpx.get(writer, timeout=30).json()
    assert DELETED_NAME in after["state"]["partida"]["players"] and name not in str(after)
    assert after["state"]["partida"]["totals"] == before["state"]["partida"]["totals"]
    # The game mesa, read through the holder, names the player no more either.
    wait_for(lambda: name not in mesa_names(holder, mesa), SOON, "the holder renames the mesa")
    assert DELETED_NAME in mesa_names(holder, mesa)


def test_a_deletion_redis_could_not_tell_reaches_the_other_server_once_it_is_back() -> None:
    """Redis stops before the deletion, and the server that deleted dies before Redis starts
    again, empty: its news never goes out. The holder, once subscribed again, finds the mesa
    whose person the database names otherwise and lets it go (its player is welcomed with the
    new name), and reads its sheets again. (A cluster of its own: it stops one server.)"""
    with two_nodes("fichaflow_deletion_away") as (first, holder):
        away(first, holder)


def away(first: ServerProcess, holder: ServerProcess) -> None:
    sat_as = fresh_name("Nora")
    mesa = guest_mesa(holder, sat_as)
    code = mesa["code"]
    player = Player(holder)
    name = fresh_name("Ana")
    player.sign_up(name)
    player.took(player.post("/mesas", {"mesa": code, "token": mesa["token"]}))
    spec = {"name": "Sin Redis", "rules": "venezuela", "rounds": 2}
    paper, table = registered(holder, player, spec)
    bound = post(holder, f"{paper}/rounds/1/tables/{table}/sheet")
    assert bound.status_code == 201, bound.text
    [sheet] = [s for s in bound.json()["sheets"] if s["table"] == table]
    writer = f"{holder.url}/api/anotador/mesas/{sheet['sheet']}"
    assert name in httpx.get(writer, timeout=30).json()["state"]["partida"]["players"]
    options = holder.options
    port = httpx.URL(options[options.index("--redis") + 1]).port
    assert port is not None

    async def scenario() -> None:
        beto = Client(holder, code, mesa["other"]["token"], reconnect=True)
        await beto.connect()
        with contextlib.suppress(redis.RedisError):
            redis.Redis(port=port, socket_timeout=5).shutdown(nosave=True)
        again = RedisServer()
        again.port = port  # the same address: the servers connect again by themselves
        try:
            await asyncio.to_thread(delete_through, player, first)
            await asyncio.to_thread(first.kill)  # what it had to say dies with it
            await asyncio.to_thread(again.start)
            welcome = await beto.expect("welcome", timeout=SOON)
            names = [seat["name"] for seat in welcome["mesa"]["seats"]]
            assert DELETED_NAME in names and sat_as not in names
            after = httpx.get(writer, timeout=30).json()
            assert DELETED_NAME in after["state"]["partida"]["players"]
            assert name not in str(after)
        finally:
            await beto.close()
            again.stop()
            shutil.rmtree(again.folder, ignore_errors=True)

    asyncio.run(scenario())
