"""An adjustment's points and reason are bounded like every other number and text: a huge
number or a hidden character is refused in Spanish and the sheet does not move."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

import httpx
import pytest

if TYPE_CHECKING:  # the fixture's type; pytest provides the fixture itself
    from tests.server.kit import ServerProcess


def act(server: ServerProcess, code: str, action: dict[str, Any]) -> httpx.Response:
    body = {"key": uuid.uuid4().hex, "action": action}
    return httpx.post(f"{server.url}/api/anotador/mesas/{code}/actions", json=body, timeout=30)


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"points": 10**30}, "anotador.points"),
        ({"points": -(2**63)}, "anotador.points"),
        ({"points": 1001}, "anotador.points"),
        ({"reason": "cabra\x00"}, "anotador.reason_control"),
        ({"reason": "ca\u202ebra"}, "anotador.reason_control"),
    ],
)
def test_an_adjustment_out_of_bounds_is_refused_and_changes_nothing(
    server: ServerProcess, change: dict[str, Any], code: str
) -> None:
    made = httpx.post(
        f"{server.url}/api/anotador/mesas",
        json={"name": "Patio", "players": ["Ana", "Beto", "Carla", "Diego"]},
    )
    assert made.status_code == 201, made.text
    mesa = made.json()
    refused = act(
        server,
        mesa["code"],
        {"type": "adjust", "team": 1, "points": 5, "reason": "cabra", **change},
    )
    assert refused.status_code == 400, refused.text
    error = refused.json()["error"]
    assert error["code"] == code and "ajuste" in error["message"]
    after = httpx.get(f"{server.url}/api/anotador/mesas/{mesa['code']}").json()
    assert after["version"] == 0 and after["state"] == mesa["state"]
    # the largest adjustment a table may agree on still goes in
    kept = act(
        server, mesa["code"], {"type": "adjust", "team": 1, "points": -1000, "reason": "cabra"}
    )
    assert kept.status_code == 200, kept.text
