"""One lock per key (a mesa, a torneo), for what a server process must do one at a time per
thing while other things go on alongside."""

from __future__ import annotations

import asyncio
import weakref


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
