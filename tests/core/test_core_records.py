"""Game records: the format the issue asks for, and write/replay round trips."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import Hand
from fichaflow.core.record import (
    draw_until_playable,
    dump,
    dumps,
    loads,
    parse_record,
    replay,
)
from fichaflow.core.rules import PRESETS, Rules
from fichaflow.core.tiles import HALVES, parse
from tests.core.kit import random_partida
from tests.core.scenarios import (
    CAPICUA_RECORD,
    DRAW_HANDS,
    DRAW_STOCK,
    TRANQUE_MOVES,
    TRES_HANDS,
    TRES_STOCK,
    tranque_hands,
)


def tranque_record(**changes: Any) -> dict[str, Any]:
    """The scripted tranque hand (seat 1 closes it; pair 1-3 scores 52 under venezuela)."""
    hand: dict[str, Any] = {
        "deal": [h.split() for h in tranque_hands("A")],
        "moves": list(TRANQUE_MOVES),
    }
    hand.update(changes.pop("hand", {}))
    record: dict[str, Any] = {"rules": "venezuela", "hands": [hand]}
    record.update(changes)
    return record


def same_moves(written: Any, expected: Any) -> bool:
    """Moves as the engine writes them (high half first) against moves written by hand."""

    def key(token: str) -> tuple[int, str]:
        tile, _, end = token.partition(":")
        return (-1 if tile == "pass" else parse(tile), end)

    # the lead lies as written, so it must match exactly
    return written[0] == expected[0] and [key(m) for m in written] == [key(m) for m in expected]


def refused(record: object) -> FichaFlowError:
    with pytest.raises(FichaFlowError) as caught:
        replay(parse_record(record))
    return caught.value


def test_rules_may_be_a_preset_name_or_an_object() -> None:
    assert replay(parse_record(tranque_record())).rules == Rules.make("venezuela")
    partida = replay(parse_record(tranque_record(rules={"preset": "venezuela", "target": 52})))
    assert partida.rules.target == 52
    assert partida.winner == 1
    assert refused(tranque_record(rules={"target": 52})).code == "rules.missing_preset"
    assert refused(tranque_record(rules="venezolana")).code == "rules.unknown_preset"
    assert refused(tranque_record(rules={"preset": "venezuela", "mode": "tres"})).code == (
        "rules.doble_seis_stock"
    )


def test_players_are_optional_and_must_fit_the_mode() -> None:
    assert replay(parse_record(tranque_record())).players is None
    names = ["Ana", "Beto", "Carla", "Dani"]
    assert replay(parse_record(tranque_record(players=names))).players == tuple(names)
    assert refused(tranque_record(players=names[:3])).code == "record.players"
    assert refused(tranque_record(players=[*names, "Eli"])).code == "record.players"
    assert refused(tranque_record(players=[1, 2, 3, 4])).code == "record.shape"


def test_a_stock_only_with_a_stock() -> None:
    # parejas deals every tile: a montón there cannot hold anything
    error = refused(tranque_record(hand={"stock": ["6-6"]}))
    assert error.code in {"deal.stock_size", "deal.duplicate"}
    # mano a mano: the montón must be there, fourteen tiles in drawing order
    hand = {"deal": [h.split() for h in DRAW_HANDS], "moves": ["6-6", "6-2:left"]}
    assert refused({"rules": "mano_a_mano", "hands": [hand]}).code == "deal.stock_size"
    short = {**hand, "stock": DRAW_STOCK.split()[:13]}
    assert refused({"rules": "mano_a_mano", "hands": [short]}).code == "deal.stock_size"


@pytest.mark.parametrize(
    ("deal_change", "code"),
    [
        (lambda d: d[0].__setitem__(0, "6-7"), "tile.invalid"),  # not a tile
        (lambda d: d[0].__setitem__(1, "6-6"), "deal.duplicate"),  # 6-6 twice, 3-2 missing
        (lambda d: d[0].pop(), "deal.hand_size"),
        (lambda d: d[3].append(d[0].pop()), "deal.hand_size"),
        (lambda d: d.pop(), "deal.seats"),
        (lambda d: d[1].__setitem__(0, 64), "tile.invalid"),
    ],
)
def test_a_deal_that_is_not_the_whole_set_is_refused(deal_change: Any, code: str) -> None:
    record = tranque_record()
    deal_change(record["hands"][0]["deal"])
    error = refused(record)
    assert error.code == code
    assert error.hand == 1


def test_a_tile_written_twice_in_one_hand_is_a_duplicate_not_a_short_hand() -> None:
    record = tranque_record()
    record["hands"][0]["deal"][2][5] = record["hands"][0]["deal"][2][6]
    error = refused(record)
    assert error.code == "deal.duplicate"


def test_the_leader_is_needed_for_a_sorteo_and_checked_otherwise() -> None:
    sorteo = {"preset": "venezuela", "first_lead": "sorteo"}
    assert refused(tranque_record(rules=sorteo)).code == "record.leader_needed"
    partida = replay(parse_record(tranque_record(rules=sorteo, hand={"leader": 0})))
    assert partida.played[0].hand.leader == 0
    assert refused(tranque_record(rules=sorteo, hand={"leader": 4})).code == "record.leader_seat"
    # without a sorteo the rules decide: seat 0 holds the cochina
    assert replay(parse_record(tranque_record(hand={"leader": 0}))).played[0].hand.leader == 0
    error = refused(tranque_record(hand={"leader": 2}))
    assert (error.code, error.hand) == ("record.leader_mismatch", 1)
    assert refused(tranque_record(hand={"leader": True})).code == "record.shape"


def test_ends_are_written_only_where_a_tile_fits_both() -> None:
    named = 0
    for preset in ("venezuela", "mano_a_mano", "tres"):
        written = dump(random_partida(Rules.make(preset), seed=11))
        for hand_record in written["hands"]:
            # replay the written moves on a bare hand and look at each end named or not
            deal = parse_record({"rules": written["rules"], "hands": [hand_record]}).hands[0].deal
            hand = Hand(list(deal.hands), deal.stock, hand_record["leader"])
            for token in hand_record["moves"]:
                draw_until_playable(hand)
                if token != "pass" and hand.left >= 0:
                    a, b = HALVES[parse(token.split(":")[0])]
                    fits_both = hand.left in (a, b) and hand.right in (a, b)
                    assert (":" in token) == fits_both, token
                    named += fits_both
                hand.play(hand.parse(token))
            assert hand.ended
    assert named > 0


def test_draws_are_not_written() -> None:
    for seed in range(5):
        partida = random_partida(Rules.make("mano_a_mano"), seed=seed)
        assert any(t.move.is_draw for p in partida.played for t in p.hand.history)
        for hand_record in dump(partida)["hands"]:
            assert "draw" not in hand_record["moves"]
            assert all(m == "pass" or parse(m.split(":")[0]) >= 0 for m in hand_record["moves"])


def test_a_record_may_stop_between_hands_but_not_inside_one() -> None:
    finished = replay(parse_record(tranque_record(rules={"preset": "venezuela", "target": 500})))
    assert not finished.over
    assert finished.winner is None
    assert len(finished.played) == 1
    assert replay(parse_record({"rules": "venezuela", "hands": []})).played == []
    assert replay(parse_record({"rules": "venezuela"})).played == []
    error = refused(tranque_record(hand={"moves": list(TRANQUE_MOVES[:6])}))
    assert (error.code, error.hand, error.move) == ("record.hand_incomplete", 1, 7)
    error = refused(tranque_record(hand={"moves": []}))
    assert (error.code, error.hand, error.move) == ("record.hand_incomplete", 1, 1)


def test_a_move_after_the_hand_ended_is_refused() -> None:
    error = refused(tranque_record(hand={"moves": [*TRANQUE_MOVES, "pass"]}))
    assert (error.code, error.hand, error.move) == ("record.moves_after_end", 1, 11)


def test_a_hand_after_the_partida_was_won_is_refused() -> None:
    record = tranque_record(rules={"preset": "venezuela", "target": 50})
    record["hands"].append(copy.deepcopy(record["hands"][0]))
    error = refused(record)
    assert (error.code, error.hand) == ("record.after_partida", 2)


def test_unknown_keys_are_refused() -> None:
    assert refused(tranque_record(hand={"mvoes": []})).code == "record.unknown_key"
    assert refused(tranque_record(rule="venezuela")).code == "record.unknown_key"


def test_meta_seed_and_commitment_are_kept() -> None:
    record = tranque_record(meta={"mesa": "patio"}, hand={"seed": "abc", "commitment": "f00"})
    parsed = parse_record(record)
    assert parsed.meta == {"mesa": "patio"}
    assert parsed.hands[0].extra == {"seed": "abc", "commitment": "f00"}


@pytest.mark.parametrize("text", ["", "{", "[1, 2", "rules: venezuela", b"\xff\xfe{"])
def test_text_that_is_not_json_is_refused(text: str | bytes) -> None:
    with pytest.raises(FichaFlowError) as caught:
        loads(text)
    assert caught.value.code in {"record.not_json", "record.not_text"}


@pytest.mark.parametrize("data", [[], "venezuela", 7, None, {"hands": []}])
def test_json_that_is_not_a_record_is_refused(data: object) -> None:
    with pytest.raises(FichaFlowError) as caught:
        loads(json.dumps(data))
    assert caught.value.code in {"record.shape"}


# -- illegal moves name the hand and the move -----------------------------------------------------


@pytest.mark.parametrize(
    ("index", "token", "code"),
    [
        (0, "3-2", "move.forced_lead"),  # seat 0 must lead the cochina
        (0, "6-6:left", "move.end_on_lead"),
        (1, "6-4", "move.end_missing"),  # fits both sixes
        (1, "pass", "move.pasar_agachado"),
        (1, "6-3:left", "move.wrong_turn"),  # seat 2's tile, and it fits
        (2, "6-3:left", "move.wrong_end"),
        (2, "2-2", "move.no_match"),
        (2, "6-6", "move.not_holding"),  # already on the line
        (2, "7-3", "tile.invalid"),
        (2, "6-3:up", "move.bad_end"),
        (2, "draw", "tile.invalid"),
    ],
)
def test_an_illegal_move_names_its_hand_and_move(index: int, token: str, code: str) -> None:
    moves = list(TRANQUE_MOVES)
    moves[index] = token
    error = refused(tranque_record(hand={"moves": moves}))
    assert (error.code, error.hand, error.move) == (code, 1, index + 1)
    assert str(error).startswith(f"Mano 1, jugada {index + 1}: ")


def test_the_second_hand_is_located_too() -> None:
    record = tranque_record(rules={"preset": "venezuela", "target": 500})
    second = copy.deepcopy(record["hands"][0])
    second["deal"] = [h.split() for h in tranque_hands("A", 1)]  # seat 1 leads by rotacion
    second["moves"][3] = "pass"
    record["hands"].append(second)
    error = refused(record)
    assert (error.code, error.hand, error.move) == ("move.pasar_agachado", 2, 4)


# -- round trips ----------------------------------------------------------------------------------


def _summary(partida: Any) -> list[Any]:
    return [
        (p.score, p.scores, [(t.seat, t.move, t.drawn) for t in p.hand.history], p.hand.result)
        for p in partida.played
    ] + [partida.scores, partida.winner, partida.zapato, partida.chancleta]


@pytest.mark.parametrize("preset", [*PRESETS, "sorteo"])
def test_a_written_partida_replays_to_the_same_result(preset: str) -> None:
    rules = (
        Rules.make("venezuela", first_lead="sorteo", pase_redondo_bonus=3)
        if preset == "sorteo"
        else Rules.make(preset, salida_pasada_bonus=2)
    )
    for seed in range(6):
        partida = random_partida(rules, seed=seed)
        text = dumps(partida, meta={"seed": seed})
        again = replay(loads(text))
        assert _summary(again) == _summary(partida)
        assert again.rules == partida.rules
        assert json.loads(dumps(again, meta={"seed": seed})) == json.loads(text)


def test_a_partida_stopped_inside_a_hand_writes_only_its_finished_hands() -> None:
    partida = random_partida(
        Rules.make("venezuela", target=500), seed=5, max_hands=3, stop_inside=True
    )
    assert partida.current is not None
    written = dump(partida)
    assert len(written["hands"]) == 2
    assert not replay(parse_record(written)).over


def test_players_and_meta_survive_the_round_trip() -> None:
    partida = replay(parse_record(tranque_record(players=["Ana", "Beto", "Carla", "Dani"])))
    written = dump(partida, meta={"mesa": "patio"})
    assert written["players"] == ["Ana", "Beto", "Carla", "Dani"]
    assert written["meta"] == {"mesa": "patio"}
    assert same_moves(written["hands"][0]["moves"], TRANQUE_MOVES)
    assert "stock" not in written["hands"][0]


def test_a_stock_is_written_in_drawing_order() -> None:
    record = {
        "rules": "tres",
        "hands": [
            {
                "deal": [h.split() for h in TRES_HANDS],
                "stock": TRES_STOCK.split(),
                "moves": list(TRANQUE_MOVES),
            }
        ],
    }
    written = dump(replay(parse_record(record)))
    assert written["hands"][0]["stock"] == TRES_STOCK.split()
    assert same_moves(written["hands"][0]["moves"], TRANQUE_MOVES)


def test_the_capicua_record_round_trips_with_its_end_choices() -> None:
    partida = replay(parse_record(CAPICUA_RECORD))
    assert same_moves(dump(partida)["hands"][0]["moves"], CAPICUA_RECORD["hands"][0]["moves"])  # type: ignore[index]
