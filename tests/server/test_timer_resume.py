"""A turn timer goes on from where it was when the server comes back: a restart (or another
server taking the mesa over) does not give the seat its whole turn again."""

from __future__ import annotations

import asyncio
import time

from fichaflow.server.service import RESUME_GRACE
from tests.server.kit import TEST_SEED, Client, ServerProcess, create_mesa

TURN_SECONDS = 12


def test_a_killed_server_resumes_the_turn_timer_where_it_was(database_url: str) -> None:
    server = ServerProcess(database_url, seed=TEST_SEED)
    server.start()
    try:

        async def before() -> tuple[str, str, float]:
            created = await create_mesa(
                server, rules="mano_a_mano", seats=[None, "tirafichas"], name="Ana", seat=0,
                options={"turn_seconds": TURN_SECONDS, "bot_pause_ms": 0},
            )  # fmt: skip
            ana = Client(server, created["code"], created["token"])
            await ana.connect()
            await ana.send({"type": "start"})
            start = await ana.expect("hand_start")
            # in the tests' deal Ana's seat 0 holds the 6-6 and leads: her turn, her timer
            assert start["view"]["turn"] == 0
            assert start["turn_deadline"] is not None
            await ana.close()
            return created["code"], created["token"], start["turn_deadline"] / 1000

        code, token, deadline = asyncio.run(before())
        # Four of the turn's twelve seconds go by before the server dies.
        time.sleep(max(0.0, deadline - TURN_SECONDS + 4 - time.time()))
        server.kill()
        server.start()

        async def after() -> tuple[float, float, float]:
            ana = Client(server, code, token)
            welcome = await ana.connect()  # the mesa is loaded again for this hello
            back = time.time()
            assert welcome["view"]["turn"] == 0
            resumed = welcome["mesa"]["turn_deadline"]
            assert resumed is not None
            timed = await ana.expect("move", TURN_SECONDS + 10, lambda m: m["move"]["seat"] == 0)
            assert timed["move"]["timed_out"] is True
            fired = time.time()
            await ana.close()
            return back, resumed / 1000, fired

        back, resumed, fired = asyncio.run(after())
    finally:
        server.stop()
    # The turn's time went on: the deadline is the first one (or, if the server took long to
    # come back, a short grace to reconnect), not a whole new turn from the reload.
    assert abs(resumed - max(deadline, back + RESUME_GRACE)) < 1.5
    assert resumed < back + TURN_SECONDS - 2
    # and the timer plays when the deadline it announced comes, not later
    assert resumed - 0.5 < fired < resumed + 2.5
