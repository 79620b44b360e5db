"""The score sheet: lines, running totals, the target, corrections, undo, the next partida and
the standings, all derived from the log of actions."""

from __future__ import annotations

import csv
import io
import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fichaflow.anotador import (
    Action,
    AddEntry,
    Adjustment,
    DeleteEntry,
    EditEntry,
    HandEntry,
    MesaSetup,
    NewPartida,
    SetQueue,
    Undo,
    load_change,
    replay,
    standings,
)
from fichaflow.anotador.entries import Change, dump_change
from fichaflow.anotador.export import partida_csv, partida_html, partida_json
from fichaflow.anotador.sheet import MesaState
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import EndKind
from fichaflow.core.rules import Rules

DOMINO, TRANQUE = EndKind.DOMINO, EndKind.TRANQUE
PLAYERS = ("Ana", "Beto", "Carla", "Diego")


class Log:
    """A mesa and its actions, applied one at a time as the server does: each is checked by
    replaying the log with it, and a refused one is not kept."""

    def __init__(self, mesa: MesaSetup) -> None:
        self.mesa = mesa
        self.actions: list[Action] = []
        self.ids = itertools.count(1)

    def do(self, change: Change) -> MesaState:
        action = Action(f"a{next(self.ids)}", change)
        state = replay(self.mesa, [*self.actions, action])
        self.actions.append(action)
        return state

    def refused(self, change: Change, code: str) -> FichaFlowError:
        before = replay(self.mesa, self.actions)
        with pytest.raises(FichaFlowError) as error:
            self.do(change)
        assert error.value.code == code
        assert replay(self.mesa, self.actions) == before  # nothing changed
        return error.value

    @property
    def last_id(self) -> str:
        return self.actions[-1].id


def seed_tranque(leader: int | None = 0) -> AddEntry:
    return AddEntry(HandEntry(TRANQUE, 0, pips=(8, 11, 7, 14), leader=leader))


def dominicana(target: int = 200, queue: tuple[str, ...] = ()) -> Log:
    return Log(MesaSetup("Patio", Rules.make("dominicana", target=target), PLAYERS, queue))


def test_hands_add_up_and_the_next_salida_follows_the_rule() -> None:
    log = dominicana()
    state = log.do(seed_tranque())
    line = state.current.lines[0]
    assert line.hand == 1 and line.gains == (40, 0) and line.totals == (40, 0)
    assert state.current.explain(line)[-1] == "Bono de tranque: 0."
    # Ganador after a tranque won by Ana and Carla: the one with fewer pips, Carla (7 < 8).
    assert state.current.next_leader == 2
    # Beto dominates; every hand counts under dominicana: 5 + 10 + 3.
    state = log.do(AddEntry(HandEntry(DOMINO, 1, pips=(5, None, 10, 3))))
    second = state.current.lines[1]
    assert second.leader == 2
    assert second.gains == (0, 18) and second.totals == (40, 18)
    assert state.current.next_leader == 1
    assert state.current.winner is None


def test_editing_an_earlier_hand_recomputes_everything_after_it() -> None:
    log = dominicana()
    log.do(seed_tranque())
    first = log.last_id
    log.do(AddEntry(HandEntry(DOMINO, 1, pips=(5, None, 10, 3))))
    # Ana had 12, not 8: now Beto wins the comparison, 12 + 11 + 7 + 14 = 44 for his pair,
    # and the next salida is Beto's (11 < Diego's 14), not Carla's.
    state = log.do(EditEntry(first, HandEntry(TRANQUE, 0, pips=(12, 11, 7, 14), leader=0)))
    lines = state.current.lines
    assert lines[0].id == first and lines[0].gains == (0, 44)
    assert lines[1].leader == 1
    assert state.current.totals == (0, 62)


def test_deleting_and_undoing() -> None:
    log = dominicana()
    log.do(seed_tranque())
    log.do(AddEntry(HandEntry(DOMINO, 1, pips=(5, None, 10, 3))))
    second = log.last_id
    state = log.do(DeleteEntry(second))
    assert state.current.totals == (40, 0)
    log.refused(DeleteEntry(second), "anotador.not_found")
    state = log.do(Undo())
    assert state.current.totals == (40, 18)
    state = log.do(Undo())
    assert state.current.totals == (40, 0)
    state = log.do(Undo())
    assert state.current.lines == ()
    log.refused(Undo(), "anotador.nothing_to_undo")


def test_the_first_hand_needs_its_leader() -> None:
    log = dominicana()
    error = log.refused(seed_tranque(leader=None), "anotador.leader_needed")
    assert str(error) == "Mano 1: di quién salió en esta mano"


