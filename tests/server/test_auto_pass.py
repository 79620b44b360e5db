"""Paso automático (a mesa option): a person whose only move is to pass passes by itself after a
moment the table can see, announced to everybody like any pass and stored like one; with the
option off the mesa waits for the player to pass, as before."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from tests.server.kit import Client, ServerProcess, create_mesa, get_json

MOMENT_MS = 300


async def _next_view(ana: Client) -> dict[str, Any]:
    """Ana's next message with a view of a hand; after a hand's end she says she is ready."""
    while True:
        message = await asyncio.wait_for(ana.inbox.get(), 30)
        if message["type"] == "hand_end":
            hand = message["hand"]
            await ana.send({"type": "ready", "partida": hand["partida"], "after": hand["number"]})
        elif message["type"] in ("hand_start", "move") and message["view"] is not None:
            return message


async def _play_until_forced_pass(ana: Client) -> tuple[dict[str, Any], float]:
    """Ana plays her first legal tile at each turn until a view leaves her nothing but a pass:
    that view and when it came."""
    while True:
        view = (await _next_view(ana))["view"]
        if view["ended"] or view["turn"] != 0:
            continue
        if view["legal"] == ["pass"]:
            return view, time.monotonic()
        await ana.send({"type": "play", "move": view["legal"][0]})


async def _start(server: ServerProcess, auto_pass: bool) -> tuple[Client, Client, str]:
    created = await create_mesa(
        server, rules="dominicana", seats=[None, "tirafichas", "tirafichas", "tirafichas"],
        name="Ana", seat=0,
        options={"auto_pass": auto_pass, "auto_pass_ms": MOMENT_MS, "bot_pause_ms": 0},
    )  # fmt: skip
    code = created["code"]
    ana = Client(server, code, created["token"])
    miron = Client(server, code)
    welcome = await ana.connect()
    assert welcome["mesa"]["options"]["auto_pass"] is auto_pass
    await miron.connect()
    await ana.send({"type": "start"})
    return ana, miron, code


def test_with_paso_automatico_a_seat_that_cannot_play_passes_by_itself(
    server: ServerProcess,
) -> None:
    async def scenario() -> None:
        ana, miron, code = await _start(server, auto_pass=True)
        forced, since = await _play_until_forced_pass(ana)
        hand, turns = forced["hand_number"], len(forced["history"])
        # Ana sends nothing: the server passes for her, after the moment the table shows her turn
        passed = await _next_view(ana)
        waited = time.monotonic() - since
        assert passed["move"] == {"seat": 0, "move": "pass", "timed_out": False}
        assert waited >= MOMENT_MS / 1000 * 0.8
        assert passed["view"]["history"][turns]["kind"] == "pass"
        # the mirón is told the pass like any other, with the ends Ana faced
        seen = await miron.expect(
            "move",
            10,
            lambda m: m["view"]["hand_number"] == hand and len(m["view"]["history"]) > turns,
        )
        assert seen["move"]["seat"] == 0 and seen["move"]["move"] == "pass"
        assert seen["view"]["history"][turns]["seat"] == 0
        assert seen["view"]["history"][turns]["kind"] == "pass"
        # it is stored like a pass she made: the finished hand's record has it, and replays
        while not any(m["type"] == "hand_end" and m["hand"]["number"] == hand for m in ana.log):
            view = (await _next_view(ana))["view"]
            if view["turn"] == 0 and view["legal"] and view["legal"] != ["pass"]:
                await ana.send({"type": "play", "move": view["legal"][0]})
        record = await get_json(server, f"/api/mesas/{code}/partidas/1/record")
        moves = record["hands"][hand - 1]["moves"]
        assert moves[turns] == "pass", moves
        await ana.close()
        await miron.close()

    asyncio.run(scenario())


def test_without_it_the_mesa_waits_for_the_player_to_pass(server: ServerProcess) -> None:
    async def scenario() -> None:
        ana, miron, _code = await _start(server, auto_pass=False)
        forced, _since = await _play_until_forced_pass(ana)
        turns = len(forced["history"])
        heard = len(ana.log)
        # three times the moment the option would wait: nothing is played for her
        await asyncio.sleep(3 * MOMENT_MS / 1000)
        await ana.ping()
        assert not [m for m in ana.log[heard:] if m["type"] == "move"]
        await ana.send({"type": "play", "move": "pass"})
        passed = await _next_view(ana)
        assert passed["move"]["seat"] == 0 and passed["move"]["move"] == "pass"
        assert len(passed["view"]["history"]) > turns
        await ana.close()
        await miron.close()

    asyncio.run(scenario())
