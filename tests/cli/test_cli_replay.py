"""``fichaflow replay`` as a real process: its JSON, its Spanish (and English) account, and one
Spanish line with status 2 for every kind of bad record."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from tests.cli.clikit import fichaflow, write
from tests.core.scenarios import (
    CAPICUA_RECORD,
    TIED_BONUS_RECORD,
    TRANQUE_MOVES,
    TRES_HANDS,
    TRES_STOCK,
    tranque_hands,
)

PLAYERS = ["Ana", "Beto", "Carla", "Dani"]


def tranque_record(**changes: Any) -> dict[str, Any]:
    """Seat 1 trancó; under venezuela pair 1-3 (7 + 31 pips) beats pair 0-2 (31 + 21) and
    scores the rivals' 52."""
    record: dict[str, Any] = {
        "rules": "venezuela",
        "hands": [{"deal": [h.split() for h in tranque_hands("A")], "moves": list(TRANQUE_MOVES)}],
    }
    record.update(changes)
    return record


def replay(tmp_path: Path, record: Any, *options: str, lang: str | None = None) -> Any:
    path = write(tmp_path / "registro.json", record)
    prefix = ("--lang", lang) if lang else ()
    return fichaflow(*prefix, "replay", path, *options)


# -- replay --json --------------------------------------------------------------------------------


def test_json_of_an_unfinished_partida(tmp_path: Path) -> None:
    result = replay(tmp_path, tranque_record(), "--json")
    assert result.status == 0, result.err
    data = result.json()
    assert data["scores"] == [0, 52]
    assert data["winner"] is None
    assert data["over"] is False
    assert data["zapato"] is False
    assert data["chancleta"] is False
    assert data["rules"]["preset"] == "venezuela"
    (hand,) = data["hands"]
    assert hand["end"] == "tranque"
    assert hand["seat"] == 1
    assert hand["winner"] == 1
    assert hand["points"] == 52
    assert hand["bonus"] == 0
    assert hand["capicua"] is False
    assert hand["scores"] == [0, 52]
    assert hand["leader"] == 0
    assert hand["pips"] == [31, 7, 21, 31]


def test_json_of_a_finished_partida_with_zapato(tmp_path: Path) -> None:
    record = tranque_record(rules={"preset": "venezuela", "target": 50})
    data = replay(tmp_path, record, "--json").json()
    assert data["winner"] == 1
    assert data["over"] is True
    assert data["zapato"] is True
    assert data["chancleta"] is False


def test_json_of_a_capicua(tmp_path: Path) -> None:
    data = replay(tmp_path, CAPICUA_RECORD, "--json").json()
    (hand,) = data["hands"]
    assert (hand["end"], hand["seat"], hand["winner"]) == ("domino", 2, 0)
    assert hand["capicua"] is True
    assert hand["points"] == 14  # rivals: seat 1 keeps 4-4, seat 3 keeps 0-0 and 3-3
    assert hand["scores"] == [14, 0]


def test_json_bonuses_apart_and_a_hand_nobody_won(tmp_path: Path) -> None:
    data = replay(tmp_path, TIED_BONUS_RECORD, "--json").json()
    (hand,) = data["hands"]
    assert hand["winner"] is None
    assert hand["points"] == 0
    assert hand["bonus"] == 100
    assert sorted((b["kind"], b["team"]) for b in hand["bonuses"]) == [
        ("pase_redondo_bonus", 1),
        ("salida_pasada_bonus", 0),
    ]
    assert data["scores"] == [50, 50]
    assert data["winner"] is None  # both reached 50, level, and nobody won the hand


def test_json_of_a_hand_with_unwritten_draws(tmp_path: Path) -> None:
    record = {
        "rules": "tres",
        "hands": [
            {
                "deal": [h.split() for h in TRES_HANDS],
                "stock": TRES_STOCK.split(),
                "moves": list(TRANQUE_MOVES),
            }
        ],
    }
    data = replay(tmp_path, record, "--json").json()
    (hand,) = data["hands"]
    assert (hand["end"], hand["seat"], hand["winner"]) == ("tranque", 0, 0)
    assert hand["pips"] == [21, 24, 31]
    assert hand["points"] == 55
    assert data["scores"] == [55, 0, 0]


