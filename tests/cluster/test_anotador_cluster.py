"""The anotador across a cluster: two servers on one PostgreSQL database and one Redis (the
test's own, on a free port), no sticky sessions. A sheet written through one server reads the
same through the other, a mirón waiting on the other hears of each line within the wait, a
line sent through a server whose copy is behind goes on top of the stored log, and lines sent
at once through both are all stored, each once."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from fichaflow.anotador.router import WATCH_WAIT
from tests.cluster.kit import needs_redis, two_nodes
from tests.server.kit import ServerProcess

pytestmark = [needs_redis, pytest.mark.slow]  # two servers' starts: the full run

TRANQUE = {"type": "hand", "end": "tranque", "seat": 0, "pips": [1, 2, 1, 2], "leader": 0}
"""A small tranque the side at seats 0 and 2 wins: many fit before the target."""


@pytest.fixture(scope="module")
def nodes() -> Iterator[list[ServerProcess]]:
    with two_nodes("fichaflow_anotador") as servers:
        yield servers


def line(server: ServerProcess, code: str, key: str | None = None) -> dict[str, Any]:
    body = {"key": key or uuid.uuid4().hex, "action": TRANQUE}
    answer = httpx.post(f"{server.url}/api/anotador/mesas/{code}/actions", json=body, timeout=30)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def sheet(server: ServerProcess, code: str) -> dict[str, Any]:
    answer = httpx.get(f"{server.url}/api/anotador/mesas/{code}", timeout=30)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def test_a_sheet_reads_and_writes_the_same_through_either_server(
    nodes: list[ServerProcess],
) -> None:
    one, two = nodes
    body = {"name": "Patio", "rules": "venezuela", "players": ["Ana", "Beto", "Carla", "Diego"]}
    made = httpx.post(f"{one.url}/api/anotador/mesas", json=body, timeout=30)
    assert made.status_code == 201, made.text
    code, watch = made.json()["code"], made.json()["watch"]
    assert sheet(two, code)["version"] == 0  # the other server holds it now too

    # A mirón waits on the second server; the line is written through the first.
    with ThreadPoolExecutor(1) as pool:
        url = f"{two.url}/api/anotador/watch/{watch}"
        waiting = pool.submit(httpx.get, url, params={"after": 0}, timeout=60)
        time.sleep(2)  # the mirón's request is in and waiting
        sent_at = time.monotonic()
        first = line(one, code)
        heard = waiting.result().json()
        assert time.monotonic() - sent_at < WATCH_WAIT / 2  # news, not the wait running out
    assert heard["version"] == 1
    assert heard["state"]["partida"]["totals"] == first["state"]["partida"]["totals"]
    assert sheet(two, code)["state"] == first["state"]

    # Through the second server (now current), then the first (whose copy is behind it).
    second = line(two, code)
    third = line(one, code)
    assert (second["id"], third["id"]) == ("2", "3")
    assert third["state"]["partida"]["totals"][0] > second["state"]["partida"]["totals"][0]

    # Lines sent at once through both servers: every one stored, each once, numbered in turn.
    keys = [uuid.uuid4().hex for _ in range(8)]
    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(lambda n: line(nodes[n % 2], code, keys[n]), range(8)))
    ids = sorted(int(a["id"]) for a in answers)
    assert ids == list(range(4, 12))
    final = sheet(one, code)
    assert final["version"] == 11 and sheet(two, code)["state"] == final["state"]
    assert len(final["state"]["partida"]["lines"]) == 11
    # A key sent again through the other server is the same line, stored once.
    again = line(nodes[1], code, keys[0])
    assert again["duplicate"] is True and again["id"] == answers[0]["id"]
    assert sheet(one, code)["version"] == 11
