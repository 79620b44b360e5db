"""Hostile names at the anotador, over its real API on SQLite and PostgreSQL: names that show
nothing (a lone Hangul filler), towers of accents and NUL are refused with the game's rule and
change nothing; a legal name that looks like a spreadsheet formula is kept as typed and made
harmless in the CSV export, in English and in Spanish."""

from __future__ import annotations

import csv
import io
import re
import uuid
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from fichaflow.anotador.entries import dump_change, load_change
from fichaflow.anotador.mesa import MesaSetup
from fichaflow.core.errors import FichaFlowError
from fichaflow.http.export import FORMULA_STARTS, csv_cell

if TYPE_CHECKING:  # the fixture's type; pytest provides the fixture itself
    from tests.server.kit import ServerProcess

PLAYERS = ["Ana", "Beto", "Carla", "Diego"]
HOSTILE_NAMES = [
    ("\u3164", "name.blank"),
    ("a" + "\u0301" * 23, "name.marks"),
    ("Ana\x00", "name.control"),
]
FORMULAS = ['=HYPERLINK("http://x")', "+Beto", "-Carla", "@Diego"]


def create(server: ServerProcess, **body: Any) -> httpx.Response:
    return httpx.post(f"{server.url}/api/anotador/mesas", json={"name": "Patio", **body})


def act(server: ServerProcess, code: str, action: dict[str, Any]) -> httpx.Response:
    body = {"key": uuid.uuid4().hex, "action": action}
    return httpx.post(f"{server.url}/api/anotador/mesas/{code}/actions", json=body, timeout=30)


def assert_refused(response: httpx.Response, code: str) -> None:
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == code, error
    assert error["message"] != error["message_en"] and "nombre" in error["message"]


@pytest.mark.parametrize(("name", "code"), HOSTILE_NAMES)
def test_a_hostile_name_is_refused_wherever_a_name_goes_in(
    server: ServerProcess, name: str, code: str
) -> None:
    assert_refused(create(server, players=[name, "Beto", "Carla", "Diego"]), code)
    assert_refused(create(server, players=PLAYERS, queue=[name]), code)
    assert_refused(create(server, players=PLAYERS, teams=[name, "Ellos"]), code)
    assert_refused(create(server, players=PLAYERS, name=name), code)

    made = create(server, players=PLAYERS)
    assert made.status_code == 201, made.text
    mesa = made.json()
    assert_refused(act(server, mesa["code"], {"type": "queue", "queue": ["Eva", name]}), code)
    after = httpx.get(f"{server.url}/api/anotador/mesas/{mesa['code']}").json()
    assert after["version"] == 0 and after["state"] == mesa["state"]


def test_names_are_kept_in_their_normal_form(server: ServerProcess) -> None:
    made = create(server, players=[" Jose\u0301  Luis ", "Ana\u3164", "Carla", "Diego"])
    assert made.status_code == 201, made.text
    players = made.json()["state"]["partida"]["players"]
    assert players == ["José Luis", "Ana", "Carla", "Diego"]


def test_a_name_like_a_formula_is_kept_and_the_csv_cannot_run_it(server: ServerProcess) -> None:
    made = create(server, players=FORMULAS)
    assert made.status_code == 201, made.text
    mesa = made.json()
    for action in (
        {"type": "hand", "end": "tranque", "seat": 0, "pips": [8, 11, 7, 14], "leader": 0},
        {"type": "adjust", "team": 1, "points": -5, "reason": "=cabra"},
        {"type": "hand", "end": "domino", "seat": 1, "pips": [5, None, 10, 3]},
    ):
        assert act(server, mesa["code"], action).status_code == 200
    base = f"{server.url}/api/anotador/export/{mesa['watch']}/1"
    assert httpx.get(f"{base}.json").json()["players"] == FORMULAS  # the data is as typed

    english = list(csv.reader(io.StringIO(httpx.get(f"{base}.csv?lang=en").text)))
    spanish = list(csv.reader(io.StringIO(httpx.get(f"{base}.csv").text)))
    assert english[0][3] == "'" + '=HYPERLINK("http://x") and -Carla scores'
    assert english[0][4] == "'+Beto and @Diego scores"
    assert spanish[0][3] == 'Anota =HYPERLINK("http://x") y -Carla'  # a word comes first
    for rows in (english, spanish):
        # the adjustment: side 1 lost 5 points; numbers stay numbers, however they begin
        assert rows[2][-4:] == ["0", "-5", "40", "-5"]
        for row in rows:
            for cell in row:
                assert re.fullmatch(r"-?\d+", cell) or not cell.startswith(FORMULA_STARTS), row


def test_every_formula_start_is_escaped_and_numbers_are_not() -> None:
    for start in FORMULA_STARTS:
        assert csv_cell(f"{start}1+1") == f"'{start}1+1"
    assert csv_cell("Ana") == "Ana"
    assert csv_cell(-5) == -5 and csv_cell(0) == 0


def test_a_mesa_saved_under_the_older_rule_still_opens() -> None:
    """Names were checked when they came in; what the database holds is read as it was saved,
    or a filler saved before this rule would lock its mesa for good."""
    saved = {"name": "Patio", "players": ["\u3164", "Beto", "Carla", "Diego"]}
    with pytest.raises(FichaFlowError):
        MesaSetup.load(saved)
    assert MesaSetup.load(saved, stored=True).seating[0] == "\u3164"
    queue = {"type": "queue", "queue": ["a" + "\u0301" * 23]}
    with pytest.raises(FichaFlowError):
        load_change(queue)
    assert dump_change(load_change(queue, stored=True)) == queue
