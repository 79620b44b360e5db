"""Playing a hand: the end choice, forced play, forced leads, the montón, dominada, tranque,
capicúa, chuchazo, pase redondo and salida pasada, as RULES.md describes them."""

from __future__ import annotations

from typing import Any

import pytest

from fichaflow.core.deal import Deal, sorteo
from fichaflow.core.errors import FichaFlowError, IllegalMove, RecordError
from fichaflow.core.hand import DRAW, PASS, End, EndKind, Hand, Move
from fichaflow.core.partida import Partida, first_salida
from fichaflow.core.record import parse_record, replay
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import HALVES, IS_DOUBLE, PIPS, parse
from tests.core.kit import deal, outside_line, play_tokens, snapshot, start, tiles
from tests.core.scenarios import (
    BLOCKING_DOMINO_RECORD,
    CAPICUA_RECORD,
    CHUCHAZO_RECORD,
    DOUBLE_ON_EQUAL_ENDS_RECORD,
    DRAW_HANDS,
    DRAW_STOCK,
    EMPTY_STOCK_HANDS,
    EMPTY_STOCK_STOCK,
    PASES_HANDS,
    TRANQUE_MOVES,
    tranque_deal,
    tres_deal,
)

VENEZUELA = Rules.make("venezuela")


def tranque_hand(moves: int) -> Hand:
    """The scripted tranque hand after its first ``moves`` moves."""
    _, hand = start(VENEZUELA, tranque_deal("A"))
    play_tokens(hand, TRANQUE_MOVES[:moves])
    return hand


def refused(hand: Hand, token_or_move: str | Move) -> IllegalMove:
    """Try a move; it must be refused and leave the hand exactly as it was."""
    before = snapshot(hand)
    with pytest.raises(IllegalMove) as caught:
        move = hand.parse(token_or_move) if isinstance(token_or_move, str) else token_or_move
        hand.play(move)
    assert snapshot(hand) == before
    return caught.value


# -- the end choice -------------------------------------------------------------------------------


def test_a_tile_fitting_both_equal_ends_needs_its_end_named() -> None:
    hand = tranque_hand(1)  # the cochina is down: both ends show 6
    assert (hand.left, hand.right) == (6, 6)
    error = refused(hand, "6-4")
    assert error.code == "move.end_missing"
    assert "6-4:left" in str(error)
    assert "6-4:right" in str(error)
    assert refused(hand, Move(parse("6-4"))).code == "move.end_missing"
    # both ends are offered, and either is a legal choice
    six_four = [m for m in hand.legal_moves() if m.tile == parse("6-4")]
    assert sorted(m.end for m in six_four if m.end is not None) == [End.LEFT, End.RIGHT]
    for end in ("left", "right"):
        copy = hand.copy()
        copy.play(copy.parse(f"6-4:{end}"))
        assert (copy.left, copy.right) == ((4, 6) if end == "left" else (6, 4))


def test_a_tile_fitting_two_different_ends_needs_its_end_named() -> None:
    hand = tranque_hand(6)
    assert (hand.left, hand.right) == (6, 2)
    assert refused(hand, "2-6").code == "move.end_missing"
    hand.copy().play(hand.parse("2-6:left"))
    hand.play(hand.parse("2-6:right"))
    assert (hand.left, hand.right) == (6, 6)


def test_naming_the_one_end_a_tile_fits_is_allowed_and_the_wrong_end_is_refused() -> None:
    hand = tranque_hand(2)
    assert (hand.left, hand.right) == (4, 6)
    assert hand.parse("6-3") == hand.parse("6-3:right") == Move(parse("6-3"), End.RIGHT)
    error = refused(hand, "6-3:left")
    assert error.code == "move.wrong_end"
    assert refused(hand, Move(parse("6-3"), End.LEFT)).code == "move.wrong_end"
    hand.play(hand.parse("3-6:right"))  # written either way round
    assert (hand.left, hand.right) == (4, 3)


def test_a_tile_that_fits_neither_end_is_refused() -> None:
    hand = tranque_hand(1)
    hand.play(hand.parse("6-4:left"))
    # seat 2 holds 6-3 (fits) and 2-2 (fits nothing)
    assert refused(hand, "2-2").code == "move.no_match"
    assert refused(hand, Move(parse("2-2"), End.RIGHT)).code == "move.no_match"


