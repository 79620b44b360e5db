"""Duplicate matches: every deal is played once per seating of the two bots, so that luck of the
deal cancels out and only play is measured.

Seatings (``arrangements``), with bot A as 0 and bot B as 1:

* ``parejas``: A at seats 0 and 2, then A at seats 1 and 3.
* ``mano_a_mano``: A at seat 0, then A at seat 1.
* ``tres``: two bots for three seats means one of them sits twice; each deal is played six times,
  once for every seating with both bots present (A alone at seat 0, 1 or 2, then B alone there).
  Each bot then holds each hand three times, and with equal play each wins half the hands.

Single hands are played as hands after a partida's first (any tile may lead), with the leader
rotating from deal to deal (deal ``k`` is led by seat ``k mod seats``): in each group every seat
leads with both bots, so leads are balanced. Partidas follow every rule of the preset, the first
salida included, and are played in the same seatings on the same sequence of deals.

Everything a game does is a function of the seed, the group's number and the seating, so a duel
gives the same results whatever the number of worker processes.
"""

from __future__ import annotations

import functools
import hashlib
import multiprocessing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from fichaflow.bots.base import Bot
from fichaflow.bots.ladder import make_bot
from fichaflow.core.deal import Deal
from fichaflow.core.rules import Mode, Rules
from fichaflow.match.play import play_hand, play_partida
from fichaflow.match.stats import Interval, Timing, mean_interval, ratio_interval, timing


def arrangements(rules: Rules) -> tuple[tuple[int, ...], ...]:
    """For each playing of a deal, which bot (0 = A, 1 = B) sits at each seat."""
    if rules.mode is Mode.PAREJAS:
        return ((0, 1, 0, 1), (1, 0, 1, 0))
    if rules.mode is Mode.MANO_A_MANO:
        return ((0, 1), (1, 0))
    out: list[tuple[int, ...]] = []
    for lone in range(3):
        for bot in (0, 1):
            out.append(tuple(bot if s == lone else 1 - bot for s in range(3)))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class DuelSpec:
    """What to play: two bots (with constructor options), the rules and the seed."""

    bot_a: str
    bot_b: str
    rules: Rules
    seed: int = 0
    options_a: Mapping[str, Any] = field(default_factory=dict)
    options_b: Mapping[str, Any] = field(default_factory=dict)

    def make(self, which: int, seed: int) -> Bot:
        if which == 0:
            return make_bot(self.bot_a, seed, **self.options_a)
        return make_bot(self.bot_b, seed, **self.options_b)


@dataclass(frozen=True, slots=True)
class Game:
    """One playing of a deal (a hand, or a whole partida) in one seating."""

    kind: str  # "hand" or "partida"
    group: int
    seating: tuple[int, ...]
    deal: Deal  # the (first) deal
    leader: int
    winner: int | None  # 0 = bot A, 1 = bot B, None: nobody
    points: tuple[int, int]  # what each bot's side scored (a partida: its final score)
    hands: int
    times: tuple[tuple[float, ...], tuple[float, ...]]


def _derive(*parts: object) -> int:
    """A 63-bit seed from the parts, the same on every machine and in every process."""
    text = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big") >> 1


def hand_deal(spec: DuelSpec, group: int) -> Deal:
    return Deal.from_seed(spec.rules.seats, f"duel:{spec.seed}:hand:{group}")


def partida_seed(spec: DuelSpec, group: int, number: int) -> str:
    """The seed of hand ``number`` (from 0) of group ``group``'s partida."""
    return f"duel:{spec.seed}:partida:{group}:{number}"


def _bots(spec: DuelSpec, kind: str, group: int, seating: tuple[int, ...]) -> list[Bot]:
    return [
        spec.make(which, _derive(spec.seed, kind, group, seat))
        for seat, which in enumerate(seating)
    ]


def _sides(seating: tuple[int, ...], rules: Rules, gains: tuple[int, ...]) -> tuple[int, int]:
    points = [0, 0]
    teams_seen: set[int] = set()
    for seat, which in enumerate(seating):
        team = rules.team_of(seat)
        if team not in teams_seen:
            teams_seen.add(team)
            points[which] += gains[team]
    return points[0], points[1]


