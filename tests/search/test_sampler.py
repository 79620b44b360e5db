"""Sampled deals agree with everything the seat saw, never move its tiles, never hand a player a
tile the history proves they lack, and, with the swaps, come up as often as each other."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fichaflow.bots.jugador import Jugador
from fichaflow.core.deal import Deal
from fichaflow.core.hand import DRAW, PASS, Hand, Move
from fichaflow.core.partida import Partida
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import ALL_TILES, DOUBLES, SUIT, bits, parse
from fichaflow.core.view import PublicTurn, SeatView, hand_view, seat_view
from fichaflow.problemas.seat import enumerate_deals
from fichaflow.search.sampler import MIX, Sample, Sampler
from tests.search.helpers import ALL_PRESETS, MODE_PRESETS, new_hand, sample_deals


def _core_move(turn: PublicTurn) -> Move:
    if turn.kind == "pass":
        return PASS
    if turn.kind == "draw":
        return DRAW
    if turn.end is None:
        assert turn.lead_left is not None
        return Move.lead(turn.tile, turn.lead_left)
    return Move(turn.tile, turn.end)


def _midgame_view(preset: str, seed: int, stop: float) -> tuple[SeatView, Hand]:
    """A hand played part way by a mix of heavy and random play, seen by the seat to move."""
    rules = Rules.make(preset)
    hand = new_hand(rules, seed)
    rng = random.Random(seed)
    moves = 0
    while not hand.ended:
        legal = hand.legal_moves()
        if len(legal) > 1 and moves and rng.random() < stop:
            break
        if rng.random() < 0.5:
            move = max(legal, key=lambda m: (m.tile >= 0, m.tile))
        else:
            move = rng.choice(legal)
        hand.play(move)
        moves += 1
    if hand.ended:
        hand.pop()
    number = 1 if hand.forced_lead is not None else 2
    return hand_view(rules, hand, hand.turn, hand_number=number), hand


def _replay_is_the_observed_history(view: SeatView, sample: Sample) -> None:
    """Deal the sample, replay the public history through the rules engine (which refuses an
    illegal play, a pass or draw while holding a playable tile, a pass while the montón has
    tiles), and land on the sample's position."""
    forced = view.history[0].tile if view.history and view.forced_lead is None else None
    if view.forced_lead is not None:
        forced = view.forced_lead
    hand = Hand(list(sample.start), tuple(sample.drawn + sample.stock), view.leader, forced)
    for turn in view.history:
        assert hand.turn == turn.seat
        hand.play(_core_move(turn))
        if turn.kind == "draw" and turn.drawn >= 0:
            assert hand.history[-1].drawn == turn.drawn
    assert hand.hands == sample.hands
    assert hand.stock_left == view.stock_left
    assert hand.counts() == view.counts


def _check_sample(view: SeatView, sample: Sample) -> None:
    assert view.seat is not None
    assert sample.hands[view.seat] == view.tiles
    assert [h.bit_count() for h in sample.hands] == list(view.counts)
    assert len(sample.stock) == view.stock_left
    line = sum(1 << t.tile for t in view.history if t.kind == "play")
    seen = line
    for mask in (*sample.hands, *(1 << t for t in sample.stock)):
        assert not seen & mask
        seen |= mask
    assert seen == ALL_TILES
    assert sample.weight > 0
    _replay_is_the_observed_history(view, sample)


@settings(max_examples=250, deadline=None)
@given(preset=st.sampled_from(ALL_PRESETS), seed=st.integers(0, 10**6), stop=st.floats(0.02, 0.4))
def test_every_sample_replays_the_history_exactly(preset: str, seed: int, stop: float) -> None:
    view, _ = _midgame_view(preset, seed, stop)
    samples = sample_deals(view, 12, seed)
    assert len(samples) == 12  # the real deal exists, so consistent deals are always found
    for sample in samples:
        _check_sample(view, sample)


@pytest.mark.parametrize("preset", MODE_PRESETS)
def test_thousands_of_samples_across_many_hands_are_consistent(preset: str) -> None:
    for seed in range(120):
        view, _ = _midgame_view(preset, seed, 0.08)
        for sample in sample_deals(view, 10, seed):
            _check_sample(view, sample)


def _proved_lacking(view: SeatView, seat: int) -> int:
    """Tiles ``seat`` provably lacks, worked out here from the history alone: with no draw after
    it, every pass and every draw proves the player held nothing fitting the ends it faced."""
    lacking = 0
    last_draw = max((i for i, t in enumerate(view.history) if t.seat == seat and t.kind == "draw"),
                    default=-1)  # fmt: skip
    for i, turn in enumerate(view.history):
        if turn.seat == seat and turn.kind == "pass" and i > last_draw:
            lacking |= SUIT[turn.left] | SUIT[turn.right]
    return lacking


@pytest.mark.parametrize("preset", MODE_PRESETS)
def test_a_tile_a_player_provably_lacks_never_reaches_their_hand(preset: str) -> None:
    checked = 0
    for seed in range(150):
        view, _ = _midgame_view(preset, seed, 0.05)
        lacking = [_proved_lacking(view, s) for s in range(view.rules.seats)]
        line = sum(1 << t.tile for t in view.history if t.kind == "play")
        for sample in sample_deals(view, 30, seed):
            for seat, hand in enumerate(sample.hands):
                if seat != view.seat:
                    assert not hand & lacking[seat]
                    assert not hand & (line | view.tiles)
                    checked += bool(lacking[seat])
    assert checked > 100


