"""The Repaso's endpoints on a real ``fichaflow serve`` process: a finished hand of a mesa
rebuilt and reviewed, a record posted from a file, and the pista, given only to a player whose
every other seat is a bot, from that player's view alone."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from fichaflow.core import record
from fichaflow.core.tiles import name
from fichaflow.core.view import SeatView
from fichaflow.review.service import pista
from tests.review.mesas import bots_play_a_hand, my_turn_against_bots
from tests.review.records import LAST_TILES
from tests.server.kit import ServerProcess, create_mesa, join


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("repaso")
    with ServerProcess(f"sqlite:///{Path(folder) / 'repaso.sqlite3'}") as process:
        yield process


def _get(server: ServerProcess, path: str, **params: Any) -> httpx.Response:
    return httpx.get(f"{server.url}{path}", params=params, timeout=120)


def _post(server: ServerProcess, path: str, body: Any) -> httpx.Response:
    return httpx.post(f"{server.url}{path}", json=body, timeout=120)


def _error(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code
    assert error["message"] != error["message_en"] and len(error["message"]) > 10


def test_a_finished_hand_of_a_mesa_is_rebuilt_and_reviewed(server: ServerProcess) -> None:
    code = asyncio.run(bots_play_a_hand(server))
    path = f"/api/mesas/{code}/partidas/1/hands/1/repaso"
    shown = _get(server, path)
    assert shown.status_code == 200, shown.text
    body = shown.json()
    assert body["review"] is None
    timeline = body["timeline"]
    # The mesa's own record says what happened: the timeline replays exactly that.
    saved = _get(server, f"/api/mesas/{code}/partidas/1/record").json()
    partida = record.replay(record.parse_record(saved))
    played = partida.played[0]
    steps = timeline["steps"]
    assert len(steps) == len(played.hand.history) + 1
    assert steps[0]["kind"] is None and all(len(h) == 7 for h in steps[0]["hands"])
    assert [s["tile"] for s in steps[1:] if s["kind"] == "play"] == [
        name(t.move.tile) for t in played.hand.plays()
    ]
    assert [s["kind"] for s in steps[1:]].count("pass") == len(played.hand.history) - len(
        played.hand.plays()
    )
    assert steps[-1]["ended"] and steps[-1]["pips"] == list(played.hand.pips())
    assert steps[-1]["line"] == [list(pair) for pair in played.hand.line()]
    assert timeline["score"]["gains"] == list(played.score.gains(2))
    assert timeline["explanation"]["es"] and timeline["explanation"]["en"]

    reviewed = _get(server, path, seat=1, precision="fast")
    assert reviewed.status_code == 200, reviewed.text
    review = reviewed.json()["review"]
    assert review["seat"] == 1 and review["precision"] == "fast"
    indices = [d["index"] for d in review["decisions"]]
    assert indices == sorted(indices) and review["summary"]["decisions"] == len(indices)
    for decision in review["decisions"]:
        turn = played.hand.history[decision["index"]]
        assert turn.seat == 1 and decision["played"].split(":")[0] in (
            name(turn.move.tile),
            "-".join(reversed(name(turn.move.tile).split("-"))),
        )
        assert decision["moves"][0]["verdict"] == "best" and len(decision["moves"]) > 1
    # Asked again, the answer is remembered, and it is the same.
    again = _get(server, path, seat=1, precision="fast")
    assert again.json()["review"] == review

    _error(_get(server, f"/api/mesas/{code}/partidas/1/hands/99/repaso"), 400, "review.hand")
    _error(_get(server, path, seat=4), 400, "review.seat")
    _error(_get(server, path, seat="uno"), 400, "review.whole")
    _error(_get(server, f"/api/mesas/{code}/partidas/x/hands/1/repaso"), 400, "review.whole")
    _error(_get(server, path, seat=0, precision="eterna"), 400, "review.precision")
    _error(_get(server, "/api/mesas/nadie/partidas/1/hands/1/repaso"), 404, "server.no_mesa")


def test_a_record_from_a_file_is_reviewed(server: ServerProcess) -> None:
    answer = _post(server, "/api/repaso", {"record": LAST_TILES, "hand": 1, "seat": 1,
                                           "precision": "fast"})  # fmt: skip
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["timeline"]["players"]["es"] == ["Ana", "Beto"]
    assert body["timeline"]["named"] is True
    last = body["review"]["decisions"][-1]
    assert last["played"] == "6-4:right" and last["verdict"] == "mistake"
    assert last["cost"] == pytest.approx(21)

    _error(_post(server, "/api/repaso", {"hand": 1}), 400, "review.missing")
    _error(_post(server, "/api/repaso", {"record": LAST_TILES, "seat": "uno"}), 400,
           "review.whole")  # fmt: skip
    _error(_post(server, "/api/repaso", {"record": {"rules": "nada"}}), 400,
           "rules.unknown_preset")  # fmt: skip
    broken = httpx.post(f"{server.url}/api/repaso", content=b"{", timeout=30)
    _error(broken, 400, "review.not_json")


def test_the_pista_ranks_the_players_moves_from_their_view(server: ServerProcess) -> None:
    code, token, view = asyncio.run(my_turn_against_bots(server))
    hint = _post(server, f"/api/mesas/{code}/pista", {"token": token})
    assert hint.status_code == 200, hint.text
    body = hint.json()
    assert body["seat"] == 0
    legal = set(view["legal"])
    assert {m["move"] for m in body["moves"]} <= legal
    assert body["moves"][0]["verdict"] == "best"
    assert all(m["hindsight"] is None for m in body["moves"])
    # The same answer as the pista computed here from the view the server sent Ana, and
    # nothing else: the server used her view alone.
    assert json.loads(json.dumps(pista(SeatView.from_json(view)))) == body

    _error(_post(server, f"/api/mesas/{code}/pista", {"token": "not-a-token"}), 400,
           "server.bad_token")  # fmt: skip
    _error(_post(server, f"/api/mesas/{code}/pista", {"token": token, "precision": "deep"}),
           400, "review.precision")  # fmt: skip


def test_no_pista_where_another_person_plays_or_before_the_hand(server: ServerProcess) -> None:
    async def scenario() -> None:
        mesa = await create_mesa(
            server, rules="venezuela", seats=[None, None, "tirafichas", "tirafichas"],
            name="Ana", seat=0,
        )  # fmt: skip
        await join(server, mesa["code"], "Beto", 1)
        _error(_post(server, f"/api/mesas/{mesa['code']}/pista", {"token": mesa["token"]}),
               400, "review.pista_bots")  # fmt: skip
        alone = await create_mesa(
            server, rules="venezuela", seats=[None, "gallo", "gallo", "gallo"], name="Ana",
            seat=0,
        )  # fmt: skip
        _error(_post(server, f"/api/mesas/{alone['code']}/pista", {"token": alone["token"]}),
               400, "review.pista_turn")  # fmt: skip
        # A token of one mesa opens nothing at another.
        _error(_post(server, f"/api/mesas/{alone['code']}/pista", {"token": mesa["token"]}),
               400, "server.bad_token")  # fmt: skip

    asyncio.run(scenario())


def test_a_record_without_names_names_its_seats_once(server: ServerProcess) -> None:
    """Without players' names each seat is «asiento N» already: the page's seat list must not
    read «asiento 0 (asiento 1)»; ``named`` tells it not to add a second number."""
    record = {k: v for k, v in LAST_TILES.items() if k != "players"}
    answer = _post(server, "/api/repaso", {"record": record, "hand": 1, "seat": 1,
                                           "precision": "fast"})  # fmt: skip
    assert answer.status_code == 200, answer.text
    timeline = answer.json()["timeline"]
    assert timeline["named"] is False
    assert timeline["players"]["es"] == ["asiento 0", "asiento 1"]
