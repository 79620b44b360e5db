"""Entering a hand asks only what the rule needs, and scores exactly as ``fichaflow score`` does
from every seat's pips: for every rule, whatever the table reports."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fichaflow.anotador.entries import HandEntry
from fichaflow.anotador.forms import facts_for, hand_form, next_leader
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.explain import explain
from fichaflow.core.hand import EndKind
from fichaflow.core.rules import PRESETS, Rules
from fichaflow.core.scoring import HandFacts, next_leader_after, score_hand

DOMINO, TRANQUE = EndKind.DOMINO, EndKind.TRANQUE
NAMES = ("Ana", "Beto", "Carla", "Diego")


def fichaflow_score(*args: str) -> dict[str, object]:
    """``fichaflow score --json`` run as a real process."""
    done = subprocess.run(
        [sys.executable, "-c", "from fichaflow.cli import main; main()", "score", "--json", *args],
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_the_seeds_tranque_con_el_de_abajo_gives_40_and_a_bonus_of_0() -> None:
    rules = Rules.make("dominicana")
    form = hand_form(rules, TRANQUE, 0)
    # The trancador and the next player first, then the rest.
    assert form.seats == (0, 1, 2, 3)
    assert form.teams == ()
    entry = HandEntry(TRANQUE, 0, pips=(8, 11, 7, 14))
    score = score_hand(rules, facts_for(rules, entry, leader=0))
    assert score.winner == 0
    assert score.points == 40
    assert score.bonus == 0
    text = " ".join(explain(rules, score, NAMES))
    assert "Ana con 8, Beto con 11" in text
    assert "8 + 11 + 7 + 14 = 40" in text
    assert "Bono de tranque: 0" in text
    cli = fichaflow_score(
        "--rules", "dominicana", "--tranque", "--closer", "0", "--pips", "8,11,7,14"
    )
    assert cli["gains"] == list(score.gains(2)) == [40, 0]
    assert cli["bonus"] == 0


def test_a_dominó_under_rivals_asks_only_the_rivals_pips() -> None:
    rules = Rules.make("venezuela")
    form = hand_form(rules, DOMINO, 1)
    assert form.seats == (2, 0)  # Carla and Ana, in turn after Beto; not Diego, his partner
    assert form.toggles == ("capicua",)
    entry = HandEntry(DOMINO, 1, pips=(12, None, 9, None))
    score = score_hand(rules, facts_for(rules, entry, leader=0))
    assert score.winner == 1 and score.points == 21
    cli = fichaflow_score(
        "--rules", "venezuela", "--domino", "--winner", "1", "--pips", "12,0,9,30"
    )
    assert cli["gains"] == list(score.gains(2)) == [0, 21]


def test_a_dominó_under_all_asks_every_other_hand() -> None:
    rules = Rules.make("dominicana")
    assert hand_form(rules, DOMINO, 2).seats == (3, 0, 1)
    entry = HandEntry(DOMINO, 2, pips=(4, 10, None, 6))
    score = score_hand(rules, facts_for(rules, entry, leader=0))
    assert score.gains(2) == (20, 0)


def test_a_tranque_by_pairs_asks_each_pairs_total() -> None:
    rules = Rules.make("venezuela")
    form = hand_form(rules, TRANQUE, 3)
    assert form.seats == () and form.teams == (1, 0)
    # Ana 5 + Carla 12 = 17 against Beto 9 + Diego 10 = 19: Ana and Carla win, scoring 19.
    entry = HandEntry(TRANQUE, 3, team_pips=(17, 19))
    score = score_hand(rules, facts_for(rules, entry, leader=0))
    assert score.winner == 0 and score.points == 19
    cli = fichaflow_score(
        "--rules", "venezuela", "--tranque", "--closer", "3", "--pips", "5,9,12,10"
    )
    assert cli["gains"] == list(score.gains(2)) == [19, 0]


def test_individual_modes_ask_every_players_pips() -> None:
    rules = Rules.make("tres")
    assert hand_form(rules, TRANQUE, 1).seats == (1, 2, 0)
    assert hand_form(rules, DOMINO, 1).seats == (2, 0)
    entry = HandEntry(TRANQUE, 1, pips=(10, 4, 7))
    score = score_hand(rules, facts_for(rules, entry, leader=0))
    assert score.gains(3) == (0, 17, 0)


def test_bonus_toggles_appear_only_where_the_mesa_uses_them() -> None:
    plain = hand_form(Rules.make("dominicana"), DOMINO, 0)
    assert plain.toggles == ("capicua",)
    assert hand_form(Rules.make("dominicana"), TRANQUE, 0).toggles == ()
    rich = Rules.make("dominicana", chuchazo_bonus=10, salida_pasada_bonus=5, pase_redondo_bonus=25)
    assert hand_form(rich, DOMINO, 0).toggles == (
        "capicua",
        "chuchazo",
        "salida_pasada",
        "pase_redondo",
    )
    assert hand_form(rich, TRANQUE, 0).toggles == ("salida_pasada", "pase_redondo")


def test_the_tranque_prize_is_credited_apart_from_the_pips() -> None:
    rules = Rules.make("dominicana", tranque_bonus=25)
    entry = HandEntry(TRANQUE, 0, pips=(8, 11, 7, 14))
    score = score_hand(rules, facts_for(rules, entry, leader=0))
    assert score.points == 40 and score.bonus == 25 and score.gains(2) == (65, 0)
    assert "Bono de tranque: 25 (pareja Ana y Carla)." in explain(rules, score, NAMES)


def test_missing_and_misplaced_pips_are_refused_by_name() -> None:
    rules = Rules.make("dominicana")
    with pytest.raises(FichaFlowError) as missing:
        facts_for(rules, HandEntry(TRANQUE, 0, pips=(8, 11, None, 14)), 0, NAMES)
    assert missing.value.code == "anotador.pips_missing"
    assert "Carla" in str(missing.value)
    with pytest.raises(FichaFlowError) as pairs:
        facts_for(rules, HandEntry(TRANQUE, 0, team_pips=(15, 25)), 0)
    assert pairs.value.code == "anotador.team_pips_rule"
    venezuela = Rules.make("venezuela")
    with pytest.raises(FichaFlowError) as both:
        facts_for(venezuela, HandEntry(TRANQUE, 0, pips=(1, 2, 3, 4), team_pips=(4, 6)), 0)
    assert both.value.code == "anotador.pips_both"
    with pytest.raises(FichaFlowError) as seat:
        hand_form(rules, DOMINO, 4)
    assert seat.value.code == "score.seat"


# --- every rule: the form's entry scores as every seat's pips would ---------------------------

OVERRIDES = {
    "domino_count": ("rivals", "all"),
    "tranque_count": ("rivals", "all"),
    "tranque_rule": ("pareja", "abajo"),
    "tranque_tie": ("nadie", "salida"),
    "next_lead": ("rotacion", "ganador"),
}


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    preset = draw(st.sampled_from(sorted(PRESETS)))
    options = {k: draw(st.sampled_from(v)) for k, v in OVERRIDES.items()}
    bonuses = {
        b: draw(st.sampled_from((0, 0, 5, 25)))
        for b in ("tranque_bonus", "capicua_bonus", "salida_pasada_bonus", "chuchazo_bonus")
    }
    return Rules.make(
        preset, **options, **bonuses, pase_redondo_bonus=draw(st.sampled_from((0, 10)))
    )


@st.composite
def hand_strategy(draw: st.DrawFn) -> tuple[Rules, HandFacts]:
    rules = draw(rules_strategy())
    n = rules.seats
    end = draw(st.sampled_from((DOMINO, TRANQUE)))
    seat = draw(st.integers(0, n - 1))
    # Small pips make ties (the rules' hard cases) common. Only hands a deal can leave: four
    # seats hold at most 153 pips together, and only one seat still holding tiles shows 0.
    pips = list(draw(st.lists(st.integers(0, 38), min_size=n, max_size=n)))
    if draw(st.booleans()):
        pips = [p % 4 for p in pips]
    if end is DOMINO:
        pips[seat] = 0
    zeros = [s for s, p in enumerate(pips) if p == 0 and not (end is DOMINO and s == seat)]
    for s in zeros[1:]:
        pips[s] = 1
    domino = end is DOMINO
    facts = HandFacts(
        end=end,
        seat=seat,
        pips=tuple(pips),
        leader=draw(st.integers(0, n - 1)),
        capicua=domino and draw(st.booleans()),
        chuchazo=domino and draw(st.booleans()),
        pase_redondo=tuple(draw(st.lists(st.integers(0, n - 1), max_size=2))),
        salida_pasada=draw(st.booleans()),
    )
    return rules, facts


def entry_from(rules: Rules, facts: HandFacts, by_pairs: bool = True) -> HandEntry:
    """What the anotador's form takes from a table whose hands hold ``facts.pips``."""
    form = hand_form(rules, facts.end, facts.seat)
    pips: tuple[int | None, ...] = tuple(
        p if s in form.seats else None for s, p in enumerate(facts.pips)
    )
    team_pips = None
    if form.teams and by_pairs:
        team_pips = tuple(sum(facts.pips[s] for s in rules.seats_of(t)) for t in range(2))
        pips = ()
    elif form.teams:
        pips = facts.pips
    return HandEntry(
        facts.end, facts.seat, pips, team_pips, None, facts.capicua, facts.chuchazo,
        facts.salida_pasada, facts.pase_redondo,
    )  # fmt: skip