# -- the readable account -------------------------------------------------------------------------


def test_the_spanish_account(tmp_path: Path) -> None:
    result = replay(tmp_path, tranque_record(players=PLAYERS))
    assert result.status == 0, result.err
    out = result.out
    assert "Reglas: venezuela" in out
    assert "Mano 1 (sale: Ana)" in out
    assert "Tranque por parejas" in out
    assert "Ana y Carla con 52" in out
    assert "Beto y Dani con 38" in out
    assert "anota 31 + 21 = 52" in out
    assert "Tanteo: Ana y Carla 0, Beto y Dani 52" in out
    assert "La partida no ha terminado." in out
    assert result.err == ""


def test_the_spanish_account_of_a_won_partida(tmp_path: Path) -> None:
    record = tranque_record(rules={"preset": "venezuela", "target": 50}, players=PLAYERS)
    out = replay(tmp_path, record).out
    assert "Gana la partida: Beto y Dani." in out
    assert "¡Zapato!" in out


def test_the_english_account(tmp_path: Path) -> None:
    result = replay(tmp_path, tranque_record(players=PLAYERS), lang="en")
    assert result.status == 0, result.err
    assert "Hand 1 (lead: Ana)" in result.out
    assert "Score: Ana and Carla 0, Beto and Dani 52" in result.out
    assert "The partida is not finished." in result.out
    assert "Mano" not in result.out


def test_a_capicua_is_announced(tmp_path: Path) -> None:
    assert "¡Capicúa!" in replay(tmp_path, CAPICUA_RECORD).out


# -- bad records: one Spanish line, where and why, status 2 ---------------------------------------


def with_moves(moves: list[str], **changes: Any) -> dict[str, Any]:
    record = tranque_record(**changes)
    record["hands"][0]["moves"] = moves
    return record


def with_deal(change: Any) -> dict[str, Any]:
    record = tranque_record()
    change(record["hands"][0]["deal"])
    return record


def second_hand_after_the_win() -> dict[str, Any]:
    record = tranque_record(rules={"preset": "venezuela", "target": 50})
    second = copy.deepcopy(record["hands"][0])
    second["deal"] = [h.split() for h in tranque_hands("A", 1)]
    record["hands"].append(second)
    return record


