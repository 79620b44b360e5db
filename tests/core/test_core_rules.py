"""Rules: the contract's preset table, every option and value, overrides, refusals, dump/load."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fichaflow import i18n
from fichaflow.core.errors import RulesError
from fichaflow.core.rules import (
    OPTION_SPECS,
    PRESETS,
    SEATS,
    Mode,
    OptionKind,
    OptionSpec,
    Rules,
)

# The contract's table (RULES.md, "Presets"), copied row by row.
COLUMNS = (
    "mode",
    "first_lead",
    "next_lead",
    "domino_count",
    "tranque_rule",
    "tranque_tie",
    "tranque_count",
    "target",
)
TABLE = {
    "venezuela": ("parejas", "doble_seis", "rotacion", "rivals", "pareja", "nadie", "rivals", 100),
    "zulia": ("parejas", "doble_seis", "rotacion", "all", "pareja", "nadie", "all", 100),
    "dominicana": ("parejas", "doble_seis", "ganador", "all", "abajo", "nadie", "all", 200),
    "dominicana_parejas": (
        "parejas", "doble_seis", "ganador", "all", "pareja", "salida", "all", 200,
    ),
    "internacional": ("parejas", "doble_seis", "rotacion", "all", "pareja", "nadie", "all", 200),
    "pagat": ("parejas", "doble_seis", "rotacion", "rivals", "pareja", "nadie", "rivals", 100),
    "mano_a_mano": (
        "mano_a_mano", "doble_mayor", "ganador", "rivals", "pareja", "nadie", "rivals", 100,
    ),
    "tres": ("tres", "doble_mayor", "ganador", "rivals", "pareja", "nadie", "rivals", 100),
}  # fmt: skip
BONUSES = (
    "tranque_bonus",
    "capicua_bonus",
    "pase_redondo_bonus",
    "salida_pasada_bonus",
    "chuchazo_bonus",
)
VALUES = {
    "mode": ("parejas", "mano_a_mano", "tres"),
    "first_lead": ("doble_seis", "sorteo", "doble_mayor"),
    "next_lead": ("rotacion", "ganador"),
    "domino_count": ("rivals", "all"),
    "tranque_rule": ("pareja", "abajo"),
    "tranque_tie": ("nadie", "salida"),
    "tranque_count": ("rivals", "all"),
}
ALL_OPTIONS = (*COLUMNS, *BONUSES)


@pytest.mark.parametrize("preset", TABLE)
def test_each_preset_is_its_row_of_the_contract(preset: str) -> None:
    rules = Rules.make(preset)
    assert rules.preset == preset
    for column, expected in zip(COLUMNS, TABLE[preset], strict=True):
        assert getattr(rules, column) == expected, column
    for bonus in BONUSES:
        assert getattr(rules, bonus) == 0, bonus
    assert rules.dump() == {"preset": preset}


def test_there_are_exactly_the_contracts_presets() -> None:
    assert set(PRESETS) == set(TABLE)


def test_the_default_table_is_dominicana() -> None:
    assert Rules.make() == Rules.make("dominicana")


@pytest.mark.parametrize(
    ("mode", "seats", "teams", "stock"),
    [("parejas", 4, 2, 0), ("mano_a_mano", 2, 2, 14), ("tres", 3, 3, 7)],
)
def test_modes_seat_and_deal_as_the_contract_says(
    mode: str, seats: int, teams: int, stock: int
) -> None:
    rules = Rules.make("venezuela" if mode == "parejas" else mode)
    assert rules.seats == seats
    assert rules.teams == teams
    assert rules.stock_size == stock
    assert rules.has_stock == (stock > 0)
    if mode == "parejas":
        # partners sit opposite: team 0 = seats 0 and 2, team 1 = seats 1 and 3
        assert [rules.team_of(s) for s in range(4)] == [0, 1, 0, 1]
        assert rules.seats_of(0) == (0, 2)
        assert rules.seats_of(1) == (1, 3)
    else:
        assert [rules.team_of(s) for s in range(seats)] == list(range(seats))


def _a_preset_for(option: str, value: object) -> dict[str, object]:
    """Overrides that make ``option=value`` a valid table (a stock mode cannot keep doble_seis)."""
    if option == "mode" and value != "parejas":
        return {"mode": value, "first_lead": "doble_mayor"}
    return {option: value}


@pytest.mark.parametrize(
    ("option", "value"), [(o, v) for o, values in VALUES.items() for v in values]
)
def test_every_option_takes_every_value(option: str, value: str) -> None:
    overrides = _a_preset_for(option, value)
    rules = Rules.make("venezuela", **overrides)
    assert getattr(rules, option) == value
    base = Rules.make("venezuela")
    for other in ALL_OPTIONS:
        if other not in overrides:
            assert getattr(rules, other) == getattr(base, other), other


@pytest.mark.parametrize("value", [10, 11, 50, 75, 100, 200, 499, 500, "75"])
def test_target_takes_whole_numbers_from_10_to_500(value: int | str) -> None:
    assert Rules.make("dominicana", target=value).target == int(value)


@pytest.mark.parametrize("bonus", BONUSES)
@pytest.mark.parametrize("value", [0, 1, 25, 1000, "25"])
def test_bonuses_take_whole_numbers_from_0(bonus: str, value: int | str) -> None:
    rules = Rules.make("dominicana", **{bonus: value})
    assert getattr(rules, bonus) == int(value)


def test_overrides_sit_on_top_of_the_preset_and_the_preset_is_named() -> None:
    rules = Rules.make("venezuela", target=75, tranque_bonus=25, next_lead="ganador")
    assert rules.preset == "venezuela"
    assert (rules.target, rules.tranque_bonus, rules.next_lead) == (75, 25, "ganador")
    assert rules.domino_count == "rivals"  # the rest is still Venezuela's
    assert rules.dump() == {
        "preset": "venezuela",
        "target": 75,
        "tranque_bonus": 25,
        "next_lead": "ganador",
    }


def test_the_mode_itself_may_be_overridden() -> None:
    rules = Rules.make("venezuela", mode="tres", first_lead="doble_mayor")
    assert (rules.seats, rules.stock_size) == (3, 7)
    assert rules.domino_count == "rivals"
    back = Rules.make("mano_a_mano", mode="parejas", first_lead="doble_seis")
    assert (back.seats, back.stock_size) == (4, 0)


def test_rules_are_immutable() -> None:
    rules = Rules.make("venezuela")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.target = 50  # type: ignore[misc]


# -- refusals -------------------------------------------------------------------------------------


def _refused(**overrides: object) -> RulesError:
    with pytest.raises(RulesError) as caught:
        Rules.make("dominicana", **overrides)
    return caught.value


def test_an_unknown_option_is_refused_naming_it_and_the_options() -> None:
    error = _refused(tranque_bono=25)
    assert error.code == "rules.unknown_option"
    text = str(error)
    assert "tranque_bono" in text
    for option in ALL_OPTIONS:
        assert option in text


@pytest.mark.parametrize("option", list(VALUES))
def test_an_unknown_value_is_refused_naming_the_option_and_its_values(option: str) -> None:
    error = _refused(**{option: "cualquiera"})
    assert error.code == "rules.bad_value"
    text = str(error)
    assert option in text
    assert "cualquiera" in text
    for value in VALUES[option]:
        assert value in text


@pytest.mark.parametrize("value", [9, 501, 0, -100, "abc", "", "9", "501", 50.0, True, None])
def test_a_target_outside_10_to_500_or_not_a_whole_number_is_refused(value: object) -> None:
    error = _refused(target=value)
    assert error.code == "rules.target"
    text = str(error)
    assert "target" in text
    assert "10" in text
    assert "500" in text


@pytest.mark.parametrize("bonus", BONUSES)
@pytest.mark.parametrize("value", [-1, "-1", 1001, "1001", 10**9, 2.5, "x", "", True, None, [25]])
def test_a_bonus_that_is_not_a_whole_number_from_0_to_1000_is_refused(
    bonus: str, value: object
) -> None:
    error = _refused(**{bonus: value})
    assert error.code == "rules.bonus"
    for lang in ("es", "en"):
        text = error.message(lang)
        assert bonus in text
        assert "0" in text
        assert "1000" in text


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [
        ("mano_a_mano", {"first_lead": "doble_seis"}),
        ("tres", {"first_lead": "doble_seis"}),
        ("venezuela", {"mode": "mano_a_mano"}),
        ("dominicana", {"mode": "tres"}),
    ],
)
def test_doble_seis_with_a_stock_is_refused(preset: str, overrides: dict[str, str]) -> None:
    with pytest.raises(RulesError) as caught:
        Rules.make(preset, **overrides)
    error = caught.value
    assert error.code == "rules.doble_seis_stock"
    text = str(error)
    assert "first_lead" in text
    assert "doble_mayor" in text
    assert "sorteo" in text


def test_an_unknown_preset_is_refused_listing_the_presets() -> None:
    with pytest.raises(RulesError) as caught:
        Rules.make("venezolana")
    assert caught.value.code == "rules.unknown_preset"
    text = str(caught.value)
    assert "venezolana" in text
    for preset in TABLE:
        assert preset in text


def test_the_english_message_names_the_same_option_and_values() -> None:
    error = _refused(tranque_rule="suma")
    english = error.message("en")
    assert "tranque_rule" in english
    assert "pareja" in english
    assert "abajo" in english
    assert english != error.message("es")


# -- the options described as data (what /api/presets sends the forms) ----------------------------


def test_the_description_names_every_option_once_with_the_contracts_values() -> None:
    assert sorted(spec.name for spec in OPTION_SPECS) == sorted(ALL_OPTIONS)
    for spec in OPTION_SPECS:
        if spec.name in VALUES:
            assert spec.kind is OptionKind.CHOICE
            assert spec.choices == VALUES[spec.name]
        else:
            assert spec.kind is OptionKind.INTEGER
            expected = (10, 500) if spec.name == "target" else (0, 1000)
            assert (spec.low, spec.high) == expected, spec.name
    assert SEATS == {"parejas": 4, "mano_a_mano": 2, "tres": 3}


def _table_of(mode: Mode) -> str:
    return "venezuela" if mode is Mode.PAREJAS else str(mode)


@pytest.mark.parametrize("spec", OPTION_SPECS, ids=lambda spec: spec.name)
@pytest.mark.parametrize("mode", list(Mode))
def test_the_description_agrees_with_the_validation(spec: OptionSpec, mode: Mode) -> None:
    """Every value the description allows is taken, and the ones just outside are refused with
    the description's own message, in every mode."""
    base = {"mode": str(mode)} if spec.name != "mode" else {}
    preset = _table_of(mode)
    if spec.kind is OptionKind.INTEGER:
        assert spec.low is not None and spec.high is not None
        for value in (spec.low, spec.low + 1, spec.high - 1, spec.high):
            assert getattr(Rules.make(preset, **base, **{spec.name: value}), spec.name) == value
        for value in (spec.low - 1, spec.high + 1):
            with pytest.raises(RulesError) as caught:
                Rules.make(preset, **base, **{spec.name: value})
            assert caught.value.code == spec.refusal
        return
    table_mode = mode if spec.name != "mode" else Mode.PAREJAS
    for choice in spec.choices:
        overrides = {**base, spec.name: choice}
        if spec.name == "mode" and choice != "parejas":
            overrides["first_lead"] = "doble_mayor"
        if choice in spec.allowed_in(table_mode) or spec.name == "mode":
            assert getattr(Rules.make(preset, **overrides), spec.name) == choice
        else:
            with pytest.raises(RulesError) as caught:
                Rules.make(preset, **overrides)
            assert caught.value.code == spec.refusal
            for allowed in spec.allowed_in(table_mode):
                assert allowed in str(caught.value)


