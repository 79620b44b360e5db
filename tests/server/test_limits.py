"""One address cannot create or join mesas faster than the server allows: the request past the
limit gets 429, a Spanish text that says how long to wait, and changes nothing. Play itself (the
WebSocket) is not counted."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.kit import TEST_SEED, Client, ServerProcess, get_json, is_spanish_error

LIMIT = 3
BODY = {"rules": "mano_a_mano", "seats": [None, None], "name": "Ana", "seat": 0}


@pytest.fixture
def strict_server(tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(
        f"sqlite:///{tmp_path / 'limits.sqlite3'}", http_limit=LIMIT, seed=TEST_SEED
    ) as server:
        yield server


def test_past_the_limit_a_request_waits_and_changes_nothing(strict_server: ServerProcess) -> None:
    server = strict_server

    async def scenario() -> None:
        async with server.http() as http:
            made = [await http.post("/api/mesas", json=BODY) for _ in range(LIMIT)]
            assert [r.status_code for r in made] == [201] * LIMIT
            code, token = made[0].json()["code"], made[0].json()["token"]

            refused = await http.post("/api/mesas", json=BODY)
            assert refused.status_code == 429
            assert is_spanish_error(refused.json()["error"], "server.too_many")
            assert "por minuto" in refused.json()["error"]["message"]
            assert 1 <= int(refused.headers["Retry-After"]) <= 60
            assert (await get_json(server, "/api/health"))["mesas"] == LIMIT
            # The anotador's mesas count as mesas created too.
            sheet = await http.post("/api/anotador/mesas", json={"rules": "mano_a_mano"})
            assert sheet.status_code == 429
            assert sheet.json()["error"]["code"] == "server.too_many"

            joins = [
                await http.post(f"/api/mesas/{code}/join", json={"name": f"P{n}"})
                for n in range(LIMIT)
            ]
            assert [r.status_code for r in joins] == [201] * LIMIT
            late = await http.post(f"/api/mesas/{code}/join", json={"name": "Tarde", "seat": 1})
            assert late.status_code == 429
            assert is_spanish_error(late.json()["error"], "server.too_many")
        mesa = (await get_json(server, f"/api/mesas/{code}"))["mesa"]
        assert [q["name"] for q in mesa["queue"]] == ["P0", "P1", "P2"]
        assert mesa["seats"][1]["kind"] == "empty"

        # Playing is not counted: the host still says hello and acts.
        host = Client(server, code, token)
        welcome = await host.connect()
        assert welcome["type"] == "welcome"
        await host.close()

    asyncio.run(scenario())
