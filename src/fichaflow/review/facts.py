"""What a seat could know that mattered, said in Spanish (and English) the way players say it.

Each fact is read from the seat's view with the tile counting and pass reading of
:mod:`fichaflow.core.inference`, and is stated only when it is true in the position: "Beto no
tiene ni 4 ni 1 (pasó al 4)" only when the deductions prove it, "tu 6-6 es doble muerto" only when
the double can never be placed. A fact is a code and its parameters (seats, tiles, numbers), so
that a program reads it as data and every interface words it the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from fichaflow import i18n
from fichaflow.core.explain import seat_names
from fichaflow.core.hand import End, Move
from fichaflow.core.inference import (
    Knowledge,
    announced,
    closes,
    deduce,
    ends_after,
    line_tiles,
    partner,
)
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import (
    ALL_TILES,
    PIPS,
    SUIT,
    name,
    other_half,
    pips_of,
    tile_of,
)
from fichaflow.core.view import SeatView

NEAR_TRANQUE: Final = 2
"""After a move, this many tiles or fewer left to fit the ends is a tranque near."""
TRANQUE_IN_SIGHT: Final = 3
"""Before a move, this many tiles or fewer left to fit the ends is a tranque in sight."""


@dataclass(frozen=True, slots=True)
class Fact:
    """One true statement about a position or a move. ``params`` name seats (``who``), tiles
    (``tile``, ``double``, ``lead``), numbers (``a``, ``b``, ``number``) and counts."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def text(self, rules: Rules, names: Sequence[str] | None, lang: str = "es") -> str:
        return render(self, rules, names, lang)

    def to_json(self, rules: Rules, names: Sequence[str] | None) -> dict[str, Any]:
        params = {k: _plain(k, v) for k, v in self.params.items()}
        return {
            "code": self.code,
            "params": params,
            "es": self.text(rules, names, "es"),
            "en": self.text(rules, names, "en"),
        }


# -- reading the position ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reading:
    """What one decision's facts are read from: the view and what it proves."""

    view: SeatView
    know: Knowledge
    line: int
    owners: tuple[tuple[int, int, bool] | None, tuple[int, int, bool] | None]
    """For each end (left, right): who put its number there, the number, and whether it was the
    salida; None before the salida."""


def read(view: SeatView) -> Reading:
    return Reading(view, deduce(view), line_tiles(view), _end_owners(view))


def _end_owners(
    view: SeatView,
) -> tuple[tuple[int, int, bool] | None, tuple[int, int, bool] | None]:
    left: tuple[int, int, bool] | None = None
    right: tuple[int, int, bool] | None = None
    for turn in view.history:
        if turn.kind != "play":
            continue
        if turn.end is None:
            assert turn.lead_left is not None
            left = (turn.seat, turn.lead_left, True)
            right = (turn.seat, other_half(turn.tile, turn.lead_left), True)
        elif turn.end is End.LEFT:
            left = (turn.seat, other_half(turn.tile, turn.left), False)
        else:
            right = (turn.seat, other_half(turn.tile, turn.right), False)
    return left, right


def _is_dead(double_number: int, line: int, left: int, right: int) -> bool:
    """A double can never be placed: every other tile of its number is on the line (so no end
    will show the number again) and no end shows it now."""
    double = tile_of(double_number, double_number)
    others = SUIT[double_number] & ~(1 << double)
    return not others & ~line and double_number not in (left, right)


def _passed_to(view: SeatView, seat: int, numbers: Sequence[int]) -> list[int]:
    """Of ``numbers``, those ``seat`` passed to (or drew on) since their last draw: the
    evidence a player reads. Numbers left out were proved by counting."""
    seen: set[int] = set()
    for turn in reversed(view.history):
        if turn.seat != seat or turn.kind == "play":
            continue
        if turn.kind == "draw":
            # Drawn tiles are not bound by earlier passes; the last draw itself proves nothing
            # about the tiles drawn with it.
            break
        seen.update((turn.left, turn.right))
    return [n for n in numbers if n in seen]


