"""Results that arrive together all go in. At a torneo played online every table of a round
ends within a second or two of the others, and each ending writes the torneo's record: one
server process (or several sharing the database) must enter every one of them, none lost to a
«torneo ocupado» after a few lost races."""

from __future__ import annotations

import asyncio
from pathlib import Path

from fichaflow.storage import migrate
from fichaflow.storage.database import Database
from fichaflow.torneo import model
from fichaflow.torneos.router import TorneoService

PAIRS = 32
"""Sixteen tables in round 1: more results at once than the tries one writer is given."""


def entered_together(services: list[TorneoService], code: str) -> None:
    """Every table's result of round 1 entered at once, spread over ``services``."""

    def result(table: int) -> model.Result:
        return model.Result(score=(100 + table, table))

    async def enter_all() -> None:
        async def enter(service: TorneoService, table: int) -> None:
            def action(torneo: model.Torneo) -> model.Entry:
                return torneo.enter(1, table, result(table), "mesa en línea", "2026-12-04")

            await service.act(code, action)

        await asyncio.gather(
            *(enter(services[t % len(services)], t) for t in range(1, PAIRS // 2 + 1))
        )

    asyncio.run(enter_all())


def a_paired_torneo(service: TorneoService) -> str:
    spec = {
        "name": "Todos a la vez",
        "rules": {"preset": "venezuela", "target": 100},
        "rounds": 3,
        "pairing": "swiss",
        "entrants": [
            {"name": f"Pareja {n:02d}", "players": [f"J{n:02d}a", f"J{n:02d}b"]}
            for n in range(1, PAIRS + 1)
        ],
    }

    async def made() -> str:
        stored, _ = await service.create(spec)
        await service.act(stored.code, lambda torneo: torneo.next_round())
        return stored.code

    return asyncio.run(made())


def test_every_result_of_a_round_ending_at_once_goes_in(tmp_path: Path) -> None:
    storage = Database(f"sqlite:///{tmp_path / 'torneos.sqlite3'}")
    migrate(storage.engine)
    try:
        service = TorneoService(storage)
        code = a_paired_torneo(service)
        entered_together([service], code)
        _, torneo = asyncio.run(service.read(code))
        assert sorted(table for _, table in torneo.results()) == list(range(1, PAIRS // 2 + 1))
        assert all(torneo.results()[(1, t)].score == (100 + t, t) for t in range(1, PAIRS // 2 + 1))
    finally:
        storage.close()


def test_two_servers_on_one_database_enter_every_result_between_them(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'torneos.sqlite3'}"
    first, second = Database(url), Database(url)
    migrate(first.engine)
    try:
        services = [TorneoService(first), TorneoService(second)]
        code = a_paired_torneo(services[0])
        entered_together(services, code)
        _, torneo = asyncio.run(services[1].read(code))
        assert len(torneo.results()) == PAIRS // 2
        assert len(torneo.log) == PAIRS // 2  # each entered once: no retry wrote twice
    finally:
        first.close()
        second.close()
