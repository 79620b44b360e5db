"""Names that show nothing (a lone Hangul filler), towers of accents and NUL are refused when a
mesa is created or joined; oversized bonuses are refused at creation and in ``configure``. Each
refusal is a Spanish error that changes nothing, and the mesa stays reachable, restart included
(a bonus beyond 64 bits once made every hello fail for good)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.server.kit import Client, ServerProcess, create_mesa, get_json, is_spanish_error

HOSTILE_NAMES = [
    ("\u3164", "name.blank"),
    ("a" + "\u0301" * 23, "name.marks"),
    ("Ana\x00", "name.control"),
]


async def mesas_count(server: ServerProcess) -> int:
    return int((await get_json(server, "/api/health"))["mesas"])


@pytest.mark.parametrize(("name", "code"), HOSTILE_NAMES)
def test_a_hostile_name_creates_no_mesa_and_joins_nobody(
    server: ServerProcess, name: str, code: str
) -> None:
    async def scenario() -> None:
        before = await mesas_count(server)
        async with server.http() as http:
            refused = await http.post("/api/mesas", json={"name": name, "seat": 0})
            assert refused.status_code == 400, refused.text
            assert is_spanish_error(refused.json()["error"], code), refused.json()
        assert await mesas_count(server) == before

        created = await create_mesa(server, rules="mano_a_mano", name="Ana", seat=0)
        path = f"/api/mesas/{created['code']}"
        mesa = (await get_json(server, path))["mesa"]
        async with server.http() as http:
            for seat in (1, None):
                refused = await http.post(f"{path}/join", json={"name": name, "seat": seat})
                assert refused.status_code == 400, refused.text
                assert is_spanish_error(refused.json()["error"], code), refused.json()
        assert (await get_json(server, path))["mesa"] == mesa

    asyncio.run(scenario())


def test_names_are_stored_in_their_normal_form(server: ServerProcess) -> None:
    async def scenario() -> None:
        created = await create_mesa(server, rules="mano_a_mano", name=" Jose\u0301  Luis ", seat=0)
        async with server.http() as http:
            path = f"/api/mesas/{created['code']}"
            joined = await http.post(f"{path}/join", json={"name": "Ana\u3164", "seat": 1})
            assert joined.status_code == 201, joined.text
        seats = (await get_json(server, path))["mesa"]["seats"]
        assert [s["name"] for s in seats] == ["José Luis", "Ana"]

    asyncio.run(scenario())


async def welcomed(server: ServerProcess, code: str, token: str | None = None) -> dict[str, Any]:
    """A hello that gets its welcome: the mesa can be reached."""
    client = Client(server, code, token)
    try:
        return await client.connect()
    finally:
        await client.close()


def test_a_bonus_beyond_the_bound_is_refused_and_the_mesa_stays_reachable(
    server: ServerProcess,
) -> None:
    async def before_restart() -> tuple[str, str]:
        before = await mesas_count(server)
        async with server.http() as http:
            huge = {"preset": "mano_a_mano", "capicua_bonus": 10**30}
            refused = await http.post("/api/mesas", json={"rules": huge, "name": "Ana"})
            assert refused.status_code == 400, refused.text
            assert is_spanish_error(refused.json()["error"], "rules.bonus")
            assert "0 a 1000" in refused.json()["error"]["message"]
            above = await http.post(
                "/api/mesas", json={"rules": {"preset": "mano_a_mano", "capicua_bonus": 1001}}
            )
            assert is_spanish_error(above.json()["error"], "rules.bonus")
        assert await mesas_count(server) == before

        created = await create_mesa(server, rules="mano_a_mano", name="Ana", seat=0)
        code, token = created["code"], created["token"]
        host = Client(server, code, token)
        await host.connect()
        for value in (2**64, 10**30, -1, 1001):
            rules = {"preset": "mano_a_mano", "chuchazo_bonus": value}
            error = await host.ask({"type": "configure", "rules": rules})
            assert is_spanish_error(error, "rules.bonus"), (value, error)
        await host.send({"type": "configure", "rules": {**rules, "chuchazo_bonus": 1000}})
        told = await host.expect("mesa", where=lambda m: m["mesa"]["rules"] != "mano_a_mano")
        assert told["mesa"]["rule_options"]["chuchazo_bonus"] == 1000
        await host.close()
        assert (await welcomed(server, code, token))["mesa"]["rule_options"]["chuchazo_bonus"] == (
            1000
        )
        return code, token

    code, token = asyncio.run(before_restart())
    server.restart()

    async def after_restart() -> None:
        welcome = await welcomed(server, code, token)
        assert welcome["mesa"]["rule_options"]["chuchazo_bonus"] == 1000
        async with server.http() as http:
            joined = await http.post(f"/api/mesas/{code}/join", json={"name": "Beto", "seat": 1})
            assert joined.status_code == 201, joined.text

    asyncio.run(after_restart())
