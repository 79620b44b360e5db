"""The anotador's API on a real server process, on SQLite and on PostgreSQL: entries saved
before they show, stored once however often they are sent, durable across a restart, and
followed live through the read-only link."""

from __future__ import annotations

import csv
import io
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import httpx

if TYPE_CHECKING:  # the fixture's type; pytest provides the fixture itself
    from tests.server.kit import ServerProcess

SEED_TRANQUE = {"type": "hand", "end": "tranque", "seat": 0, "pips": [8, 11, 7, 14], "leader": 0}
PLAYERS = ["Ana", "Beto", "Carla", "Diego"]


def new_mesa(server: ServerProcess, **extra: Any) -> dict[str, Any]:
    body = {"name": "Patio", "rules": "dominicana", "players": PLAYERS, **extra}
    response = httpx.post(f"{server.url}/api/anotador/mesas", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def send(
    server: ServerProcess, code: str, action: object, key: str | None = None
) -> httpx.Response:
    body = {"key": key or uuid.uuid4().hex, "action": action}
    return httpx.post(f"{server.url}/api/anotador/mesas/{code}/actions", json=body, timeout=30)


def test_the_seeds_tranque_is_saved_and_explained(server: ServerProcess) -> None:
    mesa = new_mesa(server)
    assert mesa["version"] == 0 and mesa["code"] != mesa["watch"]
    response = send(server, mesa["code"], SEED_TRANQUE)
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["duplicate"] is False and data["version"] == 1
    line = data["state"]["partida"]["lines"][0]
    assert line["gains"] == [40, 0] and line["result"]["bonus"] == 0
    assert line["explanation"] == [
        "Tranque con el de abajo: Ana con 8, Beto con 11.",
        "Gana Ana; su pareja anota 8 + 11 + 7 + 14 = 40.",
        "Bono de tranque: 0.",
    ]
    english = httpx.get(f"{server.url}/api/anotador/mesas/{mesa['code']}?lang=en").json()
    assert english["state"]["partida"]["lines"][0]["explanation"][-1] == "Tranque bonus: 0."


def test_an_entry_sent_twice_is_stored_once(server: ServerProcess) -> None:
    code = new_mesa(server)["code"]
    key = uuid.uuid4().hex
    first = send(server, code, SEED_TRANQUE, key).json()
    again = send(server, code, SEED_TRANQUE, key).json()
    assert again["duplicate"] is True and again["id"] == first["id"]
    assert again["version"] == 1
    assert again["state"]["partida"]["totals"] == [40, 0]
    other = send(server, code, {**SEED_TRANQUE, "seat": 1}, key)
    assert other.status_code == 409 and other.json()["error"]["code"] == "anotador.key_reused"


def test_the_same_entry_sent_at_once_from_many_retries_is_stored_once(
    server: ServerProcess,
) -> None:
    code = new_mesa(server)["code"]
    key = uuid.uuid4().hex
    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda _: send(server, code, SEED_TRANQUE, key), range(6)))
    assert all(a.status_code == 200 for a in answers)
    assert sorted(a.json()["duplicate"] for a in answers) == [False] + [True] * 5
    state = httpx.get(f"{server.url}/api/anotador/mesas/{code}").json()
    assert state["version"] == 1 and len(state["state"]["partida"]["lines"]) == 1


def test_a_refused_entry_gets_a_spanish_error_and_changes_nothing(server: ServerProcess) -> None:
    code = new_mesa(server)["code"]
    send(server, code, SEED_TRANQUE)
    bad = send(server, code, {"type": "hand", "end": "tranque", "seat": 0, "pips": [8, 11, 7]})
    assert bad.status_code == 400
    error = bad.json()["error"]
    assert error["code"] == "anotador.pips_missing"
    assert error["message"] == "Mano 2: faltan los tantos de Diego"
    garbage = httpx.post(f"{server.url}/api/anotador/mesas/{code}/actions", content=b"{nope")
    assert garbage.status_code == 400 and garbage.json()["error"]["code"] == "anotador.body_json"
    no_key = httpx.post(
        f"{server.url}/api/anotador/mesas/{code}/actions", json={"action": SEED_TRANQUE}
    )
    assert no_key.status_code == 400
    state = httpx.get(f"{server.url}/api/anotador/mesas/{code}").json()
    assert state["version"] == 1 and state["state"]["partida"]["totals"] == [40, 0]
    missing = httpx.get(f"{server.url}/api/anotador/mesas/nada")
    assert missing.status_code == 404
    assert missing.json()["error"]["message"] == "No existe la mesa «nada»"
    bad_mesa = httpx.post(f"{server.url}/api/anotador/mesas", json={"name": "x", "players": []})
    assert bad_mesa.status_code == 400
    assert bad_mesa.json()["error"]["code"] == "anotador.seating"


