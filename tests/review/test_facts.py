"""The Repaso's explanations: each one is true in the position it speaks of, in every mode, and
reads as players say it."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fichaflow.core.hand import End, EndKind, Hand, Move
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import ALL_TILES, SUIT, other_half, parse, pips_of, tile_of
from fichaflow.core.view import hand_view
from fichaflow.review.facts import Fact, decision_facts, move_facts, read
from fichaflow.search.decide import candidates
from tests.review.helpers import PRESETS, played, replay_to, view_of


def _out_of_line(hand: Hand) -> int:
    return ALL_TILES & ~hand.line_mask


def _holds_none(hand: Hand, seat: int, a: int, b: int) -> bool:
    return not hand.hands[seat] & (SUIT[a] | SUIT[b])


def _end_setter(hand: Hand, end: End) -> tuple[int, int, bool]:
    """Who put the number now showing on ``end`` there, which number, and whether it was the
    salida: read from the rules engine's own history."""
    for turn in reversed(hand.history):
        move = turn.move
        if not move.is_play:
            continue
        if move.end is None:
            assert move.left is not None
            shown = move.left if end is End.LEFT else other_half(move.tile, move.left)
            return turn.seat, shown, True
        if move.end is end:
            faced = turn.left if end is End.LEFT else turn.right
            return turn.seat, other_half(move.tile, faced), False
    raise AssertionError("no tile on the line")


def _ends_in_tranque(hand: Hand, move: Move) -> bool:
    after = hand.copy()
    after.push(move)
    return after.result is not None and after.result.kind is EndKind.TRANQUE


def _check_move_fact(fact: Fact, truth: Hand, rules: Rules, move: Move) -> None:
    """Restate the fact from the true position (every hand visible) and check it."""
    seat = truth.turn
    p = fact.params
    after = truth.copy()
    after.push(move)
    if fact.code == "domino":
        assert after.result is not None and after.result.kind is EndKind.DOMINO
        assert after.result.seat == seat
    elif fact.code == "closes":
        assert after.result is not None and after.result.kind is EndKind.TRANQUE
        assert p["pips"] == pips_of(after.hands[seat])
    elif fact.code == "tranque_near":
        assert not after.ended and (after.left, after.right) == (p["a"], p["b"])
        fits = _out_of_line(after) & (SUIT[p["a"]] | SUIT[p["b"]])
        assert fits.bit_count() == p["count"] <= 2
    elif fact.code == "heaviest":
        playable = [pips_of(1 << m.tile) for m in truth.legal_moves()]
        assert p["tile"] == move.tile and p["pips"] == pips_of(1 << move.tile)
        assert p["pips"] == max(playable) and min(playable) < p["pips"]
        if "closer" in p:
            assert any(
                _ends_in_tranque(truth, m) for m in truth.legal_moves() if m.tile == p["closer"]
            )
        else:
            assert (truth.left, truth.right) == (p["a"], p["b"])
            fits = _out_of_line(truth) & (SUIT[p["a"]] | SUIT[p["b"]])
            assert fits.bit_count() == p["count"] <= 3
    elif fact.code == "next_blocked":
        assert p["who"] == (seat + 1) % rules.seats
        assert (after.left, after.right) in ((p["a"], p["b"]), (p["b"], p["a"]))
        assert _holds_none(after, p["who"], p["a"], p["b"])
        # The player to move next has nothing to play: they must pass, or draw with a montón.
        assert after.turn == p["who"]
        expected = "draw" if after.stock_left else "pass"
        assert p["must"] == expected
        assert [m.tile for m in after.legal_moves()] == [-2 if expected == "draw" else -1]
        for number in p["passed"]:
            assert any(
                t.seat == p["who"] and t.move.is_pass and number in (t.left, t.right)
                for t in truth.history
            )
    elif fact.code == "partner_blocked":
        assert p["who"] == (seat + 2) % 4 and rules.seats == 4
        assert _holds_none(after, p["who"], p["a"], p["b"])
    elif fact.code in ("covers_partner", "covers_rival"):
        assert move.end is not None
        setter, number, salida = _end_setter(truth, move.end)
        assert (setter, number) == (p["who"], p["number"])
        assert setter != seat
        same_team = rules.team_of(setter) == rules.team_of(seat)
        assert same_team == (fact.code == "covers_partner")
        assert (p["why"] == "lead") == salida
        new = after.left if move.end is End.LEFT else after.right
        assert new != number
    elif fact.code == "kills_double":
        double = p["double"]
        number = next(n for n in range(7) if tile_of(n, n) == double)
        assert after.hands[seat] >> double & 1
        assert not (SUIT[number] & _out_of_line(after)) & ~(1 << double)
        assert number not in (after.left, after.right)
    else:
        raise AssertionError(f"unchecked fact {fact.code}")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(PRESETS), seed=st.integers(0, 10**6), forced=st.booleans())
