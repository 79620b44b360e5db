"""The server mining its own partidas for problemas every so often (``fichaflow serve
--mine-problemas-every``), so that nobody has to run ``fichaflow problemas mine-server`` by hand.

Each run is that very command in a child process: the solving is CPU work that must never run in
the server's event loop, nor slow its bots (the child lowers its own priority). At most one run
at a time: the next waits for the last to end, and then for another interval. A stopping server
ends its run; a server killed without a word leaves none either, as the child watches its parent
(:func:`fichaflow.http.workers.watch_parent`). In a cluster, each node starts its own runs, and
the command itself lets only one of them mine at a time (a PostgreSQL advisory lock).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys

log = logging.getLogger(__name__)

FIRST_RUN_SECONDS = 600.0
"""The first run comes this long after the start (or one interval, if shorter): a server
restarted more often than its interval would otherwise never mine. What was mined is not mined
again, so a run with nothing new is short."""
STOP_GRACE_SECONDS = 5.0
"""How long a run the server stops is given to end (SIGTERM) before it is killed."""

DB_ENV = "FICHAFLOW_DB"
"""The child reads the database's URL from here (``mine-server --db``'s variable), not from its
command line, which every user of the machine can read with its password."""


class Miner:
    """Runs ``fichaflow problemas mine-server`` on the server's database every ``every`` seconds,
    the first ``first`` seconds after the start (:data:`FIRST_RUN_SECONDS`, or ``every`` if
    shorter), one run at a time."""

    def __init__(self, database_url: str, every: float, first: float | None = None) -> None:
        self.database_url = database_url
        self.every = every
        self.first = min(every, FIRST_RUN_SECONDS) if first is None else first
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.every > 0:
            self.task = asyncio.get_running_loop().create_task(self._keep_mining())

    async def _keep_mining(self) -> None:
        wait = self.first
        while True:
            await asyncio.sleep(wait)
            wait = self.every
            try:
                await self.run_once()
            except OSError as exc:  # no process could be started: try again next time
                log.warning("problemas: the miner could not start: %s", exc)

    async def run_once(self) -> None:
        command = [sys.executable, "-m", "fichaflow", "problemas", "mine-server"]
        command += ["--parent", str(os.getpid())]
        env = {**os.environ, DB_ENV: self.database_url}
        child = await asyncio.create_subprocess_exec(
            *command,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            _out, err = await child.communicate()
        except BaseException:  # the server stops (cancelled): the run ends with it
            await _end(child)
            raise
        if child.returncode:
            said = err.decode(errors="replace").strip().splitlines()
            log.warning(
                "problemas: the miner ended with %s: %s", child.returncode, said[-1] if said else ""
            )

    async def close(self) -> None:
        """Stop the periodic runs and end the one running, if any."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task


async def _end(child: asyncio.subprocess.Process) -> None:
    if child.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        child.terminate()
    try:
        await asyncio.wait_for(child.wait(), STOP_GRACE_SECONDS)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            child.kill()
        await child.wait()
