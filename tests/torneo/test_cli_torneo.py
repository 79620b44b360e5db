"""``fichaflow torneo`` through click's runner: create, pair, result, standings and check; a bad
input gets one Spanish line and leaves the record as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from fichaflow.cli.app import app
from fichaflow.torneo import model
from tests.torneo.kit import EXAMPLES


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})


def refused(result: Result) -> str:
    """The one line a refusal prints on stderr (status 2, nothing on stdout)."""
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert result.stdout == "" and "Traceback" not in result.stderr
    [line] = result.stderr.splitlines()
    return line


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "spec.json"
    data = {
        "name": "Torneo del barrio",
        "rules": "venezuela",
        "rounds": 2,
        "entrants": ["Ana y Beto", "Carla y Dani", "Elena y Fede", "Gabi y Hugo", "Inés y Juan"],
    }
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_an_organizer_runs_a_torneo_from_the_command_line(spec: Path, tmp_path: Path) -> None:
    record = tmp_path / "registro.json"
    done = run("torneo", "create", str(spec), "-o", str(record))
    assert done.exit_code == 0, done.output
    assert "Torneo «Torneo del barrio» creado con 5 inscritos" in done.stdout
    done = run("torneo", "pair", str(record))
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines() == [
        "Ronda 1: 2 mesas",
        "Mesa 1: Ana y Beto contra Carla y Dani",
        "Mesa 2: Elena y Fede contra Gabi y Hugo",
        "Descansa: Inés y Juan",
    ]
    args = ("--by", "Mesa 1", "--at", "2026-12-05T10:00:00-04:00")
    assert run("torneo", "result", str(record), "1", "1", "100-62", *args).exit_code == 0
    done = run("torneo", "result", str(record), "1", "2", "--forfeit", "b", *args)
    assert done.stdout.strip() == "Anotado el resultado de la ronda 1, mesa 2."
    done = run(
        "torneo",
        "result",
        str(record),
        "1",
        "1",
        "100-70",
        "--by",
        "Rosa",
        "--at",
        "2026-12-05T11:00:00-04:00",
    )
    assert (
        done.stdout.strip()
        == "Corregido el resultado de la ronda 1, mesa 1; queda en el historial."
    )
    done = run("torneo", "standings", str(record))
    assert done.exit_code == 0, done.output
    assert "PG" in done.stdout and "Dif." in done.stdout
    order = (
        "partidas ganadas, diferencia de tantos (PF − PC), tantos a favor, enfrentamiento directo"
    )
    assert f"Orden: {order}" in done.stdout
    rows = json.loads(run("torneo", "standings", str(record), "--json").stdout)
    assert [(r["name"], r["pg"], r["pf"], r["pc"]) for r in rows[:3]] == [
        ("Elena y Fede", 1, 100, 0),
        ("Inés y Juan", 1, 100, 0),
        ("Ana y Beto", 1, 100, 70),
    ]
    done = run("torneo", "check", str(record))
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[-1] == (
        "Corrección: ronda 1, mesa 1, de 100-62 a 100-70, por Rosa el 2026-12-05T11:00:00-04:00"
    )
    english = run("--lang", "en", "torneo", "standings", str(record))
    assert "Order: partidas won, points difference" in english.stdout and "PA" in english.stdout


def test_the_example_records_check(tmp_path: Path) -> None:
    for name in ("liguilla.json", "duplicado.json"):
        done = run("torneo", "check", str(EXAMPLES / name), "--json")
        assert done.exit_code == 0, done.output
        assert json.loads(done.stdout)["ok"] is True
    done = run("torneo", "standings", str(EXAMPLES / "duplicado.json"))
    assert "PM" in done.stdout and "83.3" in done.stdout


def test_bad_input_gets_one_spanish_line_and_changes_nothing(spec: Path, tmp_path: Path) -> None:
    record = tmp_path / "registro.json"
    run("torneo", "create", str(spec), "-o", str(record))
    run("torneo", "pair", str(record))
    before = record.read_bytes()
    cases = [
        (
            ("result", str(record), "1", "1", "100-100"),
            "Error: Una partida no termina empatada (100 a 100): se juega una mano más",
        ),
        (
            ("result", str(record), "1", "1", "cien"),
            "Error: Un tanteo se escribe así: 200-150 (no «cien»)",
        ),
        (("result", str(record), "1", "7", "100-3"), "Error: La ronda 1 no tiene mesa 7"),
        (
            ("result", str(record), "1", "1", "90-80"),
            "Error: El ganador tiene 90 y la partida es a 100",
        ),
        (("pair", str(record)), "Error: A la ronda 1 aún le faltan resultados"),
        (("withdraw", str(record), "9"), "Error: No hay inscrito número 9"),
        (
            ("join", str(record), "Nora y Óscar", "--player", "Nora"),
            "Error: La pareja «Nora y Óscar» debe tener exactamente dos jugadores",
        ),
        (("create", str(spec), "-o", str(record)), f"Error: Ya existe {record}: no lo piso"),
    ]
    for args, line in cases:
        assert refused(run("torneo", *args)) == line
        assert record.read_bytes() == before
    broken = tmp_path / "roto.json"
    broken.write_text("{", encoding="utf-8")
    assert refused(run("torneo", "check", str(broken))).startswith(
        "Error: El archivo no es JSON válido"
    )
    assert refused(run("torneo", "standings", str(tmp_path / "no.json"))).startswith(
        "Error: No existe el archivo"
    )
    bad_spec = tmp_path / "malo.json"
    bad_spec.write_text(json.dumps({"name": "X", "rules": "tres", "rounds": 2}), encoding="utf-8")
    out = tmp_path / "nuevo.json"
    line = refused(run("torneo", "create", str(bad_spec), "-o", str(out)))
    assert line == (
        "Error: Un torneo se juega en parejas (cuatro por mesa): "
        "el reglamento «tres» no es de parejas"
    )
    assert not out.exists()
    nowhere = tmp_path / "no-existe" / "registro.json"
    line = refused(run("torneo", "create", str(spec), "-o", str(nowhere)))
    assert line == f"Error: No existe el archivo {nowhere}"
    assert model.loads(record.read_bytes()).log == []
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "malo.json",
        "registro.json",
        "roto.json",
        "spec.json",
    ]


def test_a_director_prints_the_deals_of_a_duplicate_round() -> None:
    done = run("torneo", "deals", str(EXAMPLES / "duplicado.json"), "1")
    assert done.exit_code == 0, done.output
    lines = done.stdout.splitlines()
    assert len(lines) == 3 * 5
    assert lines[0] == "Ronda 1, reparto 1: sale el asiento 0, con cualquier ficha"
    assert lines[1] == "  Asiento 0 (lado a): 3-2 3-3 4-1 4-3 5-0 5-4 6-3"  # as the docs say
    assert lines[5].startswith("Ronda 1, reparto 2: sale el asiento 1")
    line = refused(run("torneo", "deals", str(EXAMPLES / "liguilla.json"), "1"))
    assert line == "Error: Este torneo no es duplicado: sus mesas no comparten repartos"


def test_a_public_copy_leaves_out_the_seed_of_the_round_being_played(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(
        json.dumps(
            {"name": "D", "rules": "venezuela", "rounds": 1, "duplicate": 1, "entrants": ["A", "B"]}
        ),
        encoding="utf-8",
    )
    record = tmp_path / "registro.json"
    run("torneo", "create", str(spec), "-o", str(record))
    done = run("torneo", "pair", str(record))
    promised = done.stdout.splitlines()[-1].rsplit(" ", 1)[1]
    public = json.loads(run("torneo", "export", str(record), "--public").stdout)
    assert public["rounds"][0]["commitment"] == promised and "seed" not in public["rounds"][0]
    private = json.loads(run("torneo", "export", str(record)).stdout)
    assert len(private["rounds"][0]["seed"]) == 64


def test_the_individual_format_names_both_partners(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    players = ["Ana", "Beto", "Carla", "Dani"]
    data = {
        "name": "I",
        "rules": "venezuela",
        "rounds": 3,
        "format": "individual",
        "entrants": players,
    }
    spec.write_text(json.dumps(data), encoding="utf-8")
    record = tmp_path / "registro.json"
    run("torneo", "create", str(spec), "-o", str(record))
    done = run("--lang", "en", "torneo", "pair", str(record))
    assert done.stdout.splitlines()[1] == "Table 1: Ana and Dani against Beto and Carla"
