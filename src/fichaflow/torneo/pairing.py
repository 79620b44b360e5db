"""Pairings: round robin (circle method), Swiss (by standings, no rematch while avoidable) and
the individual format's rotation. Why each works, and what it guarantees, is in
``docs/torneos.md`` (section «Emparejamientos»).

* **Round robin**: the circle method. Entrant 1 stays put, the others turn one place each round;
  ``n`` entrants (``n`` even) meet each other exactly once in ``n − 1`` rounds. With an odd count
  a «descanso» is added, and whoever is drawn against it has a bye that round (each entrant once
  over the ``n`` rounds).
* **Swiss**: entrants in standings order; the best unpaired one meets the closest-ranked it has
  not met, and if the rest can then not be paired without a rematch, the next closest, and so
  on (a complete backtracking search, with the dead ends remembered). It finds a pairing without
  rematches whenever one exists; only when none does does it allow rivals who met once (then
  twice...). With an odd count the bye goes to the lowest-ranked entrant without a previous bye
  (if every one has had one, the lowest-ranked with fewest); if the rest cannot then be paired
  without a rematch, the next lowest-ranked without one (nobody has a second bye while somebody
  has none: that rule comes before the rematch rule).
* **Rotation** (individual format, ``4k`` players): partnerships by the circle method, so in
  ``n − 1`` rounds everyone partners everyone else exactly once and never twice; each round's
  partnerships are put against each other so as to repeat as few rivals as possible (greedy).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

from fichaflow.torneo.model import Round, Side, System, Table, Torneo, fail

SEARCH_STEPS = 200_000
"""The most dead ends the Swiss search backs out of at one rematch level before it gives up and
allows one more meeting. Never reached in the tests or the benchmark (a repeat-free pairing
always exists while fewer than half the entrants' count of rounds have been played, and the
search finds it at once); it bounds the time of a pathological case."""


def circle(count: int) -> list[list[tuple[int | None, int | None]]]:
    """The circle method's rounds for ``count`` entrants (0-based); ``None`` is the descanso of
    an odd count. Round ``r`` pairs position ``i`` with position ``m − 1 − i`` of the list
    ``[0] + the others turned r places``; entrant 0 alternates sides."""
    players: list[int | None] = list(range(count))
    if count % 2:
        players.append(None)
    m = len(players)
    rounds = []
    for r in range(m - 1):
        others = players[1:]
        turned = others[-r:] + others[:-r] if r else others
        order = [players[0], *turned]
        pairs = [(order[i], order[m - 1 - i]) for i in range(m // 2)]
        if r % 2:
            pairs[0] = (pairs[0][1], pairs[0][0])
        rounds.append(pairs)
    return rounds


def meetings(rounds: Sequence[Round]) -> Counter[tuple[int, int]]:
    """How many times each two entrants sat on opposite sides (both orders counted)."""
    met: Counter[tuple[int, int]] = Counter()
    for made in rounds:
        for t in made.tables:
            for x in t.a:
                for y in t.b:
                    met[(x, y)] += 1
                    met[(y, x)] += 1
    return met


def perfect_pairing(
    order: Sequence[int], allowed: Callable[[int, int], bool], steps: int = SEARCH_STEPS
) -> list[tuple[int, int]] | None:
    """Pair all of ``order`` (an even count, best first) so that every pair is ``allowed``:
    the first unpaired takes the first allowed one after it, backing out of dead ends. Returns
    None when no such pairing exists, or after ``steps`` dead ends."""
    n = len(order)
    mask = (1 << n) - 1
    failed: set[int] = set()
    stack: list[tuple[int, int, int]] = []
    start: int | None = None
    dead = 0
    while mask:
        i = (mask & -mask).bit_length() - 1
        j = i + 1 if start is None else start
        found = False
        if mask not in failed:
            while j < n:
                if mask >> j & 1 and allowed(order[i], order[j]):
                    stack.append((i, j, mask))
                    mask &= ~((1 << i) | (1 << j))
                    start, found = None, True
                    break
                j += 1
        if not found:
            failed.add(mask)
            dead += 1
            if not stack or dead > steps:
                return None
            i, j, mask = stack.pop()
            start = j + 1
    return [(order[i], order[j]) for i, j, _ in stack]


def _fresh(met: Counter[tuple[int, int]], most: int, x: int, y: int) -> bool:
    """Whether ``x`` and ``y`` have met at most ``most`` times."""
    return met[(x, y)] <= most


def swiss(
    ranking: Sequence[int],
    met: Counter[tuple[int, int]],
    byes: Counter[int],
    steps: int = SEARCH_STEPS,
) -> tuple[list[tuple[int, int]], int | None]:
    """A Swiss round: pairs best first, and who has the bye (None with an even count)."""
    ranking = list(ranking)
    candidates: list[int | None] = [None]
    if len(ranking) % 2:
        fewest = min(byes[e] for e in ranking)
        candidates = [e for e in reversed(ranking) if byes[e] == fewest]
    level = 0
    while True:
        for bye in candidates:
            rest = [e for e in ranking if e != bye]
            found = perfect_pairing(rest, functools.partial(_fresh, met, level), steps)
            if found is not None:
                return found, bye
        level += 1


EXHAUSTIVE_PARTNERSHIPS = 8
"""Up to this many partnerships a round (16 players), the rotation tries every way of putting
them against each other; beyond it, a greedy choice that swaps rivals between two tables while
that lowers the cost (:func:`_swap_rivals`)."""


def _swap_rivals(tables: list[tuple[Side, Side]], cost: Callable[[Side, Side], int]) -> None:
    """Improve a round's ``tables`` in place: for two tables (a, b) and (c, d), take (a, c) and
    (b, d) or (a, d) and (b, c) when either costs less, until no such swap is left. Only a table
    where a rival is met again can gain, so only those are tried against the others."""
    fresh = 4
    better = True
    while better:
        better = False
        for i in range(len(tables)):
            if cost(*tables[i]) <= fresh:
                continue
            for j in range(len(tables)):
                if j == i:
                    continue
                (a, b), (c, d) = tables[i], tables[j]
                now = cost(a, b) + cost(c, d)
                for first, second in (((a, c), (b, d)), ((a, d), (b, c))):
                    if cost(*first) + cost(*second) < now:
                        tables[i], tables[j] = first, second
                        better = True
                        break


def _groupings(items: list[Side]) -> Iterator[list[tuple[Side, Side]]]:
    """Every way of putting an even list of partnerships against each other, two by two."""
    if not items:
        yield []
        return
    first = items[0]
    for k in range(1, len(items)):
        rest = items[1:k] + items[k + 1 :]
        for grouping in _groupings(rest):
            yield [(first, items[k]), *grouping]


def rotation(count: int, rounds: int) -> list[list[tuple[Side, Side]]]:
    """The individual format's published schedule for ``count`` players (0-based, ``4k``):
    each round's tables as two partnerships. Partnerships come from the circle method, so nobody
    partners anybody twice, and in ``count − 1`` rounds everyone partners everyone else once.
    Each round's partnerships are then put against each other at the lowest cost, a rival met
    ``m`` times before costing ``4^m`` (every grouping is tried up to 16 players; beyond, the
    first unplaced partnership takes the cheapest other, in order, and then rivals are swapped
    between two tables while that lowers the cost)."""
    if count < 4 or count % 4:
        raise fail("torneo.individual_count", count=count)
    if rounds > count - 1:
        raise fail("torneo.too_many_rounds", rounds=rounds, most=count - 1)
    met: Counter[tuple[int, int]] = Counter()

    def cost(x: Side, y: Side) -> int:
        return sum(4 ** met[(p, q)] for p in x for q in y)

    schedule = []
    for pairs in circle(count)[:rounds]:
        left: list[Side] = [(x, y) for x, y in pairs if x is not None and y is not None]
        tables: list[tuple[Side, Side]] = []
        if len(left) <= EXHAUSTIVE_PARTNERSHIPS:
            tables = min(_groupings(left), key=lambda g: sum(cost(x, y) for x, y in g))
        while len(tables) * 2 < len(left):
            placed = {side for table in tables for side in table}
            rest = [side for side in left if side not in placed]
            first = rest[0]
            tables.append((first, min(rest[1:], key=lambda other: cost(first, other))))
        if len(left) > EXHAUSTIVE_PARTNERSHIPS:
            _swap_rivals(tables, cost)
        for x, y in tables:
            for p in x:
                for q in y:
                    met[(p, q)] += 1
                    met[(q, p)] += 1
        schedule.append(tables)
    return schedule


def _seat(a: Side, b: Side, sides: Counter[int]) -> tuple[Side, Side]:
    """Who sits at seats 0 and 2: the side that sat there fewer times so far (``a`` on a tie)."""
    if sum(sides[e] for e in b) < sum(sides[e] for e in a):
        return b, a
    return a, b


def pair_round(
    torneo: Torneo, number: int, log_size: int
) -> tuple[tuple[Table, ...], tuple[int, ...]]:
    """Round ``number``'s tables and byes, from the torneo as it stood after ``log_size`` lines of
    its results log and its first ``number − 1`` rounds (what ``torneo check`` recomputes)."""
    from fichaflow.torneo.standings import standings

    settings = torneo.settings
    before = torneo.rounds[: number - 1]
    active = torneo.active(number)
    if settings.system is System.ROTATION:
        starters = [e.id for e in torneo.entrants if e.joined == 1]
        schedule = rotation(len(starters), settings.rounds)
        tables = tuple(
            Table(t, tuple(starters[i] for i in a), tuple(starters[i] for i in b))
            for t, (a, b) in enumerate(schedule[number - 1], 1)
        )
        return tables, ()
    if settings.system is System.ROUND_ROBIN:
        starters = [e.id for e in torneo.entrants if e.joined == 1]
        cycle = circle(len(starters))
        if settings.rounds > len(cycle):
            raise fail("torneo.too_many_rounds", rounds=settings.rounds, most=len(cycle))
        if len(starters) < 2:
            raise fail("torneo.too_few_entrants", count=len(starters))
        pairs, byes = [], []
        playing = set(active)
        for x, y in cycle[number - 1]:
            ex = starters[x] if x is not None else None
            ey = starters[y] if y is not None else None
            if ex is not None and ey is not None and ex in playing and ey in playing:
                pairs.append(((ex,), (ey,)))
            else:
                byes += [e for e in (ex, ey) if e is not None and e in playing]
        return tuple(Table(t, a, b) for t, (a, b) in enumerate(pairs, 1)), tuple(sorted(byes))
    if len(active) < 2:
        raise fail("torneo.too_few_entrants", count=len(active))
    ranked = [s.line.entrant for s in standings(torneo, log_size, before)]
    playing = set(active)
    ranking = [e for e in ranked if e in playing]
    bye_count: Counter[int] = Counter(b for r in before for b in r.byes)
    found, bye = swiss(ranking, meetings(before), bye_count)
    sides: Counter[int] = Counter(e for r in before for t in r.tables for e in t.a)
    tables = tuple(Table(t, *_seat((x,), (y,), sides)) for t, (x, y) in enumerate(found, 1))
    return tables, (() if bye is None else (bye,))
