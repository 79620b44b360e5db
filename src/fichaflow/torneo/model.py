"""A torneo and its record: the settings, the entrants, the rounds and the results log.

The record is the whole truth of a tournament, as a game record is of a partida
(``docs/torneos.md``, section «El registro»): the standings and every check are computed from
it. Results are never overwritten: each one entered is a line of the log (who, when, what), and
a correction is one more line for the same table, so the audit trail is the log itself and the
standings can change only through it.

Every action checks everything before it changes anything: a refusal raises a
:class:`~fichaflow.core.errors.FichaFlowError` (``error.torneo.*``) and leaves the torneo as it
was. Times (``at``) and seeds are handed in by the caller; nothing here reads a clock or draws a
random number.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final, TypeVar

from fichaflow.core.deal import commitment
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.names import LABEL_MAX, NAME_MAX, player_name
from fichaflow.core.record import parse_record, replay
from fichaflow.core.rules import Mode, Rules

FORMAT_VERSION: Final = 1


class Format(StrEnum):
    PAIRS = "pairs"
    """Parejas fijas: each entrant is a pair that plays every round together."""
    INDIVIDUAL = "individual"
    """Each entrant is one player; partners and rivals rotate by a published schedule."""


class System(StrEnum):
    ROUND_ROBIN = "round_robin"
    SWISS = "swiss"
    ROTATION = "rotation"
    """The individual format's schedule (the only system it uses)."""


class Length(StrEnum):
    TARGET = "target"
    """A partida ends when a side reaches the rules' target."""
    TIME = "time"
    """A partida ends when time is up: the hand in play is finished and the higher score wins; a
    tie plays one more hand."""


TIEBREAKS: Final = ("pg", "diff", "pf", "pc", "h2h", "mp")
"""The figures a ranking may use, each best first: partidas won, points for minus points against,
points for, points against (fewer is better), head-to-head among the tied, matchpoints."""

DEFAULT_TIEBREAKS: Final = ("pg", "diff", "pf", "h2h")
DUPLICATE_TIEBREAKS: Final = ("mp", "diff", "pf")
MAX_ROUNDS: Final = 99
MAX_ENTRANTS: Final = 5000
MAX_DEALS: Final = 40
MAX_POINTS: Final = 10_000
MAX_MINUTES: Final = 600
MIN_MINUTES: Final = 0.05
"""The shortest partida by time: three seconds (a fraction of a minute is allowed, for a
demonstration or a test; a real torneo gives whole minutes)."""
MAX_TEXT: Final = 200

Side = tuple[int, ...]
"""The entrants who sit on one side of a table: one pair, or two players of the individual
format (in seat order: seats 0 and 2, or 1 and 3)."""


def fail(code: str, **params: Any) -> FichaFlowError:
    return FichaFlowError(code, **params)


@dataclass(frozen=True, slots=True)
class Settings:
    """What the organizer decides before the first round."""

    name: str
    date: str
    rules: Rules
    format: Format = Format.PAIRS
    length: Length = Length.TARGET
    minutes: float | None = None
    """With ``length`` time: how long each partida lasts (whole minutes, or a fraction)."""
    rounds: int = 5
    system: System = System.SWISS
    duplicate_deals: int = 0
    """Dominó duplicado: how many deals every table of a round plays (0: not duplicate)."""
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS
    forfeit_points: int = 0
    """The points for the side that shows up when the other does not, and for a bye (the rules'
    target unless the organizer says otherwise)."""

    @property
    def duplicate(self) -> bool:
        return self.duplicate_deals > 0

    @property
    def per_side(self) -> int:
        """Entrants per side of a table: 1 pair, or 2 players."""
        return 1 if self.format is Format.PAIRS else 2


@dataclass(slots=True)
class Entrant:
    """A pair (two players' names) or a player. ``joined`` is the first round it plays (a late
    arrival joins from the next round to be made); ``withdrawn`` is the last round it was part
    of (it is not paired after it)."""

    id: int
    name: str
    players: tuple[str, ...] = ()
    joined: int = 1
    withdrawn: int | None = None

    def plays_in(self, round_number: int) -> bool:
        return self.joined <= round_number and (
            self.withdrawn is None or round_number <= self.withdrawn
        )