def test_deleting_the_first_hand_is_refused_when_the_next_one_then_has_no_leader() -> None:
    log = dominicana()
    log.do(seed_tranque())
    first = log.last_id
    log.do(AddEntry(HandEntry(TRANQUE, 2, pips=(3, 9, 4, 10))))
    log.refused(DeleteEntry(first), "anotador.leader_needed")


def test_pair_totals_under_ganador_leave_the_next_salida_to_the_mesa() -> None:
    log = Log(MesaSetup("Barrio", Rules.make("dominicana_parejas"), PLAYERS))
    state = log.do(AddEntry(HandEntry(TRANQUE, 1, team_pips=(20, 14), leader=0)))
    assert state.current.lines[0].gains == (0, 34)
    assert state.current.next_leader is None
    log.refused(AddEntry(HandEntry(DOMINO, 3, pips=(4, 3, 6, None))), "anotador.leader_needed")
    state = log.do(AddEntry(HandEntry(DOMINO, 3, pips=(4, 3, 6, None), leader=3)))
    assert state.current.totals == (0, 47)


def test_rotacion_passes_the_salida_to_the_right() -> None:
    log = Log(MesaSetup("Caracas", Rules.make("venezuela"), PLAYERS))
    log.do(AddEntry(HandEntry(DOMINO, 0, pips=(None, 10, None, 12), leader=3)))
    state = log.do(AddEntry(HandEntry(DOMINO, 2, pips=(None, 1, None, 2))))
    assert [line.leader for line in state.current.lines] == [3, 0]
    assert state.current.totals == (25, 0)
    assert state.current.next_leader == 1


def test_an_adjustment_has_a_reason_may_be_negative_and_is_not_a_hand() -> None:
    log = dominicana()
    log.do(seed_tranque())
    state = log.do(AddEntry(Adjustment(0, -10, "cabra")))
    line = state.current.lines[1]
    assert line.hand is None and line.gains == (-10, 0) and state.current.totals == (30, 0)
    assert state.current.explain(line) == ["Ajuste para Ana y Carla: -10 (cabra)."]
    state = log.do(AddEntry(HandEntry(DOMINO, 3, pips=(1, 1, 1, None))))
    assert state.current.lines[2].hand == 2
    with pytest.raises(FichaFlowError) as reason:
        load_change({"type": "adjust", "team": 1, "points": 5, "reason": "  "})
    assert reason.value.code == "anotador.reason"
    with pytest.raises(FichaFlowError) as zero:
        load_change({"type": "adjust", "team": 1, "points": 0, "reason": "cabra"})
    assert zero.value.code == "anotador.points"
    log.refused(AddEntry(Adjustment(2, 5, "cabra")), "anotador.team")


def test_reaching_the_target_ends_the_partida_with_zapato_or_chancleta() -> None:
    log = dominicana(target=50)
    log.do(seed_tranque())  # 40 - 0
    state = log.do(AddEntry(HandEntry(DOMINO, 2, pips=(0, 5, None, 6))))
    sheet = state.current
    assert sheet.totals == (51, 0) and sheet.winner == 0
    assert sheet.zapato and not sheet.chancleta
    log.refused(AddEntry(HandEntry(DOMINO, 1, pips=(1, None, 1, 1))), "anotador.partida_over")
    # Beto's pair had won one hand instead: chancleta, not zapato.
    log = dominicana(target=50)
    log.do(AddEntry(HandEntry(DOMINO, 1, pips=(1, None, 1, 1), leader=0)))
    log.do(seed_tranque())
    state = log.do(AddEntry(HandEntry(DOMINO, 2, pips=(0, 5, None, 6))))
    assert state.current.totals == (51, 3) and state.current.winner == 0
    assert state.current.chancleta and not state.current.zapato


def test_an_edit_that_would_end_the_partida_early_is_refused() -> None:
    log = dominicana(target=50)
    log.do(seed_tranque())
    first = log.last_id
    log.do(AddEntry(HandEntry(DOMINO, 1, pips=(1, None, 1, 1))))
    bigger = HandEntry(TRANQUE, 0, pips=(8, 11, 7, 30), leader=0)
    error = log.refused(EditEntry(first, bigger), "anotador.after_end")
    assert "mano 1" in str(error)


