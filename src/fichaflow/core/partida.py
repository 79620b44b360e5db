"""The partida: hands one after another, who leads each, the scores, the target and the end.

A partida is rules + deals + moves: every state is derived from them by replaying. :class:`Partida`
is the one driver of a partida's progress, for every interface (the server's mesas, the terminal
table, bot matches, record replays): they feed it deals (or the seeds deals come from) and moves,
and read from it whose turn it is, who leads each hand (the first hand's sorteo included, drawn
from that hand's seed), when a hand ends (it is scored at once) and when somebody has reached the
target (with zapato and chancleta).

A partida played by time learns that time is up through :meth:`Partida.call_time`, an event a
record stores like a move: from then on the partida ends when the hand in play ends (at once, when
no hand is in play), the higher score winning (:func:`time_winner`); a tie plays one more hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fichaflow.core.deal import Deal, SorteoDraw, sorteo
from fichaflow.core.errors import FichaFlowError, RecordError
from fichaflow.core.hand import Hand, Move
from fichaflow.core.rules import FirstLead, Rules
from fichaflow.core.scoring import HandFacts, HandScore, next_leader_after, score_hand
from fichaflow.core.tiles import COCHINA, HALVES, IS_DOUBLE, NUM_TILES, PIPS, bits


def doble_mayor_rank(tile: int) -> tuple[bool, int, int]:
    """The order ``doble_mayor`` chooses the first salida by: doubles first, then the pip sum,
    then the higher half (so 6-0 beats 5-1 and 4-2)."""
    return IS_DOUBLE[tile], PIPS[tile], HALVES[tile][0]


_RANKED_ABOVE: tuple[int, ...] = tuple(
    sum(1 << u for u in range(NUM_TILES) if doble_mayor_rank(u) > doble_mayor_rank(t))
    for t in range(NUM_TILES)
)


def dealt_to_nobody(rules: Rules, hand_number: int, salida: int) -> int:
    """The tiles (a bit set) that no player can have been dealt, given the tile a hand was (or
    must be) led with: under ``doble_mayor`` the first hand is led with the highest tile dealt to a
    player, so every tile ranked above it went to the montón. Empty everywhere else."""
    if hand_number != 1 or rules.first_lead is not FirstLead.DOBLE_MAYOR:
        return 0
    return _RANKED_ABOVE[salida]


def sorteo_for(rules: Rules, seed: str | None) -> SorteoDraw | None:
    """The sorteo that chooses who leads a partida's first hand, drawn from that hand's seed
    (``core.deal.sorteo``), when the rules ask for one and the hand was dealt from a seed; None
    otherwise (a table's own sorteo, as a record writes it, is told by its ``leader``)."""
    if rules.first_lead is not FirstLead.SORTEO or seed is None:
        return None
    return sorteo(rules.seats, seed)


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """A finished hand: its deal, its play, its score and the totals after it."""

    deal: Deal
    hand: Hand
    score: HandScore
    scores: tuple[int, ...]


def forced_first_lead(rules: Rules, hand_number: int, tiles: int) -> int | None:
    """The tile the rules make the leader of hand ``hand_number`` lead, as the leader knows it
    from its own ``tiles`` (or, for :func:`first_salida`, from every tile dealt): the cochina
    under ``doble_seis``, the highest tile by :func:`doble_mayor_rank` under ``doble_mayor``,
    in the first hand only; None when the leader may lead anything."""
    if hand_number != 1 or rules.first_lead is FirstLead.SORTEO:
        return None
    if rules.first_lead is FirstLead.DOBLE_SEIS:
        return COCHINA
    return max(bits(tiles), key=doble_mayor_rank) if tiles else None


def first_salida(rules: Rules, deal: Deal) -> tuple[int, int] | None:
    """``(seat, tile)`` that must lead the first hand, or None for a sorteo (any tile)."""
    dealt = 0
    for hand in deal.hands:
        dealt |= hand
    tile = forced_first_lead(rules, 1, dealt)
    if tile is None:
        return None
    for seat, hand in enumerate(deal.hands):
        if hand >> tile & 1:
            return seat, tile
    raise RecordError("deal.no_cochina")


class Partida:
    """A partida in progress or finished. Deal each hand with :meth:`deal` (from a seed) or
    :meth:`start_hand` (a deal given whole, as a record has it), move with :meth:`play`; a hand
    that ends is scored at once, and the partida says when it is over."""

    def __init__(self, rules: Rules, players: Sequence[str] | None = None) -> None:
        if players is not None and len(players) != rules.seats:
            raise RecordError("record.players", found=len(players), seats=rules.seats)
        self.rules = rules
        self.players: tuple[str, ...] | None = tuple(players) if players is not None else None
        self.played: list[PlayedHand] = []
        self.scores: tuple[int, ...] = (0,) * rules.teams
        self.current: Hand | None = None
        self.current_deal: Deal | None = None
        self.winner: int | None = None
        self.sorteo: SorteoDraw | None = None
        """The sorteo that chose the first hand's leader, when it was drawn from the hand's seed:
        the winner and every round of tiles turned up (for the table to show)."""
        self.time_up: tuple[int, int] | None = None
        """Where time was called (:meth:`call_time`), as a record writes it: ``(hand, moves)``,
        the hand in play (or the last one ended, between hands) and how many of its written
        moves had been made; None while time is not up."""

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def to_deal(self) -> bool:
        """No hand is in play and the partida goes on: the next hand is waiting to be dealt."""
        return self.current is None and not self.over

    @property
    def turn(self) -> int | None:
        """The seat whose move it is, or None between hands."""
        return None if self.current is None else self.current.turn

    @property
    def hand_number(self) -> int:
        """The number (from 1) of the hand in play, or of the next one to deal."""
        return len(self.played) + (0 if self.current is None and self.over else 1)

    def next_leader(self) -> int | None:
        """Who leads the next hand, or None when the rules leave it to a sorteo."""
        if not self.played:
            return None
        return next_leader_after(self.rules, self.played[-1].score)

    def salida(self, deal: Deal, seed: str | None = None) -> tuple[int | None, int | None]:
        """``(leader, forced tile)`` for a new hand on ``deal`` (dealt from ``seed``, if it was).
        The first hand of a sorteo is led by the winner of the sorteo drawn from ``seed``;
        without a seed the leader is None: whoever held the sorteo must say."""
        if self.played:
            return self.next_leader(), None
        first = first_salida(self.rules, deal)
        if first is not None:
            return first
        drawn = sorteo_for(self.rules, seed)
        return (None if drawn is None else drawn[0]), None

    def deal(self, seed: str, leader: int | None = None) -> Hand:
        """Deal the next hand from ``seed`` (:meth:`Deal.from_seed`); the partida chooses its
        leader, drawing the sorteo from the seed when the rules ask for one. ``leader``, when
        given (a stored partida replayed), must agree."""
        return self._start(Deal.from_seed(self.rules.seats, seed), leader, seed)

    def start_hand(self, deal: Deal, leader: int | None = None) -> Hand:
        """Deal a new hand given whole. ``leader`` is required after a sorteo (the table held it;
        no seed to draw it from) and must agree with the rules otherwise."""
        return self._start(deal, leader, None)

    def _start(self, deal: Deal, leader: int | None, seed: str | None) -> Hand:
        if self.over:
            raise RecordError("record.after_partida", winner=self.winner)
        if self.current is not None:
            raise RecordError("record.hand_unfinished")
        deal.check(self.rules)
        expected, forced = self.salida(deal, seed)
        if expected is None:
            if leader is None:
                raise RecordError("record.leader_needed")
            if not 0 <= leader < self.rules.seats:
                raise RecordError("record.leader_seat", leader=leader, high=self.rules.seats - 1)
            expected = leader
        elif leader is not None and leader != expected:
            raise RecordError("record.leader_mismatch", leader=leader, expected=expected)
        if not self.played:
            self.sorteo = sorteo_for(self.rules, seed)
        self.current = Hand(list(deal.hands), deal.stock, expected, forced)
        self.current_deal = deal
        return self.current

    def play(self, move: Move) -> PlayedHand | None:
        """Make a move in the current hand; returns the scored hand when it ended."""
        if self.current is None:
            raise FichaFlowError("move.no_hand")
        self.current.play(move)
        if self.current.ended:
            return self.finish_hand()
        return None

    def finish_hand(self) -> PlayedHand:
        """Score the ended current hand, add it to the totals and check the target."""
        hand, deal = self.current, self.current_deal
        assert hand is not None and deal is not None and hand.result is not None
        score = score_hand(self.rules, facts_of(hand))
        gains = score.gains(self.rules.teams)
        self.scores = tuple(s + g for s, g in zip(self.scores, gains, strict=True))
        played = PlayedHand(deal, hand, score, self.scores)
        self.played.append(played)
        self.current = self.current_deal = None
        self.winner = self._winner(score)
        return played

    def _winner(self, last: HandScore) -> int | None:
        winner = target_winner(self.rules.target, self.scores, last.winner)
        if winner is None and self.time_up is not None:
            winner = time_winner(self.scores)
        return winner

    def call_time(self) -> tuple[int, int]:
        """Time is up (a partida played by time): the hand in play is finished and then the
        higher score wins; between hands the partida ends at once unless the scores are tied; a
        tie plays one more hand (and another, until a side is ahead). Returns where the call
        came, as :attr:`time_up` keeps it."""
        if self.over:
            raise RecordError("record.time_after_partida", winner=self.winner)
        if self.time_up is not None:
            raise RecordError("record.time_twice", hand=self.time_up[0])
        if self.current is not None:
            where = (len(self.played) + 1, written_moves(self.current))
        elif self.played:
            where = (len(self.played), written_moves(self.played[-1].hand))
        else:
            where = (0, 0)
        self.time_up = where
        if self.current is None and self.played:
            self.winner = time_winner(self.scores)
        return where

    def hands_scored(self, team: int) -> int:
        """In how many hands ``team`` added points (bonuses included)."""
        return sum(1 for p in self.played if p.score.gains(self.rules.teams)[team] > 0)

    @property
    def losers(self) -> tuple[int, ...]:
        return losing_sides(self.rules.teams, self.winner)

    @property
    def zapato(self) -> bool:
        """The partida ended with every losing side at 0 points."""
        return is_zapato(self.scores, self.winner)

    @property
    def chancleta(self) -> bool:
        """The partida ended with every losing side having scored in exactly one hand."""
        scored = [self.hands_scored(t) for t in range(self.rules.teams)]
        return is_chancleta(scored, self.winner)


def target_winner(target: int, scores: Sequence[int], hand_winner: int | None) -> int | None:
    """The side that wins the partida when a hand ends with ``scores``, or None to play on.

    A side wins on reaching ``target``; if several reach it, the higher score, then the side that
    won that hand (``hand_winner``); if that decides nothing, another hand is played."""
    reached = [t for t, s in enumerate(scores) if s >= target]
    if not reached:
        return None
    best = max(scores[t] for t in reached)
    leaders = [t for t in reached if scores[t] == best]
    if len(leaders) == 1:
        return leaders[0]
    return hand_winner if hand_winner in leaders else None


def time_winner(scores: Sequence[int]) -> int | None:
    """The side that wins a partida by time once time is up and no hand is in play: the one
    with the higher score; None when the highest score is shared (one more hand is played).
    The one rule for every table played by time, online or kept in the anotador."""
    best = max(scores)
    leaders = [t for t, s in enumerate(scores) if s == best]
    return leaders[0] if len(leaders) == 1 else None


def written_moves(hand: Hand) -> int:
    """How many moves of ``hand`` a record writes (its draws are left out)."""
    return sum(1 for t in hand.history if not t.move.is_draw)


def losing_sides(teams: int, winner: int | None) -> tuple[int, ...]:
    """Every side but the winner (none while the partida goes on)."""
    if winner is None:
        return ()
    return tuple(t for t in range(teams) if t != winner)


def is_zapato(scores: Sequence[int], winner: int | None) -> bool:
    """Zapato: the partida ended with every losing side at 0 points."""
    losers = losing_sides(len(scores), winner)
    return bool(losers) and all(scores[t] == 0 for t in losers)


def is_chancleta(hands_scored: Sequence[int], winner: int | None) -> bool:
    """Chancleta: every losing side scored in exactly one hand (``hands_scored`` per side)."""
    losers = losing_sides(len(hands_scored), winner)
    return bool(losers) and all(hands_scored[t] == 1 for t in losers)


def facts_of(hand: Hand) -> HandFacts:
    """The facts of a hand the engine played, for the scorekeeper."""
    result = hand.result
    assert result is not None
    return HandFacts(
        end=result.kind,
        seat=result.seat,
        pips=hand.pips(),
        leader=hand.leader,
        capicua=result.capicua,
        chuchazo=result.chuchazo,
        pase_redondo=tuple(hand.pase_redondo),
        salida_pasada=hand.salida_pasada,
    )