@dataclass(frozen=True, slots=True)
class Table:
    number: int
    a: Side
    b: Side
    """Side ``a`` sits at seats 0 and 2 («norte–sur» in a duplicate round), ``b`` at 1 and 3."""

    def side_of(self, entrant: int) -> str | None:
        return "a" if entrant in self.a else "b" if entrant in self.b else None


def seat_names(entrant: Callable[[int], Entrant], table: Table) -> list[str]:
    """Who sits at each seat of ``table`` (side a at 0 and 2, b at 1 and 3), the entrants looked
    up by ``entrant``: a pair's own players when it named them, else the pair's name (the game
    numbers chairs that share a name); a chair's name is at most a person's length."""
    names = []
    for seat in range(4):
        side = table.a if seat % 2 == 0 else table.b
        half = 0 if seat < 2 else 1
        if len(side) == 2:
            names.append(entrant(side[half]).name)
            continue
        one = entrant(side[0])
        names.append(one.players[half] if one.players else one.name)
    return [n[:NAME_MAX].strip() for n in names]


def sheet_names(entrant: Callable[[int], Entrant], table: Table) -> list[str]:
    """The seats' names for an anotador sheet, which seats nobody twice: a name that repeats an
    earlier seat's (a pair that gave no players' names, two players called the same) gets its
    seat's number, «Ana y Beto (3)»."""
    out: list[str] = []
    for seat, given in enumerate(seat_names(entrant, table)):
        shown = given
        if any(given.casefold() == other.casefold() for other in out):
            shown = f"{given[: NAME_MAX - 4].strip()} ({seat + 1})"
        out.append(shown)
    return out


@dataclass(frozen=True, slots=True)
class Round:
    number: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()
    """Who rests this round and is credited a bye (a won partida, ``forfeit_points`` to 0)."""
    made_after: int = 0
    """How many lines the results log had when this round was paired (Swiss pairs by the
    standings of that moment, and ``torneo check`` pairs again from the same lines)."""
    commitment: str | None = None
    """Duplicate: SHA-256 of the round's seed, published before the round is played."""
    seed: str | None = None
    """Duplicate: the seed, revealed when the round is over (absent from a public copy before)."""

    def table(self, number: int) -> Table:
        for table in self.tables:
            if table.number == number:
                return table
        raise fail("torneo.unknown_table", round=self.number, table=number)


@dataclass(frozen=True, slots=True)
class Result:
    """What happened at a table: a final score (``a``'s points, ``b``'s), a forfeit (the side
    named did not show up), or, in a duplicate round, each deal's points."""

    score: tuple[int, int] | None = None
    forfeit: str | None = None
    deals: tuple[tuple[int, int], ...] | None = None
    record: Any = None
    """The record of the partida if it was played online (``docs/records.md``), kept as is."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the results log: a result entered, or a correction of an earlier one."""

    round: int
    table: int
    result: Result
    by: str
    at: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class Correction:
    """A line of the audit trail: who changed a table's result, when, from what to what."""

    round: int
    table: int
    before: Result
    after: Result
    by: str
    at: str
    note: str


def _text(value: object, what: str, *, empty: bool = False) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT or (not empty and not value.strip()):
        raise fail("torneo.bad_text", what=what, limit=MAX_TEXT)
    return value.strip()


def _name(value: object, limit: int = NAME_MAX) -> str:
    """A person's name (or a pair's, twice as long) by the one rule, ``core.names``."""
    if not isinstance(value, str):
        raise fail("torneo.bad_text", what="name", limit=limit)
    return player_name(value, limit)


E = TypeVar("E", bound=StrEnum)


