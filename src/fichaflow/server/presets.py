"""What ``GET /api/presets`` answers: the presets, and every rule option described as the core
describes it (``core/rules.py``, ``OPTION_SPECS``).

The game's and the anotador's rules forms are built from this answer, so an option's choices,
range and modes are written once, in the core, and a form cannot offer what the core refuses.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from pydantic import BaseModel

from fichaflow.core.rules import (
    DEFAULT_PRESET,
    OPTION_SPECS,
    PRESETS,
    REGION_PRESETS,
    SEATS,
    OptionKind,
    OptionSpec,
)


class OptionDescription(BaseModel):
    """One rule option, for a form: a ``choice`` of ``choices`` or an ``integer`` from ``min`` to
    ``max``; the ``modes`` that consult it; choices only some modes allow (``choice_modes``); and
    the (option, values) that make it moot (``idle_when``). Its words are the catalogue's
    ``option.<name>``, ``option_hint.<name>`` and ``value.<name>.<choice>``."""

    name: str
    kind: Literal["choice", "integer"]
    choices: list[str]
    min: int | None
    max: int | None
    modes: list[str]
    choice_modes: dict[str, list[str]]
    idle_when: dict[str, list[str]]


class PresetsAnswer(BaseModel):
    """``presets``: every preset's value of every option (its defaults); ``choices``: every
    option's values (kept for older pages: ``options`` says the same and more); ``options``: the
    options in the order a table talks them over; ``seats``: the chairs of each mode;
    ``default_preset``: where a new mesa starts, unless the browser's language names a region of
    ``region_presets`` (``es-VE``: ``VE``)."""

    presets: dict[str, dict[str, str | int]]
    choices: dict[str, list[str]]
    options: list[OptionDescription]
    seats: dict[str, int]
    default_preset: str
    region_presets: dict[str, str]


def _described(spec: OptionSpec) -> OptionDescription:
    idle_when: dict[str, list[str]] = {}
    for option, value in spec.idle_when:
        idle_when.setdefault(option, []).append(value)
    return OptionDescription(
        name=spec.name,
        kind=spec.kind.value,
        choices=list(spec.choices),
        min=spec.low,
        max=spec.high,
        modes=[str(mode) for mode in spec.modes],
        choice_modes={value: [str(m) for m in modes] for value, modes in spec.choice_modes},
        idle_when=idle_when,
    )


@cache
def presets_answer() -> PresetsAnswer:
    """The answer, built once: the rules are constants of the program."""
    return PresetsAnswer(
        presets={name: rules.options() for name, rules in PRESETS.items()},
        choices={
            spec.name: list(spec.choices) for spec in OPTION_SPECS if spec.kind is OptionKind.CHOICE
        },
        options=[_described(spec) for spec in OPTION_SPECS],
        seats={str(mode): seats for mode, seats in SEATS.items()},
        default_preset=DEFAULT_PRESET,
        region_presets=dict(REGION_PRESETS),
    )