def test_a_tile_the_player_does_not_hold_is_refused() -> None:
    hand = tranque_hand(1)
    assert refused(hand, Move(parse("6-3"), End.LEFT)).code == "move.not_holding"


def test_the_lead_takes_no_end_and_lies_as_written() -> None:
    _, hand = start(Rules.make("venezuela", first_lead="sorteo"), tranque_deal("A"), leader=1)
    assert refused(hand, "6-4:left").code == "move.end_on_lead"
    hand.play(hand.parse("4-6"))
    assert (hand.left, hand.right) == (4, 6)
    assert hand.line() == [(4, 6)]


# -- forced play ----------------------------------------------------------------------------------


def test_pasar_agachado_is_refused() -> None:
    hand = tranque_hand(1)  # seat 1 holds 6-4, 5-6 and 0-6
    error = refused(hand, "pass")
    assert error.code == "move.pasar_agachado"
    assert "6-4" in str(error)
    assert refused(hand, PASS).code == "move.pasar_agachado"
    assert PASS not in hand.legal_moves()


def test_a_player_with_nothing_that_fits_passes() -> None:
    _, hand = start(VENEZUELA, deal(*PASES_HANDS))
    hand.play(hand.parse("6-6"))
    assert hand.legal_moves() == [PASS]
    assert refused(hand, "0-0").code == "move.no_match"
    hand.play(PASS)
    assert hand.turn == 2


# -- who leads and with what ----------------------------------------------------------------------


@pytest.mark.parametrize("holder", range(4))
def test_doble_seis_the_cochina_holder_must_lead_it(holder: int) -> None:
    the_deal = tranque_deal("A", by=holder)
    assert first_salida(VENEZUELA, the_deal) == (holder, parse("6-6"))
    _, hand = start(VENEZUELA, the_deal)
    assert (hand.leader, hand.turn, hand.forced_lead) == (holder, holder, parse("6-6"))
    assert hand.legal_moves() == [Move.lead(parse("6-6"))]
    assert refused(hand, "3-2").code == "move.forced_lead"
    assert refused(hand, PASS).code == "move.must_lead"


def test_doble_seis_forces_only_the_first_hand() -> None:
    partida, _ = start(VENEZUELA, tranque_deal("A"))
    play_tokens(partida, TRANQUE_MOVES)
    assert partida.current is None
    next_hand = partida.start_hand(tranque_deal("A"))
    assert next_hand.leader == 1  # rotacion
    assert next_hand.forced_lead is None
    next_hand.play(next_hand.parse("6-4"))  # any tile


def test_doble_mayor_the_highest_double_dealt_to_a_player_leads_it() -> None:
    rules = Rules.make("mano_a_mano")
    # the cochina lies in the montón; 5-5 is the highest double in a hand (seat 1's)
    the_deal = deal(
        "4-4 0-0 1-0 2-0 3-0 4-0 5-0",
        "5-5 1-1 2-1 3-1 4-1 5-1 6-5",
        stock="6-6 2-2 3-3 3-2 4-2 5-2 6-2 4-3 5-3 6-3 5-4 6-4 6-0 6-1",
    )
    assert first_salida(rules, the_deal) == (1, parse("5-5"))
    _, hand = start(rules, the_deal)
    assert (hand.leader, hand.forced_lead) == (1, parse("5-5"))
    assert refused(hand, "6-5").code == "move.forced_lead"


def test_doble_mayor_without_doubles_the_highest_tile_leads_it() -> None:
    rules = Rules.make("mano_a_mano")
    # no double in either hand; 6-5 and 6-4 are in the montón. 6-3 and 5-4 both have 9 pips:
    # the higher half decides, so 6-3 (seat 0) leads.
    the_deal = deal(
        "6-3 1-0 2-0 3-0 4-0 2-1 3-1",
        "5-4 4-1 5-1 6-1 3-2 4-2 5-2",
        stock="0-0 1-1 2-2 3-3 4-4 5-5 6-6 5-0 6-0 6-2 4-3 5-3 6-4 6-5",
    )
    assert first_salida(rules, the_deal) == (0, parse("6-3"))
    _, hand = start(rules, the_deal)
    assert hand.forced_lead == parse("6-3")
    assert refused(hand, "5-4").code == "move.not_holding"  # seat 1's
    assert refused(hand, "3-1").code == "move.forced_lead"


