"""Helpers for the core tests: tiles from text, scripted and random play, snapshots, and small
oracles that restate the contract (RULES.md) directly, so that the engine is checked against the
rules as written rather than against itself."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from fichaflow.core.deal import Deal
from fichaflow.core.hand import DRAW, PASS, End, EndKind, Hand, Move
from fichaflow.core.partida import Partida
from fichaflow.core.record import draw_until_playable
from fichaflow.core.rules import Rules
from fichaflow.core.scoring import HandFacts
from fichaflow.core.tiles import HALVES, name, parse

# -- tiles and deals written as text --------------------------------------------------------------


def tiles(text: str) -> list[int]:
    """``"6-6 3-2 1-0"`` -> the three tiles."""
    return [parse(word) for word in text.split()]


def mask(text: str) -> int:
    out = 0
    for tile in tiles(text):
        out |= 1 << tile
    return out


def names(tile_mask: int) -> set[str]:
    return {name(t) for t in range(28) if tile_mask >> t & 1}


def deal(*hands: str, stock: str = "") -> Deal:
    """A deal written seat by seat: ``deal("6-6 ...", "6-4 ...", ...)``."""
    return Deal.from_lists([tiles(h) for h in hands], tiles(stock))


def pip_sum(text: str) -> int:
    return sum(a + b for a, b in (HALVES[t] for t in tiles(text)))


def halves(tile: int) -> tuple[int, int]:
    return HALVES[tile]


# -- playing --------------------------------------------------------------------------------------


def play_tokens(where: Partida | Hand, tokens: Iterable[str]) -> None:
    """Play record notation on a partida's current hand (scored when it ends) or on a bare hand,
    making the unwritten draws as a record reader does."""
    for token in tokens:
        hand = where.current if isinstance(where, Partida) else where
        assert hand is not None
        draw_until_playable(hand)
        move = hand.parse(token)
        if isinstance(where, Partida):
            where.play(move)
        else:
            hand.play(move)


def start(rules: Rules, the_deal: Deal, leader: int | None = None) -> tuple[Partida, Hand]:
    partida = Partida(rules)
    return partida, partida.start_hand(the_deal, leader)


def random_move(hand: Hand, rng: random.Random) -> Move:
    """Any legal move; at the lead, either way round."""
    move = rng.choice(hand.legal_moves())
    if move.end is None and move.is_play and rng.random() < 0.5:
        a, b = HALVES[move.tile]
        move = Move.lead(move.tile, b if move.left == a else a)
    return move


def random_partida(
    rules: Rules, seed: int, max_hands: int = 60, stop_inside: bool = False
) -> Partida:
    """A partida played by random legal moves on seeded deals, to its end (or ``max_hands``).
    With ``stop_inside`` the last hand is left in play after a random number of moves."""
    rng = random.Random(seed)
    partida = Partida(rules)
    for number in range(max_hands):
        if partida.over:
            break
        the_deal = Deal.from_seed(rules.seats, f"{seed}/{number}")
        leader, _ = partida.salida(the_deal)
        hand = partida.start_hand(the_deal, rng.randrange(rules.seats) if leader is None else None)
        stop_at = rng.randrange(1, 30) if stop_inside and number == max_hands - 1 else None
        moves = 0
        while not hand.ended and moves != stop_at:
            partida.play(random_move(hand, rng))
            moves += 1
    return partida


# -- the whole state of a hand, to show that something left it unchanged --------------------------


_EVERY_SLOT = attrgetter(*Hand.__slots__)


def snapshot(hand: Hand) -> tuple[Any, ...]:
    """Every slot of the position (lists copied as tuples), for exact comparisons."""
    return tuple(tuple(v) if type(v) is list else v for v in _EVERY_SLOT(hand))


# -- oracles: the contract restated ---------------------------------------------------------------


def oracle_moves(hand: Hand) -> set[Move]:
    """Every move the contract allows the player to move, leads in both orientations."""
    if hand.result is not None:
        return set()
    own = [t for t in range(28) if hand.hands[hand.turn] >> t & 1]
    out: set[Move] = set()
    if hand.left < 0:
        for t in own:
            if hand.forced_lead is None or t == hand.forced_lead:
                a, b = HALVES[t]
                out |= {Move(t, None, a), Move(t, None, b)}
        return out
    for t in own:
        if hand.left in HALVES[t]:
            out.add(Move(t, End.LEFT))
        if hand.right in HALVES[t]:
            out.add(Move(t, End.RIGHT))
    if out:
        return out
    return {DRAW} if hand.stock_left > 0 else {PASS}


def candidate_moves() -> list[Move]:
    """Every move anyone could try to make, legal or not."""
    out = [PASS, DRAW]
    for t in range(28):
        a, b = HALVES[t]
        out += [Move(t, None, a), Move(t, None, b), Move(t, End.LEFT), Move(t, End.RIGHT)]
    return out


CANDIDATES = candidate_moves()


def outside_line(hand: Hand) -> list[int]:
    """Tiles in any hand or still in the montón."""
    held = [t for h in hand.hands for t in range(28) if h >> t & 1]
    return held + list(hand.stock[hand.stock_pos :])


@dataclass(frozen=True)
class ExpectedEnd:
    kind: EndKind | None
    seat: int = -1
    capicua: bool = False
    chuchazo: bool = False


def oracle_end_after(hand: Hand, seat: int, tile: int, left: int, right: int) -> ExpectedEnd:
    """How the hand should stand after ``seat`` placed ``tile`` on ends ``left``/``right``."""
    if not hand.hands[seat]:
        a, b = HALVES[tile]
        capicua = left >= 0 and left != right and {a, b} == {left, right}
        return ExpectedEnd(EndKind.DOMINO, seat, capicua, tile == parse("0-0"))
    ends = {hand.left, hand.right}
    if not any(set(HALVES[t]) & ends for t in outside_line(hand)):
        return ExpectedEnd(EndKind.TRANQUE, seat)
    return ExpectedEnd(None)


def team(rules: Rules, seat: int) -> int:
    return seat % 2 if rules.mode == "parejas" else seat


def oracle_score(rules: Rules, facts: HandFacts) -> tuple[int | None, int, list[int]]:
    """``(winning team, points without bonuses, what each team adds)`` as RULES.md says."""
    pips, n = facts.pips, rules.seats
    teams = 2 if rules.mode == "parejas" else n
    winner: int | None
    if facts.end is EndKind.DOMINO:
        winner = team(rules, facts.seat)
        count = rules.domino_count
    else:
        count = rules.tranque_count
        if rules.mode != "parejas":
            fewest = min(pips)
            tied = [s for s in range(n) if pips[s] == fewest]
            if len(tied) == 1:
                winner = tied[0]
            elif rules.tranque_tie == "salida" and facts.leader in tied:
                winner = facts.leader
            else:
                winner = None
        elif rules.tranque_rule == "abajo":
            closer, below = facts.seat, (facts.seat + 1) % n
            winner = team(rules, closer if pips[closer] <= pips[below] else below)
        else:
            sums = [pips[0] + pips[2], pips[1] + pips[3]]
            if sums[0] != sums[1]:
                winner = 0 if sums[0] < sums[1] else 1
            elif rules.tranque_tie == "salida":
                winner = team(rules, facts.leader)
            else:
                winner = None
    gains = [0] * teams
    points = 0
    if winner is not None:
        points = sum(pips[s] for s in range(n) if count == "all" or team(rules, s) != winner)
        gains[winner] += points
        if facts.end is EndKind.TRANQUE:
            gains[winner] += rules.tranque_bonus
    if facts.end is EndKind.DOMINO:
        winner_team = team(rules, facts.seat)
        if facts.capicua:
            gains[winner_team] += rules.capicua_bonus
        if facts.chuchazo:
            gains[winner_team] += rules.chuchazo_bonus
    if facts.salida_pasada:
        gains[team(rules, facts.leader)] += rules.salida_pasada_bonus
    for seat in facts.pase_redondo:
        gains[team(rules, seat)] += rules.pase_redondo_bonus
    return winner, points, gains


def seats_in_turn_from(start_seat: int, n: int) -> Sequence[int]:
    return [(start_seat + i) % n for i in range(n)]
