"""gallo and omnisciente: legal, repeatable for a seed and a work budget, exact where they can be,
and clearly stronger than a random player."""

from __future__ import annotations

import random
from typing import Any

import pytest

from fichaflow.bots.base import Bot
from fichaflow.bots.gallo import Gallo
from fichaflow.bots.ladder import BOTS, PLAYER_BOTS, make_bot
from fichaflow.core.hand import Hand
from fichaflow.core.partida import facts_of
from fichaflow.core.rules import Rules
from fichaflow.core.scoring import score_hand
from fichaflow.core.view import hand_view
from fichaflow.search.engine import FastHand, from_core
from fichaflow.search.solver import Solver
from fichaflow.search.value import Valuer
from tests.marks import slow_except
from tests.search.helpers import ALL_PRESETS, MODE_PRESETS, new_hand

QUICK = {"budget_ms": None, "samples": 6, "playouts": 2, "nodes": 20_000}


def _play(rules: Rules, hand: Hand, bots: list[Bot], number: int = 2) -> list[str]:
    """Play a hand to its end; every move goes through the rules engine's checks."""
    made = []
    while not hand.ended:
        seat = hand.turn
        view = hand_view(rules, hand, seat, hand_number=number)
        bot = bots[seat]
        move = bot.choose_seeing_all(view, hand.copy()) if bot.sees_all else bot.choose(view)
        hand.play(move)  # raises on an illegal move
        made.append(hand.history[-1].notation())
    return made


def test_the_search_bots_are_on_the_ladder_and_omnisciente_is_not_offered() -> None:
    assert "gallo" in BOTS and "gallo" in PLAYER_BOTS
    assert "omnisciente" in BOTS and "omnisciente" not in PLAYER_BOTS
    assert make_bot("omnisciente").sees_all and not make_bot("gallo").sees_all


# one preset by default: the ladder test (tests/bots) plays gallo and omnisciente in every mode
@pytest.mark.parametrize("preset", slow_except(ALL_PRESETS, ["venezuela"]))
def test_gallo_and_omnisciente_play_only_legal_moves_in_every_mode(preset: str) -> None:
    rules = Rules.make(preset)
    for seed in range(12):
        hand = new_hand(rules, seed)
        names = ("gallo", "omnisciente", "tirafichas", "gallo")
        options: dict[str, dict[str, Any]] = {
            "gallo": QUICK,
            "omnisciente": {"nodes": 20_000, "samples": 40},
        }
        bots = [make_bot(n, seed, **options.get(n, {})) for n in names[: rules.seats]]
        _play(rules, hand, bots, number=1 if hand.forced_lead is not None else 2)
        assert hand.ended


@pytest.mark.parametrize("preset", MODE_PRESETS)
def test_gallo_repeats_itself_for_a_seed_and_a_work_budget(preset: str) -> None:
    rules = Rules.make(preset)
    for seed in range(4):
        games = []
        for _ in range(2):
            hand = new_hand(rules, seed)
            bots = [make_bot("gallo", seed, **QUICK) for _ in range(rules.seats)]
            games.append(_play(rules, hand, bots))
        assert games[0] == games[1]


def test_gallo_with_a_tiny_clock_still_plays_whole_hands() -> None:
    rules = Rules.make("dominicana")
    hand = new_hand(rules, 5)
    bots = [make_bot("gallo", s, budget_ms=1) for s in range(4)]
    _play(rules, hand, bots)
    assert hand.ended
    for bot in bots:
        last = bot.last  # type: ignore[attr-defined]
        assert last is None or last.samples >= 1 or not last.values  # searched, or no choice


def _true_best(rules: Rules, hand: Hand) -> tuple[int, list[int]]:
    """The exact best value for the player to move, and the value of each legal move."""
    fast = FastHand.from_hand(hand)
    solver = Solver(Valuer(rules), rules.team_of(hand.turn))
    solver.reset_table(fast)
    moves = [from_core(m) for m in hand.legal_moves()]
    values = solver.move_values(fast, moves)
    return max(values), values


def test_gallo_solves_exactly_when_the_hidden_hand_is_known() -> None:
    """Mano a mano with the montón empty: the rival holds every tile gallo cannot see, so its
    search is exact and its move is a best move."""
    rules = Rules.make("mano_a_mano")
    checked = 0
    for seed in range(200):
        hand = new_hand(rules, seed)
        rng = random.Random(seed)
        while not hand.ended and (hand.stock_left or len(hand.plays()) < 12):
            hand.play(rng.choice(hand.legal_moves()))
        while not hand.ended and len(hand.legal_moves()) < 2:
            hand.play(hand.legal_moves()[0])
        if hand.ended:
            continue
        best, values = _true_best(rules, hand)
        if len(set(values)) < 2:
            continue
        gallo = Gallo(seed, budget_ms=None, samples=3)
        move = gallo.choose(hand_view(rules, hand, hand.turn, hand_number=2))
        assert gallo.last is not None and gallo.last.exact
        assert values[hand.legal_moves().index(move)] == best
        checked += 1
    assert checked >= 10


