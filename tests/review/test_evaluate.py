"""The evaluation of one decision: it reads only the seat's view, agrees with exact solving when
the view leaves nothing hidden, and flags a move that throws points away."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from fichaflow.core import record
from fichaflow.core.hand import Move
from fichaflow.core.tiles import parse
from fichaflow.review.evaluate import (
    BEST,
    FEW_SOLVED,
    GOOD,
    MIN_SOLVED,
    MISTAKE,
    NOISE,
    PLAYOUT_ERROR,
    _estimate,
    evaluate,
    hindsight,
    nothing_hidden,
)
from fichaflow.review.hand import decision_points, hand_of, review_decision, review_hand
from fichaflow.review.precision import PRECISIONS, Precision
from fichaflow.search.estimate import corrected, weighted
from tests.marks import slow_except
from tests.review.helpers import PRESETS, other_position, played, replay_to, view_of
from tests.review.records import LAST_TILES
from tests.search.helpers import sample_deals

FAST = PRECISIONS["fast"]
THOROUGH = Precision("thorough", samples=12, playouts=4, exact_after=0, nodes=10**7,
                     exact_total=10**8, exact_hand=10**9, hindsight_nodes=10**7)  # fmt: skip
"""Exact solving of every sampled deal, with room enough to finish."""


def _decision(subject, pick: int) -> tuple[int, int] | None:  # type: ignore[no-untyped-def]
    """A (seat, history index) of some decision of the hand, chosen by ``pick``."""
    found = [(s, i) for s in range(subject.rules.seats) for i in decision_points(subject, s)]
    return found[pick % len(found)] if found else None


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(PRESETS),
    seed=st.integers(0, 10**6),
    pick=st.integers(0, 10**3),
    forced=st.booleans(),
)
def test_moving_the_hidden_tiles_changes_no_realistic_value(
    preset: str, seed: int, pick: int, forced: bool
) -> None:
    subject = played(preset, seed, forced)
    chosen = _decision(subject, pick)
    assume(chosen is not None)
    assert chosen is not None
    _seat, index = chosen
    truth = replay_to(subject, index)
    view = view_of(subject, truth)
    # Another deal of the hidden tiles that the seat cannot tell from the true one.
    others = [
        s
        for s in sample_deals(view, 30, seed=seed)
        if s.hands != truth.hands or s.stock != list(truth.stock[truth.stock_pos :])
    ]
    assume(others)
    moved = other_position(subject, index, others[0])
    assert view_of(subject, moved) == view
    assert (
        moved.hands != truth.hands
        or moved.stock[moved.stock_pos :] != truth.stock[truth.stock_pos :]
    )

    played_move = subject.hand.history[index].move
    first = review_decision(subject, truth, played_move, FAST, seed=seed)
    second = review_decision(subject, moved, played_move, FAST, seed=seed)
    realistic = [(m.move, m.points, m.win, m.cost, m.verdict) for m in first.evaluation.moves]
    assert realistic == [
        (m.move, m.points, m.win, m.cost, m.verdict) for m in second.evaluation.moves
    ]
    work = ("samples", "exact_samples", "playouts", "nodes")
    assert [getattr(first.evaluation, k) for k in work] == [
        getattr(second.evaluation, k) for k in work
    ]
    assert first.facts == second.facts and first.move_facts == second.move_facts
    assert evaluate(view, FAST, seed) == evaluate(view_of(subject, moved), FAST, seed)


def test_the_same_view_and_seed_give_the_same_evaluation_and_another_seed_other_deals() -> None:
    subject = played("venezuela", 11, forced_first=False)
    _seat, index = _decision(subject, 3) or (0, 0)
    view = view_of(subject, replay_to(subject, index))
    assert evaluate(view, FAST, seed=5) == evaluate(view, FAST, seed=5)
    assert evaluate(view, FAST, seed=5) != evaluate(view, FAST, seed=6)


@pytest.mark.slow
def test_with_nothing_hidden_the_evaluation_is_the_exact_solution() -> None:
    """When counting leaves every tile in one place, each sampled deal is the true one, so the
    expected points of every move are its exact value, with no error."""
    checked = solved_normal = 0
    for preset in ("mano_a_mano", "venezuela", "tres"):
        for seed in range(60):
            subject = played(preset, seed)
            for seat in range(subject.rules.seats):
                for index in decision_points(subject, seat):
                    truth = replay_to(subject, index)
                    view = view_of(subject, truth)
                    if not nothing_hidden(view):
                        continue
                    found = hindsight(truth, subject.rules, evaluate(view, THOROUGH), 10**7)
                    assert found.hindsight_solved
                    assert found.exact_samples == found.samples > 0
                    for move in found.moves:
                        assert move.hindsight is not None
                        assert move.points.mean == pytest.approx(move.hindsight, abs=1e-9)
                        assert move.points.se == pytest.approx(0, abs=1e-9)
                        assert move.win.mean in (pytest.approx(0), pytest.approx(1))
                    best = max(m.hindsight or 0 for m in found.moves)
                    assert found.best.hindsight == best
                    # The shipped precision solves such positions too, within its budget.
                    normal = evaluate(view, PRECISIONS["normal"])
                    if normal.exact_samples == normal.samples:
                        exact = {m.move: m.hindsight for m in found.moves}
                        for move in normal.moves:
                            assert move.points.mean == pytest.approx(exact[move.move], abs=1e-9)
                        solved_normal += 1
                    checked += 1
    assert checked >= 10 and solved_normal >= checked // 2


def test_throwing_away_a_won_domino_is_a_mistake_that_costs_21_points() -> None:
    partida = record.replay(record.parse_record(LAST_TILES))
    review = review_hand(hand_of(partida, 1), 1, PRECISIONS["normal"])
    last = review.decisions[-1]
    assert [m.move.tile for m in last.evaluation.moves] == [parse("3-1"), parse("6-4")]
    best, bad = last.evaluation.moves
    # Everything is in sight at the end (the montón is empty): the values are exact.
    assert best.verdict == BEST and best.points.mean == pytest.approx(24)
    assert best.hindsight == pytest.approx(24) and best.win.mean == pytest.approx(1)
    assert bad.move == last.played and bad.verdict == MISTAKE
    assert bad.cost.mean == pytest.approx(21) and bad.hindsight == pytest.approx(3)
    assert review.mistakes >= 1 and review.points_lost >= 21


@pytest.mark.parametrize("preset", slow_except(PRESETS, ["venezuela", "mano_a_mano"]))
def test_every_decision_has_one_best_move_and_costs_that_are_never_negative(preset: str) -> None:
    subject = played(preset, 3, forced_first=False)
    for seat in range(subject.rules.seats):
        review = review_hand(subject, seat, FAST)
        assert len(review.decisions) == len(decision_points(subject, seat))
        for decision in review.decisions:
            moves = decision.evaluation.moves
            assert [m.verdict for m in moves].count(BEST) == 1 and moves[0].verdict == BEST
            assert all(m.verdict in (BEST, GOOD, MISTAKE) for m in moves)
            assert all(m.cost.mean >= -1e-9 for m in moves)
            assert [m.points.mean for m in moves] == sorted(
                (m.points.mean for m in moves), reverse=True
            )
            assert all(0 <= m.win.mean <= 1 for m in moves)
            assert decision.played in [m.move for m in moves] or any(
                m.move.tile == decision.played.tile for m in moves
            )
            legal = {(m.tile, m.end) for m in decision.view.legal}
            assert {(m.move.tile, m.move.end) for m in moves} <= legal
            assert isinstance(decision.played, Move)


TINY = Precision("tiny", samples=4, playouts=1, exact_after=99, nodes=0, exact_total=0,
                 exact_hand=0, hindsight_nodes=0)  # fmt: skip


@pytest.mark.parametrize("preset", PRESETS)
def test_the_move_played_is_always_one_of_the_ranked_moves(preset: str) -> None:
    """Also when it was laid on the second of two ends showing the same number, which the
    ranking lists once."""
    mirrored = 0
    for seed in range(12):
        subject = played(preset, seed, forced_first=seed % 2 == 0)
        for seat in range(subject.rules.seats):
            review = review_hand(subject, seat, TINY)
            for decision, data in zip(review.decisions, review.to_json()["decisions"], strict=True):
                ranked = [m["move"] for m in data["moves"]]
                assert data["played"] in ranked
                assert ranked.index(data["played"]) + 1 == data["played_rank"]
                assert data["verdict"] == data["moves"][data["played_rank"] - 1]["verdict"]
                if data["played"] != data["played_move"]:
                    view = decision.view
                    assert view.left == view.right and decision.played.end is not None
                    mirrored += 1
    assert mirrored  # the case this test is about did come up


def test_the_solved_deals_correct_the_playouts_bias_and_count_in_the_uncertainty() -> None:
    """Playouts that overrate a move by 5 tantos on every deal: the deals solved exactly measure
    that error and take it away; with every deal solved the estimate is the exact mean."""
    rng = random.Random(7)
    exact = [rng.uniform(-30, 30) for _ in range(200)]
    played = [e + 5 + rng.uniform(-3, 3) for e in exact]
    weights = [rng.uniform(0.5, 1.5) for _ in exact]
    truth = weighted(exact, weights)
    fixed = corrected(played, exact[:40], weights)
    assert abs(fixed.mean - truth.mean) < 3 * fixed.se
    assert abs(weighted(played, weights).mean - truth.mean) > 4
    everything = corrected(played, exact, weights)
    assert everything.mean == pytest.approx(truth.mean)
    assert everything.se == pytest.approx(truth.se)


def test_a_salida_weighed_by_playouts_alone_states_their_error_and_calls_no_small_mistake() -> None:
    """At the first decision no deal is solved: every cost's ± counts what playouts may miss,
    so a move is a mistake only when it costs more than twice that."""
    seen = 0
    for preset in ("venezuela", "tres"):
        subject = played(preset, 2, forced_first=False)
        seat = subject.hand.leader
        index = decision_points(subject, seat)[0]
        found = evaluate(view_of(subject, replay_to(subject, index)), PRECISIONS["normal"])
        assert found.exact_samples == 0
        for move in found.moves[1:]:
            seen += 1
            assert move.cost.se >= PLAYOUT_ERROR
            assert move.verdict != MISTAKE or move.cost.mean > NOISE * PLAYOUT_ERROR
    assert seen


def test_mid_hand_at_normal_solves_deals_exactly() -> None:
    """From ``exact_after`` tiles on the line some deals are solved (those the budget allows),
    and the first ones: the solving stops at the first deal that does not fit."""
    normal = PRECISIONS["normal"]
    checked = 0
    for seed in range(4):
        subject = played("venezuela", seed, forced_first=False)
        for seat in range(4):
            for index in decision_points(subject, seat):
                view = view_of(subject, replay_to(subject, index))
                if normal.exact_after <= len(view.line) < 10 and checked < 3:
                    found = evaluate(view, normal)
                    assert found.exact_samples >= MIN_SOLVED
                    checked += 1
    assert checked


def test_too_few_deals_solved_early_in_a_hand_go_on_with_the_rescue_budget() -> None:
    """At 6 tiles on the line a venezuela deal can take thousands of nodes to solve, and a
    decision's budget (here 300,000 nodes, a third of ``normal``'s) can stop the solving before
    :data:`MIN_SOLVED` deals, leaving the playouts alone (the Repaso's largest error,
    ``bench/repaso_truth.py``): the rescue goes on with a deal's and a decision's larger
    budgets, so enough deals are solved to correct the playouts, within ``rescue_total``.
    ``normal``'s own budget solves enough of them here."""
    normal = PRECISIONS["normal"]
    small = replace(normal, exact_total=300_000)
    subject = played("venezuela", 4, forced_first=False)
    view = view_of(subject, replay_to(subject, 6))
    assert len(view.line) == normal.exact_after
    plain = evaluate(view, replace(small, rescue_total=0))
    rescued = evaluate(view, small)
    assert plain.exact_samples < MIN_SOLVED <= rescued.exact_samples
    assert plain.nodes <= small.exact_total + 1 < rescued.nodes <= small.rescue_total + 1
    # Solved deals correct the values: their uncertainty no longer counts the playouts' error.
    assert all(m.points.se < PLAYOUT_ERROR for m in rescued.moves)
    # Without the rescue, enough deals are solved here to stand alone, without the playouts.
    assert plain.exact_samples >= FEW_SOLVED
    assert all(m.points.se < PLAYOUT_ERROR for m in plain.moves)
    assert evaluate(view, normal).exact_samples >= MIN_SOLVED


def test_a_few_solved_deals_stand_alone_and_the_playouts_bias_goes() -> None:
    """Between :data:`FEW_SOLVED` and :data:`MIN_SOLVED` deals solved, the playouts' error
    cannot be measured, and playouts 15 tantos off must not move the value: it is the solved
    deals' own mean, its uncertainty theirs and a little wider; with fewer solved, the playouts
    stand alone and their allowance counts."""
    rng = random.Random(11)
    exact = [rng.uniform(-30, 30) for _ in range(300)]
    played = [e + 15 + rng.uniform(-3, 3) for e in exact]
    weights = [rng.uniform(0.5, 1.5) for _ in exact]
    few = FEW_SOLVED + 10
    found = _estimate(played, exact[:few], weights)
    alone = weighted(exact[:few], weights[:few])
    assert found.mean == pytest.approx(alone.mean)
    assert alone.se < found.se < 1.2 * alone.se
    assert abs(found.mean - weighted(exact, weights).mean) < 3 * found.se
    too_few = _estimate(played, exact[: FEW_SOLVED - 1], weights)
    assert too_few.mean == pytest.approx(weighted(played, weights).mean)
    assert too_few.se >= PLAYOUT_ERROR
