"""A mirón waiting for a sheet's news hears of a renaming that leaves no new line. In a cluster
the sheet leaves the server's memory when another server deletes an account on it, and the
waiting mirones are woken; if that happens the very moment one of their periodic looks at the
database runs out, the mirón must still be answered, not left waiting the whole long poll."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest

from fichaflow.anotador import store
from fichaflow.anotador.router import WATCH_WAIT, AnotadorService
from fichaflow.storage import migrate
from fichaflow.storage.database import Database

SETUP = {"name": "Patio", "rules": "venezuela", "players": ["Ana", "Beto", "Carla", "Diego"]}


def test_a_sheet_forgotten_as_a_look_runs_out_still_answers_its_miron(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = Database(f"sqlite:///{tmp_path / 'anotador.sqlite3'}")
    migrate(storage.engine)
    service = AnotadorService(storage, shared=True)
    real_wait_for = asyncio.wait_for
    looks = 0

    async def look_runs_out_as_forgotten(waited: Awaitable[Any], timeout: float) -> Any:
        """The first look runs out and, in the same moment, the sheet leaves memory (as a
        deletion elsewhere makes it); later looks wait as usual."""
        nonlocal looks
        looks += 1
        if looks > 1:
            return await real_wait_for(waited, timeout)
        waited.close()  # type: ignore[attr-defined]
        await service.forget_rooms(list(service.rooms))
        raise TimeoutError

    async def scenario() -> float:
        room = await service.create(SETUP)
        monkeypatch.setattr(
            "fichaflow.anotador.router.asyncio.wait_for", look_runs_out_as_forgotten
        )
        started = asyncio.get_running_loop().time()
        heard = await real_wait_for(service.news(room.watch, room.version), WATCH_WAIT + 5)
        assert heard.watch == room.watch and heard is not room  # read again from the database
        return asyncio.get_running_loop().time() - started

    try:
        waited = asyncio.run(scenario())
    finally:
        monkeypatch.undo()
        storage.close()
    assert looks == 1  # answered at once, not after looking again until the wait ran out
    assert waited < WATCH_WAIT / 4


def test_a_sheet_forgotten_while_a_look_reads_the_database_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The deletion's word comes while a periodic look is asking the database for the sheet's
    version: the mirón is answered with the sheet read again (the new names), not with the copy
    that has just left memory (tests/cluster/test_deletion_cluster.py saw the old name so)."""
    storage = Database(f"sqlite:///{tmp_path / 'anotador.sqlite3'}")
    migrate(storage.engine)
    service = AnotadorService(storage, shared=True)
    real_run = storage.run
    looks = 0

    async def forgotten_during_the_second_look(function: Any, *args: Any) -> Any:
        nonlocal looks
        if function is store.version:
            looks += 1
            if looks == 2:  # (the first is the request's own, before it waits)
                await service.forget_rooms(list(service.rooms))
        return await real_run(function, *args)

    async def scenario() -> None:
        room = await service.create(SETUP)
        monkeypatch.setattr(storage, "run", forgotten_during_the_second_look)
        heard = await asyncio.wait_for(service.news(room.watch, room.version), WATCH_WAIT + 5)
        assert heard.watch == room.watch and heard is not room  # read again from the database

    try:
        asyncio.run(scenario())
    finally:
        monkeypatch.undo()
        storage.close()
    assert looks == 2