def test_every_fact_is_true_in_the_position(preset: str, seed: int, forced: bool) -> None:
    subject = played(preset, seed, forced)
    rules = subject.rules
    truth = replay_to(subject, 0)
    for turn in subject.hand.history:
        if turn.move.is_play:
            view = view_of(subject, truth)
            moves = [m for _, m in candidates(view)]
            reading = read(view)
            for fact in decision_facts(reading):
                assert fact.code == "dead_double"
                number = next(n for n in range(7) if tile_of(n, n) == fact.params["double"])
                assert truth.hands[truth.turn] >> fact.params["double"] & 1
                others = SUIT[number] & ~(1 << fact.params["double"])
                assert not others & _out_of_line(truth)
                assert number not in (truth.left, truth.right)
            for move in moves:
                for fact in move_facts(reading, move, moves):
                    _check_move_fact(fact, truth, rules, move)
                    assert fact.text(rules, None, "es") and fact.text(rules, None, "en")
        truth.push(turn.move)


# -- constructed positions ------------------------------------------------------------------------

NAMES = ("Ana", "Beto", "Carla", "Dani")


def _position(deal: list[list[str]], moves: list[str], leader: int) -> tuple[Hand, Rules]:
    """A Venezuelan hand's first salida (the cochina) and the moves after it."""
    rules = Rules.make("venezuela")
    hands = [sum(1 << parse(t) for t in seat) for seat in deal]
    hand = Hand(hands, (), leader, parse("6-6"))
    for token in moves:
        hand.play(hand.parse(token))
    return hand, rules


def _facts(hand: Hand, rules: Rules, tile: str, end: End | None) -> list[str]:
    """The Spanish facts of laying ``tile`` at ``end`` for the seat to move."""
    view = hand_view(rules, hand, hand.turn, players=NAMES)
    reading = read(view)
    moves = [m for _, m in candidates(view)]
    move = next(m for m in moves if m.tile == parse(tile) and (end is None or m.end is end))
    return [f.text(rules, NAMES, "es") for f in move_facts(reading, move, moves)]


def test_a_pass_tells_that_the_next_player_cannot_follow() -> None:
    # Beto leads the cochina; Carla passes on the 6, so she has no 6. Dani and Ana play, and the
    # ends show 2 and 6. Beto's 6-2 on the 2 leaves a 6 at both ends: Carla has to pass again.
    hand, rules = _position(
        [
            ["0-0", "2-0", "4-1", "5-1", "5-2", "6-0", "6-1"],
            ["3-1", "3-3", "4-4", "5-5", "6-2", "6-4", "6-6"],
            ["2-1", "2-2", "3-0", "3-2", "4-0", "5-0", "5-3"],
            ["1-0", "1-1", "4-2", "4-3", "5-4", "6-3", "6-5"],
        ],
        ["6-6", "pass", "6-5:left", "5-2"],
        leader=1,
    )
    assert (hand.turn, hand.left, hand.right) == (1, 2, 6)
    assert (
        "Con el 6-2 por la izquierda las dos puntas quedan en 6; Carla no tiene 6 (pasó al 6): "
        "le toca y tiene que pasar." in _facts(hand, rules, "6-2", End.LEFT)
    )
    # The 6-4 on the 6 shows a 2 and a 4, which Carla may well have: nothing is claimed.
    assert not any("Carla" in fact for fact in _facts(hand, rules, "6-4", End.RIGHT))


def test_covering_the_number_the_partner_led_is_said() -> None:
    # Carla leads the cochina, Dani passes, and Ana covers her partner's 6 with the 6-1.
    hand, rules = _position(
        [
            ["3-2", "4-3", "4-4", "5-3", "5-4", "5-5", "6-1"],
            ["1-1", "2-0", "3-3", "4-0", "6-2", "6-3", "6-5"],
            ["1-0", "2-1", "5-0", "5-2", "6-0", "6-4", "6-6"],
            ["0-0", "2-2", "3-0", "3-1", "4-1", "4-2", "5-1"],
        ],
        ["6-6", "pass"],
        leader=2,
    )
    assert hand.turn == 0
    assert _facts(hand, rules, "6-1", End.LEFT) == [
        "El 6-1 tapa el 6 con que salió tu pareja Carla."
    ]