def test_doble_mayor_in_tres() -> None:
    rules = Rules.make("tres")
    the_deal = deal(
        "1-1 1-0 2-0 3-0 4-0 5-0 6-0",
        "2-2 2-1 3-1 4-1 5-1 6-1 3-2",
        "4-4 4-2 5-2 6-2 4-3 5-3 6-3",
        stock="0-0 3-3 5-5 6-6 5-4 6-4 6-5",
    )
    assert first_salida(rules, the_deal) == (2, parse("4-4"))


@pytest.mark.parametrize("preset", ["mano_a_mano", "tres"])
def test_doble_mayor_on_seeded_deals_follows_the_contract(preset: str) -> None:
    rules = Rules.make(preset)
    for seed in range(300):
        the_deal = Deal.from_seed(rules.seats, f"salida-{seed}")
        dealt = [(s, t) for s, h in enumerate(the_deal.hands) for t in range(28) if h >> t & 1]
        doubles = [(s, t) for s, t in dealt if IS_DOUBLE[t]]
        if doubles:
            expected = max(doubles, key=lambda st: PIPS[st[1]])
        else:
            expected = max(dealt, key=lambda st: (PIPS[st[1]], max(HALVES[st[1]])))
        assert first_salida(rules, the_deal) == expected


def test_sorteo_the_record_names_the_leader_who_leads_any_tile() -> None:
    rules = Rules.make("venezuela", first_lead="sorteo")
    partida = Partida(rules)
    assert partida.salida(tranque_deal("A")) == (None, None)
    with pytest.raises(RecordError) as caught:
        partida.start_hand(tranque_deal("A"))
    assert caught.value.code == "record.leader_needed"
    with pytest.raises(RecordError) as caught:
        partida.start_hand(tranque_deal("A"), leader=4)
    assert caught.value.code == "record.leader_seat"
    hand = partida.start_hand(tranque_deal("A"), leader=3)
    assert (hand.leader, hand.turn, hand.forced_lead) == (3, 3, None)
    assert len(hand.legal_moves()) == 7
    hand.play(hand.parse("5-0"))


def test_after_a_sorteo_the_next_hand_follows_next_lead() -> None:
    rules = Rules.make("venezuela", first_lead="sorteo")
    partida = Partida(rules)
    partida.start_hand(tranque_deal("A"), leader=0)
    play_tokens(partida, TRANQUE_MOVES)
    assert partida.next_leader() == 1
    with pytest.raises(RecordError) as caught:
        partida.start_hand(tranque_deal("A"), leader=3)
    assert caught.value.code == "record.leader_mismatch"


def _rank(tile: int) -> tuple[int, bool]:
    return PIPS[tile], IS_DOUBLE[tile]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_sorteo_draw_follows_the_contract(seats: int) -> None:
    """Highest pip sum wins, a double beats a non-double of the same sum, and only the players
    still tied turn up again."""
    went_again = 0
    for seed in range(400):
        winner, rounds = sorteo(seats, f"s{seed}")
        contenders = list(range(seats))
        for number, this_round in enumerate(rounds):
            assert [seat for seat, _ in this_round] == contenders
            assert len({tile for _, tile in this_round}) == len(this_round)
            best = max(_rank(tile) for _, tile in this_round)
            contenders = [seat for seat, tile in this_round if _rank(tile) == best]
            if number < len(rounds) - 1:
                assert len(contenders) > 1
                went_again += 1
        assert contenders == [winner]
    assert went_again > 0


# -- the montón -----------------------------------------------------------------------------------


def test_with_a_stock_a_player_who_cannot_play_draws_until_a_tile_fits_and_plays_it() -> None:
    _, hand = start(Rules.make("mano_a_mano"), deal(*DRAW_HANDS, stock=DRAW_STOCK))
    hand.play(hand.parse("6-6"))
    assert hand.legal_moves() == [DRAW]
    assert refused(hand, "pass").code == "move.must_draw"
    assert refused(hand, "3-0").code == "move.no_match"
    play_tokens(hand, ["6-2:left"])  # the record does not write the three draws
    drawn = [turn.drawn for turn in hand.history if turn.move.is_draw]
    assert drawn == tiles("4-3 4-4 6-2")
    assert all(turn.seat == 1 for turn in hand.history[1:])
    assert hand.counts() == (6, 7 + 3 - 1)
    assert hand.stock_left == 14 - 3
    assert (hand.left, hand.right) == (2, 6)