def test_a_new_partida_with_the_same_people_and_by_the_parados_custom() -> None:
    log = dominicana(target=50, queue=("Eva", "Fede", "Gil"))
    log.refused(NewPartida("same"), "anotador.empty_partida")
    log.do(seed_tranque())
    log.refused(NewPartida("parados"), "anotador.parados_unfinished")
    log.do(AddEntry(HandEntry(DOMINO, 2, pips=(0, 5, None, 6))))
    state = log.do(NewPartida("parados"))
    # Beto and Diego lost: Eva and Fede sit in their seats; they wait behind Gil.
    assert state.current.seating == ("Ana", "Eva", "Carla", "Fede")
    assert state.queue == ("Gil", "Beto", "Diego")
    assert state.current.number == 2 and state.current.lines == ()
    assert [p.winner for p in state.partidas] == [0, None]
    log.refused(EditEntry(log.actions[0].id, seed_tranque().entry), "anotador.old_partida")
    state = log.do(SetQueue(("Beto", "Gil", "Diego", "Hugo")))
    assert state.queue == ("Beto", "Gil", "Diego", "Hugo")
    log.refused(SetQueue(("Ana",)), "anotador.name_repeated")
    state = log.do(AddEntry(HandEntry(DOMINO, 1, pips=(9, None, 9, 2), leader=1)))
    state = log.do(NewPartida("same"))
    assert state.current.seating == ("Ana", "Eva", "Carla", "Fede")
    state = log.do(Undo())
    assert state.current.number == 2


def test_parados_with_fewer_waiting_than_losers() -> None:
    log = dominicana(target=50, queue=("Eva",))
    log.do(seed_tranque())
    log.do(AddEntry(HandEntry(DOMINO, 2, pips=(0, 5, None, 6))))
    state = log.do(NewPartida("parados"))
    assert state.current.seating == ("Ana", "Eva", "Carla", "Diego")
    assert state.queue == ("Beto",)


def test_standings_per_player_and_per_pair() -> None:
    log = dominicana(target=50, queue=("Eva", "Fede"))
    log.do(seed_tranque())
    log.do(AddEntry(HandEntry(DOMINO, 2, pips=(0, 5, None, 6))))  # 51 - 0, zapato
    log.do(NewPartida("parados"))  # Ana, Eva, Carla, Fede
    log.do(AddEntry(HandEntry(DOMINO, 1, pips=(30, None, 25, 0), leader=0)))  # 0 - 55
    table = standings(replay(log.mesa, log.actions))
    players = dict(table.players)
    ana = players["Ana"]
    assert (ana.partidas, ana.won, ana.hands_won) == (2, 1, 2)
    assert (ana.points_for, ana.points_against) == (51, 55)
    assert (ana.zapatos_given, ana.zapatos_taken) == (1, 1)
    beto = players["Beto"]
    assert (beto.partidas, beto.won, beto.zapatos_taken, beto.points_against) == (1, 0, 1, 51)
    assert players["Eva"].won == 1 and players["Eva"].zapatos_given == 1
    pairs = dict(table.pairs)
    assert pairs[("Ana", "Carla")].partidas == 2
    assert pairs[("Eva", "Fede")].won == 1
    assert table.pairs[0][0] in {("Ana", "Carla"), ("Eva", "Fede")}


def test_exports_agree_with_the_sheet() -> None:
    log = Log(MesaSetup("Patio <b>", Rules.make("dominicana"), ("Ana", "Beto", "Carla", "Dí<e>go")))
    log.do(seed_tranque())
    log.do(AddEntry(Adjustment(1, 5, "cabra")))
    state = replay(log.mesa, log.actions)
    sheet = state.current
    rows = list(csv.reader(io.StringIO(partida_csv(sheet))))
    assert rows[0][:3] == ["Línea", "Tipo", "Detalle"]
    assert rows[1][:2] == ["1", "Mano 1"] and rows[1][3:] == ["40", "0", "40", "0"]
    assert "8 + 11 + 7 + 14 = 40" in rows[1][2]
    assert rows[2][1] == "Ajuste" and rows[2][3:] == ["0", "5", "40", "5"]
    data = json.loads(json.dumps(partida_json(state, sheet)))
    assert data["totals"] == [40, 5] and data["winner"] is None
    assert data["lines"][0]["result"]["points"] == 40
    assert data["lines"][0]["entry"]["pips"] == [8, 11, 7, 14]
    page = partida_html(state, sheet)
    assert "Dí&lt;e&gt;go" in page and "Patio &lt;b&gt;" in page and "<b>40</b>" in page