def _split_times(
    seating: tuple[int, ...], times: tuple[tuple[float, ...], ...]
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    out: tuple[list[float], list[float]] = ([], [])
    for seat, which in enumerate(seating):
        out[which].extend(times[seat])
    return tuple(out[0]), tuple(out[1])


def play_group(spec: DuelSpec, kind: str, group: int) -> list[Game]:
    """Every playing of group ``group``: one deal (or one sequence of deals) in each seating."""
    rules = spec.rules
    games = []
    for seating in arrangements(rules):
        bots = _bots(spec, kind, group, seating)
        if kind == "hand":
            deal = hand_deal(spec, group)
            leader = group % rules.seats
            result = play_hand(rules, deal, bots, leader)
            winner_team = result.score.winner
            gains = result.score.gains(rules.teams)
            times = result.times
            hands = 1
        else:
            played = play_partida(rules, functools.partial(partida_seed, spec, group), bots)
            partida = played.partida
            deal = partida.played[0].deal
            winner_team = played.winner
            gains = partida.scores
            times = played.times
            hands = len(partida.played)
            leader = partida.played[0].hand.leader
        winner = None
        if winner_team is not None:
            winner = seating[rules.seats_of(winner_team)[0]]
        games.append(
            Game(
                kind,
                group,
                seating,
                deal,
                leader,
                winner,
                _sides(seating, rules, gains),
                hands,
                _split_times(seating, times),
            )
        )
    return games


def _task(args: tuple[DuelSpec, str, int]) -> list[Game]:
    return play_group(*args)


def _groups(total: int, per_group: int) -> int:
    """Groups needed to play at least ``total`` games (rounded up to whole groups)."""
    return -(-total // per_group) if total > 0 else 0


def play_groups(
    spec: DuelSpec,
    tasks: list[tuple[str, int]],
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Iterator[list[Game]]:
    """The groups' games in task order, played in ``workers`` processes."""
    jobs = [(spec, kind, group) for kind, group in tasks]
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            games = _task(job)
            if progress:
                progress(len(games))
            yield games
        return
    with multiprocessing.get_context().Pool(workers) as pool:
        for games in pool.imap(_task, jobs, chunksize=max(1, min(16, len(jobs) // (8 * workers)))):
            if progress:
                progress(len(games))
            yield games


@dataclass(frozen=True, slots=True)
class Tally:
    """What one kind of game (hands or partidas) came to, with intervals over groups."""

    played: int
    groups: int
    won: tuple[int, int]
    undecided: int
    share: Interval | None  # bot A's share of the games somebody won
    rate: Interval | None  # bot A's wins over all games
    points: tuple[Interval | None, Interval | None]  # per game, each side
    difference: Interval | None  # A's points minus B's, per game

    def to_json(self) -> dict[str, Any]:
        def js(i: Interval | None) -> dict[str, float] | None:
            return None if i is None else i.to_json()

        return {
            "played": self.played,
            "groups": self.groups,
            "won": list(self.won),
            "undecided": self.undecided,
            "share": js(self.share),
            "rate": js(self.rate),
            "points": [js(p) for p in self.points],
            "difference": js(self.difference),
        }


def tally(groups: list[list[Game]]) -> Tally:
    wins_a = [sum(1 for g in games if g.winner == 0) for games in groups]
    wins_b = [sum(1 for g in games if g.winner == 1) for games in groups]
    sizes = [len(games) for games in groups]
    decided = [a + b for a, b in zip(wins_a, wins_b, strict=True)]
    per_a = [sum(g.points[0] for g in games) / len(games) for games in groups]
    per_b = [sum(g.points[1] for g in games) / len(games) for games in groups]
    return Tally(
        played=sum(sizes),
        groups=len(groups),
        won=(sum(wins_a), sum(wins_b)),
        undecided=sum(sizes) - sum(decided),
        share=ratio_interval(wins_a, decided),
        rate=ratio_interval(wins_a, sizes),
        points=(mean_interval(per_a), mean_interval(per_b)),
        difference=mean_interval([a - b for a, b in zip(per_a, per_b, strict=True)]),
    )


@dataclass(frozen=True, slots=True)
class DuelResult:
    spec: DuelSpec
    hands: Tally | None
    partidas: Tally | None
    timings: tuple[Timing, Timing]
    workers: int

    def to_json(self) -> dict[str, Any]:
        spec = self.spec
        return {
            "bots": [spec.bot_a, spec.bot_b],
            "rules": spec.rules.dump(),
            "seed": spec.seed,
            "seatings": [list(s) for s in arrangements(spec.rules)],
            "hands": None if self.hands is None else self.hands.to_json(),
            "partidas": None if self.partidas is None else self.partidas.to_json(),
            "decision_time": [t.to_json() for t in self.timings],
        }


def plan(spec: DuelSpec, hands: int, partidas: int) -> list[tuple[str, int]]:
    """The groups to play for at least ``hands`` hands and ``partidas`` partidas."""
    per = len(arrangements(spec.rules))
    return [("hand", g) for g in range(_groups(hands, per))] + [
        ("partida", g) for g in range(_groups(partidas, per))
    ]


def run_duel(
    spec: DuelSpec,
    hands: int,
    partidas: int = 0,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> DuelResult:
    """Play the duel and tally it. ``progress`` is called with the games each group played."""
    hand_groups: list[list[Game]] = []
    partida_groups: list[list[Game]] = []
    times: tuple[list[float], list[float]] = ([], [])
    for games in play_groups(spec, plan(spec, hands, partidas), workers, progress):
        (hand_groups if games[0].kind == "hand" else partida_groups).append(games)
        for game in games:
            times[0].extend(game.times[0])
            times[1].extend(game.times[1])
    return DuelResult(
        spec,
        tally(hand_groups) if hand_groups else None,
        tally(partida_groups) if partida_groups else None,
        (timing(times[0]), timing(times[1])),
        workers,
    )
