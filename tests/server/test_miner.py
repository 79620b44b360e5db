"""When the server's own mining of problemas runs (``fichaflow serve --mine-problemas-every``)."""

from __future__ import annotations

import asyncio

from fichaflow.server.miner import FIRST_RUN_SECONDS, Miner


def test_the_first_run_does_not_wait_a_whole_long_interval() -> None:
    """A server restarted more often than every 6 hours never mined while its first run waited a
    whole interval: it now comes within minutes of the start, then once per interval."""
    assert Miner("sqlite://", 6 * 3600).first == FIRST_RUN_SECONDS < 6 * 3600
    assert Miner("sqlite://", 2).first == 2  # (an interval shorter than that: the interval)
    runs: list[float] = []

    async def scenario() -> None:
        miner = Miner("sqlite://", every=3600, first=0.05)

        async def run_once() -> None:
            runs.append(asyncio.get_running_loop().time())

        miner.run_once = run_once  # type: ignore[method-assign]
        miner.start()
        await asyncio.sleep(0.6)
        await miner.close()

    asyncio.run(scenario())
    assert len(runs) == 1  # the first run, and not the next one, an hour away
