"""The anotador's edges (#15): English messages with no Spanish in them, the read-only link
refused as read-only, a partida that does not exist answered as such, and facts no deal can
produce refused with the reason."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fichaflow.anotador.entries import HandEntry
from fichaflow.anotador.forms import facts_for
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import EndKind
from fichaflow.core.held import check_held
from fichaflow.core.rules import PRESETS, Rules
from tests.anotador.test_api import SEED_TRANQUE, new_mesa, send
from tests.anotador.test_forms import entry_from
from tests.anotador.test_partida_outcome import _play_partida

if TYPE_CHECKING:  # the fixture's type; pytest provides the fixture itself
    from tests.server.kit import ServerProcess

DOMINO, TRANQUE = EndKind.DOMINO, EndKind.TRANQUE

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


# -- facts no deal can produce ------------------------------------------------------------------


def _refusal(rules: Rules, entry: HandEntry, names: tuple[str, ...]) -> FichaFlowError:
    with pytest.raises(FichaFlowError) as error:
        facts_for(rules, entry, 0, names)
    return error.value


def test_the_issues_impossible_hands_are_refused_with_the_reason() -> None:
    parejas = Rules.make("venezuela")
    names = ("Ana", "Beto", "Carla", "Diego")
    hundred = _refusal(parejas, HandEntry(TRANQUE, 0, (8, 100, 7, 14)), names)
    assert hundred.code == "score.held_seat"
    assert hundred.message() == (
        "Beto (2 · B) no puede tener 100 tantos: en parejas nadie roba, le quedan como mucho "
        "7 fichas y 7 fichas suman como mucho 69"
    )
    assert "Beto (2 · B)" in hundred.message("en") and "69" in hundred.message("en")
    zeros = _refusal(parejas, HandEntry(TRANQUE, 0, (0, 0, 0, 0)), names)
    assert zeros.code == "score.held_zeros"
    full = _refusal(parejas, HandEntry(DOMINO, 0, (0, 60, 60, 48)), names)
    assert full.code == "score.held_total" and "153" in full.message()
    pair = _refusal(parejas, HandEntry(TRANQUE, 0, (), team_pips=(0, 12)), names)
    assert pair.code == "score.held_team_zero" and "Ana / Carla" in pair.message()
    duel = Rules.make("mano_a_mano")
    drawn = _refusal(duel, HandEntry(DOMINO, 0, (0, 168)), ("Ana", "Beto"))
    assert drawn.code == "score.held_seat_stock"
    assert "Beto (2)" in drawn.message() and "21 fichas" in drawn.message()
    # What a deal can leave is still taken: a seat with the seven heaviest tiles, one at 0.
    facts_for(parejas, HandEntry(TRANQUE, 0, (0, 69, 7, 14)), 0, names)
    facts_for(duel, HandEntry(DOMINO, 0, (0, 153)), 0, ("Ana", "Beto"))


def test_a_seat_over_what_it_can_hold_is_refused_through_the_api(server: ServerProcess) -> None:
    code = new_mesa(server)["code"]
    answer = send(server, code, {**SEED_TRANQUE, "pips": [8, 100, 7, 14]})
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["code"] == "score.held_seat"
    assert "Beto (2 · B)" in error["message"] and "69" in error["message"]
    assert "asiento 1" not in error["message"] and "168" not in error["message"]
    assert not [word for word in SPANISH if word in error["message_en"].lower()]
    assert httpx.get(f"{server.url}/api/anotador/mesas/{code}").json()["version"] == 0


@settings(max_examples=100, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10_000), by_pairs=st.booleans())
def test_every_hand_the_engine_plays_is_accepted(preset: str, seed: int, by_pairs: bool) -> None:
    """Soundness: the pips left by random legal play from seeded deals pass the bounds, seat by
    seat and by pairs, and the anotador takes the hand."""
    rules = Rules.make(preset, target=50)
    names = tuple(f"P{s}" for s in range(rules.seats))
    for played in _play_partida(rules, seed).played:
        facts = played.score.facts
        check_held(rules, facts.end, facts.seat, dict(enumerate(facts.pips)))
        totals = {t: sum(facts.pips[s] for s in rules.seats_of(t)) for t in range(rules.teams)}
        check_held(rules, facts.end, facts.seat, {}, totals)
        facts_for(rules, entry_from(rules, facts, by_pairs), facts.leader, names)


def test_de_a_tres_a_seat_draws_at_most_the_montón() -> None:
    tres = Rules.make("tres")
    names = ("Ana", "Beto", "Carla")
    refused = _refusal(tres, HandEntry(DOMINO, 0, (0, 119, 5)), names)
    assert refused.code == "score.held_seat_stock" and "14 fichas" in refused.message()
    assert "118" in refused.message()
    facts_for(tres, HandEntry(DOMINO, 0, (0, 118, 5)), 0, names)
