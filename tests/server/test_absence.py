"""Time and absence: the mesa waits for a player who went away; the host may give the seat to a
bot only after the grace period, the player takes it back on returning, and the turn timer
(an option, off by default) plays for a seat out loud, never silently."""

from __future__ import annotations

import asyncio

from tests.server.kit import Client, ServerProcess, create_mesa, get_json, is_spanish_error, join


def test_an_absent_player_is_waited_for_then_replaced_then_back(server: ServerProcess) -> None:
    async def scenario() -> None:
        created = await create_mesa(
            server, rules="mano_a_mano", seats=[None, "tirafichas"], name="Host",
            options={"grace_seconds": 2, "bot_pause_ms": 0},
        )  # fmt: skip
        code = created["code"]
        ana = await join(server, code, "Ana", 0)
        host = Client(server, code, created["token"])
        player = Client(server, code, ana["token"])
        await host.connect()
        await player.connect()
        await player.close()  # Ana goes away before the partida starts
        await host.expect("mesa", where=lambda m: not m["mesa"]["seats"][0]["connected"])
        await host.send({"type": "start"})
        start = await host.expect("hand_start")
        # the mesa waits: in the tests' deal Ana's seat 0 holds the 6-6 and leads, so nothing moves
        assert start["view"]["turn"] == 0
        count = len([m for m in host.log if m["type"] == "move"])
        assert count == 0
        error = await host.ask({"type": "seat_bot", "seat": 0, "bot": "tirapuntos"})
        assert is_spanish_error(error, "server.grace")
        # the host asks again until the grace period (2 s) is over: until then each request is
        # refused the same way and nothing moves
        refusals = 1
        while True:
            ref = f"bot{refusals}"
            await host.send({"type": "seat_bot", "seat": 0, "bot": "tirapuntos", "ref": ref})
            await host.ping()  # the server has answered the request by now
            errors = [m for m in host.log if m["type"] == "error" and m.get("ref") == ref]
            if not errors:
                break
            assert is_spanish_error(errors[0], "server.grace")
            assert len([m for m in host.log if m["type"] == "move"]) == count  # still waiting
            refusals += 1
        # after the grace period the seat goes to a bot, and it plays for Ana
        state = await host.expect("mesa", where=lambda m: m["mesa"]["seats"][0]["substitute"])
        assert state["mesa"]["seats"][0]["bot"] == "tirapuntos"
        await host.expect("move", where=lambda m: m["move"]["seat"] == 0)
        # Ana comes back with her token: the seat is hers again, with the whole state
        back = Client(server, code, ana["token"])
        welcome = await back.connect()
        assert welcome["you"]["seat"] == 0 and welcome["view"]["seat"] == 0
        assert welcome["mesa"]["seats"][0]["bot"] is None
        assert welcome["mesa"]["seats"][0]["connected"] is True
        mesa = (await get_json(server, f"/api/mesas/{code}"))["mesa"]
        assert mesa["seats"][0]["kind"] == "human" and mesa["seats"][0]["name"] == "Ana"
        # a connected player's seat cannot be given away
        error = await host.ask({"type": "seat_bot", "seat": 0, "bot": "tirapuntos"})
        assert is_spanish_error(error, "server.seat_connected")
        await back.close()
        await host.close()

    asyncio.run(scenario())


def test_the_turn_timer_plays_for_a_late_seat_and_says_so(server: ServerProcess) -> None:
    async def scenario() -> None:
        created = await create_mesa(
            server, rules="mano_a_mano", seats=[None, "tirafichas"], name="Ana", seat=0,
            options={"turn_seconds": 5, "bot_pause_ms": 0},
        )  # fmt: skip
        ana = Client(server, created["code"], created["token"])
        await ana.connect()
        await ana.send({"type": "start"})
        start = await ana.expect("hand_start")
        # Ana does nothing: the deadline of her turn is announced, then her move is made for
        # her and everybody is told it was the timer
        # (in the tests' deal her seat 0 holds the 6-6: she leads)
        assert start["view"]["turn"] == 0
        assert start["turn_deadline"] is not None
        timed = await ana.expect("move", 15, lambda m: m["move"]["seat"] == 0)
        assert timed["move"]["timed_out"] is True
        await ana.close()

    asyncio.run(scenario())