def test_with_nothing_known_tiles_are_dealt_evenly() -> None:
    """Right after the salida, every unseen tile is as likely in each of the three other hands."""
    rules = Rules.make("venezuela")
    hand = new_hand(rules, 3)
    hand.play(hand.legal_moves()[0])
    view = hand_view(rules, hand, hand.turn, hand_number=2)
    counts: Counter[tuple[int, int]] = Counter()
    runs = 3000
    for sample in sample_deals(view, runs, 5):
        for seat, mask in enumerate(sample.hands):
            if seat != view.seat:
                for t in bits(mask):
                    counts[(t, seat)] += 1
    unseen = ALL_TILES & ~view.tiles & ~(1 << view.history[0].tile)
    for t in bits(unseen):
        for seat in range(4):
            if seat == view.seat:
                continue
            share = counts[(t, seat)] / runs
            expected = view.counts[seat] / unseen.bit_count()
            assert abs(share - expected) < 0.05, (t, seat, share, expected)


def test_observed_heavy_play_makes_a_deal_more_likely() -> None:
    """A player who laid 6-5 is likelier to have had nothing heavier than to have kept 6-6."""
    rules = Rules.make("venezuela")
    light = [["6-5", "1-0", "2-0", "3-0", "4-0", "5-0", "6-0"]]
    heavy = [["6-5", "6-6", "2-0", "3-0", "4-0", "5-0", "6-0"]]
    weights = []
    for first in (light, heavy):
        hands = [sum(1 << parse(t) for t in first[0])]
        others = ALL_TILES & ~hands[0]
        rest = list(bits(others))
        hands += [sum(1 << t for t in rest[7 * i : 7 * i + 7]) for i in range(3)]
        hand = Hand(hands, leader=0)
        hand.play(Move.lead(parse("6-5"), 6))
        view = hand_view(rules, hand, 1, hand_number=2)
        sampler = Sampler(view, random.Random(0))
        start = list(hands)
        sample = Sample(list(hand.hands), [], start, [])
        weights.append(sampler.likelihood(sample))
    assert weights[0] > weights[1] > 0


@pytest.mark.parametrize("led", [False, True])
def test_under_doble_mayor_nobody_is_dealt_a_tile_above_the_salida(led: bool) -> None:
    """Tres under doble_mayor: seat 0 must lead 4-4, the highest tile dealt to a player, so 5-5
    and 6-6 stayed in the montón; the samples say so before the lead and after it."""
    rules = Rules.make("tres", first_lead="doble_mayor")
    hands = ["4-4 1-0 2-0 3-0 2-1 3-1 4-1", "6-0 6-1 6-2 6-3 5-0 5-1 5-2",
             "6-4 6-5 5-3 5-4 4-0 4-2 4-3"]  # fmt: skip
    stock = [parse(t) for t in ("0-0", "1-1", "2-2", "3-3", "5-5", "6-6", "3-2")]
    dealt = [sum(1 << parse(t) for t in h.split()) for h in hands]
    hand = Hand(dealt, tuple(stock), 0, parse("4-4"))
    if led:
        hand.play(Move.lead(parse("4-4")))
    view = hand_view(rules, hand, 1, hand_number=1)
    above = 1 << parse("5-5") | 1 << parse("6-6")
    other_doubles = 0
    for sample in sample_deals(view, 300, seed=3):
        _check_sample(view, sample)
        assert not (sample.start[0] | sample.start[2]) & above
        other_doubles |= (sample.start[0] | sample.start[2]) & DOUBLES
    assert other_doubles & ~(1 << parse("4-4"))  # the montón's lower doubles were dealt around


def _jugadores_view(seed: str, leader: int, turns: int) -> SeatView:
    """A venezuela hand played ``turns`` turns by four jugadores, seen by the seat to move."""
    rules = Rules.make("venezuela", target=500)
    partida = Partida(rules)
    deal = Deal.from_seed(rules.seats, seed)
    forced, _ = partida.salida(deal)
    partida.start_hand(deal, leader if forced is None else None)
    bots = [Jugador(seed=s) for s in range(rules.seats)]
    for _ in range(turns):
        seat = partida.turn
        assert seat is not None
        view = seat_view(partida, seat)
        assert view is not None
        partida.play(bots[seat].choose(view))
    view = seat_view(partida, partida.turn)
    assert view is not None
    return view


def _exact_odds(view: SeatView) -> dict[tuple[int, int], float]:
    """Each hidden tile's chance to be in each other seat's hand, every consistent deal counted
    alike: the deals enumerated as the seat problems enumerate them (no montón in venezuela)."""
    deals = enumerate_deals(view, 100_000)
    assert deals
    seen = Counter((t, s) for hands in deals for s, h in enumerate(hands) if s != view.seat
                   for t in bits(h))  # fmt: skip
    return {key: count / len(deals) for key, count in seen.items()}


@pytest.mark.parametrize(("seed", "leader"), [("bias-1", 1), ("bias-9", 1)])
def test_deals_are_drawn_uniformly_among_the_consistent_ones(seed: str, leader: int) -> None:
    """Where passes bind the hands tightly, dealing tile by tile leans toward some deals (a
    tile's odds off by 7 to 8 points); the swaps after each deal take the lean away."""
    view = _jugadores_view(seed, leader, 14)
    exact = _exact_odds(view)
    draws = 6000

    def worst(mix: int) -> float:
        sampler = Sampler(view, random.Random(3), weigh=False, mix=mix)
        seen: Counter[tuple[int, int]] = Counter()
        for _ in range(draws):
            sample = sampler.draw()
            assert sample is not None
            for seat, hand in enumerate(sample.hands):
                if seat != view.seat:
                    seen.update((t, seat) for t in bits(hand))
        return max(
            abs(seen[key] / draws - exact.get(key, 0.0)) for key in exact.keys() | seen.keys()
        )

    assert worst(0) > 0.05
    assert worst(MIX) < 0.03
