"""The named kinds of the core's results (what a turn was, what decided a hand, which bonus):
enums in the code, the same plain words in every record and message."""

from __future__ import annotations

import json

from fichaflow.core.deal import Deal
from fichaflow.core.hand import EndKind
from fichaflow.core.rules import OPTIONS, Rules
from fichaflow.core.scoring import BonusKind, HandFacts, ScoreRule, score_hand
from fichaflow.core.view import PublicTurn, SeatView, TurnKind, hand_view
from tests.core.kit import start


def test_turn_kinds_are_enums_written_as_the_protocol_words() -> None:
    rules = Rules.make("mano_a_mano")
    _, hand = start(rules, Deal.from_seed(rules.seats, "kinds-1"))
    while not hand.ended:
        hand.push(hand.legal_moves()[0])
    view = hand_view(rules, hand, 0)
    kinds = {turn.kind for turn in view.history}
    assert kinds <= set(TurnKind) and TurnKind.PLAY in kinds
    assert all(type(turn.kind) is TurnKind for turn in view.history)
    written = json.loads(json.dumps(view.to_json()))
    assert [t["kind"] for t in written["history"]] == [str(t.kind) for t in view.history]
    back = SeatView.from_json(written)
    assert back.history == view.history
    assert all(type(turn.kind) is TurnKind for turn in back.history)


def test_a_turn_read_back_gets_the_enum_not_the_word() -> None:
    turn = PublicTurn(1, TurnKind.PASS, -1, None, 3, 4)
    assert turn.to_json() == {"seat": 1, "kind": "pass", "ends": [3, 4]}
    assert json.dumps(turn.to_json()) == '{"seat": 1, "kind": "pass", "ends": [3, 4]}'


def test_score_rule_and_bonus_kinds_are_enums_written_as_words() -> None:
    rules = Rules.make("dominicana", capicua_bonus=25, tranque_bonus=10)
    domino = score_hand(rules, HandFacts(EndKind.DOMINO, 1, (5, 0, 7, 3), 0, capicua=True))
    assert domino.rule is ScoreRule.DOMINO
    assert [b.kind for b in domino.bonuses] == [BonusKind.CAPICUA]
    tranque = score_hand(rules, HandFacts(EndKind.TRANQUE, 0, (8, 11, 7, 14), 0))
    assert tranque.rule is ScoreRule.ABAJO
    assert [b.kind for b in tranque.bonuses] == [BonusKind.TRANQUE]
    written = tranque.to_json(rules.teams)
    assert type(written["rule"]) is str and written["rule"] == "abajo"
    assert [type(b["kind"]) for b in written["bonuses"]] == [str]
    assert written["bonuses"][0]["kind"] == "tranque_bonus"


def test_every_bonus_kind_names_a_rule_option() -> None:
    assert {str(kind) for kind in BonusKind} <= set(OPTIONS)