def test_a_double_whose_number_is_all_on_the_line_is_dead() -> None:
    # Every 4 but the 4-4 is on the line (4-2, 5-4, 4-3, 6-4, 4-0, 4-1) and the ends show 0 and
    # 1: Carla's 4-4 can never be placed.
    hand, rules = _position(
        [
            ["2-0", "3-0", "3-2", "3-3", "4-0", "6-2", "6-3"],
            ["1-1", "2-2", "4-1", "5-2", "5-3", "5-5", "6-5"],
            ["0-0", "1-0", "2-1", "3-1", "4-2", "4-3", "4-4"],
            ["5-0", "5-1", "5-4", "6-0", "6-1", "6-4", "6-6"],
        ],
        [
            "6-6",
            "6-2:left",
            "2-2",
            "4-2",
            "5-4",
            "6-3",
            "6-5",
            "4-3",
            "6-4:left",
            "4-0:left",
            "4-1",
        ],
        leader=3,
    )
    assert (hand.turn, hand.left, hand.right) == (2, 0, 1)
    view = hand_view(rules, hand, 2, players=NAMES)
    assert [f.text(rules, NAMES, "es") for f in decision_facts(read(view))] == [
        "Tu 4-4 es doble muerto: las otras seis fichas del 4 ya están en la mesa y no lo podrás "
        "poner."
    ]
    # Another seat's view of the same table says nothing about Carla's tiles.
    hand.push(hand.legal_moves()[0])
    assert not decision_facts(read(hand_view(rules, hand, hand.turn, players=NAMES)))


def test_closing_the_hand_and_killing_ones_own_double_are_said() -> None:
    hand, rules = _position(
        [
            ["1-1", "2-2", "3-0", "4-0", "4-3", "4-4", "6-6"],
            ["3-2", "4-1", "5-1", "5-3", "6-0", "6-4", "6-5"],
            ["2-0", "4-2", "5-0", "5-2", "5-5", "6-1", "6-3"],
            ["0-0", "1-0", "2-1", "3-1", "3-3", "5-4", "6-2"],
        ],
        ["6-6", "6-4:left", "6-3", "5-4", "3-0", "6-0", "6-1", "3-1", "4-3", "6-5", "4-2"],
        leader=0,
    )
    # Dani holds 0-0 1-0 2-1 3-3 6-2; the ends show 6 and 2, and every other 6 is on the line.
    assert (hand.turn, hand.left, hand.right) == (3, 6, 2)
    assert _facts(hand, rules, "6-2", End.RIGHT)[0] == (
        "El 6-2 por la derecha tranca la mano; te quedas con 10 tantos."
    )
    hand, rules = _position(
        [
            ["3-0", "3-2", "4-0", "4-1", "5-2", "6-2", "6-6"],
            ["0-0", "1-0", "1-1", "5-0", "5-3", "5-5", "6-0"],
            ["2-0", "2-2", "4-3", "5-1", "6-3", "6-4", "6-5"],
            ["2-1", "3-1", "3-3", "4-2", "4-4", "5-4", "6-1"],
        ],
        ["6-6", "6-0:left", "6-5", "5-4", "4-1", "5-0", "5-1:right", "pass", "5-2:left"],
        leader=0,
    )
    # Beto holds 5-5 and 5-3, the only 5s off the line; the ends show 2 and 5. Laying the 5-3 on
    # the 5 leaves 2 and 3 on the ends and no 5 anywhere to reach his 5-5.
    assert (hand.turn, hand.left, hand.right) == (1, 2, 5)
    assert "Con el 5-3 tu 5-5 queda muerto: ya no habrá dónde ponerlo." in _facts(
        hand, rules, "5-3", End.RIGHT
    )
    assert not any("queda muerto" in f for f in _facts(hand, rules, "5-5", None))


def test_each_fact_code_is_met_in_ordinary_hands() -> None:
    """The property test above checks every code it meets: make sure it meets them all."""
    seen: set[str] = set()
    for preset in PRESETS:
        for seed in range(25):
            subject = played(preset, seed, seed % 2 == 0)
            truth = replay_to(subject, 0)
            for turn in subject.hand.history:
                if turn.move.is_play:
                    view = view_of(subject, truth)
                    moves = [m for _, m in candidates(view)]
                    reading = read(view)
                    seen.update(f.code for f in decision_facts(reading))
                    for move in moves:
                        seen.update(f.code for f in move_facts(reading, move, moves))
                truth.push(turn.move)
    assert seen == {
        "domino", "closes", "tranque_near", "heaviest", "next_blocked", "partner_blocked",
        "covers_partner", "covers_rival", "kills_double", "dead_double",
    }  # fmt: skip
