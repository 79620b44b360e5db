"""Standings as federations count them: PJ, PG, PP, PF, PC, the difference, and the tie-breaks.

Each figure, and how a bye, a forfeit and a duplicate round count, is in ``docs/torneos.md``:

* a partida's winner has the higher final score; PF and PC are the final scores of the entrant's
  side and of the other side;
* a bye and a forfeit won count as a partida won ``forfeit_points`` to 0; a forfeit lost as a
  partida lost 0 to ``forfeit_points``;
* in a duplicate round PF and PC are the sums of the deals' points, the side with more points
  wins the table (equal sums: neither), and matchpoints (MP) come from
  :func:`fichaflow.torneo.duplicate.matchpoints`.

The ranking sorts by the settings' ``tiebreaks`` in order, each best first (PC: fewer first);
``h2h`` compares only the entrants still tied when it is reached, by the partidas each won
against the others of that group. Entrants tied on every figure keep their registration order,
so the order is always total.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fichaflow.torneo.model import Result, Round, Torneo


@dataclass(slots=True)
class Line:
    """One entrant's figures."""

    entrant: int
    played: int = 0
    won: int = 0
    lost: int = 0
    points_for: int = 0
    points_against: int = 0
    byes: int = 0
    matchpoints: float = 0.0
    matchpoints_top: float = 0.0
    beat: dict[int, int] = field(default_factory=dict)
    """Partidas won against each rival (for head-to-head)."""

    @property
    def diff(self) -> int:
        return self.points_for - self.points_against

    @property
    def percent(self) -> float | None:
        """Matchpoints as a share of the most that could be had (duplicate)."""
        return 100 * self.matchpoints / self.matchpoints_top if self.matchpoints_top else None


@dataclass(frozen=True, slots=True)
class Standing:
    position: int
    line: Line


def _credit(line: Line, pf: int, pc: int, won: bool | None, rivals: Iterable[int]) -> None:
    line.played += 1
    line.points_for += pf
    line.points_against += pc
    if won is True:
        line.won += 1
        for r in rivals:
            line.beat[r] = line.beat.get(r, 0) + 1
    elif won is False:
        line.lost += 1


def tally(
    torneo: Torneo, results: Mapping[tuple[int, int], Result], rounds: Sequence[Round]
) -> dict[int, Line]:
    """Every entrant's figures over ``rounds`` with ``results`` (tables without one yet do not
    count)."""
    from fichaflow.torneo.duplicate import round_matchpoints

    settings = torneo.settings
    lines = {e.id: Line(e.id) for e in torneo.entrants}
    give = settings.forfeit_points
    for made in rounds:
        for bye in made.byes:
            lines[bye].byes += 1
            _credit(lines[bye], give, 0, True, ())
        for table in made.tables:
            result = results.get((made.number, table.number))
            if result is None:
                continue
            if result.forfeit is not None:
                absent = table.a if result.forfeit == "a" else table.b
                present = table.b if result.forfeit == "a" else table.a
                for e in present:
                    _credit(lines[e], give, 0, True, absent)
                for e in absent:
                    _credit(lines[e], 0, give, False, ())
                continue
            if result.deals is not None:
                a = sum(d[0] for d in result.deals)
                b = sum(d[1] for d in result.deals)
            else:
                assert result.score is not None
                a, b = result.score
            a_won = None if a == b else a > b
            for e in table.a:
                _credit(lines[e], a, b, a_won, table.b)
            for e in table.b:
                _credit(lines[e], b, a, None if a_won is None else not a_won, table.a)
        if settings.duplicate:
            for entrant, (mp, top) in round_matchpoints(torneo, made, results).items():
                lines[entrant].matchpoints += mp
                lines[entrant].matchpoints_top += top
    return lines


def _figure(line: Line, key: str) -> float:
    match key:
        case "pg":
            return line.won
        case "diff":
            return line.diff
        case "pf":
            return line.points_for
        case "pc":
            return -line.points_against
        case "mp":
            return line.matchpoints
    raise ValueError(key)


def order(lines: Mapping[int, Line], ids: Sequence[int], keys: Sequence[str]) -> list[int]:
    """``ids`` best first by ``keys`` in turn; ties on every key keep registration order."""
    if len(ids) <= 1:
        return list(ids)
    if not keys:
        return sorted(ids)
    key, rest = keys[0], keys[1:]
    if key == "h2h":
        group = set(ids)
        values = {i: float(sum(n for r, n in lines[i].beat.items() if r in group)) for i in ids}
    else:
        values = {i: _figure(lines[i], key) for i in ids}
    groups: dict[float, list[int]] = defaultdict(list)
    for i in ids:
        groups[values[i]].append(i)
    out: list[int] = []
    for value in sorted(groups, reverse=True):
        out.extend(order(lines, groups[value], rest))
    return out


def standings(
    torneo: Torneo, upto: int | None = None, rounds: Sequence[Round] | None = None
) -> list[Standing]:
    """The standings, best first: from the first ``upto`` lines of the results log (all of
    them by default) over ``rounds`` (all made so far by default). Withdrawn entrants stay in
    the table with what they played."""
    lines = tally(torneo, torneo.results(upto), torneo.rounds if rounds is None else rounds)
    ranked = order(lines, sorted(lines), torneo.settings.tiebreaks)
    return [Standing(n, lines[i]) for n, i in enumerate(ranked, 1)]


def standing_json(torneo: Torneo, s: Standing) -> dict[str, Any]:
    """A line of the standings as the CLI's ``--json``, the API and the exports give it."""
    line = s.line
    out: dict[str, Any] = {
        "position": s.position,
        "entrant": line.entrant,
        "name": torneo.entrant(line.entrant).name,
        "pj": line.played,
        "pg": line.won,
        "pp": line.lost,
        "pf": line.points_for,
        "pc": line.points_against,
        "diff": line.diff,
        "byes": line.byes,
    }
    if torneo.settings.duplicate:
        out["mp"] = round(line.matchpoints, 2)
        out["percent"] = None if line.percent is None else round(line.percent, 2)
    return out
