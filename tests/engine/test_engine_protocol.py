"""``fichaflow engine`` as another program uses it: a real process, one JSON line in, one out."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fichaflow.bots.ladder import make_bot
from fichaflow.cli.engine import Budget, Player, respond
from fichaflow.core.deal import Deal
from fichaflow.core.hand import DRAW, Hand
from fichaflow.core.partida import Partida
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import name
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

    def ask(self, line: str) -> dict[str, Any]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        assert answer.endswith("\n"), "the engine must answer every line"
        return cast(dict[str, Any], json.loads(answer))

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
    # the bots it offers instead are the ones it runs
    offered = lines[0].rsplit(":", 1)[1]
    assert "gallo" in offered and "jugador" in offered and "omnisciente" not in offered


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
    request = cast(dict[str, object], hand_view(rules, hand, hand.turn, hand_number=2).to_json())
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


def first_hand_request(preset: str) -> tuple[dict[str, Any], str]:
    """The leader's request at the salida of a partida's first hand, and the tile it must lead."""
    rules = Rules.make(preset)
    partida = Partida(rules)
    deal = Deal.from_seed(rules.seats, "forced-lead")
    hand = partida.start_hand(deal)
    assert hand.forced_lead is not None
    request = cast(dict[str, Any], hand_view(rules, hand, hand.leader, hand_number=1).to_json())
    return request, name(hand.forced_lead)


@pytest.mark.parametrize("preset", ["internacional", "venezuela", "mano_a_mano", "tres"])
@pytest.mark.parametrize("bot", ["jugador", "gallo"])
def test_the_engine_derives_the_forced_salida_the_rules_give(preset: str, bot: str) -> None:
    request, forced = first_hand_request(preset)
    del request["forced_lead"]
    del request["legal"]
    assert respond(make_bot(bot, 1), json.dumps(request)) == {"move": forced}
    request["legal"] = [forced]
    assert respond(make_bot(bot, 1), json.dumps(request)) == {"move": forced}
    request["forced_lead"] = next(t for t in request["tiles"] if t != forced)
    assert respond(make_bot(bot, 1), json.dumps(request))["error"]["code"] == "view.forced_lead"


def test_a_view_that_contradicts_its_history_is_refused_not_played() -> None:
    rules = Rules.make("venezuela")
    deal = Deal.from_seed(4, "contradiction")
    hand = Hand(list(deal.hands), deal.stock, 0)
    for _ in range(8):
        hand.play(hand.legal_moves()[0])
    request = hand_view(rules, hand, hand.turn, hand_number=2).to_json()
    assert "move" in respond(make_bot("gallo", 1), json.dumps(request))
    request["line"] = []
    answer = respond(make_bot("gallo", 1), json.dumps(request))
    assert answer["error"]["code"] == "view.disagrees"
    assert "line" in answer["error"]["message"]


def test_a_null_id_is_an_id_and_is_echoed() -> None:
    request, _ = first_hand_request("venezuela")
    answer = respond(make_bot("jugador", 1), json.dumps({**request, "id": None}))
    assert list(answer) == ["id", "move"] and answer["id"] is None
    assert "id" not in respond(make_bot("jugador", 1), json.dumps(request))


def test_legal_may_leave_out_an_end_where_it_is_unambiguous() -> None:
    """A play that fits one end only may be written without it; on ends that show the same
    number, one end stands for both (the core lists both)."""
    request = {
        "rules": "venezuela",
        "seat": 1,
        "hand_number": 2,
        "leader": 0,
        "turn": 1,
        "tiles": ["5-1", "5-2", "0-0", "1-1", "2-2", "3-3", "4-4"],
        "ends": [5, 5],
        "line": [[5, 5]],
        "history": [{"seat": 0, "kind": "play", "tile": "5-5", "ends": None}],
        "counts": [6, 7, 7, 7],
        "stock_left": 0,
        "scores": [0, 0],
    }
    bot = make_bot("jugador", 1)
    for legal in (["5-1", "5-2"], ["5-1:left", "5-2:right"], ["5-1:left", "5-1:right", "5-2"]):
        assert "move" in respond(bot, json.dumps({**request, "legal": legal})), legal
    answer = respond(bot, json.dumps({**request, "legal": ["5-1"]}))
    assert answer["error"]["code"] == "engine.legal_mismatch"


def gallo_requests(count: int) -> list[str]:
    """Requests from the middle of real hands of every mode, where gallo has a choice."""
    lines: list[str] = []
    for preset in ("venezuela", "mano_a_mano", "tres"):
        rules = Rules.make(preset)
        for seed in range(12):
            deal = Deal.from_seed(rules.seats, f"budget:{seed}")
            hand = Hand(list(deal.hands), deal.stock, seed % rules.seats)
            rng = random.Random(seed)
            for _ in range(rng.randrange(2, 14)):
                if hand.ended:
                    break
                hand.play(rng.choice(hand.legal_moves()))
            if hand.ended or len(hand.legal_moves()) < 2:
                continue
            view = hand_view(rules, hand, hand.turn, hand_number=2).to_json()
            lines.append(json.dumps(view))
    return lines[:count]


def test_gallos_work_budget_gives_the_same_answers_in_every_session() -> None:
    requests = gallo_requests(24)
    assert len(requests) == 24
    first = Player("gallo", 7, Budget())
    again = Player("gallo", 7, Budget())
    answers = [respond(first, line) for line in requests]
    assert all("move" in a for a in answers), answers
    assert [respond(again, line) for line in reversed(requests)] == answers[::-1]


def test_a_request_may_set_its_own_budget_within_range() -> None:
    player = Player("gallo", 7, Budget())
    line = gallo_requests(1)[0]
    request = json.loads(line)
    small = respond(player, json.dumps({**request, "budget": {"samples": 1, "nodes": 1}}))
    assert "move" in small
    timed = respond(player, json.dumps({**request, "budget": {"time_ms": 50}}))
    assert "move" in timed
    for bad in ({"samples": 0}, {"nodes": "many"}, {"depth": 3}, [1]):
        answer = respond(player, json.dumps({**request, "budget": bad}))
        assert answer["error"]["code"] in {"view.number", "view.unknown_key", "view.not_object"}
    # a bot that does not search plays the same whatever the budget
    jugador = Player("jugador", 7, Budget())
    plain = respond(jugador, line)
    assert respond(jugador, json.dumps({**request, "budget": {"samples": 5}})) == plain


def test_the_engine_command_takes_the_budgets() -> None:
    running = Engine("engine", "--bot", "gallo", "--samples", "20", "--nodes", "500")
    try:
        line = gallo_requests(1)[0]
        assert "move" in running.ask(line)
        assert running.close() == 0
    finally:
        if running.process.poll() is None:
            running.process.kill()
