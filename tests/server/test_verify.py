"""``fichaflow verify``: a finished partida's record checks out only if every hand was dealt from
the seed whose SHA-256 was promised, and a sorteo was won by whom the seed says."""

from __future__ import annotations

import copy
import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from fichaflow.core import record
from fichaflow.core.deal import Deal, sorteo
from fichaflow.core.partida import Partida
from fichaflow.core.rules import FirstLead, Rules

VERIFY = [sys.executable, "-c", "from fichaflow.cli import main; main()", "verify"]


def played_record(rules: Rules, name: str) -> dict[str, Any]:
    """A partida played at random straight through the core, each hand from a seed."""
    rng = random.Random(name)
    partida = Partida(rules)
    seeds: list[str] = []
    while not partida.over:
        seed = hashlib.sha256(f"{name}/{len(seeds)}".encode()).hexdigest()
        leader = None
        if not partida.played and rules.first_lead is FirstLead.SORTEO:
            leader = sorteo(rules.seats, seed)[0]
        hand = partida.start_hand(Deal.from_seed(rules.seats, seed), leader)
        while partida.current is not None:
            partida.play(rng.choice(hand.legal_moves()))
        seeds.append(seed)
    out = record.dump(partida)
    for hand_record, seed in zip(out["hands"], seeds, strict=True):
        hand_record["seed"] = seed
        hand_record["commitment"] = hashlib.sha256(seed.encode()).hexdigest()
    return out


def run_verify(
    tmp_path: Path, data: dict[str, Any], *extra: str
) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "partida.json"
    path.write_text(json.dumps(data))
    return subprocess.run([*VERIFY, str(path), *extra], capture_output=True, text=True)


@pytest.fixture(scope="module")
def good() -> dict[str, Any]:
    return played_record(Rules.make("venezuela", target=60), "verify")


def test_a_fair_record_checks_out(tmp_path: Path, good: dict[str, Any]) -> None:
    done = run_verify(tmp_path, good)
    assert done.returncode == 0, done.stderr
    hands = len(good["hands"])
    assert hands > 1
    assert done.stdout.count("semilla y reparto correctos") == hands
    as_json = json.loads(run_verify(tmp_path, good, "--json").stdout)
    assert as_json["ok"] is True and len(as_json["hands"]) == hands


@pytest.mark.parametrize("tamper", ["seed", "both", "missing", "unfinished"])
def test_a_tampered_record_is_refused(tmp_path: Path, good: dict[str, Any], tamper: str) -> None:
    bad = copy.deepcopy(good)
    last = bad["hands"][-1]
    if tamper == "seed":  # the seed revealed is not the one promised
        last["seed"] = last["seed"][::-1]
        expected = "no corresponde al compromiso"
    elif tamper == "both":  # a consistent seed and commitment, but not the deal played
        other = hashlib.sha256(b"another").hexdigest()
        last["seed"], last["commitment"] = other, hashlib.sha256(other.encode()).hexdigest()
        expected = "el reparto no es el que sale de la semilla"
    elif tamper == "missing":
        del last["seed"]
        expected = "no trae su semilla"
    else:
        bad["hands"].pop()
        expected = "no ha terminado"
    done = run_verify(tmp_path, bad)
    assert done.returncode == 2
    assert expected in done.stderr
    if tamper != "unfinished":
        assert f"Mano {len(bad['hands'])}" in done.stderr


def test_a_sorteo_must_be_won_by_whom_the_seed_says(tmp_path: Path) -> None:
    rules = Rules.make("mano_a_mano", target=30, first_lead="sorteo")
    data = played_record(rules, "sorteo")
    assert run_verify(tmp_path, data).returncode == 0
    first = data["hands"][0]
    # the first hand said to be led by the seat that lost the seed's sorteo
    winner = sorteo(2, first["seed"])[0]
    data["hands"][0]["leader"] = 1 - winner
    done = run_verify(tmp_path, data)
    assert done.returncode == 2
    assert "sorteo" in done.stderr


def test_a_missing_file_is_one_spanish_line(tmp_path: Path) -> None:
    done = subprocess.run([*VERIFY, str(tmp_path / "nada.json")], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith("Error: ") and "se puede leer" in done.stderr
