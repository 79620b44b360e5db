"""The match runner: bots see only their seat's view, forced moves are not asked, duplicate
pairing plays the same deals with the sides swapped, and a seed fixes every result."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from fichaflow.bots.base import Bot
from fichaflow.bots.ladder import make_bot
from fichaflow.core.deal import Deal
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import Hand, Move
from fichaflow.core.rules import Rules
from fichaflow.core.view import SeatView, hand_view
from fichaflow.match import duplicate
from fichaflow.match.duplicate import (
    DuelResult,
    DuelSpec,
    arrangements,
    hand_deal,
    play_group,
    run_duel,
)
from fichaflow.match.play import play_hand, play_partida


class Spy(Bot):
    """Plays at random and records everything it is handed."""

    name = "spy"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.rng = random.Random(seed)
        self.seen: list[object] = []

    def choose(self, view: SeatView) -> Move:
        self.seen.append(view)
        return self.rng.choice(view.legal)


class Cheat(Bot):
    """Tries to pass whatever it holds."""

    name = "cheat"

    def choose(self, view: SeatView) -> Move:
        return Move(-1)


@pytest.mark.parametrize("preset", ["venezuela", "mano_a_mano", "tres"])
def test_bots_receive_only_their_own_seat_view(preset: str) -> None:
    rules = Rules.make(preset)
    for number in range(30):
        deal = Deal.from_seed(rules.seats, f"spy:{number}")
        spies = [Spy(s) for s in range(rules.seats)]
        play_hand(rules, deal, spies, number % rules.seats)
        for seat, spy in enumerate(spies):
            for view in spy.seen:
                assert type(view) is SeatView
                assert view.seat == seat and view.turn == seat and view.my_turn
                assert view.revealed is None  # nobody's tiles until the hand ends
                for turn in view.history:  # another seat's draws stay face down
                    assert turn.drawn == -1 or turn.seat == seat
                assert len(view.legal) > 1 or view.legal[0].is_play  # a real choice


def test_forced_draws_and_passes_are_applied_without_asking() -> None:
    rules = Rules.make("mano_a_mano")
    for number in range(40):
        spies = [Spy(s) for s in range(2)]
        result = play_hand(rules, Deal.from_seed(2, f"forced:{number}"), spies, number % 2)
        asked = sum(len(s.seen) for s in spies)
        drawn_or_passed = sum(1 for t in result.hand.history if not t.move.is_play)
        assert asked == len(result.hand.history) - drawn_or_passed
        assert sum(len(t) for t in result.times) == asked


def test_a_hand_whose_hidden_tiles_differ_gives_every_bot_the_same_view_and_choice() -> None:
    rules = Rules.make("venezuela")
    rng = random.Random(1)
    for number in range(40):
        deal = Deal.from_seed(4, f"hidden:{number}")
        hand = Hand(list(deal.hands), (), number % 4)
        for _ in range(rng.randrange(1, 12)):
            if hand.ended:
                break
            hand.play(rng.choice(hand.legal_moves()))
        if hand.ended:
            continue
        seat = hand.turn
        others = [s for s in range(4) if s != seat]
        pool = [t for s in others for t in range(28) if hand.hands[s] >> t & 1]
        rng.shuffle(pool)
        changed = hand.copy()
        for s in others:  # the same counts, the other hands' tiles dealt anew
            size = changed.hands[s].bit_count()
            changed.hands[s] = sum(1 << t for t in pool[:size])
            pool = pool[size:]
        view = hand_view(rules, hand, seat, hand_number=2)
        assert hand_view(rules, changed, seat, hand_number=2) == view
        for name in ("tirafichas", "tirapuntos", "acuestafichas", "jugador"):
            first = make_bot(name, 7).choose(hand_view(rules, hand, seat, hand_number=2))
            again = make_bot(name, 7).choose(hand_view(rules, changed, seat, hand_number=2))
            assert first == again


def test_an_illegal_move_stops_the_match_with_a_clear_error() -> None:
    rules = Rules.make("venezuela")
    bots = [Cheat(), Spy(1), Spy(2), Spy(3)]
    with pytest.raises(FichaFlowError) as caught:
        play_hand(rules, Deal.from_seed(4, "cheat"), bots, 0)
    assert caught.value.code == "match.illegal_move"
    assert "cheat" in caught.value.message() and "asiento 0" in caught.value.message()


@pytest.mark.parametrize("preset", ["venezuela", "mano_a_mano", "tres"])
def test_duplicate_groups_play_the_same_deal_in_every_seating(preset: str) -> None:
    rules = Rules.make(preset)
    spec = DuelSpec("tirapuntos", "tirafichas", rules, seed=5)
    seatings = arrangements(rules)
    for group in range(6):
        games = play_group(spec, "hand", group)
        assert [g.seating for g in games] == list(seatings)
        assert {g.deal for g in games} == {hand_deal(spec, group)}
        assert {g.leader for g in games} == {group % rules.seats}
    # each seat holds bot A as often as bot B, so every hand and every lead is shared fairly
    for seat in range(rules.seats):
        column = [s[seat] for s in seatings]
        assert column.count(0) == column.count(1)
    if preset == "venezuela":
        assert seatings == ((0, 1, 0, 1), (1, 0, 1, 0))  # A at 0 and 2, then at 1 and 3


def test_different_groups_get_different_deals() -> None:
    spec = DuelSpec("tirapuntos", "tirafichas", Rules.make("venezuela"), seed=5)
    assert len({hand_deal(spec, g) for g in range(50)}) == 50


@pytest.mark.parametrize("preset", ["venezuela", "mano_a_mano", "tres"])
def test_points_and_winners_are_credited_to_the_right_bot(preset: str) -> None:
    rules = Rules.make(preset)
    spec = DuelSpec("jugador", "tirafichas", rules, seed=2)
    for group in range(8):
        for game in play_group(spec, "hand", group):
            # the same hand again, straight through the runner's play_hand
            bots = duplicate._bots(spec, "hand", group, game.seating)
            score = play_hand(rules, game.deal, bots, game.leader).score
            gains = score.gains(rules.teams)
            expected = [0, 0]
            for team in range(rules.teams):
                expected[game.seating[rules.seats_of(team)[0]]] += gains[team]
            assert game.points == tuple(expected)
            if score.winner is None:
                assert game.winner is None
            else:
                assert score.winning_seat is not None
                assert game.winner == game.seating[score.winning_seat]


def test_identical_bots_split_a_duplicate_duel_exactly() -> None:
    # the same bot with the same seeds on both sides: each seating's mirror game is identical
    for preset in ("venezuela", "mano_a_mano", "tres"):
        result = run_duel(DuelSpec("jugador", "jugador", Rules.make(preset), seed=3), 60)
        assert result.hands is not None
        assert result.hands.won[0] == result.hands.won[1]


def test_a_seed_fixes_the_results_whatever_the_number_of_workers() -> None:
    spec = DuelSpec("jugador", "acuestafichas", Rules.make("venezuela"), seed=11)

    def strip(result: DuelResult) -> dict[str, Any]:
        out = result.to_json()
        out.pop("decision_time")
        return out

    one = strip(run_duel(spec, 80, 8, workers=1))
    two = strip(run_duel(spec, 80, 8, workers=2))
    again = strip(run_duel(spec, 80, 8, workers=1))
    assert one == two == again
    other = strip(run_duel(dataclasses.replace(spec, seed=12), 80, 8))
    assert other != one


def test_partidas_are_played_to_the_target() -> None:
    rules = Rules.make("venezuela", target=50)
    bots = [make_bot("jugador", s) for s in range(4)]
    result = play_partida(rules, lambda k: f"p:{k}", bots)
    assert result.winner is not None
    assert result.partida.scores[result.winner] >= 50
    first = result.partida.played[0].hand
    assert first.history[0].move.tile == 27  # the first hand opens with the cochina
