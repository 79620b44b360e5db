"""Text that only looks like digits (² or ٣) is bad input with a Spanish message, never a crash."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fichaflow.core.errors import FichaFlowError, RulesError
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import name, parse


@pytest.mark.parametrize("text", ["²-1", "6-²", "٣-1", "６-4"])
def test_tile_with_non_ascii_digit_is_refused(text: str) -> None:
    with pytest.raises(FichaFlowError) as caught:
        parse(text)
    assert caught.value.code == "tile.invalid"
    assert "no es una ficha" in str(caught.value)


@pytest.mark.parametrize("option", ["target", "tranque_bonus"])
@pytest.mark.parametrize("text", ["1²", "٣٠"])
def test_rule_number_with_non_ascii_digit_is_refused(option: str, text: str) -> None:
    with pytest.raises(RulesError) as caught:
        Rules.make("venezuela", **{option: text})
    assert caught.value.params["option"] == option


def test_rule_number_with_surrounding_control_whitespace_is_read() -> None:
    # str.strip() removes "\x1f" but int() alone would not accept it
    assert Rules.make("venezuela", target="75\x1f").target == 75


@given(st.text(max_size=5))
def test_any_text_is_a_tile_or_a_tile_error(text: str) -> None:
    try:
        tile = parse(text)
    except FichaFlowError as exc:
        assert exc.code == "tile.invalid"
    else:
        # what was read is the written tile, in either order
        halves = text.strip().split("-")
        assert sorted(name(tile).split("-")) == sorted(halves)


@given(st.text(max_size=4))
def test_any_text_is_a_target_or_a_rules_error(text: str) -> None:
    try:
        rules = Rules.make("venezuela", target=text)
    except RulesError as exc:
        assert exc.code == "rules.target"
    else:
        assert rules.target == int(text.strip())
        assert 10 <= rules.target <= 500