def test_edits_undo_and_a_restart_lose_nothing(server: ServerProcess) -> None:
    code = new_mesa(server)["code"]
    first = send(server, code, SEED_TRANQUE).json()["id"]
    dominó = {"type": "hand", "end": "domino", "seat": 1, "pips": [5, None, 10, 3]}
    assert send(server, code, dominó).json()["state"]["partida"]["totals"] == [40, 18]
    edit = {"type": "edit", "target": first, "entry": {**SEED_TRANQUE, "pips": [12, 11, 7, 14]}}
    assert send(server, code, edit).json()["state"]["partida"]["totals"] == [0, 62]
    send(server, code, {"type": "adjust", "team": 1, "points": -5, "reason": "cabra"})
    undone = send(server, code, {"type": "undo"}).json()
    assert undone["state"]["partida"]["totals"] == [0, 62]
    server.restart()
    after = httpx.get(f"{server.url}/api/anotador/mesas/{code}").json()
    assert after["version"] == 5
    assert after["state"]["partida"]["totals"] == [0, 62]
    assert [line["id"] for line in after["state"]["partida"]["lines"]] == [first, "2"]


def test_mirones_follow_live_and_cannot_write(server: ServerProcess) -> None:
    mesa = new_mesa(server)
    watch = mesa["watch"]
    seen = httpx.get(f"{server.url}/api/anotador/watch/{watch}").json()
    assert seen["version"] == 0 and "code" not in seen
    result: dict[str, Any] = {}

    def wait_for_news() -> None:
        url = f"{server.url}/api/anotador/watch/{watch}?after=0"
        result.update(httpx.get(url, timeout=30).json())

    waiter = threading.Thread(target=wait_for_news)
    waiter.start()
    send(server, mesa["code"], SEED_TRANQUE)
    waiter.join(30)
    assert result["version"] == 1
    assert result["state"]["partida"]["totals"] == [40, 0]
    refused = send(server, watch, SEED_TRANQUE)
    assert refused.status_code == 403  # the read-only link, refused as such


def test_a_partida_exports_as_csv_json_and_a_printable_sheet(server: ServerProcess) -> None:
    mesa = new_mesa(server)
    send(server, mesa["code"], SEED_TRANQUE)
    base = f"{server.url}/api/anotador/export/{mesa['watch']}/1"
    rows = list(csv.reader(io.StringIO(httpx.get(f"{base}.csv").text)))
    assert rows[1][:2] == ["1", "Mano 1"] and rows[1][-2:] == ["40", "0"]
    data = httpx.get(f"{base}.json").json()
    assert data["totals"] == [40, 0] and data["players"] == PLAYERS
    page = httpx.get(f"{base}.html")
    assert page.headers["content-type"].startswith("text/html")
    assert "8 + 11 + 7 + 14 = 40" in page.text
    assert httpx.get(f"{server.url}/api/anotador/export/{mesa['code']}/2.csv").status_code == 404


def test_new_partida_by_the_parados_custom_over_the_api(server: ServerProcess) -> None:
    code = new_mesa(server, rules={"preset": "dominicana", "target": 50}, queue=["Eva", "Fede"])[
        "code"
    ]
    send(server, code, SEED_TRANQUE)
    done = send(server, code, {"type": "hand", "end": "domino", "seat": 2, "pips": [0, 5, None, 6]})
    assert done.json()["state"]["partida"]["winner"] == 0
    state = send(server, code, {"type": "new_partida", "custom": "parados"}).json()["state"]
    assert state["partida"]["players"] == ["Ana", "Eva", "Carla", "Fede"]
    assert state["queue"] == ["Beto", "Diego"]
    assert state["history"][0]["zapato"] is True
    ana = next(p for p in state["standings"]["players"] if p["name"] == "Ana")
    assert ana["won"] == 1 and ana["zapatos_given"] == 1