def test_drawing_while_holding_a_tile_that_fits_is_refused() -> None:
    _, hand = start(Rules.make("mano_a_mano"), deal(*DRAW_HANDS, stock=DRAW_STOCK))
    hand.play(hand.parse("6-6"))
    play_tokens(hand, ["6-2:left"])
    assert refused(hand, DRAW).code == "move.draw_holding"  # seat 0 holds 2-0, 2-1, 2-2


def test_only_an_empty_stock_lets_a_player_pass() -> None:
    rules = Rules.make("mano_a_mano", salida_pasada_bonus=5, pase_redondo_bonus=7)
    _, hand = start(rules, deal(*EMPTY_STOCK_HANDS, stock=EMPTY_STOCK_STOCK))
    hand.play(hand.parse("6-6"))
    for left in range(14, 0, -1):
        assert hand.stock_left == left
        assert refused(hand, PASS).code == "move.must_draw"
        hand.play(DRAW)
    assert hand.legal_moves() == [PASS]
    assert refused(hand, DRAW).code == "move.stock_empty"
    hand.play(PASS)
    assert hand.counts() == (6, 21)
    assert hand.turn == 0
    # seat 1 passed on the lead tile, and the turn came back to seat 0 after its tile
    assert hand.salida_pasada
    assert hand.pase_redondo == [0]


def test_a_record_with_draws_replays_them_and_never_writes_them() -> None:
    record = {
        "rules": "mano_a_mano",
        "hands": [
            {
                "deal": [h.split() for h in DRAW_HANDS],
                "stock": DRAW_STOCK.split(),
                "moves": ["6-6", "6-2:left"],
            }
        ],
    }
    with pytest.raises(FichaFlowError) as caught:
        replay(parse_record(record))
    assert caught.value.code == "record.hand_incomplete"
    record["hands"][0]["moves"] = ["6-6", "draw"]  # type: ignore[index]
    with pytest.raises(FichaFlowError) as caught:
        replay(parse_record(record))
    assert (caught.value.hand, caught.value.move) == (1, 2)


def test_a_live_table_reads_draw_where_a_record_refuses_it() -> None:
    _, hand = start(Rules.make("mano_a_mano"), deal(*DRAW_HANDS, stock=DRAW_STOCK))
    hand.play(hand.parse("6-6"))
    assert hand.must_draw
    with pytest.raises(FichaFlowError):
        hand.parse("draw")
    assert hand.parse("draw", draws=True) == DRAW
    hand.play(DRAW)
    assert hand.turn == 1 and hand.stock_left == 13


# -- how a hand ends ------------------------------------------------------------------------------


def test_tranque_is_detected_as_soon_as_nothing_outside_the_line_fits() -> None:
    hand = tranque_hand(9)
    assert not hand.ended
    assert (hand.left, hand.right) == (6, 0)
    hand.play(hand.parse("0-6:right"))
    assert hand.result is not None
    assert hand.result.kind is EndKind.TRANQUE
    assert hand.result.seat == 1  # who placed the last tile
    assert not hand.result.capicua
    assert hand.legal_moves() == []
    assert refused(hand, PASS).code == "move.hand_over"
    # seven sixes are on the line and nobody holds a six
    ends = {hand.left, hand.right}
    assert ends == {6}
    assert not [t for t in outside_line(hand) if set(HALVES[t]) & ends]


def test_every_earlier_position_of_the_tranque_hand_goes_on() -> None:
    for moves in range(1, 10):
        hand = tranque_hand(moves)
        assert not hand.ended
        ends = {hand.left, hand.right}
        assert [t for t in outside_line(hand) if set(HALVES[t]) & ends]


def test_a_tile_in_the_stock_keeps_the_hand_going() -> None:
    partida, hand = start(Rules.make("tres"), tres_deal())
    play_tokens(partida, TRANQUE_MOVES[:9])
    assert (hand.left, hand.right) == (6, 0)
    # no hand holds a six or a blank, only the montón does: no tranque yet
    assert not any(
        h & sum(1 << t for t in range(28) if {0, 6} & set(HALVES[t])) for h in hand.hands
    )
    assert not hand.ended
    assert hand.legal_moves() == [DRAW]
    play_tokens(partida, TRANQUE_MOVES[9:])
    assert partida.played[-1].hand.result == hand.result
    assert hand.result is not None
    assert (hand.result.kind, hand.result.seat) == (EndKind.TRANQUE, 0)
    assert [t.drawn for t in hand.history if t.move.is_draw] == tiles("4-4 6-0")


