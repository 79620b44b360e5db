"""One lock per key (a mesa, a torneo), for what a server process must do one at a time per
thing while other things go on alongside; and the pause before trying again what another server
process did first."""

from __future__ import annotations

import asyncio
import random
import weakref
from typing import Final

TRIES: Final = 8
"""How often an action is tried, from what is stored, when another server process wrote first
(within one process, actions on one thing take turns and never race)."""
RETRY_PAUSE: Final = 0.02
"""Seconds, at most, before the second try of an action another process wrote first; each later
try may wait twice as long."""


async def pause_before_try(attempt: int) -> None:
    """Before try ``attempt`` (0: the first) of an action that lost a race with another server
    process: nothing before the first, then a random pause, up to twice as long each time, so
    that two processes that collided do not collide again in step."""
    if attempt:
        await asyncio.sleep(random.uniform(0, RETRY_PAUSE * 2 ** (attempt - 1)))


class KeyedLocks:
    """``locks.of(key)`` is the same :class:`asyncio.Lock` for everyone who holds or waits for
    it; once nobody does, it is forgotten by itself (a weak reference), so a process that has
    seen many keys keeps no lock for each."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def of(self, key: str) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    def __len__(self) -> int:
        """How many keys have a lock that someone holds or waits for."""
        return len(self._locks)
