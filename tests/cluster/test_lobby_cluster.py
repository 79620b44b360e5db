"""The lobby across a cluster (#16): two servers with ``--redis`` (each its own redis-server of
the test, on a free port): a public mesa made and joined on one is listed, and followed live,
by a lobby watcher on the other, and a browser that opens the lobby on the other gets it in its
first list; a private one never shows."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cluster.kit import RedisServer, needs_redis
from tests.server.kit import ServerProcess, create_mesa, get_json, join
from tests.server.test_lobby import Watcher

pytestmark = [needs_redis, pytest.mark.slow]  # three servers' starts: the full run


@pytest.fixture(scope="module")
def nodes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:
    folder = tmp_path_factory.mktemp("lobby-cluster")
    with RedisServer() as redis:
        servers = [
            ServerProcess(
                f"sqlite:///{folder / f'node{n}.sqlite3'}",
                options=["--bot-workers", "0", "--redis", redis.url, "--node", f"node{n}"],
            )
            for n in (1, 2)
        ]
        try:
            for server in servers:
                server.start()
            yield servers
        finally:
            for server in servers:
                server.stop()


def test_a_public_mesa_on_one_server_is_in_the_lobby_of_the_other(
    nodes: list[ServerProcess],
) -> None:
    one, other = nodes

    async def scenario() -> None:
        watcher = Watcher(other)
        await watcher.open()
        private = await create_mesa(one, name="Ana", seat=0)
        public = await create_mesa(
            one, rules="tres", name="Luis", seat=0, options={"public": True, "bot_pause_ms": 0}
        )
        code = public["code"]
        await watcher.until(lambda m: code in m and m[code]["free"] == 2)
        await join(one, code, "Toño", 1)
        await watcher.until(lambda m: m[code]["free"] == 1)
        assert watcher.mesas[code]["seats"][1]["name"] == "Toño"
        assert private["code"] not in watcher.mesas
        listed = await get_json(other, "/api/lobby")
        assert code in {m["code"] for m in listed["mesas"]}
        await watcher.close()

    asyncio.run(scenario())


def test_a_server_started_later_lists_the_others_mesas(
    nodes: list[ServerProcess], tmp_path: Path
) -> None:
    """It asks the others as it starts: their lists come at once, not at the next whole list
    (10 s)."""
    one = nodes[0]
    redis_url = one.options[3]

    async def scenario() -> None:
        public = await create_mesa(
            one, rules="mano_a_mano", name="Eva", seat=0, options={"public": True}
        )
        late = ServerProcess(
            f"sqlite:///{tmp_path / 'late.sqlite3'}",
            options=["--bot-workers", "0", "--redis", redis_url, "--node", "late"],
        )
        late.start()
        try:
            watcher = Watcher(late)
            await watcher.open()
            await watcher.until(lambda m: public["code"] in m, timeout=5)
            await watcher.close()
        finally:
            late.stop()

    asyncio.run(scenario())
