"""No message ever names a tile its receiver may not see.

Many partidas are played through a real server by bots and by clients that play at random;
every message each client receives is kept. Afterwards the true deals come from the records
(checked against their seeds), and each message is checked against what its receiver could know
at that point: its own tiles, the tiles it drew, the tiles on the line, and everything once the
hand has ended."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from fichaflow.core import record
from fichaflow.core.hand import Hand
from fichaflow.core.tiles import HALVES, bits, name
from fichaflow.server.fairness import verify_record
from tests.server.kit import (
    Client,
    ServerProcess,
    all_told_partida_over,
    create_mesa,
    get_json,
    join,
    named,
)

SORTEO = {"first_lead": "sorteo"}
TABLES: list[tuple[dict[str, Any], list[str | None]]] = [
    ({"preset": "venezuela", "target": 30}, [None, "tirapuntos", None, "acuestafichas"]),
    ({"preset": "dominicana", "target": 40, **SORTEO}, [None, None, "tirafichas", None]),
    ({"preset": "mano_a_mano", "target": 25}, [None, "tirafichas"]),
    ({"preset": "tres", "target": 25}, [None, None, "tirapuntos"]),
    ({"preset": "mano_a_mano", "target": 20, **SORTEO}, [None, None]),
]


def knowable(hand: Hand, initial: int, seat: int | None, turns: int) -> tuple[int, int]:
    """What ``seat`` (None: a mirón) may know after the first ``turns`` actions of ``hand``,
    and what it holds then, as tile sets."""
    line = held = 0
    if seat is not None:
        held = initial
    for turn in hand.history[:turns]:
        if turn.move.is_play:
            line |= 1 << turn.move.tile
            if turn.seat == seat:
                held &= ~(1 << turn.move.tile)
        elif turn.move.is_draw and turn.seat == seat:
            held |= 1 << turn.drawn
    return line | held | (initial if seat is not None else 0), held


def check_view(view: dict[str, Any], extra: set[int], truth: Any, seat: int | None) -> None:
    number = view["hand_number"]
    if view["ended"]:
        return
    played = truth.played[number - 1]
    initial = played.deal.hands[seat] if seat is not None else 0
    allowed, held = knowable(played.hand, initial, seat, len(view["history"]))
    seen = named(view) | extra
    leaked = seen - {t for t in range(28) if allowed >> t & 1}
    assert not leaked, f"seat {seat} was shown {[name(t) for t in leaked]} in hand {number}"
    assert sorted(view["tiles"]) == sorted(name(t) for t in bits(held))


def check_message(message: dict[str, Any], truth: Any, seat: int | None) -> None:
    kind = message["type"]
    if kind == "hand_end":
        assert message["view"]["ended"]
        return
    if kind == "welcome":
        view = message["view"]
        if view is not None:
            for finished in message["partida"]["hands"]:
                assert finished["number"] < view["hand_number"] or view["ended"]
            check_view(view, named(message["hand"]), truth, seat)
        return
    if kind in ("move", "hand_start"):
        rest = {k: v for k, v in message.items() if k != "view"}
        check_view(message["view"], named(rest), truth, seat)
        return
    assert not named(message), f"a {kind} message names tiles: {message}"


def test_no_message_names_a_tile_its_receiver_may_not_see(server: ServerProcess) -> None:
    async def play(rules: dict[str, Any], seats: list[str | None], seed: int) -> dict[str, Any]:
        created = await create_mesa(server, rules=rules, seats=seats, name="Host")
        code = created["code"]
        clients = []
        for seat, bot in enumerate(seats):
            if bot is None:
                joined = await join(server, code, f"P{seat}", seat)
                clients.append(
                    Client(server, code, joined["token"], autoplay=True, seed=seed + seat)
                )
        host = Client(server, code, created["token"])
        clients += [Client(server, code), host]
        for client in clients:
            await client.connect()
        await host.send({"type": "start"})
        await asyncio.wait_for(host.partida_over.wait(), 150)
        await all_told_partida_over(clients)
        for client in clients:
            await client.close()
        saved = await get_json(server, f"/api/mesas/{code}/partidas/1/record")
        return {"clients": clients, "record": saved}

    async def scenario() -> list[dict[str, Any]]:
        jobs = [play(rules, seats, 10 * n) for n, (rules, seats) in enumerate(TABLES * 2)]
        return list(await asyncio.gather(*jobs))

    games = asyncio.run(scenario())
    checked = 0
    for game in games:
        saved = record.loads(json.dumps(game["record"]))
        assert verify_record(saved)  # the deals are the ones the seeds promised
        truth = record.replay(saved)
        for client in game["clients"]:
            assert client.log, "a client got nothing"
            for message in client.seen:
                check_message(message, truth, client.seat)
                checked += 1
    assert checked > 1000
    # and the check does see a leak: a mirón shown a tile still in somebody's hand
    game = games[0]
    truth = record.replay(record.loads(json.dumps(game["record"])))
    miron = game["clients"][-2]
    message = next(m for m in miron.seen if m["type"] == "move")
    view = message["view"]
    line, _ = knowable(truth.played[view["hand_number"] - 1].hand, 0, None, len(view["history"]))
    hidden = next(t for t in range(28) if not line >> t & 1)  # in somebody's hand
    leaky = {**message, "view": {**view, "line": [*view["line"], [*HALVES[hidden]]]}}
    with pytest.raises(AssertionError, match="was shown"):
        check_message(leaky, truth, None)
    # or in the turns a move brings beside its view: a draw the mirón is shown drawn
    drawn = {"seat": 0, "kind": "draw", "ends": view["ends"], "drawn": name(hidden)}
    leaky = {**message, "turns": [*message["turns"], drawn]}
    with pytest.raises(AssertionError, match="was shown"):
        check_message(leaky, truth, None)