def test_omnisciente_plays_a_best_move_of_the_true_position() -> None:
    rules = Rules.make("venezuela")
    checked = 0
    for seed in range(60):
        hand = new_hand(rules, seed)
        rng = random.Random(seed)
        while not hand.ended and len(hand.plays()) < 10:
            hand.play(rng.choice(hand.legal_moves()))
        if hand.ended or len(hand.legal_moves()) < 2:
            continue
        best, values = _true_best(rules, hand)
        bot = make_bot("omnisciente", seed)
        move = bot.choose_seeing_all(hand_view(rules, hand, hand.turn), hand.copy())
        assert values[hand.legal_moves().index(move)] == best
        checked += 1
    assert checked >= 10


@pytest.mark.slow
def test_gallo_outscores_a_random_player_on_the_same_deals() -> None:
    """Duplicate hands: each deal is played twice with the sides swapped."""
    rules = Rules.make("venezuela")
    gallo_points = random_points = 0
    for seed in range(30):
        for gallo_team in (0, 1):
            hand = new_hand(rules, seed)
            bots = [
                make_bot("gallo", seed, budget_ms=None, samples=20, playouts=2)
                if rules.team_of(s) == gallo_team
                else make_bot("tirafichas", seed)
                for s in range(4)
            ]
            _play(rules, hand, bots)
            gains = score_hand(rules, facts_of(hand)).gains(rules.teams)
            gallo_points += gains[gallo_team]
            random_points += gains[1 - gallo_team]
    assert gallo_points > 1.5 * random_points


def test_gallo_answers_a_view_no_real_hand_gives_with_a_legal_move() -> None:
    """A client of the engine protocol may hide the seat's own draws: gallo still answers."""
    import dataclasses

    rules = Rules.make("mano_a_mano")
    for seed in range(100):
        hand = new_hand(rules, seed)
        rng = random.Random(seed)
        while not hand.ended:
            view = hand_view(rules, hand, hand.turn, hand_number=2)
            own_draws = [t for t in view.history if t.kind == "draw" and t.seat == view.seat]
            if own_draws and len(view.legal) > 1:
                hidden = tuple(
                    dataclasses.replace(t, drawn=-1) if t.seat == view.seat else t
                    for t in view.history
                )
                move = Gallo(seed).choose(dataclasses.replace(view, history=hidden))
                assert move in view.legal
                return
            hand.play(rng.choice(hand.legal_moves()))
    raise AssertionError("no position with an own draw and a choice was found")


def test_gallo_keeps_every_deal_when_its_nodes_run_out_partway() -> None:
    """In the exact phase, a node budget that solves only some deals: gallo plays the others out
    and lets the solved ones correct them, instead of answering from a handful of deals; when
    every deal fits, the answer is the exact one either way."""
    rules = Rules.make("venezuela")
    partway = 0
    for seed in range(40):
        hand = new_hand(rules, seed)
        rng = random.Random(seed)
        while not hand.ended and len(hand.plays()) < 10:
            hand.play(rng.choice(hand.legal_moves()))
        if hand.ended or len(hand.legal_moves()) < 2:
            continue
        view = hand_view(rules, hand, hand.turn, hand_number=2)
        work = {"budget_ms": None, "samples": 40, "playouts": 2, "exact_after": 9}
        tight, old = (
            Gallo(seed, nodes=4_000, **work),
            Gallo(seed, nodes=4_000, correct=False, **work),
        )
        tight.choose(view)
        old.choose(view)
        assert tight.last is not None and old.last is not None
        if not old.last.exact or old.last.samples == 40:
            continue  # nothing solved, or everything: the same search either way
        partway += 1
        assert (tight.last.samples, tight.last.exact) == (40, False)
        assert tight.last.playouts > 0 and old.last.playouts == 0
        roomy = Gallo(seed, nodes=10**7, **work)
        roomy_old = Gallo(seed, nodes=10**7, correct=False, **work)
        roomy.choose(view)
        roomy_old.choose(view)
        assert roomy.last is not None and roomy_old.last is not None
        assert roomy.last.exact and roomy.last.values == roomy_old.last.values
    assert partway >= 5
