"""The Redis job queue on its own (no server): a job whose copy Redis lost is sent again, a
late twin of an answer changes nothing, a worker's refusal reaches the asker, and a bot's answer
that is not one of its view's legal moves is refused."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from redis.typing import EncodableT, FieldT

from fichaflow.core.deal import Deal
from fichaflow.core.hand import Hand, write_move
from fichaflow.core.rules import Rules
from fichaflow.core.view import hand_view
from fichaflow.http.jobs import GROUP, STREAM, JobFailed, JobQueue, Worker
from fichaflow.server.botpool import RedisBotPool
from tests.cluster.kit import RedisServer, needs_redis

pytestmark = needs_redis


def double(payload: Mapping[str, Any]) -> dict[str, Any]:
    return {"twice": 2 * payload["n"]}


def refuse(payload: Mapping[str, Any]) -> dict[str, Any]:
    raise ValueError("no quiero")


HANDLERS = {"double": double, "refuse": refuse, "bot": lambda _payload: {"move": "6-6:left"}}


@pytest.fixture(scope="module")
def redis() -> Iterator[RedisServer]:
    with RedisServer() as server:
        yield server


async def entries(redis: RedisServer) -> list[Any]:
    """The jobs waiting in the stream, once the queue has sent them."""
    client = redis.client()
    for _ in range(500):
        found: Any = client.xrange(STREAM)
        if found:
            return list(found)
        await asyncio.sleep(0.01)
    raise AssertionError("the job never reached the stream")


def work_once(redis: RedisServer) -> None:
    worker = Worker(redis.url, HANDLERS)
    worker._join()
    worker.step()


def test_a_job_and_its_answer(redis: RedisServer) -> None:
    async def scenario() -> None:
        queue = JobQueue(redis.url)
        asking = asyncio.ensure_future(queue.run("double", {"n": 21}))
        await entries(redis)
        await asyncio.to_thread(work_once, redis)
        assert await asking == {"twice": 42}
        refused = asyncio.ensure_future(queue.run("refuse", {}))
        await entries(redis)
        await asyncio.to_thread(work_once, redis)
        with pytest.raises(JobFailed, match="no quiero"):
            await refused
        await queue.close()

    asyncio.run(scenario())


def test_a_job_redis_lost_is_sent_again_and_a_late_twin_changes_nothing(
    redis: RedisServer,
) -> None:
    async def scenario() -> None:
        queue = JobQueue(redis.url, resend_after=0.3)
        asking = asyncio.ensure_future(queue.run("double", {"n": 1}))
        ((entry, _fields),) = await entries(redis)
        client = redis.client()
        client.xdel(STREAM, entry)  # lost, as in a Redis that forgot it
        ((again, fields),) = await entries(redis)
        assert again != entry
        await asyncio.to_thread(work_once, redis)
        assert await asking == {"twice": 2}
        # two answers to one job (a claimed job whose first worker was only slow): the first wins
        second = asyncio.ensure_future(queue.run("double", {"n": 5}))
        ((entry, fields),) = await entries(redis)
        for twice in (10, 99):
            answer: dict[FieldT, EncodableT] = {
                "job": fields[b"job"],
                "answer": json.dumps({"twice": twice}),
            }
            client.xadd(fields[b"reply"].decode(), answer)
        assert await second == {"twice": 10}
        await asyncio.to_thread(work_once, redis)  # the job's copy was still there: done, dropped
        pending: Any = client.xpending(STREAM, GROUP)
        assert pending["pending"] == 0 and client.xlen(STREAM) == 0
        await queue.close()

    asyncio.run(scenario())


def test_a_bots_answer_must_be_a_legal_move_of_its_view(redis: RedisServer) -> None:
    rules = Rules.make("venezuela")
    hand = Hand(list(Deal.from_seed(4, "jobs").hands), (), 0)
    hand.play(hand.legal_moves()[0])
    view = hand_view(rules, hand, hand.turn)
    assert "6-6:left" not in {write_move(m) for m in view.legal}

    async def scenario() -> None:
        pool = RedisBotPool(JobQueue(redis.url))
        pool.start()
        asking = asyncio.ensure_future(pool.choose("jugador", 1, view))
        await entries(redis)
        await asyncio.to_thread(work_once, redis)
        with pytest.raises(JobFailed, match="not a legal move"):
            await asking
        await pool.close()

    asyncio.run(scenario())
