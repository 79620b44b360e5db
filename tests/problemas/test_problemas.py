"""The shipped problemas: what a player meets (the answer, its line, what a wrong move costs),
and the checks that keep a wrong puzzle out."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from pathlib import Path

import pytest

from fichaflow import i18n
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import SUIT
from fichaflow.problemas import THEMES, Puzzle, by_id, judge, load_set
from fichaflow.problemas.mine import MIN_MARGIN, Tally, check, mine
from fichaflow.problemas.seat import DECIDED, SPREAD, WIDE_MARGIN, consistent_deals
from fichaflow.problemas.solve import Exact
from tests.cli.clikit import fichaflow


def test_the_shipped_set_has_2000_unique_puzzles_across_modes_and_themes() -> None:
    puzzles = load_set()
    assert len(puzzles) >= 2000
    assert len({p.id for p in puzzles}) == len(puzzles)
    modes = Counter(Rules.load(dict(p.rules)).mode.value for p in puzzles)
    assert set(modes) == {"parejas", "mano_a_mano", "tres"}, modes
    themes = Counter(t for p in puzzles for t in p.themes)
    assert set(themes) <= set(THEMES)
    assert len(themes) >= 6, themes
    for p in puzzles:
        ranked = sorted(p.values.values(), reverse=True)
        assert p.values[p.best] == ranked[0]
        assert ranked[0] - ranked[1] == pytest.approx(p.margin)
        assert p.margin >= MIN_MARGIN
        assert 100 <= p.rating <= 3000


def test_every_theme_and_kind_has_a_name_in_both_languages() -> None:
    for theme in THEMES:
        for lang in ("es", "en"):
            assert i18n.text(f"problemas.theme.{theme}", lang) != f"problemas.theme.{theme}"
    assert i18n.text("problemas.theme.cochina") == "Ahorcar la cochina"


def test_a_right_answer_plays_out_the_line_until_the_point_is_made() -> None:
    puzzle = next(p for p in load_set() if len(p.steps) >= 2)
    played: list[str] = []
    verdicts = []
    while True:
        nxt = puzzle.solution[len(played)]
        verdict = judge(puzzle, played, nxt)
        verdicts.append(verdict)
        assert verdict.correct and verdict.cost == 0
        played += [nxt, *verdict.replies]
        if verdict.done:
            break
    assert len(verdicts) == len(puzzle.steps)
    assert played == list(puzzle.solution)
    assert verdicts[-1].explain == "problemas.explain.right_done"
    assert not verdicts[0].done


def test_a_wrong_answer_says_what_it_loses_in_tantos() -> None:
    puzzle = load_set()[0]
    worst = min(puzzle.values, key=lambda m: puzzle.values[m])
    verdict = judge(puzzle, [], worst)
    assert not verdict.correct and verdict.done and verdict.replies == ()
    assert verdict.cost == pytest.approx(puzzle.values[puzzle.best] - puzzle.values[worst])
    assert verdict.cost >= puzzle.margin
    text = i18n.text(verdict.explain, "es", **verdict.params)
    assert f"{worst} pierde" in text and "tantos" in text and puzzle.best in text
    assert "loses" in i18n.text(verdict.explain, "en", **verdict.params)


def test_bad_input_is_a_spanish_error() -> None:
    puzzle = load_set()[0]
    with pytest.raises(FichaFlowError) as caught:
        judge(puzzle, [], "9-9")
    assert "no es una jugada" in caught.value.message()
    with pytest.raises(FichaFlowError) as caught:
        judge(puzzle, ["6-6"], puzzle.best)
    assert "no siguen la línea" in caught.value.message()
    with pytest.raises(FichaFlowError) as caught:
        by_id("0000")
    assert "ningún problema" in caught.value.message()


def test_json_round_trip_and_stable_id() -> None:
    puzzle = load_set()[5]
    again = Puzzle.from_json(puzzle.to_json())
    assert again == puzzle and by_id(puzzle.id) == puzzle
    data = puzzle.to_json()
    data["seat"] = (puzzle.seat + 1) % len(puzzle.deal["hands"])
    with pytest.raises(FichaFlowError):
        Puzzle.from_json(data)  # the id no longer matches the position


def test_the_checks_reject_a_wrong_margin_an_impossible_position_and_other_rules() -> None:
    puzzle = load_set()[3]
    assert check(puzzle) == ""
    assert check(dataclasses.replace(puzzle, margin=puzzle.margin + 1)) == "margin"
    second = sorted(puzzle.values, key=lambda m: -puzzle.values[m])[1]
    wrong = dataclasses.replace(puzzle, solution=(second, *puzzle.solution[1:]))
    assert check(wrong) == "margin"
    impossible = dataclasses.replace(puzzle, moves=(*puzzle.moves[:-1], "6-6"), id="")
    assert check(impossible) == "replay"
    other = Rules.make("zulia" if puzzle.rules.get("preset") != "zulia" else "venezuela")
    assert check(puzzle, source_rules=other) == "rules"


def test_mining_is_reproducible_and_counts_its_rejections(tmp_path: Path) -> None:
    first, second = Tally(), Tally()
    a = [p.dumps() for p in mine(7, 6, first)]
    b = [p.dumps() for p in mine(7, 6, second)]
    assert a == b and len(a) == 6
    assert first.positions == 6 + sum(first.rejected.values())
    out = tmp_path / "set.jsonl"
    done = fichaflow("problemas", "mine", "--seed", "7", "--count", "6", "--out", str(out))
    assert done.status == 0, done.err
    assert out.read_text(encoding="utf-8") == "".join(line + "\n" for line in a)
    assert "6 problemas escritos" in done.out
    checked = fichaflow("problemas", "check", str(out))
    assert checked.status == 0 and "Los 6 problemas están bien" in checked.out


def test_check_refuses_a_file_that_is_not_a_set(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"kind": "face_up"}\n', encoding="utf-8")
    line = fichaflow("problemas", "check", str(bad)).error_line
    assert "mal escrito" in line


def test_a_sample_of_the_shipped_set_re_solves() -> None:
    puzzles = load_set()
    for puzzle in puzzles[:: max(1, len(puzzles) // 60)]:
        assert check(puzzle) == "", puzzle.id


@pytest.mark.slow
def test_every_shipped_puzzle_re_solves() -> None:
    bad = [(p.id, r) for p in load_set() if (r := check(p))]
    assert bad == []


def _seat_set() -> list[Puzzle]:
    return [p for p in load_set() if p.kind == "seat"]


def test_seat_problems_are_shipped_across_modes_decided_both_ways() -> None:
    seats = _seat_set()
    assert len(seats) >= 200
    modes = Counter(Rules.load(dict(p.rules)).mode.value for p in seats)
    assert set(modes) == {"parejas", "mano_a_mano", "tres"}, modes
    how = Counter(p.decided["how"] for p in seats)
    assert set(how) == set(DECIDED), how
    for p in seats:
        assert p.margin >= MIN_MARGIN and p.steps == (p.values,)
        assert p.solution_seats[0] == p.seat and p.seat not in p.solution_seats[1:]
        if p.decided["how"] == "every_deal":  # every deal solved, the answer best in each
            assert p.decided["all_deals"] and p.decided["worst_margin"] > 0
            assert p.decided["margin_se"] == 0
        else:  # wide on average, even after the sampling's uncertainty
            assert p.margin - SPREAD * p.decided["margin_se"] >= WIDE_MARGIN


def test_a_seat_problems_deals_are_what_the_seat_could_not_rule_out() -> None:
    """Enumerated deals: each replays the hand, keeps the seat's own tiles and each other
    seat's count, avoids every number that seat passed on, and the real deal is one of them."""
    puzzle = next(p for p in _seat_set() if p.decided["how"] == "every_deal")
    rules, real = puzzle.rules_obj(), puzzle.hand()
    deals, every = consistent_deals(rules, real, puzzle.moves, int(puzzle.source["hand"]), "x")
    assert every and len(deals) == puzzle.decided["deals"] >= 2
    assert len({tuple(h.hands) for h in deals}) == len(deals)
    assert tuple(real.hands) in {tuple(h.hands) for h in deals}
    passed = [0] * rules.seats
    for turn in real.history:
        if turn.move.is_pass:
            passed[turn.seat] |= SUIT[turn.left] | SUIT[turn.right]
    for hand in deals:
        assert hand.hands[puzzle.seat] == real.hands[puzzle.seat]
        for s in range(rules.seats):
            assert hand.hands[s].bit_count() == real.hands[s].bit_count()
            assert not hand.hands[s] & passed[s] or s == puzzle.seat
    # and in the real deal (one of them) the answer is the best, face up too
    real_values = dict(Exact(rules, puzzle.seat).first_values(real))
    assert max(real_values, key=lambda m: real_values[m]) == puzzle.best


