"""Every bot of the ladder plays only legal moves, in every mode and under every rule option.

Each move goes through the rules core (``Hand.play``), which refuses anything illegal, so a single
wrong move by any bot fails the run. Every fast bot plays at least 10,000 random hands of each
mode; the two search bots, with a small work budget, play as many hands as take about a minute
in all on the project's machine (numbers below). That is the full run (marked slow, run by CI and
``pytest --slow``); the default run plays the first fiftieth of the same hands."""

from __future__ import annotations

import multiprocessing
import os
import random
from collections import Counter
from typing import Any

import pytest

from fichaflow.bots.ladder import BOTS, make_bot
from fichaflow.core.deal import Deal, sorteo
from fichaflow.core.partida import first_salida
from fichaflow.core.rules import CHOICES, PRESETS, Mode, Rules
from fichaflow.match.play import play_hand

HANDS_PER_MODE = 10_000
BotOptions = dict[str, dict[str, Any]]
SEARCH_OPTIONS: BotOptions = {
    "gallo": {"budget_ms": None, "samples": 8, "playouts": 1, "nodes": 2000},
    "omnisciente": {"nodes": 2000, "samples": 8},
}
SEARCH_HANDS = {"gallo": 300, "omnisciente": 60}
"""Hands per mode for the slow bots: about a minute of gallo on 2 shared cores (measured)."""

MODES = [Mode.PAREJAS, Mode.MANO_A_MANO, Mode.TRES]
SHARES = [pytest.param(50, id="fiftieth"), pytest.param(1, id="all", marks=pytest.mark.slow)]
"""Each test plays 1/share of its hands: a fiftieth by default, all of them in the slow run."""


def random_rules(mode: Mode, rng: random.Random) -> Rules:
    """A preset of ``mode`` with random overrides of every scoring and salida option."""
    preset = rng.choice([name for name, r in PRESETS.items() if r.mode is mode])
    overrides: dict[str, object] = {}
    for option, choices in CHOICES.items():
        if option != "mode" and rng.random() < 0.5:
            overrides[option] = rng.choice([str(c) for c in choices])
    if mode is not Mode.PAREJAS and overrides.get("first_lead") == "doble_seis":
        overrides["first_lead"] = "doble_mayor"
    for bonus in ("tranque_bonus", "capicua_bonus", "pase_redondo_bonus", "salida_pasada_bonus"):
        if rng.random() < 0.3:
            overrides[bonus] = rng.choice([5, 25])
    overrides["target"] = rng.choice([50, 100, 200])
    return Rules.make(preset, **overrides)


def one_hand(names: list[str], mode: Mode, number: int, options: BotOptions) -> int:
    """Play hand ``number`` with ``names`` at the seats; returns the decisions the bots made."""
    rng = random.Random(f"legal:{mode}:{number}:{'/'.join(names)}")
    rules = random_rules(mode, rng)
    deal = Deal.from_seed(rules.seats, f"legal:{mode}:{number}")
    bots = [make_bot(n, rng.randrange(2**31), **options.get(n, {})) for n in names]
    if number % 3 == 0:  # a partida's first hand: its salida rules apply
        first = first_salida(rules, deal)
        if first is None:
            leader, forced = sorteo(rules.seats, f"legal:{number}")[0], None
        else:
            leader, forced = first
        hand_number = 1
    else:
        leader, forced, hand_number = rng.randrange(rules.seats), None, rng.randint(2, 9)
    scores = tuple(rng.randrange(rules.target) for _ in range(rules.teams))
    result = play_hand(rules, deal, bots, leader, forced, hand_number, scores)
    assert result.hand.ended
    return sum(len(t) for t in result.times)


def play_chunk(args: tuple[list[str], Mode, int, int, BotOptions]) -> tuple[Counter[str], int]:
    names, mode, start, stop, options = args
    seats = {Mode.PAREJAS: 4, Mode.MANO_A_MANO: 2, Mode.TRES: 3}[mode]
    seen: Counter[str] = Counter()
    decisions = 0
    for number in range(start, stop):
        table = [names[(number + s) % len(names)] for s in range(seats)]
        decisions += one_hand(table, mode, number, options)
        seen.update(set(table))
    return seen, decisions


def usable_cores() -> int:
    """The cores this process may run on (its affinity, where the system says), at least one."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def run(names: list[str], mode: Mode, hands: int, options: BotOptions) -> tuple[Counter[str], int]:
    step = max(1, hands // 16)
    chunks = [(names, mode, s, min(hands, s + step), options) for s in range(0, hands, step)]
    seen: Counter[str] = Counter()
    decisions = 0
    with multiprocessing.get_context("fork").Pool(min(usable_cores(), len(chunks))) as pool:
        for part, made in pool.imap_unordered(play_chunk, chunks):
            seen.update(part)
            decisions += made
    return seen, decisions


def fast_bots() -> list[str]:
    return [name for name in BOTS if name not in SEARCH_OPTIONS]


@pytest.mark.parametrize("share", SHARES)
@pytest.mark.parametrize("mode", MODES, ids=str)
def test_fast_bots_play_only_legal_moves(mode: Mode, share: int) -> None:
    names = fast_bots()
    assert {"tirafichas", "tirapuntos", "acuestafichas", "jugador"} <= set(names)
    seats = {Mode.PAREJAS: 4, Mode.MANO_A_MANO: 2, Mode.TRES: 3}[mode]
    per_bot = HANDS_PER_MODE // share
    # every bot sits at n of every len(names) tables in rotation
    hands = -(-per_bot * len(names) // min(seats, len(names))) + len(names)
    seen, decisions = run(names, mode, hands, {})
    for name in names:
        assert seen[name] >= per_bot, (name, seen[name])
    assert decisions > hands  # the bots were asked, not only forced moves applied


@pytest.mark.parametrize("share", SHARES)
@pytest.mark.parametrize("mode", MODES, ids=str)
@pytest.mark.parametrize("name", sorted(SEARCH_OPTIONS))
def test_search_bots_play_only_legal_moves_on_a_small_budget(
    name: str, mode: Mode, share: int
) -> None:
    if name not in BOTS:
        pytest.skip(f"{name} is not in the ladder")
    hands = max(2, SEARCH_HANDS[name] // share)
    seen, decisions = run([name], mode, hands, SEARCH_OPTIONS)
    assert seen[name] == hands
    assert decisions > hands
