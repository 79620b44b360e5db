"""Playing a hand or a partida between bots, through the rules core.

Each bot is asked only when it has a real choice, and is handed only ``hand_view(...)`` for its
own seat; a ``sees_all`` bot (benchmarks only) is called with ``choose_seeing_all(view, hand)`` on
a copy of the position. A forced move (the only legal move is a draw or a pass) is applied without
asking. Every move goes through the core's checks, so a bot's illegal move stops the match with a
clear error instead of being played. Each decision is timed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from fichaflow.bots.base import Bot
from fichaflow.core.deal import Deal
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import Hand, Move, write_move
from fichaflow.core.partida import Partida, facts_of
from fichaflow.core.rules import Rules
from fichaflow.core.scoring import HandScore, score_hand
from fichaflow.core.view import hand_view

MAX_PARTIDA_HANDS = 400
"""A partida that has not ended after this many hands is stopped (it never happens in practice:
every preset's target is reached in a few dozen hands at most)."""


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand, its score and how long each seat took for each decision (seconds)."""

    hand: Hand
    score: HandScore
    times: tuple[tuple[float, ...], ...]


@dataclass(frozen=True, slots=True)
class PartidaResult:
    """A finished partida: the winning team (None if stopped), the hands and each seat's times."""

    partida: Partida
    winner: int | None
    times: tuple[tuple[float, ...], ...]


def _decide(bot: Bot, rules: Rules, hand: Hand, scores: tuple[int, ...], number: int) -> Move:
    seat = hand.turn
    view = hand_view(rules, hand, seat, scores, number)
    if bot.sees_all:
        return bot.choose_seeing_all(view, hand.copy())
    return bot.choose(view)


def _play_out(
    rules: Rules,
    hand: Hand,
    bots: Sequence[Bot],
    apply: Callable[[Move], object],
    scores: tuple[int, ...],
    number: int,
    times: list[list[float]],
) -> None:
    """Ask the bots in turn until the hand ends; ``apply`` makes each move through the core."""
    while not hand.ended:
        legal = hand.legal_moves()
        if len(legal) == 1 and not legal[0].is_play:
            apply(legal[0])
            continue
        seat = hand.turn
        bot = bots[seat]
        start = time.perf_counter()
        move = _decide(bot, rules, hand, scores, number)
        times[seat].append(time.perf_counter() - start)
        if not isinstance(move, Move):
            raise FichaFlowError("match.not_a_move", bot=bot.name, seat=seat, move=repr(move))
        try:
            apply(move)
        except FichaFlowError as exc:
            token = write_move(move, (hand.left, hand.right))
            raise FichaFlowError(
                "match.illegal_move", bot=bot.name, seat=seat, move=token, detail=exc.message()
            ) from None


def play_hand(
    rules: Rules,
    deal: Deal,
    bots: Sequence[Bot],
    leader: int,
    forced_lead: int | None = None,
    hand_number: int = 2,
    scores: tuple[int, ...] = (),
) -> HandResult:
    """Play one hand of ``deal`` led by ``leader``; ``bots[s]`` plays seat ``s``.

    ``hand_number`` is what the views say; the default (2) is a hand after the first, where the
    leader may lead any tile (the first hand's salida rules do not apply)."""
    if len(bots) != rules.seats:
        raise FichaFlowError("match.bot_count", found=len(bots), seats=rules.seats)
    deal.check(rules)
    hand = Hand(list(deal.hands), deal.stock, leader, forced_lead)
    times: list[list[float]] = [[] for _ in range(rules.seats)]
    _play_out(rules, hand, bots, hand.play, scores, hand_number, times)
    score = score_hand(rules, facts_of(hand))
    return HandResult(hand, score, tuple(tuple(t) for t in times))


def play_partida(
    rules: Rules,
    seed_for: Callable[[int], str],
    bots: Sequence[Bot],
) -> PartidaResult:
    """Play a partida to its end; hand ``k`` (from 0) is dealt from the seed ``seed_for(k)``, and
    the partida chooses each leader (a sorteo is drawn from the first hand's seed)."""
    if len(bots) != rules.seats:
        raise FichaFlowError("match.bot_count", found=len(bots), seats=rules.seats)
    partida = Partida(rules)
    times: list[list[float]] = [[] for _ in range(rules.seats)]
    for k in range(MAX_PARTIDA_HANDS):
        hand = partida.deal(seed_for(k))
        _play_out(rules, hand, bots, partida.play, partida.scores, k + 1, times)
        if partida.over:
            break
    return PartidaResult(partida, partida.winner, tuple(tuple(t) for t in times))
