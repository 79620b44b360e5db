"""The name rule (core.names): whatever it accepts shows a letter or a digit, carries no control
character and no tower of marks, fits its bound and is already in its normal form."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.names import BLANKS, JOINERS, MARKS_MAX, NAME_MAX, player_name

ZALGO = "a" + "\u0301" * 23
MARKS = "\u0300\u0301\u0302\u0303\u0308\u0323\u0327"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("\u3164", "name.blank"),  # the Hangul filler alone: a letter by category, yet nothing
        ("\u3164 \u115f\u1160\uffa0", "name.blank"),
        ("\u2800\u2800", "name.blank"),  # blank braille
        ("", "name.blank"),
        ("  \t ", "name.blank"),
        ("\u200d", "name.blank"),
        ("¡!·…", "name.blank"),
        ("🐐", "name.blank"),
        (ZALGO, "name.marks"),
        ("Ana\x00", "name.control"),
        ("\x00", "name.control"),
        ("Ana\u202eanA", "name.control"),  # a bidi override turns the names after it around
        ("Ana\u200b", "name.control"),
        ("Ana\ue000", "name.control"),
        ("Ana\ud800", "name.control"),
        ("x" * (NAME_MAX + 1), "name.long"),
    ],
)
def test_names_that_show_nothing_or_too_much_are_refused(text: str, code: str) -> None:
    with pytest.raises(FichaFlowError) as refused:
        player_name(text)
    assert refused.value.code == code
    spanish, english = refused.value.message("es"), refused.value.message("en")
    assert spanish != english and "nombre" in spanish and "{" not in spanish


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("  Ana   María ", "Ana María"),
        ("Jose\u0301", "José"),  # NFD comes in as it was typed on some phones
        ("Ana\u3164", "Ana"),  # a filler reads as a space
        ("R2", "R2"),
        ("7", "7"),
        ("སྒྲོལ་མ", "སྒྲོལ་མ"),  # Dolma: three marks on one letter
        ("שָּׁרָה", "שָּׁרָה"),  # pointed Hebrew
        ("Nguyễn Thị", "Nguyễn Thị"),
        ("ناز\u200cنین", "ناز\u200cنین"),  # the non-joiner Persian needs
        ("Ana ❤️", "Ana ❤️"),
        ('=HYPERLINK("http://x")', '=HYPERLINK("http://x")'),  # a name; the CSV escapes it
        ("x" * NAME_MAX, "x" * NAME_MAX),
    ],
)
def test_real_names_are_accepted_in_their_normal_form(text: str, name: str) -> None:
    assert player_name(text) == name


def test_a_longer_limit_serves_the_mesas_own_name() -> None:
    assert player_name("Patio " * 8, limit=60) == ("Patio " * 8).strip()
    with pytest.raises(FichaFlowError):
        player_name("Patio " * 8)


TEXT = st.text(
    st.one_of(
        st.characters(codec="utf-8", exclude_categories=["Cs"]),
        st.characters(),  # surrogates too: JSON can carry a lone one
        st.sampled_from([*BLANKS, *JOINERS, *MARKS, " ", "\t", "\x00", "\u202e", "a", "7"]),
    ),
    max_size=40,
)


@given(TEXT)
@example(ZALGO)
@example("\u3164")
@example("e\u3164\u0301")
@example("\u0301a")
def test_whatever_is_accepted_shows_a_letter_and_is_idempotent(text: str) -> None:
    try:
        name = player_name(text)
    except FichaFlowError as refused:
        assert refused.code in {"name.blank", "name.control", "name.marks", "name.long"}
        return
    assert any(unicodedata.category(c)[0] in "LN" and c not in BLANKS for c in name)
    assert not any(unicodedata.category(c) == "Cc" for c in name)
    assert not set(name) & BLANKS
    assert 1 <= len(name) <= NAME_MAX
    assert name == name.strip() and "  " not in name
    assert unicodedata.is_normalized("NFC", name)
    run = 0
    for char in name:
        run = run + 1 if unicodedata.category(char)[0] == "M" else 0
        assert run <= MARKS_MAX
    assert player_name(name) == name