def _whole(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise fail("torneo.bad_number", what=what, low=low, high=high)
    return value


def _minutes(value: object) -> float:
    """A by-time partida's minutes: a number from ``MIN_MINUTES`` to ``MAX_MINUTES`` (kept a
    whole number when it is one)."""
    ok = isinstance(value, int | float) and not isinstance(value, bool)
    if not ok or not MIN_MINUTES <= value <= MAX_MINUTES:  # type: ignore[operator]
        raise fail("torneo.bad_minutes", low=MIN_MINUTES, high=MAX_MINUTES)
    assert isinstance(value, int | float)
    return int(value) if float(value).is_integer() else float(value)


def _choice(kind: type[E], value: object, what: str) -> E:
    try:
        if not isinstance(value, str):
            raise ValueError(value)
        return kind(value)
    except ValueError:
        allowed = ", ".join(str(v) for v in kind)
        raise fail("torneo.bad_choice", what=what, value=value, allowed=allowed) from None


def _mapping(value: object, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise fail("torneo.shape", what=what)
    return value


def _list(value: object, what: str) -> Sequence[Any]:
    if not isinstance(value, list):
        raise fail("torneo.shape", what=what)
    return value


def _known(data: Mapping[str, Any], allowed: Sequence[str], what: str) -> None:
    for key in data:
        if key not in allowed:
            raise fail("torneo.unknown_key", key=key, what=what, allowed=", ".join(allowed))


SETTINGS_KEYS: Final = (
    "name", "date", "rules", "format", "length", "minutes", "rounds", "pairing", "duplicate",
    "tiebreaks", "forfeit_points",
)  # fmt: skip


def settings_from(data: Mapping[str, Any]) -> Settings:
    """The settings of a torneo from its JSON form, every value checked; the rules are read by
    :meth:`Rules.load`, exactly as a mesa's are, and must be a parejas mode."""
    rules = Rules.load(data.get("rules"))
    if rules.mode is not Mode.PAREJAS:
        raise fail("torneo.not_parejas", preset=rules.preset)
    fmt = _choice(Format, data.get("format", "pairs"), "format")
    length = _choice(Length, data.get("length", "target"), "length")
    minutes = None
    if length is Length.TIME:
        minutes = _minutes(data.get("minutes"))
    elif data.get("minutes") is not None:
        raise fail("torneo.minutes_without_time")
    default_system = "rotation" if fmt is Format.INDIVIDUAL else "swiss"
    system = _choice(System, data.get("pairing", default_system), "pairing")
    if (fmt is Format.INDIVIDUAL) != (system is System.ROTATION):
        raise fail("torneo.system_for_format", format=fmt, pairing=system)
    duplicate = _whole(data.get("duplicate", 0), "duplicate", 0, MAX_DEALS)
    if duplicate and fmt is not Format.PAIRS:
        raise fail("torneo.duplicate_pairs_only")
    default_breaks = DUPLICATE_TIEBREAKS if duplicate else DEFAULT_TIEBREAKS
    breaks = data.get("tiebreaks", list(default_breaks))
    if not isinstance(breaks, list) or not breaks:
        raise fail("torneo.bad_tiebreaks", allowed=", ".join(TIEBREAKS))
    for key in breaks:
        if key not in TIEBREAKS or breaks.count(key) > 1:
            raise fail("torneo.bad_tiebreaks", allowed=", ".join(TIEBREAKS))
    if "mp" in breaks and not duplicate:
        raise fail("torneo.mp_without_duplicate")
    forfeit = _whole(data.get("forfeit_points", rules.target), "forfeit_points", 0, MAX_POINTS)
    return Settings(
        name=_text(data.get("name"), "name"),
        date=_text(data.get("date", ""), "date", empty=True),
        rules=rules,
        format=fmt,
        length=length,
        minutes=minutes,
        rounds=_whole(data.get("rounds"), "rounds", 1, MAX_ROUNDS),
        system=system,
        duplicate_deals=duplicate,
        tiebreaks=tuple(breaks),
        forfeit_points=forfeit,
    )


def settings_dump(settings: Settings) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": settings.name,
        "date": settings.date,
        "rules": settings.rules.dump(),
        "format": str(settings.format),
        "length": str(settings.length),
        "rounds": settings.rounds,
        "pairing": str(settings.system),
        "duplicate": settings.duplicate_deals,
        "tiebreaks": list(settings.tiebreaks),
        "forfeit_points": settings.forfeit_points,
    }
    if settings.minutes is not None:
        out["minutes"] = settings.minutes
    return out


def _entrant(item: object, number: int, fmt: Format) -> Entrant:
    """An entrant as the organizer types it: a name, or ``{"name": ..., "players": [...]}``."""
    if isinstance(item, str):
        item = {"name": item}
    data = _mapping(item, "entrant")
    _known(data, ("id", "name", "players", "joined", "withdrawn"), "entrant")
    players = tuple(_name(p) for p in _list(data.get("players", []), "players"))
    if fmt is Format.PAIRS and players and len(players) != 2:
        raise fail("torneo.pair_players", name=data.get("name"))
    if fmt is Format.INDIVIDUAL and players:
        raise fail("torneo.player_players", name=data.get("name"))
    name = _name(data.get("name"), NAME_MAX if fmt is Format.INDIVIDUAL else LABEL_MAX)
    joined = _whole(data.get("joined", 1), "joined", 1, MAX_ROUNDS + 1)
    withdrawn = data.get("withdrawn")
    if withdrawn is not None:
        withdrawn = _whole(withdrawn, "withdrawn", joined - 1, MAX_ROUNDS)
    if "id" in data and data["id"] != number:
        raise fail("torneo.entrant_id", found=data["id"], expected=number)
    return Entrant(
        id=number,
        name=name,
        players=players,
        joined=joined,
        withdrawn=withdrawn,
    )


def entrant_dump(entrant: Entrant) -> dict[str, Any]:
    out: dict[str, Any] = {"id": entrant.id, "name": entrant.name}
    if entrant.players:
        out["players"] = list(entrant.players)
    if entrant.joined != 1:
        out["joined"] = entrant.joined
    if entrant.withdrawn is not None:
        out["withdrawn"] = entrant.withdrawn
    return out


def _score(value: object, what: str) -> tuple[int, int]:
    pair = _list(value, what)
    if len(pair) != 2:
        raise fail("torneo.shape", what=what)
    return (_whole(pair[0], what, 0, MAX_POINTS), _whole(pair[1], what, 0, MAX_POINTS))


def result_from(data: Mapping[str, Any]) -> Result:
    """A result from its JSON form: ``score`` or ``forfeit`` or ``deals`` (exactly one)."""
    given = [k for k in ("score", "forfeit", "deals") if data.get(k) is not None]
    if len(given) != 1:
        raise fail("torneo.result_kind")
    record = data.get("record")
    if "score" in given:
        return Result(score=_score(data["score"], "score"), record=record)
    if "forfeit" in given:
        absent = data["forfeit"]
        if absent not in ("a", "b"):
            raise fail("torneo.bad_choice", what="forfeit", value=absent, allowed="a, b")
        return Result(forfeit=absent, record=record)
    deals = tuple(_score(d, "deals") for d in _list(data["deals"], "deals"))
    return Result(deals=deals, record=record)


def result_dump(result: Result) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if result.score is not None:
        out["score"] = list(result.score)
    if result.forfeit is not None:
        out["forfeit"] = result.forfeit
    if result.deals is not None:
        out["deals"] = [list(d) for d in result.deals]
    if result.record is not None:
        out["record"] = result.record
    return out


def from_partida(data: object) -> Result:
    """The result of a partida played online, from its record (``docs/records.md``): the final
    score its replay gives, with the record kept beside it."""
    partida = replay(parse_record(data))
    if not partida.over:
        raise fail("torneo.partida_unfinished")
    if partida.rules.teams != 2:
        raise fail("torneo.not_parejas", preset=partida.rules.preset)
    a, b = partida.scores
    return Result(score=(a, b), record=data)


def check_result(settings: Settings, result: Result) -> None:
    """Refuse a result these settings cannot produce: a tie, a winner short of the target, a
    duplicate round without its deals (or a score in a duplicate round)."""
    if result.forfeit is not None:
        return
    if settings.duplicate:
        if result.deals is None:
            raise fail("torneo.duplicate_needs_deals", deals=settings.duplicate_deals)
        if len(result.deals) != settings.duplicate_deals:
            raise fail("torneo.deal_count", found=len(result.deals), deals=settings.duplicate_deals)
        for a, b in result.deals:
            if a and b:
                raise fail("torneo.deal_both_scored", a=a, b=b)
        return
    if result.score is None:
        raise fail("torneo.needs_score")
    a, b = result.score
    if a == b:
        raise fail("torneo.tied_score", score=a)
    if settings.length is Length.TARGET and max(a, b) < settings.rules.target:
        raise fail("torneo.short_of_target", score=max(a, b), target=settings.rules.target)


@dataclass(slots=True)
class Torneo:
    """The whole tournament. Build it with :func:`create` or :func:`load`."""

    settings: Settings
    entrants: list[Entrant]
    rounds: list[Round] = field(default_factory=list)
    log: list[Entry] = field(default_factory=list)

    def entrant(self, number: int) -> Entrant:
        if not 1 <= number <= len(self.entrants):
            raise fail("torneo.unknown_entrant", entrant=number)
        return self.entrants[number - 1]

    def round(self, number: int) -> Round:
        if not 1 <= number <= len(self.rounds):
            raise fail("torneo.unknown_round", round=number, rounds=len(self.rounds))
        return self.rounds[number - 1]

    def results(self, upto: int | None = None) -> dict[tuple[int, int], Result]:
        """Each table's result as the log (its first ``upto`` lines) last says it."""
        return {(e.round, e.table): e.result for e in self.log[:upto]}

    def audit(self) -> list[Correction]:
        """Every correction: a line of the log for a table that already had a result."""
        seen: dict[tuple[int, int], Result] = {}
        out = []
        for e in self.log:
            key = (e.round, e.table)
            if key in seen:
                out.append(Correction(e.round, e.table, seen[key], e.result, e.by, e.at, e.note))
            seen[key] = e.result
        return out

    def round_complete(self, number: int) -> bool:
        results = self.results()
        return all((number, t.number) in results for t in self.round(number).tables)

    def takes_entrants(self) -> bool:
        """Whether a new entrant would still play: before the first round, or in a Swiss while
        rounds remain to be paired (a round robin's and the rotation's schedules are fixed)."""
        if not self.rounds:
            return True
        swiss = self.settings.system is System.SWISS
        return swiss and len(self.rounds) < self.settings.rounds

    def active(self, round_number: int) -> list[int]:
        return [e.id for e in self.entrants if e.plays_in(round_number)]

    # The organizer's actions: each checks everything first, then changes the torneo.

    def register(self, name: object, players: Sequence[object] = ()) -> Entrant:
        """A late arrival: plays from the next round to be made (Swiss only: a round robin's
        and the rotation's schedules are fixed at the first round)."""
        if self.rounds and self.settings.system is not System.SWISS:
            raise fail("torneo.late_fixed_schedule")
        if len(self.entrants) >= MAX_ENTRANTS:
            raise fail("torneo.too_many_entrants", limit=MAX_ENTRANTS)
        data: dict[str, Any] = {"name": name, "joined": len(self.rounds) + 1}
        if players:
            data["players"] = list(players)
        entrant = _entrant(data, len(self.entrants) + 1, self.settings.format)
        _check_names([*self.entrants, entrant])
        self.entrants.append(entrant)
        return entrant

    def withdraw(self, number: int) -> Entrant:
        """The entrant leaves: it is not paired after the rounds made so far (in a round robin
        its scheduled rivals get a bye; in the individual format its side forfeits)."""
        entrant = self.entrant(number)
        if entrant.withdrawn is not None:
            raise fail("torneo.already_withdrawn", name=entrant.name)
        entrant.withdrawn = max(len(self.rounds), entrant.joined - 1)
        return entrant

    def enter(
        self,
        round_number: int,
        table: int,
        result: Result,
        by: object,
        at: object,
        note: object = "",
    ) -> Entry:
        """A result for a table, or a correction if it already has one (a line of the log
        either way, with who and when)."""
        self.round(round_number).table(table)
        check_result(self.settings, result)
        entry = Entry(
            round_number,
            table,
            result,
            _text(by, "by"),
            _text(at, "at"),
            _text(note, "note", empty=True),
        )
        self.log.append(entry)
        return entry

    def next_round(self, seed: str | None = None) -> Round:
        """Pair the next round (the previous one must be complete). A duplicate round needs a
        fresh secret ``seed``: the round keeps it and publishes its commitment."""
        from fichaflow.torneo.pairing import pair_round

        number = len(self.rounds) + 1
        if number > self.settings.rounds:
            raise fail("torneo.no_more_rounds", rounds=self.settings.rounds)
        if self.rounds and not self.round_complete(number - 1):
            raise fail("torneo.round_open", round=number - 1)
        if self.settings.duplicate and not seed:
            raise fail("torneo.duplicate_needs_seed")
        tables, byes = pair_round(self, number, len(self.log))
        promised = commitment(seed) if self.settings.duplicate and seed else None
        made = Round(number, tables, byes, len(self.log), promised, seed if promised else None)
        self.rounds.append(made)
        return made


def create(data: object) -> Torneo:
    """A new torneo from the organizer's JSON form: the settings and ``entrants``."""
    spec = _mapping(data, "torneo")
    _known(spec, (*SETTINGS_KEYS, "entrants"), "torneo")
    settings = settings_from(spec)
    items = _list(spec.get("entrants", []), "entrants")
    if len(items) > MAX_ENTRANTS:
        raise fail("torneo.too_many_entrants", limit=MAX_ENTRANTS)
    entrants = [_entrant(item, i, settings.format) for i, item in enumerate(items, 1)]
    _check_names(entrants)
    return Torneo(settings, entrants)


def _check_names(entrants: Sequence[Entrant]) -> None:
    seen: set[str] = set()
    for e in entrants:
        if e.name.casefold() in seen:
            raise fail("torneo.same_name", name=e.name)
        seen.add(e.name.casefold())


def _side(value: object, per_side: int, entrants: int) -> Side:
    items = _list(value, "table")
    if len(items) != per_side:
        raise fail("torneo.side_size", found=len(items), expected=per_side)
    return tuple(_whole(i, "table", 1, entrants) for i in items)


def _round(data: object, number: int, torneo: Torneo, log_size: int) -> Round:
    spec = _mapping(data, "round")
    _known(spec, ("number", "tables", "byes", "made_after", "commitment", "seed"), "round")
    if spec.get("number", number) != number:
        raise fail("torneo.round_number", found=spec.get("number"), expected=number)
    count, per_side = len(torneo.entrants), torneo.settings.per_side
    tables = []
    for t, item in enumerate(_list(spec.get("tables", []), "tables"), 1):
        table = _mapping(item, "table")
        _known(table, ("table", "a", "b"), "table")
        if table.get("table", t) != t:
            raise fail("torneo.table_number", found=table.get("table"), expected=t)
        tables.append(
            Table(t, _side(table.get("a"), per_side, count), _side(table.get("b"), per_side, count))
        )
    byes = tuple(_whole(i, "byes", 1, count) for i in _list(spec.get("byes", []), "byes"))
    seated = [i for t in tables for i in (*t.a, *t.b)] + list(byes)
    for i in seated:
        if seated.count(i) > 1:
            raise fail("torneo.seated_twice", round=number, name=torneo.entrant(i).name)
    promised, seed = spec.get("commitment"), spec.get("seed")
    if torneo.settings.duplicate:
        if not isinstance(promised, str) or len(promised) != 64:
            raise fail("torneo.no_commitment", round=number)
        if seed is not None and not isinstance(seed, str):
            raise fail("torneo.shape", what="seed")
    made_after = _whole(spec.get("made_after", 0), "made_after", 0, log_size)
    return Round(number, tuple(tables), byes, made_after, promised, seed)


def round_dump(made: Round, *, public: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {
        "number": made.number,
        "tables": [{"table": t.number, "a": list(t.a), "b": list(t.b)} for t in made.tables],
        "byes": list(made.byes),
        "made_after": made.made_after,
    }
    if made.commitment is not None:
        out["commitment"] = made.commitment
    if made.seed is not None and not public:
        out["seed"] = made.seed
    return out


def load(data: object) -> Torneo:
    """A torneo from its record (what :func:`dump` writes), every part checked for shape: the
    entrants each table names exist, nobody sits twice in a round, results name real tables
    and are results these settings can produce. ``torneo check`` checks the rest."""
    spec = _mapping(data, "torneo")
    _known(spec, ("fichaflow_torneo", "settings", "entrants", "rounds", "log"), "torneo")
    if spec.get("fichaflow_torneo") != FORMAT_VERSION:
        raise fail("torneo.not_a_torneo", version=FORMAT_VERSION)
    settings_data = _mapping(spec.get("settings"), "settings")
    _known(settings_data, SETTINGS_KEYS, "settings")
    settings = settings_from(settings_data)
    items = _list(spec.get("entrants", []), "entrants")
    if len(items) > MAX_ENTRANTS:
        raise fail("torneo.too_many_entrants", limit=MAX_ENTRANTS)
    entrants = [_entrant(item, i, settings.format) for i, item in enumerate(items, 1)]
    _check_names(entrants)
    torneo = Torneo(settings, entrants)
    log_items = _list(spec.get("log", []), "log")
    rounds = _list(spec.get("rounds", []), "rounds")
    if len(rounds) > settings.rounds:
        raise fail("torneo.no_more_rounds", rounds=settings.rounds)
    torneo.rounds = [_round(r, n, torneo, len(log_items)) for n, r in enumerate(rounds, 1)]
    for item in log_items:
        line = _mapping(item, "log")
        _known(
            line,
            ("round", "table", "score", "forfeit", "deals", "record", "by", "at", "note"),
            "log",
        )
        round_number = _whole(line.get("round"), "round", 1, MAX_ROUNDS)
        table = _whole(line.get("table"), "table", 1, MAX_ENTRANTS)
        torneo.enter(
            round_number,
            table,
            result_from(line),
            line.get("by"),
            line.get("at"),
            line.get("note", ""),
        )
    return torneo


def dump(torneo: Torneo, *, public: bool = False) -> dict[str, Any]:
    """The record. ``public`` leaves out the seeds of rounds still being played."""
    rounds = []
    for made in torneo.rounds:
        hide = public and not torneo.round_complete(made.number)
        rounds.append(round_dump(made, public=hide))
    log = []
    for e in torneo.log:
        line: dict[str, Any] = {"round": e.round, "table": e.table, **result_dump(e.result)}
        line |= {"by": e.by, "at": e.at}
        if e.note:
            line["note"] = e.note
        log.append(line)
    return {
        "fichaflow_torneo": FORMAT_VERSION,
        "settings": settings_dump(torneo.settings),
        "entrants": [entrant_dump(e) for e in torneo.entrants],
        "rounds": rounds,
        "log": log,
    }


def loads(text: str | bytes) -> Torneo:
    """A torneo record from JSON text."""
    return load(parse_json(text))


def parse_json(text: str | bytes) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise fail("torneo.not_json", line=exc.lineno, column=exc.colno) from None
    except (ValueError, UnicodeDecodeError):
        raise fail("torneo.not_text") from None


def dumps(torneo: Torneo, *, public: bool = False) -> str:
    return json.dumps(dump(torneo, public=public), ensure_ascii=False, indent=1) + "\n"


def copy(torneo: Torneo) -> Torneo:
    """An independent copy (the entrants are the only mutable parts)."""
    return Torneo(
        torneo.settings,
        [dataclasses.replace(e) for e in torneo.entrants],
        list(torneo.rounds),
        list(torneo.log),
    )