BAD_RECORDS = {
    "a wrong tile": (
        with_deal(lambda d: d[2].__setitem__(0, "6-7")),
        "Error: Mano 1: «6-7» no es una ficha",
    ),
    "a duplicated tile": (
        with_deal(lambda d: d[1].__setitem__(6, "6-6")),
        "Error: Mano 1: la ficha 6-6 aparece dos veces en el reparto",
    ),
    "a missing tile": (
        with_deal(lambda d: d[0].pop()),
        "Error: Mano 1: la mano del asiento 0 tiene 6 fichas y deben ser 7",
    ),
    "a wrong hand size": (
        with_deal(lambda d: d[3].append(d[2].pop())),
        "Error: Mano 1: la mano del asiento 2 tiene 6 fichas y deben ser 7",
    ),
    "a wrong turn": (
        with_moves(["6-6", "6-3:left"]),
        "Error: Mano 1, jugada 2: le toca al asiento 1, que no tiene 6-3: "
        "esa ficha es del asiento 2",
    ),
    "a tile that does not fit": (
        with_moves(["6-6", "6-4:left", "2-2"]),
        "Error: Mano 1, jugada 3: la ficha 2-2 no pega",
    ),
    "a pass while holding a playable tile": (
        with_moves(["6-6", "pass"]),
        "Error: Mano 1, jugada 2: el asiento 1 no puede pasar",
    ),
    "a missing end choice": (
        with_moves(["6-6", "6-4"]),
        "Error: Mano 1, jugada 2: la ficha 6-4 pega por los dos extremos",
    ),
    "a wrong end": (
        with_moves(["6-6", "6-4:left", "6-3:left"]),
        "Error: Mano 1, jugada 3: la ficha 6-3 no pega por left",
    ),
    "a hand that goes on after it ended": (
        with_moves([*TRANQUE_MOVES, "pass"]),
        "Error: Mano 1, jugada 11: la mano ya terminó y el registro sigue con más jugadas",
    ),
    "a hand that stops before its end": (
        with_moves(list(TRANQUE_MOVES[:5])),
        "Error: Mano 1, jugada 6: la mano no está completa",
    ),
    "a hand after the partida was won": (
        second_hand_after_the_win(),
        "Error: Mano 2: la partida ya la ganó el lado 1",
    ),
    "an unknown option": (
        tranque_record(rules={"preset": "venezuela", "tranque_bono": 25}),
        "Error: No existe la opción «tranque_bono»",
    ),
    "an unknown value": (
        tranque_record(rules={"preset": "venezuela", "tranque_rule": "suma"}),
        "Error: La opción tranque_rule no admite «suma»; valores permitidos: pareja, abajo",
    ),
    "a target out of range": (
        tranque_record(rules={"preset": "venezuela", "target": 501}),
        "Error: La meta (la opción target) debe ser un número entero de 10 a 500",
    ),
    "a wrong leader": (
        tranque_record(hands=[{**tranque_record()["hands"][0], "leader": 2}]),
        "Error: Mano 1: sale el asiento 0 según las reglas, no el 2",
    ),
    "too few players": (
        tranque_record(players=PLAYERS[:3]),
        "Error: Hay 3 jugadores y este modo tiene 4 asientos",
    ),
}


@pytest.mark.parametrize("case", list(BAD_RECORDS))
def test_a_bad_record_gets_one_spanish_line_and_status_2(tmp_path: Path, case: str) -> None:
    record, start = BAD_RECORDS[case]
    line = replay(tmp_path, record).error_line
    assert line.startswith(start), line


def test_a_record_that_is_not_json(tmp_path: Path) -> None:
    line = replay(tmp_path, '{"rules": "venezuela",\n "hands": [}').error_line
    assert line.startswith("Error: El registro no es JSON válido"), line
    assert "línea 2" in line


def test_a_record_that_is_not_text(tmp_path: Path) -> None:
    path = tmp_path / "registro.json"
    path.write_bytes(b"\xff\xfe\x00{")
    line = fichaflow("replay", str(path)).error_line
    assert line.startswith("Error: El registro no es"), line


def test_a_missing_file_is_said_in_spanish(tmp_path: Path) -> None:
    path = str(tmp_path / "no-existe.json")
    assert fichaflow("replay", path).error_line == f"Error: No existe el archivo {path}"
    english = fichaflow("--lang", "en", "replay", path).error_line
    assert english == f"Error: There is no file {path}"


def test_a_folder_is_not_a_record(tmp_path: Path) -> None:
    line = fichaflow("replay", str(tmp_path)).error_line
    assert line == f"Error: La ruta {tmp_path} es una carpeta, no un archivo"


def test_an_unknown_command_line_option(tmp_path: Path) -> None:
    path = write(tmp_path / "registro.json", tranque_record())
    line = fichaflow("replay", path, "--jsno").error_line
    assert "--jsno" in line


def test_no_record_at_all() -> None:
    line = fichaflow("replay").error_line
    assert "RECORD.json" in line


def test_errors_in_english(tmp_path: Path) -> None:
    line = replay(tmp_path, with_moves(["6-6", "pass"]), lang="en").error_line
    assert line.startswith("Error: Hand 1, move 2: seat 1 cannot pass"), line


def test_a_bad_record_changes_nothing_it_reads(tmp_path: Path) -> None:
    path = tmp_path / "registro.json"
    write(path, with_moves(["6-6", "pass"]))
    before = path.read_bytes()
    assert fichaflow("replay", str(path)).status == 2
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["registro.json"]
