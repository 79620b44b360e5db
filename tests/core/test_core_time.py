"""A partida played by time: time is called through an event the record stores; the hand in play
is finished, the higher score wins, a tie plays one more hand; replays and verify agree."""

from __future__ import annotations

import json
import random

import pytest

from fichaflow.core.deal import Deal
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.partida import Partida, time_winner
from fichaflow.core.record import dump, dumps, loads, parse_record, replay
from fichaflow.core.rules import Rules
from fichaflow.server.fairness import commitment, verify_record
from tests.core.kit import random_move

LONG = Rules.make("venezuela", target=500)  # time, not the target, ends these partidas


def deal_next(partida: Partida, seed: str, rng: random.Random) -> None:
    the_deal = Deal.from_seed(partida.rules.seats, seed)
    leader, _ = partida.salida(the_deal)
    partida.start_hand(the_deal, rng.randrange(partida.rules.seats) if leader is None else None)


def play_hand(partida: Partida, rng: random.Random, moves: int | None = None) -> None:
    """Random legal moves in the hand in play: ``moves`` of them, or to its end."""
    hand = partida.current
    assert hand is not None
    made = 0
    while not hand.ended and made != moves:
        partida.play(random_move(hand, rng))
        made += 1


def test_the_higher_score_wins_and_a_shared_top_plays_on() -> None:
    assert time_winner((40, 12)) == 0
    assert time_winner((3, 70)) == 1
    assert time_winner((25, 25)) is None
    assert time_winner((0, 0)) is None
    assert time_winner((30, 30, 10)) is None  # de a tres: the top two level
    assert time_winner((10, 30, 30, 40)) == 3


@pytest.mark.parametrize("seed", range(8))
def test_time_called_inside_a_hand_ends_the_partida_when_that_hand_ends(seed: int) -> None:
    rng = random.Random(seed)
    partida = Partida(LONG)
    for number in range(2):
        deal_next(partida, f"{seed}/{number}", rng)
        play_hand(partida, rng)
    deal_next(partida, f"{seed}/2", rng)
    play_hand(partida, rng, moves=3)
    assert partida.call_time() == (3, 3)
    assert not partida.over and partida.current is not None  # the hand in play is finished
    play_hand(partida, rng)
    while not partida.over:  # a tie plays one more hand (and another)
        assert time_winner(partida.scores) is None
        deal_next(partida, f"{seed}/{len(partida.played)}", rng)
        play_hand(partida, rng)
    assert partida.winner == time_winner(partida.scores)
    assert max(partida.scores) < LONG.target
    for earlier in partida.played[2:-1]:  # the hands after the call but the last ended tied
        assert time_winner(earlier.scores) is None
    assert partida.to_deal is False
    with pytest.raises(FichaFlowError) as exc:
        partida.start_hand(Deal.from_seed(4, "more"))
    assert exc.value.code == "record.after_partida"


def test_time_called_between_hands_ends_the_partida_at_once_unless_tied() -> None:
    rng = random.Random(3)
    partida = Partida(LONG)
    deal_next(partida, "x/0", rng)
    play_hand(partida, rng)
    assert time_winner(partida.scores) is not None
    written = len(partida.played[0].hand.history)
    assert partida.call_time()[0] == 1 and partida.time_up is not None
    assert partida.time_up[1] <= written
    assert partida.over and partida.winner == time_winner(partida.scores)


def test_time_called_before_the_first_hand_plays_one_hand_on_the_tie_at_zero() -> None:
    rng = random.Random(5)
    partida = Partida(LONG)
    assert partida.call_time() == (0, 0)
    assert not partida.over and partida.to_deal  # 0 to 0: one more hand
    hands = 0
    while not partida.over:
        deal_next(partida, f"z/{hands}", rng)
        play_hand(partida, rng)
        hands += 1
    assert partida.winner == time_winner(partida.scores)
    record = loads(dumps(partida))
    assert record.time_up == (0, 0)
    assert replay(record).winner == partida.winner


def test_the_target_still_ends_a_partida_before_time_is_up() -> None:
    rules = Rules.make("venezuela", target=10)
    rng = random.Random(1)
    partida = Partida(rules)
    while not partida.over:
        deal_next(partida, f"t/{len(partida.played)}", rng)
        play_hand(partida, rng)
    assert partida.time_up is None
    with pytest.raises(FichaFlowError) as exc:
        partida.call_time()
    assert exc.value.code == "record.time_after_partida"


def test_time_is_called_once() -> None:
    partida = Partida(LONG)
    partida.call_time()
    with pytest.raises(FichaFlowError) as exc:
        partida.call_time()
    assert exc.value.code == "record.time_twice"


def seeded_partida(seed: int, call_in_hand: int, call_after: int) -> tuple[Partida, list[str]]:
    """A partida dealt from seeds (as a server deals), time called in hand ``call_in_hand``
    after ``call_after`` moves, played to its end."""
    rng = random.Random(seed)
    partida = Partida(LONG)
    seeds = []
    while not partida.over:
        number = len(partida.played) + 1
        hand_seed = f"{seed:064x}"[:-4] + f"{number:04x}"
        seeds.append(hand_seed)
        partida.deal(hand_seed, None)
        if number == call_in_hand:
            play_hand(partida, rng, moves=call_after)
            if partida.current is not None:
                partida.call_time()
        if partida.current is not None:
            play_hand(partida, rng)
        if number == call_in_hand and partida.time_up is None:
            partida.call_time()  # the hand ended first: time came between hands
    return partida, seeds


@pytest.mark.parametrize("seed", range(10))
def test_a_record_with_time_called_replays_and_verifies_to_the_same_end(seed: int) -> None:
    rng = random.Random(100 + seed)
    partida, seeds = seeded_partida(seed, rng.randrange(1, 4), rng.randrange(0, 30))
    assert partida.over and partida.time_up is not None
    written = dump(partida)
    assert written["time_up"] == {"hand": partida.time_up[0], "moves": partida.time_up[1]}
    for hand, hand_seed in zip(written["hands"], seeds, strict=True):
        hand["seed"], hand["commitment"] = hand_seed, commitment(hand_seed)
    record = parse_record(json.loads(json.dumps(written)))
    again = replay(record)
    assert (again.winner, again.scores, again.time_up) == (
        partida.winner,
        partida.scores,
        partida.time_up,
    )
    assert len(verify_record(record)) == len(partida.played)
    without = {k: v for k, v in written.items() if k != "time_up"}
    with pytest.raises(FichaFlowError) as exc:  # without the call the target is far away
        verify_record(parse_record(without))
    assert exc.value.code == "verify.unfinished"


@pytest.mark.parametrize(
    "time_up",
    [{"hand": 9, "moves": 0}, {"hand": 1, "moves": 999}, {"hand": -1, "moves": 0}, {"hand": 1}],
)
def test_a_time_call_the_record_has_no_place_for_is_refused(time_up: object) -> None:
    partida, _ = seeded_partida(2, 1, 4)
    written = dump(partida)
    written["time_up"] = time_up
    with pytest.raises(FichaFlowError) as exc:
        parse_record(written)
    assert exc.value.code in ("record.time_where", "record.shape")