def test_a_sample_of_the_shipped_seat_problems_re_solves() -> None:
    seats = _seat_set()
    for puzzle in seats[:: max(1, len(seats) // 25)]:
        assert check(puzzle) == "", puzzle.id


def test_the_checks_reject_a_seat_problem_whose_margin_or_deciding_is_not_its_own() -> None:
    puzzle = next(p for p in _seat_set() if p.decided["how"] == "expected")
    assert check(puzzle) == ""
    assert check(dataclasses.replace(puzzle, margin=puzzle.margin + 1)) == "margin"
    claimed = {**puzzle.decided, "how": "every_deal"}
    assert check(dataclasses.replace(puzzle, decided=claimed)) == "margin"
    second = sorted(puzzle.values, key=lambda m: -puzzle.values[m])[1]
    assert check(dataclasses.replace(puzzle, solution=(second,))) == "margin"


def test_a_seat_problems_explanation_says_how_its_answer_was_decided() -> None:
    for how, words in (
        ("every_deal", "en todos los repartos posibles"),
        ("expected", "en promedio, por"),
    ):
        puzzle = next(p for p in _seat_set() if p.decided["how"] == how)
        worst = min(puzzle.values, key=lambda m: puzzle.values[m])
        verdict = judge(puzzle, [], worst)
        text = i18n.text(verdict.explain, "es", **verdict.params)
        assert f"{worst} pierde" in text and "tantos en promedio" in text and words in text
        assert f"{puzzle.decided['deals']}" in text
        right = judge(puzzle, [], puzzle.best)
        assert right.correct and right.done
        assert words in i18n.text(right.explain, "es", **right.params)
        assert "deal" in i18n.text(right.explain, "en", **right.params)


def test_seat_mining_is_reproducible(tmp_path: Path) -> None:
    a = [p.dumps() for p in mine(7, 3, Tally(), kind="seat")]
    assert len(a) == 3 and all('"kind": "seat"' in line for line in a)
    out = tmp_path / "set.jsonl"
    done = fichaflow(
        "problemas", "mine", "--seed", "7", "--count", "2", "--seats", "3", "--out", str(out)
    )
    assert done.status == 0, done.err
    lines = out.read_text(encoding="utf-8").splitlines()
    assert lines[2:] == a and [p.dumps() for p in mine(7, 2)] == lines[:2]
    checked = fichaflow("problemas", "check", str(out))
    assert checked.status == 0 and "Los 5 problemas están bien" in checked.out


def test_the_shipped_set_is_what_its_documented_command_mines() -> None:
    """docs/problemas.md names the command that made the shipped set; its seed mines the set's
    first face-up and first seat problems again, byte for byte, in the set's order (the whole
    set takes minutes: ``fichaflow problemas mine`` with that command and a diff)."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "problemas.md").read_text("utf-8")
    found = re.search(r"fichaflow problemas mine --seed (\d+) --count (\d+) --seats (\d+)", page)
    assert found, "docs/problemas.md names no mining command"
    seed, count, seats = (int(v) for v in found.groups())
    shipped = [p.dumps() for p in load_set()]
    assert len(shipped) == count + seats
    assert [p.dumps() for p in mine(seed, 20)] == shipped[:20]
    assert [p.dumps() for p in mine(seed, 2, Tally(), kind="seat")] == shipped[count : count + 2]
