"""Whole partidas at the terminal table: a scripted person against cheap bots in every mode, and
what the screen tells them.

Each check restates something a player at the table would notice, from the facts of the play
(the engine's history), not from the screen's own code: every pass is announced with the ends it
faced, every tile the person drew is shown to them, the end they chose is where their tile went,
and each hand's summary and the partida's end are on screen."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fichaflow.bots.base import Bot
from fichaflow.core import record
from fichaflow.core.explain import explain
from fichaflow.core.hand import Move
from fichaflow.core.partida import Partida
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import HALVES, name
from fichaflow.core.view import SeatView
from fichaflow.tui.table import BotPlayer, Table
from tests.tui.scripted import Played, play_scripted


class Silent:
    """An observer that watches nothing (for tables with no person)."""

    def sorteo(self, *args: object) -> None: ...
    def hand_started(self, *args: object) -> None: ...
    def turn(self, *args: object) -> None: ...
    def moved(self, *args: object) -> None: ...
    def hand_ended(self, *args: object) -> None: ...
    def partida_ended(self, *args: object) -> None: ...


def announced_passes(played: Played) -> list[str]:
    """The sentence a table says for every pass of the partida: "Beto pasó a 4 y 1."."""
    out = []
    for hand in (p.hand for p in played.partida.played):
        for turn in hand.history:
            if turn.move.is_pass:
                who = played.names[turn.seat]
                if turn.left == turn.right:
                    out.append(f"{who} pasó a {turn.left}.")
                else:
                    out.append(f"{who} pasó a {turn.left} y {turn.right}.")
    return out


def check_partida(played: Played) -> None:
    partida, output = played.partida, played.output
    rules = partida.rules
    # the partida was played to its end, and its winner is on screen
    assert partida.over and partida.winner is not None
    assert partida.scores[partida.winner] >= rules.target
    assert "Gana la partida:" in output
    winner_names = [played.names[s] for s in rules.seats_of(partida.winner)]
    winner_line = next(line for line in output.splitlines() if "Gana la partida:" in line)
    assert all(n in winner_line for n in winner_names)
    assert ("¡Zapato!" in output) == partida.zapato
    assert ("¡Chancleta!" in output) == (partida.chancleta and not partida.zapato)
    # every hand has its summary, in the rule's own words
    for number, hand in enumerate(partida.played, 1):
        assert f"Fin de la mano {number}" in output
        for sentence in explain(rules, hand.score, played.names, "es"):
            assert sentence in output
    # the anotador's last totals are the partida's scores, the person's own side first
    own = rules.team_of(played.person.seat)
    expected = [partida.scores[own]] + [s for t, s in enumerate(partida.scores) if t != own]
    totals = [line.split() for line in output.splitlines() if line.strip().startswith("Total")]
    assert [int(x) for x in totals[-1][1:]] == expected
    # every pass is announced with the ends it faced
    for sentence in announced_passes(played):
        assert sentence in output
    # each tile the person drew was shown to them, and no bot's drawn tile was
    person = played.person.seat
    own_draws = [
        turn.drawn
        for hand in (p.hand for p in partida.played)
        for turn in hand.history
        if turn.move.is_draw and turn.seat == person
    ]
    for tile in own_draws:
        assert f"Robaste {name(tile)}." in output
    assert output.count("Robaste ") == len(own_draws)
    # the end the person chose is where the tile went
    for number, tile, end in played.person.plan.end_choices:
        chosen_in = partida.played[number - 1].hand
        turn = next(t for t in chosen_in.history if t.seat == person and t.move.tile == tile)
        assert turn.move == Move(tile, end)
        assert turn.left in HALVES[tile] and turn.right in HALVES[tile]


def test_parejas_dominicana_to_its_target():
    played = play_scripted(Rules.make("dominicana"), seed="parejas-1", seat=2)
    check_partida(played)
    done = played.person.plan.done
    assert done["agachado"] == 1 and done["end_choice"] >= 1 and done["pass"] >= 1
    output = played.output
    assert "pasar agachado no se permite" in output
    assert "«arriba» no es un extremo" in output
    assert "No hay ficha número 99" in output
    assert "No entiendo «hola»" in output
    # partners sit opposite: the person at seat 2 plays with seat 0
    assert f"{played.names[0]} (compañero)" in output
    assert "Bot tirapuntos: " in output
    assert "Nosotros" in output and "Ellos" in output


def test_bonuses_are_told_apart_from_the_pips():
    rules = Rules.make(
        "venezuela", tranque_bonus=25, pase_redondo_bonus=10, salida_pasada_bonus=5, target=150
    )
    played = play_scripted(rules, seed="bonos-1", seat=3)
    check_partida(played)
    bonuses = [b for p in played.partida.played for b in p.score.bonuses]
    assert bonuses, "this seed's partida earns at least one bonus"
    bonus_lines = [line for line in played.output.splitlines() if "Bono de" in line]
    assert len(bonus_lines) >= len(bonuses)


def test_mano_a_mano_with_draws():
    played = play_scripted(Rules.make("mano_a_mano", target=60), seed="1v1-3")
    check_partida(played)
    done = played.person.plan.done
    assert done["draw"] >= 1 and done["end_choice"] >= 1 and done["agachado"] == 1
    assert "Montón:" in played.output
    assert re.search(r"\d+ no puede pasar: .* \(pasar agachado no se permite\)", played.output)


def test_tres_with_draws_and_a_pass():
    played = play_scripted(Rules.make("tres", target=60), seed="tres-0", seat=1)
    check_partida(played)
    done = played.person.plan.done
    assert done["draw"] >= 1 and done["pass"] >= 1 and done["end_choice"] >= 1


def test_sorteo_decides_the_first_leader_on_screen():
    played = play_scripted(Rules.make("venezuela", first_lead="sorteo", target=40), seed="so")
    check_partida(played)
    leader = played.names[played.partida.played[0].hand.leader]
    assert "Sorteo:" in played.output
    assert f"Sale {leader}, con la ficha que quiera." in played.output


def test_the_same_seed_plays_the_same_partida():
    first = play_scripted(Rules.make("tres", target=40), seed="same")
    again = play_scripted(Rules.make("tres", target=40), seed="same")
    other = play_scripted(Rules.make("tres", target=40), seed="other")
    assert first.output == again.output
    assert first.partida.played[0].deal != other.partida.played[0].deal


def test_a_name_is_shown_as_written_even_with_brackets():
    odd = "[/]Ana [bold]:smile:"
    played = play_scripted(Rules.make("tres", target=20), seed="name", name=odd)
    check_partida(played)
    assert f"{odd} (tú)" in played.output
    assert f"{odd}, te toca." in played.output


def test_in_english():
    played = play_scripted(Rules.make("mano_a_mano", target=30), seed="en", lang="en")
    assert "End of hand 1" in played.output
    assert "wins the partida" in played.output
    for hand in played.partida.played:
        for sentence in explain(played.partida.rules, hand.score, played.names, "en"):
            assert sentence in played.output


class SpyBot(Bot):
    """Plays the first legal move and keeps every view it was given."""

    name = "spy"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.views: list[SeatView] = []

    def choose(self, view: SeatView) -> Move:
        self.views.append(view)
        return view.legal[0]


@pytest.mark.parametrize("preset", ["venezuela", "mano_a_mano", "tres"])
def test_bots_see_only_their_seat(preset: str) -> None:
    rules = Rules.make(preset, target=30)
    bots = [SpyBot() for _ in range(rules.seats)]
    seen_hands: list[tuple[int, int]] = []

    class Check(BotPlayer):
        def choose(self, view: SeatView) -> Move:
            assert isinstance(view, SeatView)
            hand = table.partida.current
            assert hand is not None and view.seat == hand.turn
            assert view.tiles == hand.hands[view.seat]  # its own tiles, nobody else's
            assert view.revealed is None and not view.ended
            seen_hands.append((view.seat, view.tiles))
            return super().choose(view)

    table = Table(
        rules, [Check(b) for b in bots], ["A", "B", "C", "D"][: rules.seats], "s", Silent()
    )
    partida = table.run()
    assert partida.over
    for seat, bot in enumerate(bots):
        assert bot.views and all(v.seat == seat for v in bot.views)
    assert {s for s, _ in seen_hands} == set(range(rules.seats))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(["venezuela", "dominicana", "mano_a_mano", "tres"]),
    st.text(min_size=1, max_size=6),
    st.integers(0, 3),
)
def test_any_seed_and_seat_play_to_the_end(preset: str, seed: str, seat: int) -> None:
    rules = Rules.make(preset, target=30)
    played = play_scripted(rules, seed=seed, seat=seat % rules.seats)
    check_partida(played)


def test_a_partida_record_of_the_table_replays():
    """What was played at the table is a valid game record (the engine agrees move by move)."""
    played = play_scripted(Rules.make("tres", target=40), seed="rec")
    again: Partida = record.replay(record.loads(record.dumps(played.partida)))
    assert again.scores == played.partida.scores
    assert again.winner == played.partida.winner