def test_actions_round_trip_through_json() -> None:
    changes: list[Change] = [
        seed_tranque(),
        AddEntry(HandEntry(TRANQUE, 1, team_pips=(3, 4), salida_pasada=True, pase_redondo=(2,))),
        AddEntry(Adjustment(1, -3, "cabra")),
        EditEntry("7", HandEntry(DOMINO, 1, pips=(1, None, 2, None), capicua=True)),
        DeleteEntry("9"),
        Undo(),
        NewPartida("parados"),
        SetQueue(("Eva",)),
    ]
    for change in changes:
        assert load_change(json.loads(json.dumps(dump_change(change)))) == change


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ([], "anotador.action_object"),
        ({"type": "hand", "end": "ficha", "seat": 0}, "anotador.choice"),
        ({"type": "hand", "end": "domino", "seat": "0"}, "anotador.not_int"),
        ({"type": "hand", "end": "domino", "seat": 0, "pips": [1, "2"]}, "anotador.not_int"),
        ({"type": "hand", "end": "domino", "seat": 0, "capicua": 1}, "anotador.not_bool"),
        ({"type": "hand", "end": "domino", "seat": 0, "color": 1}, "anotador.unknown_key"),
        ({"type": "edit", "target": "", "entry": {}}, "anotador.target"),
        ({"type": "new_partida", "custom": "otra"}, "anotador.choice"),
        ({"type": "borrar"}, "anotador.choice"),
    ],
)
def test_bad_actions_get_a_spanish_error(data: object, code: str) -> None:
    with pytest.raises(FichaFlowError) as error:
        load_change(data)
    assert error.value.code == code
    assert error.value.message("es") != code and error.value.message("en") != code


def test_a_mesa_needs_names_for_every_seat_and_no_name_twice() -> None:
    rules = Rules.make("dominicana")
    cases = [
        ({"name": "x", "players": ["Ana", "Beto", "Carla"]}, "anotador.seating"),
        ({"name": "x", "players": ["Ana", "Beto", "ana", "Diego"]}, "anotador.name_repeated"),
        ({"name": "x", "players": ["Ana", "Beto", " ", "Diego"]}, "anotador.name_empty"),
        ({"name": "", "players": list(PLAYERS)}, "anotador.mesa_name"),
        ({"name": "x", "players": list(PLAYERS), "queue": ["Beto"]}, "anotador.name_repeated"),
        ({"name": "x", "players": list(PLAYERS), "rules": "chinchon"}, "rules.unknown_preset"),
    ]
    for data, code in cases:
        with pytest.raises(FichaFlowError) as error:
            MesaSetup.load(data)
        assert error.value.code == code
    mesa = MesaSetup.load({"name": "x", "players": list(PLAYERS), "rules": {"preset": "venezuela"}})
    assert MesaSetup.load(mesa.dump()) == mesa
    assert MesaSetup.load(
        {"name": "x", "players": ["Ana", "Beto"], "rules": "mano_a_mano"}
    ).rules != (rules)


# --- any sequence of actions ------------------------------------------------------------------


@st.composite
def change_strategy(draw: st.DrawFn) -> Change:
    kind = draw(st.sampled_from(("hand", "hand", "hand", "adjust", "edit", "delete", "undo")))
    target = str(draw(st.integers(1, 12)))
    entry: HandEntry | Adjustment
    if kind == "adjust" or (kind == "edit" and draw(st.booleans())):
        entry = Adjustment(draw(st.integers(0, 1)), draw(st.sampled_from((-10, 5, 30))), "cabra")
    else:
        end = draw(st.sampled_from((DOMINO, TRANQUE)))
        seat = draw(st.integers(0, 3))
        pips = [draw(st.integers(0, 30)) for _ in range(4)]
        if end is DOMINO:
            pips[seat] = 0
        entry = HandEntry(end, seat, tuple(pips), leader=draw(st.sampled_from((None, 0, 1))))
    if kind == "edit":
        return EditEntry(target, entry)
    if kind == "delete":
        return DeleteEntry(target)
    if kind == "undo":
        return Undo()
    return AddEntry(entry)


@settings(max_examples=150, deadline=None)
@given(changes=st.lists(change_strategy(), max_size=14))
def test_the_sheet_always_equals_its_lines_whatever_is_done(changes: list[Change]) -> None:
    log = dominicana(target=100)
    for change in changes:
        try:
            state = log.do(change)
        except FichaFlowError:
            continue  # refused: the log is unchanged (see Log.do)
        sheet = state.current
        totals = [0, 0]
        for line in sheet.lines:
            totals = [t + g for t, g in zip(totals, line.gains, strict=True)]
            assert list(line.totals) == totals
            if line.score is not None:
                assert line.gains == line.score.gains(2)
        assert list(sheet.totals) == totals
        # Only the last line may reach the target.
        reached = [max(line.totals) >= 100 for line in sheet.lines]
        assert not any(reached[:-1])
    # The log replays to the same sheet from scratch.
    assert replay(log.mesa, log.actions) == replay(log.mesa, list(log.actions))