def decision_facts(reading: Reading) -> list[Fact]:
    """Facts about the seat's position before it moves."""
    view = reading.view
    out = []
    for number in range(7):
        double = tile_of(number, number)
        if view.tiles >> double & 1 and _is_dead(number, reading.line, view.left, view.right):
            out.append(Fact("dead_double", {"double": double, "number": number}))
    return out


def move_facts(reading: Reading, move: Move, moves: Sequence[Move]) -> list[Fact]:
    """Facts about one candidate ``move`` among ``moves`` (all the seat could play)."""
    view = reading.view
    assert view.seat is not None
    if not move.is_play:
        return []
    tile = move.tile
    own_after = view.tiles & ~(1 << tile)
    out: list[Fact] = []
    if not own_after:
        out.append(Fact("domino", {"tile": tile}))
    else:
        out += _play_facts(reading, move, moves, own_after)
    if move.end is not None and sum(1 for m in moves if m.tile == tile) > 1:
        # The tile fits both ends: say which end each fact speaks of.
        out = [Fact(f.code, {**f.params, "end": move.end.word}) for f in out]
    return out


def _play_facts(reading: Reading, move: Move, moves: Sequence[Move], own_after: int) -> list[Fact]:
    view = reading.view
    tile = move.tile
    out: list[Fact] = []
    if closes(view, move, reading.line):
        out.append(Fact("closes", {"tile": tile, "pips": pips_of(own_after)}))
    else:
        left, right = ends_after(view, move)
        line_after = reading.line | 1 << tile
        fitting = (ALL_TILES & ~line_after & (SUIT[left] | SUIT[right])).bit_count()
        if fitting <= NEAR_TRANQUE:
            out.append(Fact("tranque_near", {"tile": tile, "count": fitting, "a": left,
                                             "b": right}))  # fmt: skip
        why = _tranque_in_sight(reading, moves)
        if why is not None and _heaviest(tile, moves):
            out.append(Fact("heaviest", {"tile": tile, "pips": PIPS[tile], **why}))
        out += _blocking(reading, tile, left, right)
        out += _covering(reading, move, left, right)
        for number in range(7):
            double = tile_of(number, number)
            if (
                own_after >> double & 1
                and _is_dead(number, line_after, left, right)
                and not _is_dead(number, reading.line, view.left, view.right)
            ):
                out.append(Fact("kills_double", {"tile": tile, "double": double}))
    return out


def _tranque_in_sight(reading: Reading, moves: Sequence[Move]) -> dict[str, int] | None:
    """Why a tranque is close now, as a fact's parameters: some candidate closes the hand
    (``closer``), or few tiles outside the line fit the open ends (``count``, ``a``, ``b``)."""
    view = reading.view
    for move in moves:
        if move.is_play and view.tiles != 1 << move.tile and closes(view, move, reading.line):
            return {"closer": move.tile}
    if view.left < 0:
        return None
    fitting = ALL_TILES & ~reading.line & (SUIT[view.left] | SUIT[view.right])
    if fitting.bit_count() <= TRANQUE_IN_SIGHT:
        return {"count": fitting.bit_count(), "a": view.left, "b": view.right}
    return None


def _heaviest(tile: int, moves: Sequence[Move]) -> bool:
    """``tile`` is the heaviest the seat could play, and strictly heavier than some other."""
    weights = {PIPS[m.tile] for m in moves if m.is_play}
    return PIPS[tile] == max(weights) and len(weights) > 1


def _blocking(reading: Reading, tile: int, left: int, right: int) -> list[Fact]:
    """The next player (a rival) surely has nothing for the new ends; in parejas, the same for
    the partner."""
    view, know = reading.view, reading.know
    assert view.seat is not None
    rules = view.rules
    out = []
    ends = sorted({left, right})
    after = (view.seat + 1) % rules.seats
    if all(know.surely_lacks(after, n) for n in ends):
        must = "draw" if view.stock_left else "pass"
        out.append(Fact("next_blocked", {"tile": tile, "who": after, "a": left, "b": right,
                                         "passed": _passed_to(view, after, ends),
                                         "must": must}))  # fmt: skip
    mate = partner(rules, view.seat)
    if mate is not None and all(know.surely_lacks(mate, n) for n in ends):
        out.append(Fact("partner_blocked", {"tile": tile, "who": mate, "a": left, "b": right,
                                            "passed": _passed_to(view, mate, ends)}))  # fmt: skip
    return out


