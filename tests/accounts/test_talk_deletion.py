"""A deleted account takes the table talk's reports with it (#16): those of the player's words
and those the player made, on SQLite and PostgreSQL; the others' reports stay."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from tests.accounts.kit import Player, fresh_name
from tests.accounts.test_mesas import guest_mesa
from tests.server.kit import Client, ServerProcess
from tests.server.test_talk import said
from tests.server.test_talk_reports import report, reports


@pytest.fixture
def ana(server: ServerProcess) -> Iterator[Player]:
    player = Player(server)
    yield player
    player.close()


def test_a_deleted_account_leaves_no_report_behind(server: ServerProcess, ana: Player) -> None:
    mesa = guest_mesa(server, "Ana")
    code = mesa["code"]
    caro = httpx.post(f"{server.url}/api/mesas/{code}/join", json={"name": "Caro"}, timeout=10)

    async def talk() -> None:
        clients = [
            Client(server, code, mesa["token"]),
            Client(server, code, mesa["other"]["token"]),
            Client(server, code, caro.json()["token"]),
        ]
        a, b, c = clients
        for client in clients:
            await client.connect()
        await a.send({"type": "say", "text": "tramposo"})
        await b.send({"type": "say", "text": "más tramposa tú"})
        rude = await said(b, "tramposo")
        answer = await said(a, "más tramposa tú")
        await said(c, "más tramposa tú")
        await report(b, rude["id"])  # Beto reports Ana's words
        await report(a, answer["id"])  # Ana reports Beto's
        await report(c, answer["id"])  # and so does Caro
        for client in clients:
            await client.close()

    asyncio.run(talk())
    assert [(r.speaker_name, r.reporter_name) for r in reports(server, code)] == [
        ("Ana", "Beto"),
        ("Beto", "Ana"),
        ("Beto", "Caro"),
    ]
    ana.sign_up(fresh_name("Ana"))
    ana.took(ana.post("/mesas", {"mesa": code, "token": mesa["token"]}))
    ana.took(ana.delete("/me"))
    left = reports(server, code)
    assert [(r.speaker_name, r.reporter_name) for r in left] == [("Beto", "Caro")]
    assert "Ana" not in str([tuple(r) for r in left]) and "tramposo" not in str(left[0].text)
