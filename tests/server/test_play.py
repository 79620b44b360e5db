"""Whole partidas over real WebSockets: people and bots at one mesa, mirones watching, hand-end
summaries, the record and its check, reconnecting with the seat token, and the parados."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from fichaflow.core import record
from fichaflow.core.deal import Deal
from fichaflow.core.tiles import bits, name
from fichaflow.server.fairness import commitment
from tests.server.kit import (
    Client,
    ServerProcess,
    all_told_partida_over,
    create_mesa,
    get_json,
    join,
)

VERIFY = [sys.executable, "-c", "from fichaflow.cli import main; main()", "verify"]


async def play_partida(server: ServerProcess, rules: Any, bots: list[str | None]) -> dict[str, Any]:
    """A mesa with people (autoplaying clients) where ``bots`` has None, plus a mirón; the host
    watches and starts. Returns the clients and the mesa code once the partida is over."""
    created = await create_mesa(server, rules=rules, seats=bots, name="Host")
    code = created["code"]
    people = []
    for seat, bot in enumerate(bots):
        if bot is None:
            joined = await join(server, code, f"P{seat}", seat)
            people.append(Client(server, code, joined["token"], autoplay=True, seed=seat))
    miron = Client(server, code)
    host = Client(server, code, created["token"])
    for client in [*people, miron, host]:
        await client.connect()
    await host.send({"type": "start"})
    await asyncio.wait_for(host.partida_over.wait(), 120)
    await all_told_partida_over([*people, miron])
    for client in [*people, miron, host]:
        await client.close()
    return {"code": code, "people": people, "miron": miron, "host": host}


@pytest.mark.slow
def test_people_and_bots_play_a_partida_to_its_end(server: ServerProcess, tmp_path: Path) -> None:
    async def scenario() -> None:
        rules = {"preset": "venezuela", "target": 50}
        game = await play_partida(server, rules, [None, "tirapuntos", None, "acuestafichas"])
        code, host, miron = game["code"], game["host"], game["miron"]
        ends = [m for m in host.log if m["type"] == "hand_end"]
        assert ends, "no hand ended"
        previous = [0, 0]
        for message in ends:
            hand = message["hand"]
            # the count, the rule and every hand face up, in Spanish and English
            assert hand["explanation"]["es"] and hand["explanation"]["en"]
            assert len(hand["revealed"]) == 4 and len(hand["deal"]) == 4
            gains = hand["score"]["gains"]
            assert hand["scores"] == [p + g for p, g in zip(previous, gains, strict=True)]
            previous = hand["scores"]
            # the seed revealed is the one promised when the hand was dealt
            start = next(
                m for m in host.log
                if m["type"] == "hand_start" and m["hand"]["number"] == hand["number"]
            )  # fmt: skip
            assert start["hand"]["commitment"] == commitment(hand["seed"])
            assert "seed" not in start["hand"]
            dealt = Deal.from_seed(4, hand["seed"])
            assert [sorted(seat) for seat in hand["deal"]] == [
                sorted(name(t) for t in bits(h)) for h in dealt.hands
            ]
        end = next(m for m in host.log if m["type"] == "partida_end")
        assert max(end["partida"]["scores"]) >= 50
        assert end["partida"]["scores"] == previous
        # a mirón never holds tiles and is never offered a move
        for message in miron.log:
            if message.get("view"):
                assert message["view"]["tiles"] == [] and message["view"]["legal"] == []
        # the record checks out, and a tampered one does not
        saved = await get_json(server, f"/api/mesas/{code}/partidas/1/record")
        assert len(saved["hands"]) == len(ends)
        replayed = record.replay(record.loads(json.dumps(saved)))
        assert list(replayed.scores) == previous and replayed.over
        good = tmp_path / "partida.json"
        good.write_text(json.dumps(saved))
        checked = subprocess.run([*VERIFY, str(good)], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr
        assert f"Las {len(ends)} manos" in checked.stdout
        saved["hands"][0]["seed"] = "0" * 64
        bad = tmp_path / "tampered.json"
        bad.write_text(json.dumps(saved))
        refused = subprocess.run([*VERIFY, str(bad)], capture_output=True, text=True)
        assert refused.returncode == 2
        assert "Mano 1" in refused.stderr and "compromiso" in refused.stderr

    asyncio.run(scenario())


def test_a_player_who_reconnects_gets_the_whole_state(server: ServerProcess) -> None:
    async def scenario() -> None:
        created = await create_mesa(
            server, rules="mano_a_mano", seats=[None, "tirafichas"], name="Ana", seat=0
        )
        code, token = created["code"], created["token"]
        ana, watcher = Client(server, code, token), Client(server, code)
        await ana.connect()
        await watcher.connect()
        await ana.send({"type": "start"})
        started = await ana.expect("hand_start")
        view = started["view"]
        assert view["seat"] == 0 and len(view["tiles"]) >= 7
        # Ana goes away (her turn may be waiting) and, once the mesa has seen her go, comes
        # back with her token
        await ana.close()
        await watcher.expect("mesa", where=lambda m: not m["mesa"]["seats"][0]["connected"])
        back = Client(server, code, token)
        welcome = await back.connect()
        assert welcome["role"] == "player" and welcome["you"]["seat"] == 0
        assert welcome["you"]["host"] is True
        assert welcome["hand"]["commitment"] == started["hand"]["commitment"]
        back_view = back.last_view()
        assert back_view is not None
        assert welcome["view"]["tiles"] == back_view["tiles"]
        assert welcome["view"]["history"][: len(view["history"])] == view["history"]
        assert welcome["mesa"]["seats"][0]["connected"] is True
        assert welcome["partida"]["number"] == 1
        # a wrong token is refused and does not make anybody a player
        stranger = Client(server, code, "x" * 32)
        await stranger._open()
        error = json.loads(await stranger.ws.recv())
        assert error["code"] == "server.bad_token"
        await stranger.ws.close()
        await back.close()

    asyncio.run(scenario())


def test_the_losing_side_gets_up_and_the_parados_sit_down(server: ServerProcess) -> None:
    async def scenario() -> None:
        rules = {"preset": "mano_a_mano", "target": 10}
        created = await create_mesa(server, rules=rules, seats=[None, "tirafichas"], name="Host")
        code = created["code"]
        ana = await join(server, code, "Ana", 0)
        beto = await join(server, code, "Beto", None)
        caro = await join(server, code, "Caro", None)
        host = Client(server, code, created["token"])
        player = Client(server, code, ana["token"], autoplay=True)
        await host.connect()
        await player.connect()
        # the host puts Caro before Beto
        await host.send({"type": "reorder", "queue": [caro["person"], beto["person"]]})
        mesa = await host.expect("mesa", where=lambda m: m["mesa"]["queue"][0]["name"] == "Caro")
        assert [q["name"] for q in mesa["mesa"]["queue"]] == ["Caro", "Beto"]
        await host.send({"type": "start"})
        await asyncio.wait_for(host.partida_over.wait(), 60)
        end = next(m for m in host.log if m["type"] == "partida_end")
        loser = 1 - end["partida"]["winner"]
        assert end["rotation"] == [
            {"seat": loser, "up": ana["person"] if loser == 0 else None, "down": caro["person"]}
        ]
        state = (await get_json(server, f"/api/mesas/{code}"))["mesa"]
        assert state["seats"][loser]["name"] == "Caro"
        queue = [q["name"] for q in state["queue"]]
        assert queue == (["Beto", "Ana"] if loser == 0 else ["Beto"])
        assert state["status"] == "partida_over"
        # with the parados switched off, nobody gets up after the next partida
        await host.send({"type": "configure", "options": {"parados": False, "bot_pause_ms": 0}})
        await host.expect("mesa", where=lambda m: m["mesa"]["options"]["parados"] is False)
        await host.close()
        await player.close()

    asyncio.run(scenario())


def test_the_strongest_bots_offered_play_at_a_mesa(server: ServerProcess) -> None:
    """The ladder's top four (gallo and jugador among them) think in the server's process pool
    from their seat views and play a partida through."""

    async def scenario() -> None:
        offered = (await get_json(server, "/api/bots"))["bots"]
        assert "omnisciente" not in offered
        seats = [offered[n % len(offered)] for n in range(len(offered) - 4, len(offered))]
        created = await create_mesa(
            server, rules={"preset": "venezuela", "target": 10}, seats=seats, name="Host"
        )
        host = Client(server, created["code"], created["token"])
        await host.connect()
        await host.send({"type": "start"})
        await asyncio.wait_for(host.partida_over.wait(), 240)
        movers = {m["move"]["seat"] for m in host.log if m["type"] in ("move", "hand_end")}
        assert movers == {0, 1, 2, 3}
        await host.close()

    asyncio.run(scenario())


def test_a_move_brings_the_turns_it_added_not_the_whole_history(server: ServerProcess) -> None:
    """A move's message carries its view without the history, and the turns the move added
    (the move, and a bot's draws that followed it) from ``turns_from`` on: the history a client
    rebuilds from them, move after move, is the one the hand's end shows face up, and the
    messages stay as short at the end of a hand as at its start."""

    async def scenario() -> None:
        game = await play_partida(
            server, {"preset": "mano_a_mano", "target": 20}, [None, "tirafichas"]
        )
        for client in (*game["people"], game["miron"]):
            held: list[Any] = []
            sizes: list[int] = []
            several = 0
            for sent, seen in zip(client.log, client.seen, strict=True):
                if sent["type"] in ("welcome", "hand_start"):
                    held = list(sent["view"]["history"]) if sent["view"] else []
                elif sent["type"] == "move":
                    assert "history" not in sent["view"]
                    assert sent["turns_from"] == len(held) and sent["turns"]
                    assert sent["turns"][0]["seat"] == sent["move"]["seat"]
                    held += sent["turns"]
                    assert seen["view"]["history"] == held
                    several += len(sent["turns"]) > 1
                    sizes.append(len(json.dumps(sent)))
                elif sent["type"] == "hand_end":
                    assert sent["view"]["history"][: len(held)] == held
                    assert len(sent["view"]["history"]) == len(held) + 1  # the last move
            assert several, "no move brought a bot's draws with it"
            assert max(sizes) < 2 * min(sizes), sizes

    asyncio.run(scenario())


def test_a_client_that_does_not_ask_for_turns_gets_the_whole_view(server: ServerProcess) -> None:
    """A client written before moves brought their turns (a page left open over an update, an
    outside client) says hello without ``turns``: every move still brings it the whole view,
    the same one a client that rebuilds it holds."""

    async def scenario() -> None:
        created = await create_mesa(
            server, rules="mano_a_mano", seats=[None, "tirafichas"], name="Ana", seat=0
        )
        code = created["code"]
        ana = Client(server, code, created["token"], autoplay=True)
        old, new = Client(server, code, turns=False), Client(server, code)  # two mirones
        for client in (ana, old, new):
            await client.connect()
        await ana.send({"type": "start"})
        await old.expect("hand_end", 60)
        await new.expect("hand_end", 60)
        for client in (ana, old, new):
            await client.close()
        rebuilt = {m["seq"]: m["view"] for m in new.seen if m["type"] == "move"}
        moves = [m for m in old.log if m["type"] == "move"]
        assert moves
        for message in moves:
            assert "turns" not in message and "turns_from" not in message
            whole = rebuilt[message["seq"]]
            assert message["view"]["history"] == whole["history"]
            assert message["view"]["line"] == whole["line"]

    asyncio.run(scenario())
