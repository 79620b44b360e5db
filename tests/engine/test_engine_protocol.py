"""``fichaflow engine`` as another program uses it: a real process, one JSON line in, one out."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fichaflow.bots.ladder import make_bot
from fichaflow.cli.engine import respond
from fichaflow.core.deal import Deal
from fichaflow.core.hand import DRAW, Hand
from fichaflow.core.rules import Rules
from fichaflow.core.view import VIEW_KEYS, hand_view

FICHAFLOW = [sys.executable, "-c", "from fichaflow.cli import main; main()"]


class Engine:
    """A running ``fichaflow engine`` with a line-at-a-time conversation."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [*FICHAFLOW, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def ask(self, line: str) -> dict:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        assert answer.endswith("\n"), "the engine must answer every line"
        return json.loads(answer)

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(timeout=60)


@pytest.fixture
def engine():
    running = Engine("engine", "--bot", "jugador", "--seed", "3")
    yield running
    if running.process.poll() is None:
        running.process.kill()


@pytest.mark.parametrize("preset", ["venezuela", "mano_a_mano", "tres"])
def test_the_engine_plays_whole_hands_in_record_notation(engine: Engine, preset: str) -> None:
    rules = Rules.make(preset)
    for number in range(6):
        deal = Deal.from_seed(rules.seats, f"engine:{preset}:{number}")
        hand = Hand(list(deal.hands), deal.stock, number % rules.seats)
        asked = 0
        while not hand.ended:
            view = hand_view(rules, hand, hand.turn, hand_number=2)
            answer = engine.ask(json.dumps({"id": asked, **view.to_json()}))
            assert answer["id"] == asked and "error" not in answer, answer
            token = answer["move"]
            move = DRAW if token == "draw" else hand.parse(token)
            assert move in view.legal
            hand.play(move)
            asked += 1
    assert engine.close() == 0


def test_malformed_requests_get_a_json_error_and_the_session_goes_on(engine: Engine) -> None:
    rules = Rules.make("venezuela")
    hand = Hand(list(Deal.from_seed(4, "errors").hands), (), 0)
    good = hand_view(rules, hand, 0, hand_number=2).to_json()
    not_turn = hand_view(rules, hand, 1, hand_number=2).to_json()
    wrong_legal = dict(good, legal=["6-6"])
    cases = [
        ("{esto no es json", "engine.not_json"),
        ("[1, 2, 3]", "view.not_object"),
        (json.dumps({"seat": 0}), "view.missing"),
        (json.dumps(dict(good, tiles=["9-9"])), "tile.invalid"),
        (json.dumps(not_turn), "engine.not_your_turn"),
        (json.dumps(wrong_legal), "engine.legal_mismatch"),
    ]
    for line, code in cases:
        answer = engine.ask(line)
        assert answer["error"]["code"] == code, (line, answer)
        assert isinstance(answer["error"]["message"], str) and len(answer["error"]["message"]) > 10
    answer = engine.ask(json.dumps(not_turn))
    assert answer["error"]["message"] == (
        "La vista no pide jugada: no le toca al asiento 1 o la mano terminó"
    )
    without_legal = dict(good)
    without_legal.pop("legal")  # the engine asks the rules core for the legal moves
    assert "move" in engine.ask(json.dumps(without_legal))
    assert engine.close() == 0
    assert engine.process.stderr is not None
    assert "Traceback" not in engine.process.stderr.read()


def test_english_messages_on_request() -> None:
    running = Engine("--lang", "en", "engine", "--bot", "tirapuntos")
    answer = running.ask("nope")
    assert answer["error"]["code"] == "engine.not_json"
    assert answer["error"]["message"] == "The request is not valid JSON (it fails at column 1)"
    assert running.close() == 0


@pytest.mark.parametrize(("bot", "word"), [("campeon", "campeon"), ("omnisciente", "omnisciente")])
def test_a_bot_the_engine_cannot_run_is_one_spanish_line(bot: str, word: str) -> None:
    out = subprocess.run(
        [*FICHAFLOW, "engine", "--bot", bot],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and word in lines[0]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(key=st.sampled_from([*VIEW_KEYS, "id", "extra"]), value=json_values, seed=st.integers(0, 50))
def test_any_damaged_request_gets_an_answer_not_a_crash(key: str, value: object, seed: int) -> None:
    rules = Rules.make(["venezuela", "mano_a_mano", "tres"][seed % 3])
    deal = Deal.from_seed(rules.seats, f"fuzz:{seed}")
    hand = Hand(list(deal.hands), deal.stock, seed % rules.seats)
    for _ in range(seed % 9):
        hand.play(hand.legal_moves()[0])
    if hand.ended:
        return
    request = hand_view(rules, hand, hand.turn, hand_number=2).to_json()
    request[key] = value
    answer = respond(make_bot("jugador", seed), json.dumps(request))
    assert set(answer) - {"id"} in ({"move"}, {"error"})
    if "error" in answer:
        assert answer["error"]["code"] != "engine.internal", answer
        assert answer["error"]["message"]
    else:
        token = answer["move"]
        move = DRAW if token == "draw" else hand.parse(token)
        assert move in hand.legal_moves()
