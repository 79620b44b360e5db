"""The shipped problemas through the trainer's adapter, and served by a real ``fichaflow serve``:
the page's moves (their end always written) are read in the position, every problema solves
with its stored line, a wrong move costs what its values say, and the answer stays hidden."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import Hand, write_move
from fichaflow.core.record import draw_until_playable
from fichaflow.core.tiles import bits, name
from fichaflow.problemas import Puzzle, load_set
from fichaflow.trainer.shipped import ShippedPuzzles
from tests.server.kit import ServerProcess

SET = ShippedPuzzles()


def _page(hand: Hand, move: str) -> str:
    """What the page sends for ``move``: the tile and, always, its end."""
    return write_move(hand.parse(move))


def _solve(puzzle: Puzzle) -> int:
    """Answer ``puzzle`` right at each of the seat's decisions; the number of answers given."""
    hand = puzzle.hand()
    line: list[str] = []
    answers: list[str] = []
    while True:
        answer = _page(hand, puzzle.solution[len(line)])
        judged = SET.judge(puzzle.id, answers, answer)
        assert judged.correct, (puzzle.id, answers, judged)
        answers.append(answer)
        if judged.done:
            return len(answers)
        for move in (puzzle.solution[len(line)], *judged.replies):
            hand.play(hand.parse(move))
            draw_until_playable(hand)
            line.append(move)


def test_every_other_shipped_problema_solves_through_the_trainer() -> None:
    puzzles = load_set()[::10]
    asked = [_solve(p) for p in puzzles]
    assert max(asked) >= 2  # some ask for more than one decision


def test_a_wrong_move_costs_what_its_value_says_and_a_lie_is_refused() -> None:
    puzzle = next(p for p in load_set() if len(p.values) >= 3)
    hand = puzzle.hand()
    wrong = next(m for m in puzzle.values if m != puzzle.solution[0])
    judged = SET.judge(puzzle.id, [], _page(hand, wrong))
    assert not judged.correct and judged.done and judged.replies == ()
    assert judged.cost == round(puzzle.values[puzzle.solution[0]] - puzzle.values[wrong])
    assert judged.best == puzzle.solution[0]
    with pytest.raises(FichaFlowError) as caught:  # a wrong earlier answer, sent as right
        SET.judge(puzzle.id, [_page(hand, wrong)], _page(hand, puzzle.solution[0]))
    assert caught.value.code == "problemas.not_your_turn"


def test_the_position_shows_every_hand_and_never_the_answer() -> None:
    puzzle = next(p for p in load_set() if p.rules_obj().seats == 4)
    position = SET.position(puzzle.id)
    question = position["question"]["es"]
    assert question.count("un rival tiene") == 2 and "tu compañero tiene" in question
    assert position["ends"] == [puzzle.hand().left, puzzle.hand().right]
    assert "solution" not in position and "values" not in position


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("trainer-serve")
    with ServerProcess(f"sqlite:///{folder / 'fichaflow.sqlite3'}", log=folder / "log") as srv:
        yield srv


def test_fichaflow_serve_serves_the_shipped_problemas(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url, timeout=20) as http:
        got = http.get("/api/problemas/next")
        assert got.status_code == 200, got.text
        puzzle = next(p for p in load_set() if p.id == got.json()["id"])
        assert "solution" not in got.text and "values" not in got.json()
        answer = _page(puzzle.hand(), puzzle.solution[0])
        judged = http.post(f"/api/problemas/{puzzle.id}/attempt", json={"move": answer})
        assert judged.status_code == 200, judged.text
        assert judged.json()["correct"] is True
        wrong = http.post(f"/api/problemas/{puzzle.id}/attempt", json={"move": "9-9"})
        assert wrong.status_code == 400 and "Traceback" not in wrong.text
        assert wrong.json()["error"]["message"]
        assert http.get("/problemas/").status_code == 200


def test_a_seat_problems_position_shows_only_what_the_seat_knew() -> None:
    puzzle = next(p for p in load_set() if p.kind == "seat" and p.rules_obj().seats == 4)
    hand, position = puzzle.hand(), SET.position(puzzle.id)
    assert position["kind"] == "seat"
    others = [(puzzle.seat + k) % 4 for k in (1, 2, 3)]
    assert [o["count"] for o in position["others"]] == [hand.hands[s].bit_count() for s in others]
    assert [o["role"] for o in position["others"]] == ["rival", "partner", "rival"]
    assert all(o["tiles"] is None for o in position["others"])
    hidden = {name(t) for s in others for t in bits(hand.hands[s])}
    assert not hidden & set(str(position).replace("'", " ").replace(",", " ").split())
    assert "con lo que sabe el asiento" in position["question"]["es"]
    face_up = SET.position(next(p for p in load_set() if p.kind == "face_up").id)
    assert all(o["tiles"] for o in face_up["others"])