def _replayed(record: dict[str, Any]) -> tuple[Partida, Hand, tuple[int, int]]:
    """Replay a one-hand record; also return the ends before its last move."""
    partida = replay(parse_record(record))
    hand = partida.played[-1].hand
    last = hand.history[-1]
    return partida, hand, (last.left, last.right)


def test_a_dominada_ends_the_hand_with_the_last_tile() -> None:
    partida, hand, _ = _replayed(CHUCHAZO_RECORD)
    assert hand.result is not None
    assert hand.result.kind is EndKind.DOMINO
    assert hand.result.seat == 0
    assert hand.hands[0] == 0
    assert partida.played[-1].score.winner == 0


def test_capicua_the_last_tile_matched_both_different_ends() -> None:
    partida, hand, (left, right) = _replayed(CAPICUA_RECORD)
    assert hand.result is not None
    assert left != right
    assert set(HALVES[hand.result.tile]) == {left, right}
    assert hand.result.kind is EndKind.DOMINO
    assert hand.result.capicua
    assert partida.played[-1].score.facts.capicua


def test_a_double_on_two_equal_ends_is_no_capicua() -> None:
    _, hand, (left, right) = _replayed(DOUBLE_ON_EQUAL_ENDS_RECORD)
    assert hand.result is not None
    assert left == right
    assert HALVES[hand.result.tile] == (left, left)
    assert hand.result.kind is EndKind.DOMINO
    assert not hand.result.capicua


def test_an_ordinary_last_tile_is_no_capicua() -> None:
    _, hand, (left, right) = _replayed(CHUCHAZO_RECORD)
    assert hand.result is not None
    assert set(HALVES[hand.result.tile]) != {left, right}
    assert not hand.result.capicua


def test_a_last_tile_that_also_blocks_is_a_dominada() -> None:
    _, hand, _ = _replayed(BLOCKING_DOMINO_RECORD)
    assert hand.result is not None
    ends = {hand.left, hand.right}
    assert not [t for t in outside_line(hand) if set(HALVES[t]) & ends]  # blocked too
    assert hand.result.kind is EndKind.DOMINO
    assert hand.result.seat == 2


def test_chuchazo_is_a_dominada_with_the_double_blank() -> None:
    _, hand, _ = _replayed(CHUCHAZO_RECORD)
    assert hand.result is not None
    assert hand.result.tile == parse("0-0")
    assert hand.result.chuchazo
    _, other, _ = _replayed(CAPICUA_RECORD)
    assert other.result is not None
    assert not other.result.chuchazo


# -- pase redondo and salida pasada ---------------------------------------------------------------


def test_salida_pasada_and_pase_redondo_in_parejas() -> None:
    _, hand = start(VENEZUELA, deal(*PASES_HANDS))
    hand.play(hand.parse("6-6"))
    hand.play(PASS)
    assert hand.salida_pasada
    assert hand.pase_redondo == []
    hand.play(PASS)
    hand.play(PASS)
    assert hand.pase_redondo == [0]
    assert hand.turn == 0
    hand.play(hand.parse("6-5:left"))
    hand.play(PASS)  # seat 1 has neither a five nor a six
    hand.play(PASS)  # nor has seat 2
    assert hand.pase_redondo == [0]  # seat 3 has fives: no second pase redondo yet
    assert hand.legal_moves()
    assert all(m.tile in tiles("5-0 5-1 5-2 5-3 5-4 5-5") for m in hand.legal_moves())


def test_no_salida_pasada_when_the_next_player_plays_on_the_lead() -> None:
    hand = tranque_hand(2)
    assert not hand.salida_pasada
    assert hand.pase_redondo == []


def test_a_pass_later_in_the_hand_is_no_salida_pasada() -> None:
    _, hand, _ = _replayed(CAPICUA_RECORD)
    assert hand.history[1].move.is_play
    assert any(turn.move.is_pass for turn in hand.history)
    assert not hand.salida_pasada
