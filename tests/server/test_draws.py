"""Drawing from the montón at a live mesa: a person draws one tile per tap, as at a real table; a
bot's chair, and a person whose time ran out, draw on their own until a tile fits. Every draw is
stored, so the mesa rebuilt from the database is the mesa played, mid-draw included."""

from __future__ import annotations

from pathlib import Path

import pytest

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import DRAW, Hand
from fichaflow.core.record import parse_record, replay
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import name
from fichaflow.server import changes as ch
from fichaflow.server import storage, wire
from fichaflow.server.mesa import Mesa
from fichaflow.server.protocol import MesaOptions
from fichaflow.storage import make_engine, migrate

PERSON, BOT = 0, 1


def mesa_with_a_bot() -> tuple[Mesa, list[ch.Change]]:
    """Ana (a person) in seat 0 against tirafichas in seat 1, mano a mano with the montón."""
    rules = Rules.make("mano_a_mano", target=500)
    mesa, _host, _token, out = Mesa.create(
        "robar", rules, MesaOptions(), [None, "tirafichas"], "Ana", PERSON
    )
    return mesa, out + mesa.start()


def play_until(mesa: Mesa, wanted: str, commit: list[ch.Change]) -> Hand:
    """Play the first legal move for whoever is to move (dealing new hands as they come) until
    ``wanted`` happens: "person_draws" (Ana must draw) or "bot_drew" (the bot's chair drew)."""
    for _ in range(2000):
        if mesa.status == "hand_over":
            commit += mesa.deal_hand(f"seed-{len(mesa.hands)}")
        hand = mesa.hand
        assert hand is not None
        if wanted == "person_draws" and hand.turn == PERSON and hand.must_draw:
            return hand
        drawn_before = sum(1 for t in hand.history if t.move.is_draw and t.seat == BOT)
        seat = hand.turn
        _result, changes = mesa.play(seat, hand.legal_moves()[0])
        commit += changes
        if wanted == "bot_drew" and mesa.hand is hand:
            drawn = sum(1 for t in hand.history if t.move.is_draw and t.seat == BOT)
            if drawn > drawn_before:
                return hand
    raise AssertionError(f"{wanted} never happened in 2000 moves")


def test_a_person_draws_one_tile_per_tap_and_only_they_see_it() -> None:
    mesa, _ = mesa_with_a_bot()
    hand = play_until(mesa, "person_draws", [])
    mine = wire.view(mesa, PERSON)
    assert mine is not None and mine["legal"] == ["draw"]
    stock = hand.stock_left
    held = bin(hand.hands[PERSON]).count("1")

    # Nothing is drawn for her, and nothing but a draw is taken.
    for token in ("pass", name(next(t for t in range(28) if hand.hands[PERSON] >> t & 1))):
        with pytest.raises(FichaFlowError):
            mesa.play(PERSON, mesa.parse_move(PERSON, token))
        assert (hand.stock_left, hand.turn) == (stock, PERSON)
    with pytest.raises(FichaFlowError) as caught:
        mesa.parse_move(BOT, "draw")
    assert caught.value.code == "server.not_your_turn"

    result, changes = mesa.play(PERSON, mesa.parse_move(PERSON, "draw"))
    assert result.notation == "draw"
    assert [c.notation for c in changes if isinstance(c, ch.NewMove)] == ["draw"]
    assert hand.stock_left == stock - 1
    assert bin(hand.hands[PERSON]).count("1") == held + 1
    drawn = hand.history[-1].drawn
    assert hand.hands[PERSON] >> drawn & 1
    assert mesa.hands[-1].moves[-1] == "draw"

    # The drawn tile is named in her view and nowhere else.
    mine, theirs, miron = (wire.view(mesa, seat) for seat in (PERSON, BOT, None))
    assert mine is not None and theirs is not None and miron is not None
    assert mine["history"][-1] == {**theirs["history"][-1], "drawn": name(drawn)}
    assert "drawn" not in theirs["history"][-1] and "drawn" not in miron["history"][-1]
    # Still her turn: another draw if nothing fits yet, her choice of tile if something does.
    assert hand.turn == PERSON
    assert (mine["legal"] == ["draw"]) == hand.must_draw


def test_a_bots_chair_draws_on_its_own_and_every_draw_is_stored() -> None:
    mesa, _ = mesa_with_a_bot()
    hand = play_until(mesa, "bot_drew", [])
    assert hand.turn == BOT and not hand.must_draw, "the bot drew until a tile fits"
    stored = mesa.hands[-1].moves
    assert stored.count("draw") == sum(1 for t in hand.history if t.move.is_draw)
    assert stored == [t.notation() for t in hand.history]


def test_a_person_out_of_time_draws_until_a_tile_fits() -> None:
    mesa, _ = mesa_with_a_bot()
    hand = play_until(mesa, "person_draws", [])
    before = len(hand.history)
    result, changes = mesa.play(PERSON, DRAW, timed_out=True)
    assert result.timed_out
    draws = [c for c in changes if isinstance(c, ch.NewMove)]
    assert len(draws) == len(hand.history) - before >= 1
    assert all(c.notation == "draw" and c.timed_out for c in draws)
    assert hand.turn == PERSON and not hand.must_draw


def test_a_mesa_rebuilt_in_the_middle_of_a_draw_is_the_mesa_played(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    migrate(engine)
    mesa, commit = mesa_with_a_bot()
    hand = play_until(mesa, "person_draws", commit)
    _result, changes = mesa.play(PERSON, mesa.parse_move(PERSON, "draw"))
    commit += changes
    storage.commit(engine, commit)
    snapshot = storage.load_mesa(engine, "robar")
    assert snapshot is not None
    rebuilt = Mesa.restore(snapshot)
    assert rebuilt.hands == mesa.hands
    assert rebuilt.hand is not None
    assert (rebuilt.hand.stock_left, rebuilt.hand.turn) == (hand.stock_left, hand.turn)
    for seat in (PERSON, BOT, None):
        assert wire.view(rebuilt, seat) == wire.view(mesa, seat)
    engine.dispose()


def test_records_of_a_partida_with_draws_leave_them_out() -> None:
    mesa, _ = mesa_with_a_bot()
    hand = play_until(mesa, "bot_drew", [])
    index = mesa.hands[-1].number - 1  # the bot may first draw in a later hand
    while mesa.hand is hand:
        mesa.play(hand.turn, hand.legal_moves()[0])
    record = wire.record(mesa)
    written = record["hands"][index]["moves"]
    assert "draw" not in written
    assert [t.notation() for t in hand.history if not t.move.is_draw] == written
    replayed = replay(parse_record(record))
    assert replayed.played[index].hand.history == hand.history
