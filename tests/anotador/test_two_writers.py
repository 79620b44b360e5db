"""Two server processes writing one sheet (a cluster, or a server and its restart overlapping):
an action that loses the race to another process is tried again on top of the stored log, after
a random pause, and no action is lost, stored twice or refused (`anotador.busy`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from fichaflow.anotador import router, store
from fichaflow.anotador.entries import load_change
from fichaflow.anotador.router import AnotadorService
from fichaflow.http import locks
from fichaflow.storage import migrate
from fichaflow.storage.database import Database

SETUP = {"name": "Patio", "rules": "venezuela", "players": ["Ana", "Beto", "Carla", "Diego"]}


def adjust() -> Any:
    """A point for team 1 (a few dozen stay short of the partida's target)."""
    return load_change({"type": "adjust", "team": 1, "points": 1, "reason": "cabra"})


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[tuple[AnotadorService, AnotadorService]]:
    """Two services, each with its own connections, on one database file: two processes."""
    url = f"sqlite:///{tmp_path / 'anotador.sqlite3'}"
    first, second = Database(url), Database(url)
    migrate(first.engine)
    try:
        yield AnotadorService(first, shared=True), AnotadorService(second, shared=True)
    finally:
        first.close()
        second.close()


def test_an_action_that_loses_the_race_pauses_and_is_stored_on_top(
    two_servers: tuple[AnotadorService, AnotadorService], monkeypatch: pytest.MonkeyPatch
) -> None:
    a, b = two_servers
    tries: list[int] = []
    pauses: list[tuple[float, float]] = []
    real_pause = locks.pause_before_try

    async def counted(attempt: int) -> None:
        tries.append(attempt)
        await real_pause(attempt)

    def no_wait(low: float, high: float) -> float:
        pauses.append((low, high))
        return 0.0

    monkeypatch.setattr(router, "pause_before_try", counted)
    monkeypatch.setattr("fichaflow.http.locks.random.uniform", no_wait)

    async def scenario() -> list[str]:
        room = await a.create(SETUP)
        await a.act(room.code, "k0", adjust())
        real_run: Callable[..., Any] = a.storage.run
        raced = False

        async def b_writes_first(function: Callable[..., Any], *args: Any) -> Any:
            """The other process stores its line between this one's look and its write."""
            nonlocal raced
            if function is store.insert_action and not raced:
                raced = True
                await b.act(room.code, "k-b", adjust())
            return await real_run(function, *args)

        monkeypatch.setattr(a.storage, "run", b_writes_first)
        _room, action_id, duplicate = await a.act(room.code, "k-a", adjust())
        assert not duplicate and action_id == "3"  # on top of b's line, not in its place
        stored = await real_run(store.load, a.storage.engine, room.code, None)
        assert stored is not None
        return list(stored.keys)

    keys = asyncio.run(scenario())
    assert keys == ["k0", "k-b", "k-a"]  # every line once, in the order stored
    assert tries == [0, 0, 0, 1]  # k0, k-a, k-b inside k-a's first try, then k-a again
    assert pauses == [(0, locks.RETRY_PAUSE)]  # with a pause before its second try


def test_two_processes_writing_at_once_lose_nothing(
    two_servers: tuple[AnotadorService, AnotadorService],
) -> None:
    a, b = two_servers

    async def scenario() -> list[str]:
        room = await a.create(SETUP)
        await b.room(room.code)  # both have the sheet in memory
        writers = [a if n % 2 else b for n in range(24)]
        await asyncio.gather(*(w.act(room.code, f"k{n}", adjust()) for n, w in enumerate(writers)))
        stored = await a.storage.run(store.load, a.storage.engine, room.code, None)
        assert stored is not None
        return list(stored.keys)

    keys = asyncio.run(scenario())
    assert sorted(keys) == sorted(f"k{n}" for n in range(24))  # none lost, none stored twice
