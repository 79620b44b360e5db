"""Bad input and bad actors: each gets an error with a code and a Spanish text, nothing changes,
and the connection stays open, except for floods and oversized messages, which close it."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fichaflow.core.tiles import name
from tests.server.kit import (
    Client,
    ServerProcess,
    create_mesa,
    get_json,
    is_spanish_error,
    known_deal,
)


async def seq_of(server: ServerProcess, code: str) -> int:
    return int((await get_json(server, f"/api/mesas/{code}"))["mesa"]["seq"])


def test_bad_messages_change_nothing_and_keep_the_connection(server: ServerProcess) -> None:
    async def scenario() -> None:
        created = await create_mesa(
            server, rules="venezuela", seats=[None, "tirafichas", "tirafichas", "tirafichas"],
            name="Ana", seat=0, options={"bot_pause_ms": 200},
        )  # fmt: skip
        code, token = created["code"], created["token"]
        ana = Client(server, code, token)
        await ana.connect()
        before = await seq_of(server, code)
        raw_cases: list[tuple[str, str]] = [
            ("{not json", "server.bad_json"),
            ("[1, 2]", "server.bad_json"),
            (json.dumps({"type": "shout"}), "server.unknown_type"),
            (json.dumps({"type": "play"}), "server.missing_field"),
            (json.dumps({"type": "play", "move": "6-6", "extra": 1}), "server.extra_field"),
            (json.dumps({"type": "sit", "seat": "two"}), "server.bad_field"),
        ]
        for text, code_expected in raw_cases:
            await ana.send(text)
            error = await ana.expect("error")
            assert is_spanish_error(error, code_expected), (text, error)
        cases: list[tuple[dict[str, Any], str]] = [
            ({"type": "hello", "code": "nosuchmesa", "token": token}, "server.no_mesa"),
            ({"type": "hello", "code": code, "token": "not-a-token"}, "server.bad_token"),
            ({"type": "play", "move": "6-6"}, "move.no_hand"),
            ({"type": "ready"}, "server.not_hand_over"),
            ({"type": "sit", "seat": 1}, "server.seat_taken"),
            ({"type": "seat_bot", "seat": 1, "bot": "gallina"}, "bot.unknown"),
            ({"type": "reorder", "queue": [7]}, "server.queue_order"),
        ]
        for message, code_expected in cases:
            error = await ana.ask(message)
            assert is_spanish_error(error, code_expected), (message, error)
        await ana.ping()
        assert await seq_of(server, code) == before

        # now a hand: illegal moves, a mirón and a guest who is not the host. In the tests'
        # deal Ana's seat 0 holds the 6-6, so she leads (out-of-turn play is the next test's).
        await ana.send({"type": "start"})
        start = await ana.expect("hand_start")
        miron = Client(server, code)
        await miron.connect()
        error = await miron.ask({"type": "play", "move": "6-6"})
        assert is_spanish_error(error, "server.miron")
        assert "mirones son de palo" in error["message"]
        assert is_spanish_error(await miron.ask({"type": "start"}), "server.miron")
        view = start["view"]
        mine = {name(t) for t in range(28) if known_deal(4).hands[0] >> t & 1}
        assert (view["turn"], set(view["tiles"]), view["history"]) == (0, mine, [])
        before = await seq_of(server, code)
        other = next(name(t) for t in range(28) if name(t) not in mine)
        error = await ana.ask({"type": "play", "move": other})
        assert is_spanish_error(error, "move.not_holding")
        # the error names Ana's seat only: it never says who holds the tile
        assert "asiento 0" in error["message"]
        for seat in (1, 2, 3):
            assert f"asiento {seat}" not in error["message"]
        error = await ana.ask({"type": "play", "move": "7-7"})
        assert is_spanish_error(error, "tile.invalid")
        error = await ana.ask({"type": "play", "move": "6-6:left"})
        assert is_spanish_error(error, "move.end_on_lead")
        assert await seq_of(server, code) == before
        ana_last = ana.last_view()
        assert ana_last is not None
        assert ana_last["history"] == []
        await ana.ping()
        await miron.ping()
        await ana.close()
        await miron.close()

    asyncio.run(scenario())


def test_one_seat_token_never_acts_for_another_seat(server: ServerProcess) -> None:
    async def scenario() -> None:
        created = await create_mesa(server, rules="mano_a_mano", name="Ana", seat=0)
        code = created["code"]
        async with server.http() as http:
            beto = (
                await http.post(f"/api/mesas/{code}/join", json={"name": "B", "seat": 1})
            ).json()
        ana, bob = Client(server, code, created["token"]), Client(server, code, beto["token"])
        await ana.connect()
        await bob.connect()
        error = await bob.ask({"type": "start"})
        assert is_spanish_error(error, "server.not_host")
        await ana.send({"type": "start"})
        start = await ana.expect("hand_start")
        await bob.expect("hand_start")
        # in the tests' deal seat 0 holds the 6-6 and leads: Beto's token cannot play for her
        assert start["view"]["turn"] == 0
        error = await bob.ask({"type": "play", "move": "pass"})
        assert is_spanish_error(error, "server.not_your_turn")
        assert "asiento 0" in error["message"]
        bob_last = bob.last_view()
        assert bob_last is not None
        assert bob_last["history"] == start["view"]["history"] == []
        # a seat's view holds its own tiles only
        ana_view = next(m for m in ana.log if m["type"] == "hand_start")["view"]
        bob_view = next(m for m in bob.log if m["type"] == "hand_start")["view"]
        assert not set(ana_view["tiles"]) & set(bob_view["tiles"])
        await ana.close()
        await bob.close()

    asyncio.run(scenario())


def test_oversized_messages_and_floods_close_the_connection(server: ServerProcess) -> None:
    async def scenario() -> None:
        created = await create_mesa(server)
        code = created["code"]
        big = Client(server, code, created["token"])
        await big.connect()
        await big.ws.send(json.dumps({"type": "ping", "ref": "x" * 5000}))
        error = await big.expect("error")
        assert is_spanish_error(error, "server.too_big")
        await asyncio.wait_for(big.closed.wait(), 5)
        assert big.close_code == 1009

        flood = Client(server, code, created["token"])
        await flood.connect()
        for n in range(30):
            await flood.ws.send(json.dumps({"type": "ping", "ref": n}))
        error = await flood.expect("error")
        assert is_spanish_error(error, "server.flood")
        await asyncio.wait_for(flood.closed.wait(), 5)
        assert flood.close_code == 1008
        # the hello and 19 pings make the 20 messages a second allows: the 20th ping floods
        assert [m["ref"] for m in flood.log if m["type"] == "pong"] == list(range(19))

        # a well-behaved client right after is served as usual
        calm = Client(server, code, created["token"])
        await calm.connect()
        await calm.ping()
        await calm.close()

    asyncio.run(scenario())
