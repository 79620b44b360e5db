"""jugador plays like a player who counts: measured on the positions it meets in its own games,
against what a random choice among the same legal moves would do."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from fichaflow.bots.jugador import DEFAULT_WEIGHTS, Jugador
from fichaflow.bots.ladder import make_bot
from fichaflow.core import inference as kn
from fichaflow.core.deal import Deal
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import End, Hand, Move
from fichaflow.core.partida import facts_of
from fichaflow.core.rules import Rules
from fichaflow.core.scoring import score_hand
from fichaflow.core.tiles import HALVES, IS_DOUBLE, PIPS, SUIT
from fichaflow.core.view import hand_view


@dataclass
class Habit:
    """How often jugador chose a move of some kind, and how often chance would have."""

    cases: int = 0
    chosen: int = 0
    chance: float = 0.0
    extra: list[float] = field(default_factory=list)

    def add(self, kind: list[Move], legal: list[Move], move: Move) -> None:
        self.cases += 1
        self.chosen += move in kind
        self.chance += len(kind) / len(legal)

    @property
    def rate(self) -> float:
        return self.chosen / self.cases

    @property
    def random_rate(self) -> float:
        return self.chance / self.cases


def observe(preset: str, hands: int) -> dict[str, Habit]:
    rules = Rules.make(preset)
    habits = {k: Habit() for k in ("block", "partner", "salida", "win_tranque", "lose_tranque")}
    for number in range(hands):
        deal = Deal.from_seed(rules.seats, f"habits:{number}")
        hand = Hand(list(deal.hands), deal.stock, number % rules.seats)
        bots = [make_bot("jugador", s) for s in range(rules.seats)]
        while not hand.ended:
            legal = hand.legal_moves()
            seat = hand.turn
            if len(legal) == 1:
                hand.play(legal[0])
                continue
            view = hand_view(rules, hand, seat, hand_number=2)
            move = bots[seat].choose(view)
            know = kn.deduce(view)
            if hand.left < 0:
                counts = [(hand.hands[seat] & SUIT[n]).bit_count() for n in range(7)]
                strong = [m for m in legal if max(counts[h] for h in HALVES[m.tile]) == max(counts)]
                if len(strong) < len(legal):
                    habits["salida"].add(strong, legal, move)
            else:
                nxt = (seat + 1) % rules.seats
                block = [
                    m
                    for m in legal
                    if not kn.closes(view, m)
                    and all(know.surely_lacks(nxt, e) for e in kn.ends_after(view, m))
                ]
                if 0 < len(block) < len(legal):
                    habits["block"].add(block, legal, move)
                partner = kn.partner(rules, seat)
                said = kn.announced(view)[partner] if partner is not None else 0
                if said.bit_count() == 1 and hand.left != hand.right:
                    number_ = said.bit_length() - 1
                    cover = [
                        m
                        for m in legal
                        if (hand.left if m.end is End.LEFT else hand.right) == number_
                        and not IS_DOUBLE[m.tile]
                    ]
                    if 0 < len(cover) < len(legal):
                        habits["partner"].add(cover, legal, move)
                closing = [m for m in legal if kn.closes(view, m)]
                if 0 < len(closing) < len(legal):
                    trial = hand.copy()
                    trial.play(closing[0])
                    winner = score_hand(rules, facts_of(trial)).winner
                    key = "win_tranque" if winner == rules.team_of(seat) else "lose_tranque"
                    habits[key].add(closing, legal, move)
            hand.play(move)
    return habits


@pytest.fixture(scope="module")
def venezuela() -> dict[str, Habit]:
    return observe("venezuela", 500)


def test_it_plays_onto_numbers_the_next_rival_lacks(venezuela: dict[str, Habit]) -> None:
    block = venezuela["block"]
    assert block.cases >= 100
    assert block.rate >= 0.65 and block.rate >= 1.5 * block.random_rate


def test_it_does_not_kill_its_partners_number(venezuela: dict[str, Habit]) -> None:
    partner = venezuela["partner"]
    assert partner.cases >= 100
    assert partner.rate <= 0.5 * partner.random_rate


def test_it_leads_from_its_strong_number(venezuela: dict[str, Habit]) -> None:
    salida = venezuela["salida"]
    assert salida.cases >= 100
    assert salida.rate >= salida.random_rate + 0.1


def test_it_counts_before_closing_the_line(venezuela: dict[str, Habit]) -> None:
    win, lose = venezuela["win_tranque"], venezuela["lose_tranque"]
    assert win.cases >= 30 and lose.cases >= 30
    assert win.rate >= 0.7  # it takes most tranques it wins on the true count
    assert lose.rate <= lose.random_rate  # and no more losing ones than chance would
    assert win.rate - lose.rate >= 0.35


def test_it_sheds_heavy_tiles_and_doubles() -> None:
    """Heavier than chance early in the hand and still when a rival is about to dominate (where
    making that rival pass comes first); doubles out early."""
    rules = Rules.make("venezuela")
    rng = random.Random(4)
    pips = {"early": [0, 0.0, 0], "danger": [0, 0.0, 0]}
    doubles = Habit()
    for number in range(300):
        deal = Deal.from_seed(4, f"heavy:{number}")
        hand = Hand(list(deal.hands), (), number % 4)
        while not hand.ended:
            legal = hand.legal_moves()
            seat = hand.turn
            plays = [m for m in legal if m.is_play]
            rivals_left = min(hand.counts()[s] for s in range(4) if s % 2 != seat % 2)
            phase = "danger" if rivals_left <= 2 else "early" if min(hand.counts()) >= 5 else ""
            if len(plays) > 1 and hand.left >= 0 and phase:
                move = Jugador(number).choose(hand_view(rules, hand, seat, hand_number=2))
                tally = pips[phase]
                tally[0] += PIPS[move.tile]
                tally[1] += sum(PIPS[m.tile] for m in plays) / len(plays)
                tally[2] += 1
                two = [m for m in plays if IS_DOUBLE[m.tile]]
                if phase == "early" and 0 < len(two) < len(plays):
                    doubles.add(two, plays, move)
            hand.play(rng.choice(legal))
    early, danger = pips["early"], pips["danger"]
    assert early[2] >= 500 and danger[2] >= 300
    assert early[0] / early[2] >= early[1] / early[2] + 0.4
    assert danger[0] / danger[2] > danger[1] / danger[2]
    assert doubles.cases >= 100 and doubles.rate >= doubles.random_rate + 0.1


def test_a_seed_fixes_every_choice() -> None:
    rules = Rules.make("tres")
    for number in range(20):
        deal = Deal.from_seed(3, f"seed:{number}")
        games = []
        for _ in range(2):
            hand = Hand(list(deal.hands), deal.stock, number % 3)
            bots = [Jugador(100 + s) for s in range(3)]
            while not hand.ended:
                legal = hand.legal_moves()
                view = hand_view(rules, hand, hand.turn, hand_number=2)
                hand.play(legal[0] if len(legal) == 1 else bots[hand.turn].choose(view))
            games.append([t.notation() for t in hand.history])
        assert games[0] == games[1]


def test_unknown_weights_are_refused_by_name() -> None:
    with pytest.raises(FichaFlowError) as caught:
        make_bot("jugador", 0, weights={"suerte": 1.0})
    assert caught.value.code == "bot.option" and "suerte" in caught.value.message()
    assert Jugador(0, weights={"pips": 2.0}).weights["pips"] == 2.0
    assert set(Jugador(0).weights) == set(DEFAULT_WEIGHTS)
