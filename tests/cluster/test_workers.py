"""``fichaflow serve --redis`` and ``fichaflow worker``: the bots think, and the Repaso reviews, in
worker processes fed through Redis. A bot-filled partida plays to the end and its record
verifies; a review is done by a worker, the server starting no process of its own; a worker killed
in the middle of a thought has its move taken up by another; a Redis restarted empty in the
middle of a partida only pauses it; a worker replaces a lost process, and its processes end
with it."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from fichaflow.review.service import check_request, hand_review
from tests.cluster.kit import (
    WORKER,
    RedisServer,
    WorkerProcess,
    alive,
    descendants,
    needs_redis,
    wait_for,
)
from tests.review.records import LAST_TILES
from tests.server.kit import (
    TEST_SEED,
    Client,
    ServerProcess,
    ServesHttp,
    create_mesa,
    get_json,
)

pytestmark = needs_redis

VERIFY = [*WORKER[:-1], "verify"]


def redis_server(tmp_path: Path, redis: RedisServer, **options: Any) -> ServerProcess:
    return ServerProcess(
        f"sqlite:///{tmp_path / 'cluster.sqlite3'}",
        seed=TEST_SEED,
        options=["--redis", redis.url],
        **options,
    )


async def bot_partida(
    server: ServerProcess, preset: str, bots: list[str], target: int, pause_ms: int = 0
) -> tuple[str, Client]:
    """A mesa with a bot in every seat, its partida started; the host (no seat) watching."""
    created = await create_mesa(
        server,
        rules={"preset": preset, "target": target},
        seats=bots,
        name="Host",
        options={"bot_pause_ms": pause_ms},
    )
    host = Client(server, created["code"], created["token"])
    await host.connect()
    await host.send({"type": "start"})
    return created["code"], host


async def verified(server: ServesHttp, code: str, folder: Path) -> None:
    """The finished partida's record passes ``fichaflow verify``."""
    saved = await get_json(server, f"/api/mesas/{code}/partidas/1/record")
    path = folder / f"{code}.json"
    path.write_text(json.dumps(saved))
    checked = subprocess.run([*VERIFY, str(path)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("semilla y reparto correctos") == len(saved["hands"])


def stopped(pid: int) -> bool:
    return "State:\tT" in Path(f"/proc/{pid}/status").read_text()


def movers(host: Client) -> set[int]:
    return {m["move"]["seat"] for m in host.log if m["type"] in ("move", "hand_end")}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One Redis, one server with ``--redis`` and one worker, for the module's plain games."""
    folder = tmp_path_factory.mktemp("cluster")
    with RedisServer() as redis, WorkerProcess(redis.url) as worker:
        worker.start()  # (it starts while the server does)
        with redis_server(folder, redis) as server:
            worker.wait_ready(redis.client())
            yield server


@pytest.mark.parametrize(
    ("preset", "bots", "target"),
    [
        ("mano_a_mano", ["jugador", "tirapuntos"], 10),
        pytest.param("venezuela", ["jugador", "acuestafichas"] * 2, 30, marks=pytest.mark.slow),
    ],
    ids=["mano_a_mano", "parejas"],
)
def test_a_worker_plays_a_bot_filled_partida_to_the_end(
    cluster: ServerProcess, tmp_path: Path, preset: str, bots: list[str], target: int
) -> None:
    async def scenario() -> None:
        code, host = await bot_partida(cluster, preset, bots, target)
        await asyncio.wait_for(host.partida_over.wait(), 120)
        assert movers(host) == set(range(len(bots)))
        await verified(cluster, code, tmp_path)
        await host.close()

    asyncio.run(scenario())


@pytest.mark.slow  # the quick set keeps the worker's bot partida; the Repaso's runs in full
def test_a_worker_does_the_repaso_and_the_server_starts_no_process(cluster: ServerProcess) -> None:
    answer = httpx.post(
        f"{cluster.url}/api/repaso",
        json={"record": LAST_TILES, "hand": 1, "seat": 1, "precision": "fast"},
        timeout=120,
    )
    assert answer.status_code == 200, answer.text
    review = answer.json()["review"]
    here = hand_review(check_request(LAST_TILES, 1, 1, "fast"))
    assert set(review) == set(here) and review["seat"] == here["seat"] == 1
    assert cluster.process is not None
    assert descendants(cluster.process.pid) == set(), "the server thought in its own processes"


@pytest.mark.slow  # gallo thinks for real, and a worker waits to claim: about 20 s
def test_a_worker_killed_in_the_middle_of_a_thought_is_replaced(tmp_path: Path) -> None:
    """Worker A takes a gallo's move and is frozen before it answers, then killed with its
    parent; worker B, started after, claims the move and the partida plays on to its end."""
    with RedisServer() as redis, WorkerProcess(redis.url) as first:
        client = redis.client()
        first.start(client)
        with redis_server(tmp_path, redis) as server, WorkerProcess(redis.url) as second:

            async def scenario() -> None:
                code, host = await bot_partida(server, "mano_a_mano", ["gallo"] * 2, 20)
                (thinker,) = first.reading(client)

                def holding() -> bool:
                    summary: Any = client.xpending("fichaflow:jobs", "workers")
                    return any(
                        c["name"].decode().endswith(f":{thinker}") and c["pending"]
                        for c in summary["consumers"]
                    )

                while True:  # catch A between taking a move and answering it
                    await asyncio.to_thread(wait_for, holding, 60, "worker A holds a move")
                    os.kill(thinker, signal.SIGSTOP)
                    await asyncio.to_thread(wait_for, lambda: stopped(thinker), 10, "A stops")
                    if holding():
                        break
                    os.kill(thinker, signal.SIGCONT)  # it had answered just before: again
                assert first.process is not None
                first.process.send_signal(signal.SIGKILL)
                os.kill(thinker, signal.SIGKILL)
                first.process.wait(10)
                await asyncio.to_thread(wait_for, lambda: not alive(thinker), 10, "A is gone")
                assert not host.partida_over.is_set()
                second.start(client)
                await asyncio.wait_for(host.partida_over.wait(), 180)
                assert "claimed job" in second.text(), second.text()
                await verified(server, code, tmp_path)
                await host.close()

            asyncio.run(scenario())


@pytest.mark.slow  # a partida paced at a move every 0.1 s, and Redis away: about 20 s
def test_a_partida_finishes_by_itself_after_redis_restarts_empty(tmp_path: Path) -> None:
    redis = RedisServer()
    redis.start()
    log = tmp_path / "server.log"
    try:
        with WorkerProcess(redis.url) as worker:
            worker.start(redis.client())
            with redis_server(tmp_path, redis, log=log) as server:

                async def scenario() -> None:
                    bots = ["jugador", "tirapuntos"] * 2
                    code, host = await bot_partida(server, "venezuela", bots, 30, pause_ms=100)
                    await host.expect("move", timeout=30)
                    redis.stop()
                    assert not host.partida_over.is_set()
                    redis.start()  # the same port, nothing in it
                    await asyncio.wait_for(host.partida_over.wait(), 180)
                    assert movers(host) == {0, 1, 2, 3}
                    await verified(server, code, tmp_path)
                    await host.close()

                asyncio.run(scenario())
                said = log.read_text()
                assert "unreachable" in said and "back" in said, said
    finally:
        redis.stop()


@pytest.mark.slow  # a Redis and a worker of two processes started for it: about 8 s
def test_a_worker_replaces_a_lost_process_and_leaves_none_when_killed() -> None:
    with RedisServer() as redis, WorkerProcess(redis.url, processes=2) as worker:
        client = redis.client()
        worker.start(client)
        lost, kept = sorted(worker.reading(client))
        os.kill(lost, signal.SIGKILL)
        wait_for(lambda: len(worker.reading(client) - {lost, kept}) == 1, 60, "a new process reads")
        processes = worker.children()
        assert len(processes) >= 2
        assert worker.process is not None
        worker.process.send_signal(signal.SIGKILL)
        worker.process.wait(10)
        wait_for(lambda: not any(alive(p) for p in processes), 10, "no worker process is left")


@pytest.mark.parametrize(
    "command", ["worker", pytest.param("serve", marks=pytest.mark.slow)]
)  # serve loads the whole web stack before it says so: the worker keeps the quick check
def test_a_bad_redis_address_is_one_clear_line(command: str) -> None:
    done = subprocess.run(
        [*WORKER[:-1], command, "--redis", "http://127.0.0.1:6379"], capture_output=True, text=True
    )
    assert done.returncode == 2, done.stderr
    assert "«http://127.0.0.1:6379» no es una dirección de Redis" in done.stderr
    assert "Traceback" not in done.stderr
