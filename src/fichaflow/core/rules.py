"""A table's rules: one immutable, self-validating value made of a preset plus overrides.

Every rule option of the contract (``RULES.md``) is a field here, so that a variant is data, not
code. ``Rules.make("dominicana", tranque_bonus=25)`` gives the Dominican table with a tranque prize;
anything that does not exist is refused with a message naming the option and what is allowed.

:data:`OPTION_SPECS` describes every option as data (its kind, choices or range, the modes that
consult it, when it is moot): the validation below reads it, and the server sends it to the
browser forms (``/api/presets``), so that an option's bounds are written once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from fichaflow.core.errors import RulesError


class Mode(StrEnum):
    PAREJAS = "parejas"
    MANO_A_MANO = "mano_a_mano"
    TRES = "tres"


class FirstLead(StrEnum):
    DOBLE_SEIS = "doble_seis"
    SORTEO = "sorteo"
    DOBLE_MAYOR = "doble_mayor"


class NextLead(StrEnum):
    ROTACION = "rotacion"
    GANADOR = "ganador"


class Count(StrEnum):
    RIVALS = "rivals"
    ALL = "all"


class TranqueRule(StrEnum):
    PAREJA = "pareja"
    ABAJO = "abajo"


class TranqueTie(StrEnum):
    NADIE = "nadie"
    SALIDA = "salida"


SEATS: Final = {Mode.PAREJAS: 4, Mode.MANO_A_MANO: 2, Mode.TRES: 3}
HAND_SIZE: Final = 7
TARGET_MIN: Final = 10
TARGET_MAX: Final = 500
BONUS_MAX: Final = 1000
"""Every bonus is a whole number from 0 to this (the contract's bound)."""
BONUSES: Final = (
    "tranque_bonus",
    "capicua_bonus",
    "pase_redondo_bonus",
    "salida_pasada_bonus",
    "chuchazo_bonus",
)
CHOICES: Final[dict[str, type[StrEnum]]] = {
    "mode": Mode,
    "first_lead": FirstLead,
    "next_lead": NextLead,
    "domino_count": Count,
    "tranque_rule": TranqueRule,
    "tranque_tie": TranqueTie,
    "tranque_count": Count,
}


class OptionKind(StrEnum):
    CHOICE = "choice"
    INTEGER = "integer"


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One rule option as data, for the validation here and for every form that offers it.

    A ``choice`` takes one of ``choices`` (any other value is ``rules.bad_value``), and
    ``choice_modes`` limits some of them to some modes; an ``integer`` takes a whole number from
    ``low`` to ``high``. ``refusal`` is the message code for a value out of range or not allowed
    in the mode. ``modes`` are the modes whose play consults the option; ``idle_when`` pairs
    (option, value) under which it is moot, as long as that option (listed earlier) is itself
    in force."""

    name: str
    kind: OptionKind
    refusal: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    modes: tuple[Mode, ...] = tuple(Mode)
    idle_when: tuple[tuple[str, str], ...] = ()
    choice_modes: tuple[tuple[str, tuple[Mode, ...]], ...] = ()

    def allowed_in(self, mode: Mode) -> tuple[str, ...]:
        """The choices a table of ``mode`` may take."""
        limited = dict(self.choice_modes)
        return tuple(c for c in self.choices if mode in limited.get(c, tuple(Mode)))

    def check(self, value: Any, mode: Mode) -> None:
        """Refuse ``value`` (already of the option's type) in a table of ``mode``."""
        if self.kind is OptionKind.INTEGER:
            self.check_range(value)
        elif str(value) not in (allowed := self.allowed_in(mode)):
            raise RulesError(
                self.refusal,
                option=self.name,
                value=str(value),
                mode=str(mode),
                allowed=", ".join(allowed),
            )

    def check_range(self, number: int) -> None:
        """Refuse a whole number outside ``low``..``high``."""
        assert self.low is not None and self.high is not None
        if not self.low <= number <= self.high:
            raise RulesError(
                self.refusal, option=self.name, value=number, low=self.low, high=self.high
            )


def _choice(name: str, **limits: Any) -> OptionSpec:
    values = tuple(str(c) for c in CHOICES[name])
    return OptionSpec(name, OptionKind.CHOICE, "rules.bad_value", values, **limits)


def _bonus(name: str) -> OptionSpec:
    return OptionSpec(name, OptionKind.INTEGER, "rules.bonus", low=0, high=BONUS_MAX)


OPTION_SPECS: Final[tuple[OptionSpec, ...]] = (
    _choice("mode"),
    OptionSpec("target", OptionKind.INTEGER, "rules.target", low=TARGET_MIN, high=TARGET_MAX),
    dataclasses.replace(
        _choice("first_lead"),
        # With a stock the cochina may sleep in the montón, so nobody is sure to hold it.
        choice_modes=((str(FirstLead.DOBLE_SEIS), (Mode.PAREJAS,)),),
        refusal="rules.doble_seis_stock",
    ),
    _choice("next_lead"),
    _choice("domino_count"),
    # In the individual modes the fewest pips always win a tranque.
    _choice("tranque_rule", modes=(Mode.PAREJAS,)),
    # Under ``abajo`` a tie always goes to the trancador.
    _choice("tranque_tie", idle_when=(("tranque_rule", str(TranqueRule.ABAJO)),)),
    _choice("tranque_count"),
    *(_bonus(name) for name in BONUSES),
)
"""Every option, in the order a table talks them over."""
SPEC: Final = {spec.name: spec for spec in OPTION_SPECS}


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules a partida is played and scored by. Build it with :meth:`make` or :meth:`load`."""

    preset: str
    mode: Mode
    first_lead: FirstLead
    next_lead: NextLead
    domino_count: Count
    tranque_rule: TranqueRule
    tranque_tie: TranqueTie
    tranque_count: Count
    target: int
    tranque_bonus: int = 0
    capicua_bonus: int = 0
    pase_redondo_bonus: int = 0
    salida_pasada_bonus: int = 0
    chuchazo_bonus: int = 0

    @classmethod
    def make(cls, preset: str = "dominicana", **overrides: Any) -> Rules:
        """The preset with ``overrides`` on top, validated."""
        if preset not in PRESETS:
            raise RulesError("rules.unknown_preset", preset=preset, allowed=", ".join(PRESETS))
        base = PRESETS[preset]
        values: dict[str, Any] = {}
        for option, value in overrides.items():
            if option == "preset" or option not in OPTIONS:
                raise RulesError("rules.unknown_option", option=option, allowed=", ".join(OPTIONS))
            values[option] = _coerce(option, value)
        return dataclasses.replace(base, **values)

    @classmethod
    def load(cls, data: object) -> Rules:
        """Rules from a record: a preset name, or ``{"preset": ..., option: value, ...}``."""
        if isinstance(data, str):
            return cls.make(data)
        if isinstance(data, Mapping):
            options = dict(data)
            preset = options.pop("preset", None)
            if not isinstance(preset, str):
                raise RulesError("rules.missing_preset", allowed=", ".join(PRESETS))
            return cls.make(preset, **options)
        raise RulesError("rules.not_rules", allowed=", ".join(PRESETS))

    def dump(self) -> dict[str, Any]:
        """The record form: the preset name plus every option that differs from it."""
        base = PRESETS[self.preset]
        out: dict[str, Any] = {"preset": self.preset}
        for option in OPTIONS:
            value = getattr(self, option)
            if value != getattr(base, option):
                out[option] = str(value) if isinstance(value, StrEnum) else value
        return out

    def options(self) -> dict[str, Any]:
        """Every option with its value, for display."""
        return {o: (str(v) if isinstance(v := getattr(self, o), StrEnum) else v) for o in OPTIONS}

    def idle_options(self) -> tuple[str, ...]:
        """The options these rules never consult, so a table need not talk them over: those the
        mode does not use (how a tranque is won in the individual modes, where the fewest pips
        always win), and those another option in force makes moot (the tie under ``abajo``, which
        always goes to the trancador). Read from :data:`OPTION_SPECS`."""
        idle: list[str] = []
        for spec in OPTION_SPECS:
            moot = any(
                other not in idle and str(getattr(self, other)) == value
                for other, value in spec.idle_when
            )
            if self.mode not in spec.modes or moot:
                idle.append(spec.name)
        return tuple(idle)

    @property
    def seats(self) -> int:
        return SEATS[self.mode]

    @property
    def teams(self) -> int:
        """Two teams in parejas; every seat its own team in the individual modes."""
        return 2 if self.mode is Mode.PAREJAS else self.seats

    @property
    def has_stock(self) -> bool:
        return self.mode is not Mode.PAREJAS

    @property
    def stock_size(self) -> int:
        return 28 - HAND_SIZE * self.seats

    def team_of(self, seat: int) -> int:
        return seat % 2 if self.mode is Mode.PAREJAS else seat

    def seats_of(self, team: int) -> tuple[int, ...]:
        return (team, team + 2) if self.mode is Mode.PAREJAS else (team,)

    def __post_init__(self) -> None:
        for spec in OPTION_SPECS:
            spec.check(getattr(self, spec.name), self.mode)


def _coerce(option: str, value: Any) -> Any:
    """The typed value of an option, or a RulesError that names it and what is allowed."""
    spec = SPEC[option]
    if spec.kind is OptionKind.CHOICE:
        choices = CHOICES[option]
        try:
            return choices(value)
        except ValueError:
            allowed = ", ".join(spec.choices)
            raise RulesError(
                "rules.bad_value", option=option, value=value, allowed=allowed
            ) from None
    # target and the bonuses are whole numbers; "25" from a command line is accepted too.
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str) and (text := value.strip()).isascii() and text.isdigit():
        number = int(text)
    if number is None:
        raise RulesError(spec.refusal, option=option, value=value, low=spec.low, high=spec.high)
    spec.check_range(number)  # refused here, before any other option is looked at
    return number


def _preset(
    name: str,
    mode: Mode,
    first_lead: FirstLead,
    next_lead: NextLead,
    domino_count: Count,
    tranque_rule: TranqueRule,
    tranque_tie: TranqueTie,
    tranque_count: Count,
    target: int,
) -> Rules:
    return Rules(
        name, mode, first_lead, next_lead, domino_count, tranque_rule, tranque_tie, tranque_count,
        target,
    )  # fmt: skip


_P, _M, _T = Mode.PAREJAS, Mode.MANO_A_MANO, Mode.TRES
_D6, _DM = FirstLead.DOBLE_SEIS, FirstLead.DOBLE_MAYOR
_ROT, _GAN = NextLead.ROTACION, NextLead.GANADOR
_RIV, _ALL = Count.RIVALS, Count.ALL
_PAR, _ABA = TranqueRule.PAREJA, TranqueRule.ABAJO
_NAD, _SAL = TranqueTie.NADIE, TranqueTie.SALIDA

PRESETS: Final[dict[str, Rules]] = {
    r.preset: r
    for r in (
        _preset("venezuela", _P, _D6, _ROT, _RIV, _PAR, _NAD, _RIV, 100),
        _preset("zulia", _P, _D6, _ROT, _ALL, _PAR, _NAD, _ALL, 100),
        _preset("dominicana", _P, _D6, _GAN, _ALL, _ABA, _NAD, _ALL, 200),
        _preset("dominicana_parejas", _P, _D6, _GAN, _ALL, _PAR, _SAL, _ALL, 200),
        _preset("internacional", _P, _D6, _ROT, _ALL, _PAR, _NAD, _ALL, 200),
        _preset("pagat", _P, _D6, _ROT, _RIV, _PAR, _NAD, _RIV, 100),
        _preset("mano_a_mano", _M, _DM, _GAN, _RIV, _PAR, _NAD, _RIV, 100),
        _preset("tres", _T, _DM, _GAN, _RIV, _PAR, _NAD, _RIV, 100),
    )
}
"""The contract's preset table, row by row."""

DEFAULT_PRESET: Final = "dominicana"
REGION_PRESETS: Final[dict[str, str]] = {"VE": "venezuela", "DO": "dominicana"}
"""The preset a new mesa starts from where the player's language says the country (``es-VE``:
Venezuela's table; ``es-DO``: the Dominican one); anywhere else, :data:`DEFAULT_PRESET`."""
OPTIONS: Final[tuple[str, ...]] = tuple(
    f.name for f in dataclasses.fields(Rules) if f.name != "preset"
)
