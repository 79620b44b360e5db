"""Table talk over the WebSocket: phrases and free text reach the mesa, bad words change
nothing (a Spanish error), a mirón's words never reach a seated player's socket while a hand is
in play, a blocked person's words never reach the blocker, and a reconnecting client gets the
recent talk it may hear."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.server.kit import Client, ServerProcess, create_mesa, is_spanish_error, join


def chats(client: Client) -> list[dict[str, Any]]:
    return [m for m in client.log if m["type"] == "chat"]


async def table(server: ServerProcess) -> tuple[str, Client, Client, Client, Client]:
    """Ana and Beto seated with two bots, Caro (named, parada) and an anonymous mirón
    watching; the partida not started."""
    created = await create_mesa(
        server, rules="dominicana", seats=[None, None, "tirafichas", "tirafichas"],
        name="Ana", seat=0, options={"bot_pause_ms": 0},
    )  # fmt: skip
    code = created["code"]
    beto = await join(server, code, "Beto", 1)
    caro = await join(server, code, "Caro", None)
    clients = (
        Client(server, code, created["token"]),
        Client(server, code, beto["token"]),
        Client(server, code, caro["token"]),
        Client(server, code),
    )
    for c in clients:
        await c.connect()
    return (code, *clients)


async def said(client: Client, text: str) -> dict[str, Any]:
    return await client.expect("chat", where=lambda m: m["text"] == text)


def test_mirones_chat_never_reaches_players_mid_hand(server: ServerProcess) -> None:
    async def scenario() -> None:
        code, ana, beto, caro, anon = await table(server)
        # Before the partida, everybody hears everybody.
        await caro.send({"type": "say", "text": "¿Quién sale?"})
        for c in (ana, beto, caro, anon):
            message = await said(c, "¿Quién sale?")
            assert message["role"] == "miron" and message["name"] == "Caro"
        await ana.send({"type": "start"})
        await ana.expect("hand_start")
        await caro.expect("hand_start")
        # Mid-hand: the mirones hear Caro; the players' sockets get nothing of it.
        await caro.send({"type": "say", "text": "Ana tiene el doble seis"})
        await said(anon, "Ana tiene el doble seis")
        await said(caro, "Ana tiene el doble seis")
        # A player's quick phrase reaches everybody.
        await beto.send({"type": "say", "phrase": "se_enfria"})
        for c in (ana, beto, caro, anon):
            message = await c.expect("chat", where=lambda m: m["phrase"] == "se_enfria")
            assert message["role"] == "player" and message["text"] is None
        for c in (ana, beto):
            await c.ping()
            assert "Ana tiene el doble seis" not in [m["text"] for m in chats(c)]
        # Coming back: the player's welcome leaves the mirón's mid-hand words out.
        await ana.close()
        again = Client(server, code, ana.token)
        welcome = await again.connect()
        texts = [(m["text"], m["phrase"]) for m in welcome["chat"]]
        assert texts == [("¿Quién sale?", None), (None, "se_enfria")]
        await caro.close()
        caro_again = Client(server, code, caro.token)
        welcome = await caro_again.connect()
        assert ("Ana tiene el doble seis", None) in [
            (m["text"], m["phrase"]) for m in welcome["chat"]
        ]
        for c in (again, beto, caro_again, anon):
            await c.close()

    asyncio.run(scenario())


def test_bad_talk_changes_nothing(server: ServerProcess) -> None:
    async def scenario() -> None:
        _, ana, beto, caro, anon = await table(server)
        cases: list[tuple[Client, dict[str, Any], str]] = [
            (ana, {"type": "say", "text": "x" * 201}, "server.chat_too_long"),
            (ana, {"type": "say", "text": " \n\t "}, "server.chat_empty"),
            (ana, {"type": "say", "phrase": "gallina"}, "server.chat_phrase"),
            (ana, {"type": "say", "phrase": "buena", "text": "hola"}, "server.chat_what"),
            (ana, {"type": "say"}, "server.chat_what"),
            (ana, {"type": "say", "text": 7}, "server.bad_field"),
            (anon, {"type": "say", "text": "hola"}, "server.chat_anonymous"),
            (ana, {"type": "block", "person": 1}, "server.chat_block_who"),
            (ana, {"type": "block", "person": 99}, "server.chat_block_who"),
        ]
        for client, message, code in cases:
            error = await client.ask(message)
            assert is_spanish_error(error, code), (message, error)
        # Shown as text, as sent (tidied spaces, no control characters), never as HTML.
        await ana.send({"type": "say", "text": "<img src=x onerror=alert(1)>\x00  &amp;\n"})
        message = await said(caro, "<img src=x onerror=alert(1)> &amp;")
        assert message["name"] == "Ana"
        # Five in ten seconds; the sixth is refused, and nobody hears it.
        for n in range(5):
            await beto.send({"type": "say", "text": f"uno más {n}"})
        await said(caro, "uno más 4")
        error = await beto.ask({"type": "say", "text": "la sexta"})
        assert is_spanish_error(error, "server.chat_rate"), error
        for c in (ana, beto, caro):
            await c.ping()
            texts = [m["text"] for m in chats(c)]
            assert "la sexta" not in texts and "x" * 201 not in texts and "hola" not in texts
        for c in (ana, beto, caro, anon):
            await c.close()

    asyncio.run(scenario())


def test_a_blocked_persons_words_never_reach_the_blocker(server: ServerProcess) -> None:
    async def scenario() -> None:
        code, ana, beto, caro, anon = await table(server)
        beto_id = next(m for m in beto.log if m["type"] == "welcome")["you"]["id"]
        await ana.send({"type": "block", "person": beto_id})
        assert (await ana.expect("blocked"))["people"] == [beto_id]
        await beto.send({"type": "say", "text": "¡Capicúa, chico!"})
        await said(caro, "¡Capicúa, chico!")
        await caro.send({"type": "say", "phrase": "buena"})
        await ana.expect("chat", where=lambda m: m["phrase"] == "buena")
        await ana.ping()
        assert "¡Capicúa, chico!" not in [m["text"] for m in chats(ana)]
        await ana.close()
        again = Client(server, code, ana.token)
        welcome = await again.connect()
        assert welcome["blocked"] == [beto_id]
        assert [m["person"] for m in welcome["chat"]] == [3]
        await again.send({"type": "block", "person": beto_id, "on": False})
        assert (await again.expect("blocked"))["people"] == []
        await beto.send({"type": "say", "text": "ya me oyes"})
        await said(again, "ya me oyes")
        for c in (again, beto, caro, anon):
            await c.close()

    asyncio.run(scenario())
