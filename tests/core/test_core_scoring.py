"""The scorekeeper's arithmetic against the contract and the seeds: dominada counts, tranque rules
and ties, individual modes, every bonus credited apart, and who leads next."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.explain import explain
from fichaflow.core.hand import EndKind
from fichaflow.core.rules import Rules
from fichaflow.core.scoring import HandFacts, HandScore, next_leader_after, score_hand
from tests.core.kit import oracle_score, play_tokens, start, team
from tests.core.scenarios import TRANQUE_MOVES, tranque_deal, tranque_pips

DOMINO, TRANQUE = EndKind.DOMINO, EndKind.TRANQUE


def scored(preset: str, end: EndKind, seat: int, pips: tuple[int, ...], **kw: object) -> HandScore:
    overrides = {k: v for k, v in kw.items() if k not in HandFacts.__slots__}
    facts_kw = {k: v for k, v in kw.items() if k in HandFacts.__slots__}
    leader = facts_kw.pop("leader", 0)
    facts = HandFacts(end, seat, pips, leader, **facts_kw)  # type: ignore[arg-type]
    return score_hand(Rules.make(preset, **overrides), facts)


# -- the seed's example ---------------------------------------------------------------------------


def test_the_seed_example_abajo_scores_40_and_no_bonus() -> None:
    """A trancó with 8, B (next) has 11, C 7, D 14: A wins, A-C scores 8+11+7+14 = 40."""
    result = scored("dominicana", TRANQUE, 0, (8, 11, 7, 14))
    assert result.rule == "abajo"
    assert result.winner == 0
    assert result.winning_seat == 0
    assert result.points == 40
    assert result.bonus == 0
    assert result.bonuses == ()
    assert result.gains(2) == (40, 0)
    assert result.compared == ((0, 8), (1, 11))
    text = " ".join(explain(Rules.make("dominicana"), result))
    assert "8 + 11 + 7 + 14 = 40" in text
    assert "Bono de tranque: 0" in text


@pytest.mark.parametrize("closer", range(4))
def test_the_seed_example_from_every_seat(closer: int) -> None:
    pips = [0, 0, 0, 0]
    for offset, value in enumerate((8, 11, 7, 14)):  # A, B (next), C, D
        pips[(closer + offset) % 4] = value
    result = scored("dominicana", TRANQUE, closer, tuple(pips))
    assert result.winner == closer % 2
    assert result.points == 40
    assert result.compared == ((closer, 8), ((closer + 1) % 4, 11))


# -- dominada -------------------------------------------------------------------------------------


def test_venezuela_dominada_counts_only_the_rival_pair() -> None:
    # seat 0 dominó; its partner (seat 2) still holds 20, which does not count
    result = scored("venezuela", DOMINO, 0, (0, 10, 20, 5))
    assert (result.winner, result.points) == (0, 15)
    assert result.counted == (1, 3)


@pytest.mark.parametrize("preset", ["zulia", "dominicana", "internacional"])
def test_dominada_counting_all_hands(preset: str) -> None:
    result = scored(preset, DOMINO, 3, (12, 10, 20, 0))
    assert (result.winner, result.points) == (1, 42)


@pytest.mark.parametrize(
    ("preset", "pips", "seat"), [("mano_a_mano", (0, 23), 0), ("tres", (9, 0, 14), 1)]
)
def test_individual_dominada_scores_every_other_player(
    preset: str, pips: tuple[int, ...], seat: int
) -> None:
    result = scored(preset, DOMINO, seat, pips)
    assert result.winner == seat
    assert result.points == sum(pips)
    assert result.gains(len(pips))[seat] == sum(pips)


# -- tranque in parejas ---------------------------------------------------------------------------


def test_venezuela_tranque_the_lower_pair_scores_the_other_pairs_pips() -> None:
    # pairs: 0+2 = 10+15 = 25, 1+3 = 5+30 = 35
    result = scored("venezuela", TRANQUE, 1, (10, 5, 15, 30))
    assert result.rule == "pareja"
    assert (result.winner, result.points) == (0, 35)
    assert result.compared == ((0, 25), (1, 35))


def test_venezuela_tranque_tie_nobody_scores() -> None:
    result = scored("venezuela", TRANQUE, 1, (10, 5, 15, 20))
    assert result.tie
    assert result.winner is None
    assert result.points == 0
    assert result.gains(2) == (0, 0)


def test_zulia_tranque_counts_both_pairs() -> None:
    result = scored("zulia", TRANQUE, 1, (10, 5, 15, 30))
    assert (result.winner, result.points) == (0, 60)


@pytest.mark.parametrize(("leader", "team_wins"), [(0, 0), (1, 1), (2, 0), (3, 1)])
def test_pareja_tie_with_salida_goes_to_the_pair_that_led(leader: int, team_wins: int) -> None:
    result = scored("dominicana_parejas", TRANQUE, 1, (10, 5, 15, 20), leader=leader)
    assert result.tie
    assert result.winner == team_wins
    assert result.points == 50  # count all


def test_abajo_the_next_player_can_win_against_the_trancador() -> None:
    result = scored("dominicana", TRANQUE, 2, (5, 9, 12, 11))
    assert result.compared == ((2, 12), (3, 11))
    assert (result.winner, result.winning_seat, result.points) == (1, 3, 37)


def test_abajo_a_tie_goes_to_the_trancador() -> None:
    result = scored("dominicana", TRANQUE, 3, (9, 0, 0, 9))  # seat 3 against seat 0, wrapping
    assert result.compared == ((3, 9), (0, 9))
    assert result.tie
    assert (result.winner, result.winning_seat, result.points) == (1, 3, 18)


def test_abajo_ignores_the_partners_pips() -> None:
    # pairs would say team 1 (5+1 < 0+40) but the trancador (seat 0, 0) beats seat 1 (5)
    result = scored("dominicana", TRANQUE, 0, (0, 5, 40, 1))
    assert (result.winner, result.points) == (0, 46)


@pytest.mark.parametrize("tie", ["nadie", "salida"])
def test_abajo_tie_ignores_tranque_tie(tie: str) -> None:
    result = scored("dominicana", TRANQUE, 1, (1, 7, 7, 1), tranque_tie=tie, leader=0)
    assert result.winner == 1


def test_abajo_with_rivals_count_scores_the_losing_pair() -> None:
    result = scored("dominicana", TRANQUE, 0, (8, 11, 7, 14), tranque_count="rivals")
    assert (result.winner, result.points) == (0, 25)


# -- tranque in the individual modes --------------------------------------------------------------


@pytest.mark.parametrize("rule", ["pareja", "abajo"])
def test_individual_tranque_the_fewest_pips_win_whatever_tranque_rule_says(rule: str) -> None:
    result = scored("tres", TRANQUE, 0, (12, 5, 9), tranque_rule=rule)
    assert result.rule == "individual"
    assert (result.winner, result.points) == (1, 21)
    result = scored("tres", TRANQUE, 0, (12, 5, 9), tranque_rule=rule, tranque_count="all")
    assert (result.winner, result.points) == (1, 26)


def test_mano_a_mano_tranque() -> None:
    result = scored("mano_a_mano", TRANQUE, 1, (5, 9))
    assert (result.winner, result.points) == (0, 9)
    result = scored("mano_a_mano", TRANQUE, 1, (9, 9))
    assert result.winner is None


@pytest.mark.parametrize(
    ("tie", "leader", "winner"),
    [
        ("nadie", 0, None),
        ("nadie", 1, None),
        ("salida", 0, 0),
        ("salida", 1, 1),
        ("salida", 2, None),
    ],
)
def test_individual_tie_for_fewest_goes_per_tranque_tie(
    tie: str, leader: int, winner: int | None
) -> None:
    result = scored("tres", TRANQUE, 2, (6, 6, 20), tranque_tie=tie, leader=leader)
    assert result.tie
    assert result.winner == winner
    assert result.points == (26 if winner is not None else 0)


# -- bonuses --------------------------------------------------------------------------------------


def test_the_tranque_bonus_goes_to_the_winner_apart_from_the_pips() -> None:
    result = scored("dominicana", TRANQUE, 0, (8, 11, 7, 14), tranque_bonus=25)
    assert result.points == 40
    assert result.bonus == 25
    assert [(b.kind, b.team, b.points) for b in result.bonuses] == [("tranque_bonus", 0, 25)]
    assert result.gains(2) == (65, 0)
    as_json = result.to_json(2)
    assert (as_json["points"], as_json["bonus"], as_json["gains"]) == (40, 25, [65, 0])
    assert "Bono de tranque: 25" in " ".join(
        explain(Rules.make("dominicana", tranque_bonus=25), result)
    )


def test_no_tranque_bonus_when_nobody_wins_the_tranque() -> None:
    result = scored("venezuela", TRANQUE, 1, (10, 5, 15, 20), tranque_bonus=25)
    assert result.bonuses == ()
    assert result.gains(2) == (0, 0)


def test_capicua_and_chuchazo_bonuses_go_to_the_team_that_dominated() -> None:
    result = scored(
        "venezuela", DOMINO, 1, (4, 0, 6, 8), capicua=True, chuchazo=True,
        capicua_bonus=30, chuchazo_bonus=50,
    )  # fmt: skip
    assert result.points == 10
    kinds = {(b.kind, b.team, b.points) for b in result.bonuses}
    assert kinds == {("capicua_bonus", 1, 30), ("chuchazo_bonus", 1, 50)}
    assert result.gains(2) == (0, 90)


def test_a_capicua_scores_nothing_extra_by_default() -> None:
    result = scored("venezuela", DOMINO, 1, (4, 0, 6, 8), capicua=True)
    assert result.bonuses == ()
    assert result.gains(2) == (0, 10)
    assert "¡Capicúa!" in explain(Rules.make("venezuela"), result)


def test_salida_pasada_goes_to_the_leaders_team_even_if_the_other_team_wins() -> None:
    result = scored(
        "venezuela", DOMINO, 1, (4, 0, 6, 8), leader=2, salida_pasada=True,
        salida_pasada_bonus=20,
    )  # fmt: skip
    assert [(b.kind, b.team) for b in result.bonuses] == [("salida_pasada_bonus", 0)]
    assert result.gains(2) == (20, 10)


def test_each_pase_redondo_is_credited_to_that_players_team() -> None:
    result = scored(
        "venezuela", DOMINO, 0, (0, 3, 6, 8), pase_redondo=(1, 3, 2), pase_redondo_bonus=10
    )
    assert sorted((b.team, b.points) for b in result.bonuses) == [(0, 10), (1, 10), (1, 10)]
    assert result.gains(2) == (11 + 10, 20)


def test_bonuses_are_credited_when_nobody_wins_the_hand() -> None:
    result = scored(
        "venezuela", TRANQUE, 1, (10, 5, 15, 20), leader=3, salida_pasada=True,
        pase_redondo=(0,), salida_pasada_bonus=7, pase_redondo_bonus=11, tranque_bonus=25,
    )  # fmt: skip
    assert result.winner is None
    assert result.points == 0
    assert result.gains(2) == (11, 7)
    assert result.bonus == 18


def test_individual_bonuses_go_to_the_seat() -> None:
    result = scored(
        "tres", TRANQUE, 2, (6, 6, 20), leader=1, salida_pasada=True, pase_redondo=(2,),
        salida_pasada_bonus=7, pase_redondo_bonus=11,
    )  # fmt: skip
    assert result.winner is None
    assert result.gains(3) == (0, 7, 11)


# -- facts that cannot come from a hand -----------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "end", "seat", "pips", "extra", "code"),
    [
        ("venezuela", TRANQUE, 0, (1, 2, 3), {}, "score.pips_count"),
        ("tres", TRANQUE, 0, (1, 2, 3, 4), {}, "score.pips_count"),
        ("venezuela", TRANQUE, 0, (1, 2, 3, 169), {}, "score.pips_value"),
        ("venezuela", TRANQUE, 0, (100, 2, 3, 64), {}, "score.pips_total"),
        ("venezuela", TRANQUE, 4, (1, 2, 3, 4), {}, "score.seat"),
        ("venezuela", TRANQUE, 0, (1, 2, 3, 4), {"leader": 4}, "score.seat"),
        ("venezuela", DOMINO, 0, (5, 2, 3, 4), {}, "score.domino_pips"),
        ("venezuela", TRANQUE, 0, (1, 2, 3, 4), {"capicua": True}, "score.capicua_tranque"),
        ("venezuela", DOMINO, 0, (0, 2, 3, 4), {"pase_redondo": (9,)}, "score.seat"),
    ],
)
def test_impossible_facts_are_refused(
    preset: str, end: EndKind, seat: int, pips: tuple[int, ...], extra: dict[str, object], code: str
) -> None:
    with pytest.raises(FichaFlowError) as caught:
        scored(preset, end, seat, pips, **extra)
    assert caught.value.code == code


# -- the engine's own hands are scored the same way -----------------------------------------------


@pytest.mark.parametrize(
    ("preset", "fillers", "winner", "points"),
    [
        ("dominicana", "A", 1, 90),  # abajo: trancador 7 against 21
        ("venezuela", "A", 1, 52),  # pairs 31+21 = 52 against 7+31 = 38: rivals' 52
        ("zulia", "A", 1, 90),
        ("dominicana", "B", 0, 90),  # abajo: seat 2 (16) beats the trancador (17)
        ("venezuela", "B", 1, 46),  # pairs 30+16 = 46 against 17+27 = 44
        ("dominicana", "C", 1, 90),  # abajo: 27 = 27, the trancador wins
        ("internacional", "C", 0, 90),  # pairs 14+27 = 41 against 27+22 = 49
        ("venezuela", "D", None, 0),  # pairs 45 = 45: nobody
        ("dominicana_parejas", "D", 0, 90),  # 45 = 45: the pair that led (seat 0)
    ],
)
def test_the_scripted_tranque_is_scored_by_the_table_rules(
    preset: str, fillers: str, winner: int | None, points: int
) -> None:
    partida, hand = start(Rules.make(preset), tranque_deal(fillers))
    play_tokens(partida, TRANQUE_MOVES)
    assert hand.pips() == tranque_pips(fillers)
    score = partida.played[-1].score
    assert score.facts.end is TRANQUE
    assert score.facts.seat == 1
    assert (score.winner, score.points) == (winner, points)
    assert partida.scores == tuple(points if t == winner else 0 for t in range(2))


# -- who leads the next hand ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fillers", "leader"),
    [
        ("A", 1),  # team 1 won: seat 1 (7) has fewer pips than seat 3 (31)
        ("E3", 3),  # team 1 won: seat 3 (16) has fewer than seat 1 (25)
        ("E1", 1),  # team 1 won, seats 1 and 3 both 21: the trancador comes first
        ("E2", 2),  # team 0 won, seats 0 and 2 both 19: after the trancador (1) comes 2
        ("B", 2),  # team 0 won: seat 2 (16) has fewer than seat 0 (30)
    ],
)
def test_ganador_after_a_tranque(fillers: str, leader: int) -> None:
    partida, _ = start(Rules.make("dominicana"), tranque_deal(fillers))
    play_tokens(partida, TRANQUE_MOVES)
    assert partida.next_leader() == leader
    assert partida.start_hand(tranque_deal(fillers, by=leader)).leader == leader


def test_ganador_after_a_hand_nobody_scored_keeps_the_leader() -> None:
    rules = Rules.make("venezuela", next_lead="ganador", salida_pasada_bonus=5)
    partida, _ = start(rules, tranque_deal("D"))
    play_tokens(partida, TRANQUE_MOVES)
    assert partida.played[-1].score.winner is None
    assert partida.next_leader() == 0


def test_rotacion_passes_the_lead_to_the_right() -> None:
    partida, _ = start(Rules.make("venezuela", target=500), tranque_deal("A"))
    play_tokens(partida, TRANQUE_MOVES)
    for leader in (1, 2, 3, 0, 1):
        assert partida.next_leader() == leader
        partida.start_hand(tranque_deal("A", by=leader))
        play_tokens(partida, TRANQUE_MOVES)


def test_ganador_after_a_dominada_is_the_one_who_dominated() -> None:
    result = scored("dominicana", DOMINO, 3, (5, 10, 8, 0), leader=1)
    assert next_leader_after(Rules.make("dominicana"), result) == 3
    result = scored("tres", DOMINO, 2, (5, 10, 0), leader=1)
    assert next_leader_after(Rules.make("tres"), result) == 2


# -- every table, every hand: the contract restated -----------------------------------------------

PRESETS = ("venezuela", "zulia", "dominicana", "dominicana_parejas", "internacional", "pagat")


@st.composite
def rules_and_facts(draw: st.DrawFn) -> tuple[Rules, HandFacts]:
    preset = draw(st.sampled_from([*PRESETS, "mano_a_mano", "tres"]))
    overrides: dict[str, object] = {
        "domino_count": draw(st.sampled_from(["rivals", "all"])),
        "tranque_rule": draw(st.sampled_from(["pareja", "abajo"])),
        "tranque_tie": draw(st.sampled_from(["nadie", "salida"])),
        "tranque_count": draw(st.sampled_from(["rivals", "all"])),
        "next_lead": draw(st.sampled_from(["rotacion", "ganador"])),
    }
    for bonus in ("tranque", "capicua", "pase_redondo", "salida_pasada", "chuchazo"):
        overrides[f"{bonus}_bonus"] = draw(st.sampled_from([0, 0, 5, 25]))
    rules = Rules.make(preset, **overrides)
    n = rules.seats
    end = draw(st.sampled_from([DOMINO, TRANQUE]))
    seat = draw(st.integers(0, n - 1))
    pips = draw(st.lists(st.integers(0, 40), min_size=n, max_size=n))
    if end is DOMINO:
        pips[seat] = 0
    if draw(st.booleans()):  # make ties likely
        pips[(seat + 1) % n] = pips[seat] if end is TRANQUE else pips[(seat + 2) % n]
    domino = end is DOMINO
    facts = HandFacts(
        end,
        seat,
        tuple(pips),
        draw(st.integers(0, n - 1)),
        capicua=domino and draw(st.booleans()),
        chuchazo=domino and draw(st.booleans()),
        pase_redondo=tuple(draw(st.lists(st.integers(0, n - 1), max_size=3))),
        salida_pasada=draw(st.booleans()),
    )
    return rules, facts


@settings(max_examples=600)
@given(rules_and_facts())
def test_scoring_matches_the_contract(case: tuple[Rules, HandFacts]) -> None:
    rules, facts = case
    result = score_hand(rules, facts)
    winner, points, gains = oracle_score(rules, facts)
    assert result.winner == winner
    assert result.points == points
    assert list(result.gains(rules.teams)) == gains
    assert result.bonus == sum(gains) - points
    if winner is not None and result.winning_seat is not None:
        assert team(rules, result.winning_seat) == winner


@settings(max_examples=400)
@given(rules_and_facts())
def test_the_next_leader_matches_the_contract(case: tuple[Rules, HandFacts]) -> None:
    rules, facts = case
    result = score_hand(rules, facts)
    n = rules.seats
    if rules.next_lead == "rotacion":
        expected = (facts.leader + 1) % n
    elif result.winner is None:
        expected = facts.leader
    elif facts.end is DOMINO:
        expected = facts.seat
    else:
        mates = [s for s in range(n) if team(rules, s) == result.winner]
        fewest = min(facts.pips[s] for s in mates)
        in_turn = [(facts.seat + i) % n for i in range(n)]
        expected = next(s for s in in_turn if s in mates and facts.pips[s] == fewest)
    assert next_leader_after(rules, result) == expected


@settings(max_examples=400)
@given(rules_and_facts())
def test_an_idle_option_changes_no_score(case: tuple[Rules, HandFacts]) -> None:
    """What the rules call idle (the waiting room leaves it out) decides nothing: any other value
    of it scores every hand, and names the next leader, the same."""
    rules, facts = case
    result = score_hand(rules, facts)
    others = {"tranque_rule": ("pareja", "abajo"), "tranque_tie": ("nadie", "salida")}
    for option in rules.idle_options():
        for value in others[option]:
            options = {k: v for k, v in rules.dump().items() if k != "preset"}
            changed = Rules.make(rules.preset, **{**options, option: value})
            again = score_hand(changed, facts)
            assert again.gains(rules.teams) == result.gains(rules.teams)
            assert again.winning_seat == result.winning_seat
            assert next_leader_after(changed, again) == next_leader_after(rules, result)


def test_the_options_a_mode_never_consults() -> None:
    assert Rules.make("tres").idle_options() == ("tranque_rule",)
    assert Rules.make("mano_a_mano").idle_options() == ("tranque_rule",)
    assert Rules.make("dominicana").idle_options() == ("tranque_tie",)  # con el de abajo
    assert Rules.make("venezuela").idle_options() == ()