def _words_of(spec: OptionSpec) -> list[str]:
    """The catalogue keys the rules forms show for an option: its name and hint, and each
    choice's name and hint."""
    keys = [f"option.{spec.name}", f"option_hint.{spec.name}"]
    for choice in spec.choices:
        keys += [f"value.{spec.name}.{choice}", f"value_hint.{spec.name}.{choice}"]
    return keys


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_option_choice_and_preset_has_its_words_in_every_catalogue(lang: str) -> None:
    words = i18n.catalogue(lang)
    keys = [key for spec in OPTION_SPECS for key in _words_of(spec)]
    keys += [f"{kind}.{preset}" for preset in PRESETS for kind in ("preset", "preset_hint")]
    assert [key for key in keys if key not in words] == []
    # A hint fills in only the range the server sends with the option.
    for spec in OPTION_SPECS:
        allowed = {"min", "max"} if spec.kind is OptionKind.INTEGER else set()
        assert i18n.placeholders(words[f"option_hint.{spec.name}"]) <= allowed, spec.name


@pytest.mark.parametrize(
    ("overrides", "idle"),
    [
        ({"preset": "venezuela"}, ()),
        ({"preset": "dominicana"}, ("tranque_tie",)),
        ({"preset": "mano_a_mano"}, ("tranque_rule",)),
        ({"preset": "tres", "tranque_rule": "abajo"}, ("tranque_rule",)),
        ({"preset": "venezuela", "mode": "tres", "first_lead": "sorteo"}, ("tranque_rule",)),
    ],
)
def test_idle_options_are_those_the_mode_or_another_option_makes_moot(
    overrides: dict[str, str], idle: tuple[str, ...]
) -> None:
    assert Rules.load(overrides).idle_options() == idle


