"""Processes for a server's CPU work (the bots' moves, the Repaso's reviews) that end with it.

A pool's worker waits on a queue that only the server writes to. When the server is killed
without a word (SIGKILL, a crash, the out-of-memory killer) nobody closes that queue, and the
worker would wait for good, holding its memory and a process slot: a restarted node would
gather them. So each worker watches its parent and leaves as soon as the server is gone.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Final

PARENT_CHECK_SECONDS: Final = 1.0


def worker_pool(workers: int, initializer: Callable[[], None] | None = None) -> ProcessPoolExecutor:
    """``workers`` fresh processes (spawned: nothing of the server's state is copied), each
    running ``initializer`` first, each ending within a second of the server's death."""
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(
        workers,
        mp_context=context,
        initializer=_start_worker,
        initargs=(os.getpid(), initializer),
    )


def _start_worker(parent: int, initializer: Callable[[], None] | None) -> None:
    watch_parent(parent)
    if initializer is not None:
        initializer()


def watch_parent(parent: int) -> None:
    """End this process within a second of ``parent``'s death (a thread watches it), whatever
    the process is doing then."""
    threading.Thread(target=_leave_with, args=(parent,), daemon=True, name="parent-watch").start()


def _leave_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)