@settings(max_examples=600, deadline=None)
@given(hand=hand_strategy(), by_pairs=st.booleans())
def test_every_rules_entry_scores_as_every_seats_pips(
    hand: tuple[Rules, HandFacts], by_pairs: bool
) -> None:
    rules, facts = hand
    full = score_hand(rules, facts)
    entry = entry_from(rules, facts, by_pairs)
    asked = [s for s, p in enumerate(entry.pips) if p is not None]
    via = score_hand(rules, facts_for(rules, entry, facts.leader))
    assert via.winner == full.winner
    assert via.winning_seat == full.winning_seat
    assert via.points == full.points
    assert via.bonuses == full.bonuses
    assert via.tie == full.tie
    assert via.gains(rules.teams) == full.gains(rules.teams)
    # Nothing more is asked than what the rule compares and counts.
    compared_seats = {s for s, _ in full.compared} if full.rule != "pareja" else set()
    needed = compared_seats | set(full.counted)
    if entry.team_pips is None and full.rule != "pareja":
        if facts.end is DOMINO:
            assert set(asked) == needed - {facts.seat}
        else:
            # The rest is asked before the comparison is known; it is counted unless rivals.
            assert set(asked) >= needed
    # The next salida: the engine's, unless the entry cannot tell (then the mesa says).
    leader = next_leader(rules, entry, via)
    if entry.team_pips is None or leader is not None:
        assert leader == next_leader_after(rules, full)
    else:
        # Only a won tranque by pairs under ganador leaves it to the mesa.
        assert rules.next_lead == "ganador" and full.winner is not None


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_agrees_with_fichaflow_score(preset: str) -> None:
    """The same hands through ``fichaflow score`` (a real process) and through the forms."""
    rules = Rules.make(preset)
    n = rules.seats
    hands = [
        HandFacts(TRANQUE, 0, (8, 11, 7, 14)[:n], 0),
        HandFacts(TRANQUE, 1, (9, 9, 3, 20)[:n], 1),
        HandFacts(DOMINO, 1, (12, 0, 9, 30)[:n], 0),
    ]
    for facts in hands:
        cli = fichaflow_score(
            "--rules", preset,
            f"--{facts.end}", "--winner" if facts.end is DOMINO else "--closer", str(facts.seat),
            "--pips", ",".join(map(str, facts.pips)), "--leader", str(facts.leader),
        )  # fmt: skip
        via = score_hand(rules, facts_for(rules, entry_from(rules, facts), facts.leader))
        assert cli["gains"] == list(via.gains(rules.teams))
        assert cli["winner"] == via.winner
        assert cli["points"] == via.points
