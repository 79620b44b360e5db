"""A guest who signs up keeps the mesa they sit at: their person there (the name they sat down
with) becomes the account's, through the seat token the game gave them. Through a real server
on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.accounts.kit import Player, error_code, fresh_name
from tests.server.kit import Client, ServerProcess, all_told_partida_over, create_mesa


@pytest.fixture
def players(server: ServerProcess) -> Iterator[list[Player]]:
    made = [Player(server) for _ in range(2)]
    yield made
    for player in made:
        player.close()


def guest_mesa(server: ServerProcess, name: str) -> dict[str, Any]:
    """A mesa made by a guest with just a name, and a second guest joined to it."""
    body = {"name": name, "seat": 0, "options": {"bot_pause_ms": 0}}
    created = httpx.post(f"{server.url}/api/mesas", json=body, timeout=10)
    assert created.status_code == 201, created.text
    mesa: dict[str, Any] = created.json()
    joined = httpx.post(
        f"{server.url}/api/mesas/{mesa['code']}/join", json={"name": "Beto", "seat": 1}
    )
    assert joined.status_code == 201, joined.text
    mesa["other"] = joined.json()
    return mesa


def test_a_guest_who_signs_up_keeps_the_mesa(server: ServerProcess, players: list[Player]) -> None:
    ana, beto = players
    mesa = guest_mesa(server, "Ana")
    made = ana.sign_up(fresh_name("Ana"))
    kept = ana.took(ana.post("/mesas", {"mesa": mesa["code"], "token": mesa["token"]}))
    assert kept["mesas"] == [
        {
            "mesa": mesa["code"],
            "person": mesa["person"],
            "name": "Ana",
            "linked_at": kept["mesas"][0]["linked_at"],
        }
    ]
    # again: no change
    again = ana.took(ana.post("/mesas", {"mesa": mesa["code"], "token": mesa["token"]}))
    assert again["mesas"] == kept["mesas"]
    # the seat is still hers as a guest: her token still opens the mesa
    shown = httpx.get(f"{server.url}/api/mesas/{mesa['code']}").json()
    assert "Ana" in str(shown)

    exported = ana.took(ana.get("/export"))
    assert exported["mesas"] == kept["mesas"]

    # another account cannot take Ana's person, even with her token
    beto.sign_up(fresh_name("Beto"))
    taken = beto.post("/mesas", {"mesa": mesa["code"], "token": mesa["token"]})
    assert taken.status_code == 409 and error_code(taken) == "accounts.person_taken"
    assert beto.took(beto.get("/mesas"))["mesas"] == []

    # deleting the account: her person at the mesa becomes «jugador borrado», for everybody
    assert ana.took(ana.delete("/me"))["mesas"] == 1
    shown = httpx.get(f"{server.url}/api/mesas/{mesa['code']}").json()
    assert "jugador borrado" in str(shown) and "Ana" not in str(shown)
    assert "Beto" in str(shown)  # the other guest keeps his name
    # the link went with the account: the person may be linked again (by her token's holder)
    beto.took(beto.post("/mesas", {"mesa": mesa["code"], "token": mesa["token"]}))
    assert beto.answer["mesas"][0]["name"] == "jugador borrado"
    assert made["account"]["id"] not in str(beto.answer)


def test_a_deleted_players_name_leaves_the_partidas_records(
    server: ServerProcess, players: list[Player]
) -> None:
    ana = players[0]
    body = {
        "name": "Ana",
        "seat": 0,
        "rules": {"preset": "mano_a_mano", "target": 10},
        "seats": [None, "tirafichas"],
    }
    mesa = asyncio.run(create_mesa(server, **body))
    asyncio.run(play_out(server, mesa))
    record = f"{server.url}/api/mesas/{mesa['code']}/partidas/1/record"
    assert "Ana" in httpx.get(record).text
    ana.sign_up(fresh_name("Ana"))
    ana.took(ana.post("/mesas", {"mesa": mesa["code"], "token": mesa["token"]}))
    ana.took(ana.delete("/me"))
    after = httpx.get(record)
    assert after.status_code == 200
    assert "Ana" not in after.text and "jugador borrado" in after.text


async def play_out(server: ServerProcess, mesa: dict[str, Any]) -> None:
    player = Client(server, mesa["code"], mesa["token"], autoplay=True)
    await player.connect()
    await player.send({"type": "start"})
    await all_told_partida_over([player], 120)
    await player.close()


def test_only_a_real_seat_token_links(server: ServerProcess, players: list[Player]) -> None:
    ana, _ = players
    mesa = guest_mesa(server, "Carla")
    assert ana.post("/mesas", {"mesa": mesa["code"], "token": mesa["token"]}).status_code == 401
    ana.sign_up(fresh_name("Carla"))
    refused = ana.post("/mesas", {"mesa": mesa["code"], "token": mesa["token"]}, csrf=False)
    assert refused.status_code == 403
    for code, token, expected in (
        (mesa["code"], "x" * 43, "server.bad_token"),
        (mesa["code"], "a\x00b", "server.bad_token"),
        (mesa["code"], "", "server.bad_token"),
        ("NOPE", mesa["token"], "server.no_mesa"),
        ("a\x00", mesa["token"], "server.no_mesa"),
    ):
        wrong = ana.post("/mesas", {"mesa": code, "token": token})
        assert wrong.status_code in (400, 404) and error_code(wrong) == expected, wrong.text
    assert ana.took(ana.get("/mesas"))["mesas"] == []  # nothing was linked
    other = ana.post("/mesas", {"mesa": mesa["code"], "token": mesa["other"]["token"]})
    # Beto's token names Beto: a token is whoever holds it
    assert [m["name"] for m in ana.took(other)["mesas"]] == ["Beto"]
