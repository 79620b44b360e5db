"""The anotador's edges (#15): English messages with no Spanish in them, the read-only link
refused as read-only, a partida that does not exist answered as such, and facts no deal can
produce refused with the reason."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from tests.anotador.test_api import SEED_TRANQUE, new_mesa, send

if TYPE_CHECKING:  # the fixture's type; pytest provides the fixture itself
    from tests.server.kit import ServerProcess

SPANISH = ("debe", "número", "lista", "objeto", "línea", "acción", "petición", "válido", " o ")
BAD_ACTIONS: list[object] = [
    [],
    {"type": "hand", "end": "ficha", "seat": 0},
    {"type": "hand", "end": "domino", "seat": "0"},
    {"type": "hand", "end": "domino", "seat": 0, "pips": [1, "2"]},
    {"type": "hand", "end": "domino", "seat": 0, "pips": "1"},
    {"type": "hand", "end": "domino", "seat": 0, "capicua": 1},
    {"type": "edit", "target": "", "entry": {}},
    {"type": "edit", "target": "1", "entry": 3},
    {"type": "new_partida", "custom": "otra"},
    {"type": "queue", "queue": [1]},
    {"type": "borrar"},
]


def _post(server: ServerProcess, path: str, **kwargs: Any) -> httpx.Response:
    return httpx.post(f"{server.url}/api/anotador/{path}", timeout=30, **kwargs)


def test_english_messages_hold_no_spanish(server: ServerProcess) -> None:
    code = new_mesa(server)["code"]
    answers = [send(server, code, action) for action in BAD_ACTIONS]
    answers += [
        _post(server, f"mesas/{code}/actions", content=b"{nope"),
        _post(server, f"mesas/{code}/actions", content=b"[1]"),
        _post(server, f"mesas/{code}/actions", json={"key": "corta", "action": SEED_TRANQUE}),
        _post(server, f"mesas/{code}/actions", content=b" " * 9000),
        _post(server, "mesas", json=[]),
        _post(server, "mesas", json={"players": "Ana"}),
        httpx.get(f"{server.url}/api/anotador/export/{code}/1.pdf"),
    ]
    for answer in answers:
        assert answer.status_code in (400, 413), answer.text
        error = answer.json()["error"]
        assert error["message"] != error["message_en"], error
        english = error["message_en"].lower()
        assert not [word for word in SPANISH if word in english], error


def test_writing_through_the_read_only_link_says_it_is_read_only(server: ServerProcess) -> None:
    mesa = new_mesa(server)
    answer = send(server, mesa["watch"], SEED_TRANQUE)
    assert answer.status_code == 403, answer.text
    assert answer.json()["error"]["code"] == "anotador.read_only"
    reading = httpx.get(f"{server.url}/api/anotador/mesas/{mesa['watch']}")
    assert reading.status_code == 403 and reading.json()["error"]["code"] == "anotador.read_only"
    nobody = send(server, "no-such-mesa-" + uuid.uuid4().hex[:8], SEED_TRANQUE)
    assert nobody.status_code == 404
    assert nobody.json()["error"]["code"] == "anotador.mesa_not_found"
    state = httpx.get(f"{server.url}/api/anotador/watch/{mesa['watch']}").json()
    assert state["version"] == 0  # nothing was written


@pytest.mark.parametrize("which", ["code", "watch"])
def test_exporting_a_partida_that_does_not_exist_is_not_found(
    server: ServerProcess, which: str
) -> None:
    mesa = new_mesa(server)
    send(server, mesa["code"], SEED_TRANQUE)
    answer = httpx.get(f"{server.url}/api/anotador/export/{mesa[which]}/2.csv?lang=en")
    assert answer.status_code == 404, answer.text
    error = answer.json()["error"]
    assert error["code"] == "anotador.no_partida"
    assert error["message"] == "Esta mesa no tiene partida 2: tiene 1"
    assert "line" not in error["message_en"]
