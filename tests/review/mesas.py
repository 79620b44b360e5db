"""Mesas on a real server for the Repaso tests: bots that finish a hand, and a player whose turn
comes round at a mesa of bots."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.server.kit import Client, ServerProcess, create_mesa


async def ana_plays_a_hand(server: ServerProcess) -> str:
    """Ana (seat 0, playing at random) and three different bots; returns once a hand ended."""
    mesa = await create_mesa(
        server, rules="venezuela", seats=[None, "tirafichas", "jugador", "tirapuntos"],
        name="Ana", seat=0,
    )  # fmt: skip
    ana = Client(server, mesa["code"], mesa["token"], autoplay=True, seed=7)
    await ana.connect()
    await ana.send({"type": "start"})
    await ana.expect("hand_end", timeout=60)
    await ana.close()
    return str(mesa["code"])


async def bots_play_a_hand(server: ServerProcess) -> str:
    """A mesa of four bots, started by its (unseated) host; returns once a hand has ended."""
    mesa = await create_mesa(server, rules="venezuela", seats=["tirafichas"] * 4, name="Ana")
    host = Client(server, mesa["code"], mesa["token"])
    await host.connect()
    await host.send({"type": "start"})
    await host.expect("hand_end", timeout=60)
    await host.close()
    return str(mesa["code"])


async def my_turn_against_bots(server: ServerProcess) -> tuple[str, str, dict[str, Any]]:
    """Ana sits at seat 0 of a mesa of bots; returns (code, token, her view) once it is her
    turn with a choice to make."""
    mesa = await create_mesa(
        server, rules="venezuela", seats=[None, "tirafichas", "tirafichas", "tirafichas"],
        name="Ana", seat=0,
    )  # fmt: skip
    ana = Client(server, mesa["code"], mesa["token"])
    await ana.connect()
    await ana.send({"type": "start"})
    answered: tuple[int, int] | None = None
    async with asyncio.timeout(60):
        while True:
            view = (await ana.inbox.get()).get("view")
            if view is None:
                continue
            at = (view["hand_number"], len(view["history"]))
            if view["ended"] and answered != at:
                answered = at
                await ana.send({"type": "ready"})
            elif view["turn"] == 0 and len(view["legal"]) > 1:
                await ana.close()
                return str(mesa["code"]), str(mesa["token"]), view
            elif view["turn"] == 0 and view["legal"] and answered != at:
                answered = at
                await ana.send({"type": "play", "move": view["legal"][0]})
