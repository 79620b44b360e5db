"""The lobby can say how strong each bot is: /api/bots gives the offered bots' fixed ratings,
mode by mode, on the scale people are rated on (docs/ratings.md)."""

from __future__ import annotations

import asyncio

from fichaflow.core.rules import Mode
from fichaflow.ratings.bots import bot_ratings
from tests.server.kit import ServerProcess, get_json


def test_the_bots_offered_come_with_their_ratings(server: ServerProcess) -> None:
    answer = asyncio.run(get_json(server, "/api/bots"))
    assert set(answer["ratings"]) == {str(m) for m in Mode}
    for mode in Mode:
        served = answer["ratings"][str(mode)]
        assert set(served) <= set(answer["bots"])  # omnisciente, never offered, is not rated
        assert served == {b: r for b, r in bot_ratings(mode).items() if b in answer["bots"]}
        assert served["tirafichas"] == 1000
        assert served["jugador"] > served["tirapuntos"]