def _covering(reading: Reading, move: Move, left: int, right: int) -> list[Fact]:
    """The move covers the number the partner put on that end, or the number a rival led
    with or announced."""
    view = reading.view
    assert view.seat is not None
    if move.end is None:
        return []
    rules = view.rules
    end = move.end
    owner = reading.owners[int(end)]
    covered = view.left if end is End.LEFT else view.right
    now = left if end is End.LEFT else right
    if owner is None or now == covered:
        return []
    seat, number, salida = owner
    mine = rules.team_of(view.seat)
    if seat == view.seat:
        return []
    side = "partner" if rules.team_of(seat) == mine else "rival"
    lead = view.history[0].tile if view.history else -1
    if salida:
        why = "lead"
    else:
        shown = announced(view)[seat]
        why = "placed_announced" if shown >> number & 1 else "placed"
    if side == "rival" and why == "placed":
        return []  # covering a rival's number is ordinary play unless it is their own number
    return [Fact(f"covers_{side}", {"tile": move.tile, "who": seat, "number": number,
                                    "why": why, "lead": lead})]  # fmt: skip


# -- saying it (the words are the catalogue's fact.* keys) -------------------------------------


def number_word(number: int, lang: str = "es") -> str:
    """How players say an end's number: digits, and the blank by its name."""
    return i18n.text("fact.blank", lang) if number == 0 else str(number)


def _plain(key: str, value: Any) -> Any:
    """A parameter as JSON shows it: tiles by name, everything else as it is."""
    if key in ("tile", "double", "closer") or (key == "lead" and value >= 0):
        return name(value)
    return value


def render(fact: Fact, rules: Rules, names: Sequence[str] | None, lang: str = "es") -> str:
    """The fact as a sentence in ``lang`` (Spanish unless "en")."""

    def t(key: str, **params: object) -> str:
        return i18n.text(f"fact.{key}", lang, **params)

    who = seat_names(rules, names, lang)
    p = dict(fact.params)
    words: dict[str, Any] = {}
    for key in ("tile", "double"):
        if key in p:
            words[key] = name(p[key])
    if "number" in p:
        words["number"] = number_word(p["number"], lang)
    if "pips" in p:
        words["pips"] = t("pips_one") if p["pips"] == 1 else t("pips_many", pips=p["pips"])
    if "who" in p:
        words["who"] = who[p["who"]]
    if "a" in p:
        a, b = number_word(p["a"], lang), number_word(p["b"], lang)
        same = p["a"] == p["b"]
        words["ends"] = t("ends_one" if same else "ends_two", a=a, b=b)
        words["ends_show"] = t("show_one" if same else "show_two", a=a, b=b)
        words["none"] = t("none_one" if same else "none_two", a=a)
    if "count" in p:
        count = p["count"]
        key = "none_left" if count == 0 else "one_left" if count == 1 else "many_left"
        words["count_left"] = t(key, count=count)
        words["fits"] = t("fits_one" if count == 1 else "fits_many")
    if fact.code == "heaviest":
        if "closer" in p:
            words["near"] = t("near_closer", closer=name(p["closer"]))
        else:
            words["near"] = t("near_count", **words)
    if "end" in p and "tile" in words and fact.code != "heaviest":
        words["tile"] += t(f"at_{p['end']}")
    if "passed" in p:
        passed = [t("passed_to", n=number_word(n, lang)) for n in p["passed"]]
        words["evidence"] = t("passed", numbers=t("and").join(passed)) if passed else t("counted")
    if "must" in p:
        words["must"] = t("must_draw" if p["must"] == "draw" else "must_pass")
    if "why" in p:
        words["why"] = t(f"why_{p['why']}")
        show_lead = p["why"] == "placed_announced" and p.get("lead", -1) >= 0
        words["lead_note"] = t("lead_note", lead=name(p["lead"])) if show_lead else ""
    return t(fact.code, **words)