# -- load and dump --------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", TABLE)
def test_a_preset_name_loads_as_the_preset(preset: str) -> None:
    assert Rules.load(preset) == Rules.make(preset)
    assert Rules.load({"preset": preset}) == Rules.make(preset)


def test_a_rules_object_must_name_its_preset() -> None:
    with pytest.raises(RulesError) as caught:
        Rules.load({"target": 100})
    assert caught.value.code == "rules.missing_preset"
    assert "dominicana" in str(caught.value)


@pytest.mark.parametrize("data", [None, 7, ["venezuela"], True])
def test_rules_that_are_neither_a_name_nor_an_object_are_refused(data: object) -> None:
    with pytest.raises(RulesError):
        Rules.load(data)


def test_a_loaded_object_is_validated_like_make() -> None:
    with pytest.raises(RulesError) as caught:
        Rules.load({"preset": "tres", "first_lead": "doble_seis"})
    assert caught.value.code == "rules.doble_seis_stock"
    with pytest.raises(RulesError) as caught:
        Rules.load({"preset": "venezuela", "colour": "red"})
    assert caught.value.code == "rules.unknown_option"


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    preset = draw(st.sampled_from(sorted(TABLE)))
    overrides: dict[str, object] = {}
    for option, values in VALUES.items():
        if draw(st.booleans()):
            overrides[option] = draw(st.sampled_from(values))
    if draw(st.booleans()):
        overrides["target"] = draw(st.integers(10, 500))
    for bonus in BONUSES:
        if draw(st.booleans()):
            overrides[bonus] = draw(st.integers(0, 100))
    mode = overrides.get("mode", TABLE[preset][0])
    first = overrides.get("first_lead", TABLE[preset][1])
    if mode != "parejas" and first == "doble_seis":
        overrides["first_lead"] = draw(st.sampled_from(["sorteo", "doble_mayor"]))
    return Rules.make(preset, **overrides)


@given(rules_strategy())
def test_dump_then_load_gives_the_same_rules(rules: Rules) -> None:
    data = rules.dump()
    assert data["preset"] == rules.preset
    assert Rules.load(json.loads(json.dumps(data))) == rules
    # dump names only what differs from the preset
    base = Rules.make(rules.preset)
    for option, value in data.items():
        if option != "preset":
            assert getattr(base, option) != value
