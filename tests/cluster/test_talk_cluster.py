"""Table talk across a cluster (#16): two servers on one PostgreSQL database and one Redis (the
test's own, on a free port); the mesa lives on the first, and half of its people reach it through
the second, which pipes their WebSockets to the holder. What each person hears must not depend on
the server they reached: a mirón's words mid-hand reach the mirones on both servers and no
player's socket on either, a quick phrase reaches everybody, a blocked person's words never reach
the blocker, and talk refused through the relaying server is heard by nobody."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from tests.cluster.kit import needs_redis, two_nodes
from tests.server.kit import (
    Client,
    ServerProcess,
    create_mesa,
    is_spanish_error,
    join,
)
from tests.server.test_talk import chats, said

pytestmark = [needs_redis, pytest.mark.slow]  # two servers' starts: the full run


@pytest.fixture(scope="module")
def nodes() -> Iterator[list[ServerProcess]]:
    with two_nodes("fichaflow_talk") as servers:
        yield servers


def test_what_each_person_hears_does_not_depend_on_the_server(nodes: list[ServerProcess]) -> None:
    holder, relay = nodes

    async def scenario() -> None:
        created = await create_mesa(
            holder, rules="dominicana", seats=[None, None, "tirafichas", "tirafichas"],
            name="Ana", seat=0, options={"bot_pause_ms": 0},
        )  # fmt: skip
        code = created["code"]
        beto = await join(relay, code, "Beto", 1)  # joined through the other server
        caro = await join(relay, code, "Caro", None)
        dario = await join(holder, code, "Darío", None)
        ana_c = Client(holder, code, created["token"])
        beto_c = Client(relay, code, beto["token"])  # piped to the holder
        caro_c = Client(relay, code, caro["token"])  # a mirón, piped
        dario_c = Client(holder, code, dario["token"])  # a mirón at the holder
        everybody = (ana_c, beto_c, caro_c, dario_c)
        for c in everybody:
            await c.connect()

        await ana_c.send({"type": "start"})
        for c in everybody:
            await c.expect("hand_start")
        # Mid-hand, a piped mirón's words reach both mirones and neither player.
        await caro_c.send({"type": "say", "text": "Beto lleva los cincos"})
        for c in (caro_c, dario_c):
            message = await said(c, "Beto lleva los cincos")
            assert message["role"] == "miron" and message["name"] == "Caro"
        # A piped player's quick phrase reaches everybody, on both servers.
        await beto_c.send({"type": "say", "phrase": "se_enfria"})
        for c in everybody:
            message = await c.expect("chat", where=lambda m: m["phrase"] == "se_enfria")
            assert message["role"] == "player" and message["name"] == "Beto"
        for c in (ana_c, beto_c):
            await c.ping()
            assert "Beto lleva los cincos" not in [m["text"] for m in chats(c)]

        # Darío (at the holder) blocks Caro (piped): Caro's words no longer reach him, while
        # his own still reach Caro through the relay.
        caro_id = next(m for m in caro_c.log if m["type"] == "welcome")["you"]["id"]
        await dario_c.send({"type": "block", "person": caro_id})
        assert (await dario_c.expect("blocked"))["people"] == [caro_id]
        await caro_c.send({"type": "say", "text": "otra vez yo"})
        await said(caro_c, "otra vez yo")
        await dario_c.send({"type": "say", "text": "te leo igual"})
        await said(caro_c, "te leo igual")
        await dario_c.ping()
        assert "otra vez yo" not in [m["text"] for m in chats(dario_c)]

        # Bad talk through the relay gets the holder's Spanish error and nobody hears it.
        error = await beto_c.ask({"type": "say", "text": "x" * 201})
        assert is_spanish_error(error, "server.chat_too_long"), error
        for c in everybody:
            await c.ping()
            assert "x" * 201 not in [m["text"] for m in chats(c)]
        for c in everybody:
            await c.close()

    asyncio.run(scenario())
