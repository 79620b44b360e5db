"""``fichaflow score`` as a real process: the seed's example exactly as the issue writes it, other
tables, bonuses apart, and one Spanish line with status 2 for bad input."""

from __future__ import annotations

import pytest

from tests.cli.clikit import fichaflow

SEED_EXAMPLE = (
    "score",
    "--rules",
    "dominicana",
    "--tranque",
    "--closer",
    "0",
    "--pips",
    "8,11,7,14",
)


def test_the_seed_example_as_written_in_the_issue() -> None:
    """A trancó with 8, B 11, C 7, D 14: A-C scores 40 and the tranque bonus is 0."""
    result = fichaflow(*SEED_EXAMPLE)
    assert result.status == 0, result.err
    assert result.err == ""
    lines = result.out.splitlines()
    assert lines == [
        "Tranque con el de abajo: asiento 0 con 8, asiento 1 con 11.",
        "Gana asiento 0; su pareja anota 8 + 11 + 7 + 14 = 40.",
        "Bono de tranque: 0.",
    ]


def test_the_seed_example_as_json() -> None:
    data = fichaflow(*SEED_EXAMPLE, "--json").json()
    assert data["winner"] == 0
    assert data["points"] == 40
    assert data["bonus"] == 0
    assert data["scores"] == [40, 0]
    assert data["end"] == "tranque"
    assert data["rule"] == "abajo"
    assert data["explanation"][-1] == "Bono de tranque: 0."


def test_the_seed_example_in_english() -> None:
    result = fichaflow("--lang", "en", *SEED_EXAMPLE)
    assert result.status == 0, result.err
    assert "8 + 11 + 7 + 14 = 40" in result.out
    assert "Tranque bonus: 0." in result.out
    assert "Gana" not in result.out


def test_a_tranque_bonus_is_shown_apart() -> None:
    data = fichaflow(*SEED_EXAMPLE, "--set", "tranque_bonus=25", "--json").json()
    assert (data["points"], data["bonus"], data["scores"]) == (40, 25, [65, 0])
    assert "Bono de tranque: 25 (pareja asiento 0 y asiento 2)." in data["explanation"]


def test_venezuela_pairs_and_rivals() -> None:
    # pairs 8+7 = 15 against 11+14 = 25: pair 0-2 wins and scores the rivals' 25
    result = fichaflow(
        "score", "--rules", "venezuela", "--tranque", "--closer", "0", "--pips", "8,11,7,14",
        "--json",
    )  # fmt: skip
    data = result.json()
    assert (data["winner"], data["points"], data["scores"]) == (0, 25, [25, 0])


def test_a_dominada_under_venezuela_counts_only_the_rivals() -> None:
    data = fichaflow(
        "score", "--rules", "venezuela", "--domino", "--winner", "2", "--pips", "9,4,0,6", "--json"
    ).json()
    assert (data["winner"], data["points"]) == (0, 10)


def test_a_tie_under_venezuela_scores_nobody() -> None:
    result = fichaflow(
        "score", "--rules", "venezuela", "--tranque", "--closer", "3", "--pips", "10,5,5,10"
    )
    assert result.status == 0, result.err
    assert "Empate: nadie anota." in result.out


def test_tres_and_bonuses_to_seats() -> None:
    data = fichaflow(
        "score", "--rules", "tres", "--tranque", "--closer", "1", "--pips", "6,6,20",
        "--leader", "2", "--salida-pasada", "--set", "salida_pasada_bonus=5", "--json",
    ).json()  # fmt: skip
    assert data["winner"] is None  # 6 = 6, tranque_tie nadie
    assert data["scores"] == [0, 0, 5]


@pytest.mark.parametrize(
    ("args", "start"),
    [
        (("--set", "tranque_bono=25"), "Error: No existe la opción «tranque_bono»"),
        (("--set", "tranque_bonus=-5"), "Error: La opción tranque_bonus debe ser un número entero"),
        (("--set", "target=9"), "Error: La meta (la opción target) debe ser un número"),
        (("--set", "target=abc"), "Error: La meta (la opción target) debe ser un número"),
        (("--set", "tranque_rule"), "Error: --set espera opción=valor"),
        (("--rules", "venezolana"), "Error: No existe el reglamento «venezolana»"),
    ],
)
def test_bad_rules_get_one_spanish_line(args: tuple[str, ...], start: str) -> None:
    line = fichaflow(*SEED_EXAMPLE, *args).error_line
    assert line.startswith(start), line


@pytest.mark.parametrize(
    ("args", "start"),
    [
        (("--tranque", "--closer", "0", "--pips", "8,11,7"), "Error: Hay 3 cantidades de puntos"),
        (("--tranque", "--closer", "0", "--pips", "8,once,7,14"), "Error: --pips espera números"),
        (
            ("--tranque", "--closer", "4", "--pips", "8,11,7,14"),
            "Error: --closer debe ser un asiento de 0 a 3 (no 4)",
        ),
        (
            ("--domino", "--winner", "5", "--pips", "0,11,7,14"),
            "Error: --winner debe ser un asiento de 0 a 3 (no 5)",
        ),
        (
            ("--tranque", "--closer", "0", "--pips", "8,11,7,14", "--leader", "4"),
            "Error: --leader debe ser un asiento de 0 a 3 (no 4)",
        ),
        (
            ("--tranque", "--closer", "0", "--pips", "8,11,7,14", "--pase-redondo", "7"),
            "Error: --pase-redondo debe ser un asiento de 0 a 3 (no 7)",
        ),
        (("--domino", "--winner", "0", "--pips", "8,11,7,14"), "Error: El asiento 0 dominó"),
        (("--tranque", "--pips", "8,11,7,14"), "Error: Di --domino --winner"),
        (("--tranque", "--closer", "0", "--pips", "80,80,7,14"), "Error: Entre todas las manos"),
        (
            ("--tranque", "--closer", "0", "--pips", "8,11,7,14", "--capicua"),
            "Error: Una capicúa es una dominada",
        ),
    ],
)
def test_impossible_hands_get_one_spanish_line(args: tuple[str, ...], start: str) -> None:
    line = fichaflow("score", *args).error_line
    assert line.startswith(start), line


def test_a_usage_mistake_gets_one_line() -> None:
    line = fichaflow("score", "--tranque", "--closer", "0").error_line
    assert "--pips" in line
    line = fichaflow("score", "--pips", "1,2,3,4", "--closer", "uno").error_line
    assert "uno" in line


@pytest.mark.parametrize(
    ("args", "spanish"),
    [
        (
            ("score", "--pips", "1,2,3,4", "--tranque", "--closr", "1"),
            "¿Quisiste decir '--closer'?",
        ),
        (("scor", "--pips", "1,2,3,4"), "¿Quisiste decir 'score'?"),
        (("score", "--pips", "1,2,3,4", "--tranque", "--closer"), "La opción '--closer' necesita"),
        (("score", "--pips", "1,2,3,4", "--json=1"), "La opción '--json' no lleva valor"),
    ],
)
def test_usage_mistakes_are_said_in_spanish(args: tuple[str, ...], spanish: str) -> None:
    line = fichaflow(*args).error_line
    assert line.startswith("Error de uso: "), line
    assert spanish in line
    for english in ("Did you mean", "Option", "does not take"):
        assert english not in line
