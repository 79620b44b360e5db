"""Mining puzzles from seeded bot partidas, and checking them again.

Bots of the ladder play partidas dealt from fixed seeds; at each position of a hand where the
player to move has at least two distinct moves and few enough tiles are left to solve exactly, the
hand is solved over the full deal (a face-up problem) or over every deal the seat thought
possible (a seat problem, :mod:`fichaflow.problemas.seat`). A position becomes a puzzle only if
it passes every check; each rejection is counted by its check (see :data:`CHECKS`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from fichaflow.bots.ladder import make_bot
from fichaflow.core.deal import Deal
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import Hand
from fichaflow.core.partida import Partida, facts_of
from fichaflow.core.record import Record, draw_until_playable
from fichaflow.core.rules import Rules
from fichaflow.core.scoring import score_hand
from fichaflow.core.tiles import parse
from fichaflow.core.view import hand_view
from fichaflow.problemas import seat as seat_solve
from fichaflow.problemas.model import Puzzle, digest
from fichaflow.problemas.solve import Exact, Solved, deal_json
from fichaflow.search.engine import hand_start
from fichaflow.search.solver import OutOfNodes

MIN_MARGIN: Final = 10.0
"""A puzzle's best move must beat every other by at least this many tantos."""
MAX_TILES: Final = 16
"""Positions are mined only when at most this many tiles are left in the hands and montón."""
NODE_BUDGET: Final = 400_000
CHECKS: Final = ("forced", "too_big", "margin", "replay", "rules", "no_point")
"""Why a position is rejected: fewer than two distinct moves; the exact solve ran out of nodes;
a second move within :data:`MIN_MARGIN`; its replay from the stored puzzle is illegal or differs;
its rules differ from its source partida's; the best line makes no point for the seat's side."""

PLAN: Final = (
    ("dominicana", ("jugador", "tirapuntos", "jugador", "tirapuntos")),
    ("venezuela", ("tirapuntos", "jugador", "tirapuntos", "jugador")),
    ("internacional", ("jugador", "acuestafichas", "jugador", "acuestafichas")),
    ("mano_a_mano", ("jugador", "tirapuntos")),
    ("tres", ("jugador", "tirapuntos", "acuestafichas")),
)
"""The presets mined, in turn, and the bots at their seats (all three modes)."""
COCHINA: Final = parse("6-6")


@dataclass
class Tally:
    """Positions looked at, puzzles made, and rejections by check."""

    positions: int = 0
    made: int = 0
    rejected: Counter[str] = field(default_factory=Counter)


def _themes(
    rules: Rules, hand: Hand, solved: Solved, scores: tuple[int, ...] = ()
) -> tuple[str, ...]:
    end = solved.end
    team = rules.team_of(solved.seat)
    result = end.result
    themes: list[str] = []
    if result is not None:
        gains = score_hand(rules, facts_of(end)).gains(rules.teams)
        won = gains[team] > 0
        kind = str(result.kind)
        if won and kind == "domino":
            themes.append("domino")
        if won and kind == "tranque":
            themes.append("tranque")
        if won and getattr(result, "capicua", False):
            themes.append("capicua")
    line, seats = solved.line, solved.line_seats
    n = rules.seats
    for i, s in enumerate(seats):
        if rules.team_of(s) == team and line[i] != "pass":
            after = line[i + 1 : i + n]
            if len(after) == n - 1 and all(t == "pass" for t in after):
                themes.append("pase_redondo")
                break
    if len(line) > 1 and seats[0] == solved.seat and line[1] == "pass":
        themes.append("tapar")
    for s in range(n):
        if rules.team_of(s) != team and end.hands[s] >> COCHINA & 1:
            themes.append("cochina")
    if scores and rules.teams == 2 and scores[team] == 0 and len(solved.values) > 1:
        # the second best lets the rivals reach the target while the seat's side has nothing
        rival = scores[1 - team]
        if rival - solved.values[1][1] >= rules.target > rival - solved.values[0][1]:
            themes.append("zapato")
    return tuple(dict.fromkeys(themes))


SEAT_HARDER: Final = 100.0
"""A seat problem's first rating is this much higher: the hidden tiles have to be reasoned."""


def _rating(choices: int, margin: float, steps: int, seat: bool = False) -> float:
    """A first guess, moved by the trainer's ratings: more choices and more moves to find are
    harder; a wide margin is easier to see; hidden tiles are harder."""
    r = 1200.0 + 90.0 * (choices - 2) + 160.0 * (steps - 1) - 4.0 * min(margin, 50.0)
    r += SEAT_HARDER if seat else 0.0
    return round(max(600.0, min(2400.0, r)), 1)


def make_puzzle(
    rules: Rules,
    hand: Hand,
    moves: tuple[str, ...],
    source: dict[str, Any],
    tally: Tally,
    budget: int = NODE_BUDGET,
) -> Puzzle | None:
    """The face-up puzzle at ``hand`` (the position after ``moves``), or None with the rejection
    counted."""
    seat = hand.turn
    exact = Exact(rules, seat, budget)
    try:
        solved = exact.solve(hand)
    except OutOfNodes:
        tally.rejected["too_big"] += 1
        return None
    if len(solved.values) < 2:
        tally.rejected["forced"] += 1
        return None
    margin = round(solved.values[0][1] - solved.values[1][1], 3)
    if margin < MIN_MARGIN:
        tally.rejected["margin"] += 1
        return None
    if solved.values[0][1] <= 0:
        tally.rejected["no_point"] += 1
        return None
    # The solution runs until the seat's first later turn without a unique best move.
    cut = len(solved.line)
    step_count = 0
    for i, s in enumerate(solved.line_seats):
        if s != seat:
            continue
        vals = solved.step_values[step_count]
        if len(vals) > 1 and vals[0][1] - vals[1][1] <= 1e-9:
            cut = i
            break
        step_count += 1
    steps = tuple(dict(v) for v in solved.step_values[:step_count])
    puzzle = Puzzle(
        kind="face_up",
        rules=rules.dump(),
        deal=deal_json(hand_deal(hand)),
        leader=hand.leader,
        moves=moves,
        seat=seat,
        solution=solved.line[:cut],
        solution_seats=solved.line_seats[:cut],
        margin=margin,
        values=dict(solved.values),
        steps=steps,
        themes=_themes(rules, hand, solved, tuple(source.get("scores", ()))),
        rating=_rating(len(solved.values), margin, step_count),
        source=source,
    )
    reason = check(puzzle, source_rules=rules)
    if reason:
        tally.rejected[reason] += 1
        return None
    return puzzle


def make_seat_puzzle(
    rules: Rules,
    hand: Hand,
    moves: tuple[str, ...],
    source: dict[str, Any],
    tally: Tally,
    budget: int = NODE_BUDGET,
) -> Puzzle | None:
    """The seat problem at ``hand``: its answer best in every deal the seat thought possible, or
    by a wide margin on average (:mod:`fichaflow.problemas.seat`); or None, the rejection
    counted. Its line is the hand's real deal played on from the answer, to the seat's next
    turn (there the seat knows more, and a new problem would begin); its themes are that
    line's, in the real deal (``zapato``, which compares two moves' exact values, is left to
    face-up problems)."""
    seat = hand.turn
    deal = deal_json(hand_deal(hand))
    content = {"kind": "seat", "rules": rules.dump(), "deal": deal, "leader": hand.leader}
    content.update(moves=list(moves), seat=seat)
    pid = digest(content)
    try:
        solved = _seat_values(rules, hand, moves, int(source["hand"]), pid, budget)
    except OutOfNodes:
        tally.rejected["too_big"] += 1
        return None
    if solved is None:
        tally.rejected["replay"] += 1
        return None
    if len(solved.values) < 2:
        tally.rejected["forced"] += 1
        return None
    if not solved.decided or solved.margin < MIN_MARGIN:
        tally.rejected["margin"] += 1
        return None
    if solved.values[0][1] <= 0:
        tally.rejected["no_point"] += 1
        return None
    best = solved.values[0][0]
    try:
        real = Exact(rules, seat, budget).solve(hand, answer=best)
    except OutOfNodes:
        tally.rejected["too_big"] += 1
        return None
    cut = next((i for i, s in enumerate(real.line_seats) if i and s == seat), len(real.line))
    themes = tuple(t for t in _themes(rules, hand, real) if t != "zapato")
    puzzle = Puzzle(
        kind="seat",
        rules=rules.dump(),
        deal=deal,
        leader=hand.leader,
        moves=moves,
        seat=seat,
        solution=real.line[:cut],
        solution_seats=real.line_seats[:cut],
        margin=solved.margin,
        values=dict(solved.values),
        steps=(dict(solved.values),),
        themes=themes,
        rating=_rating(len(solved.values), solved.margin, 1, seat=True),
        source=source,
        decided=_decided(solved),
    )
    reason = check(puzzle, source_rules=rules)
    if reason:
        tally.rejected[reason] += 1
        return None
    return puzzle


def _seat_values(
    rules: Rules, hand: Hand, moves: tuple[str, ...], number: int, pid: str, budget: int
) -> seat_solve.SeatSolved | None:
    deals, every = seat_solve.consistent_deals(rules, hand, moves, number, f"seat:{pid}")
    return seat_solve.solve_seat(rules, deals, every, hand.turn, budget)


def _decided(solved: seat_solve.SeatSolved) -> dict[str, Any]:
    return {
        "how": solved.decided,
        "deals": solved.deals,
        "all_deals": solved.enumerated,
        "margin_se": solved.margin_se,
        "worst_margin": solved.worst,
    }


def hand_deal(hand: Hand) -> Deal:
    """The hand's deal as dealt (its tiles played and drawn taken back)."""
    return Deal.from_lists(
        [[t for t in range(28) if h >> t & 1] for h in hand_start(hand)], list(hand.stock)
    )


def check(puzzle: Puzzle, source_rules: Rules | None = None, budget: int = 1 << 62) -> str:
    """Re-solve ``puzzle`` from its stored form: '' when its replay is legal, its rules are its
    source's, and the solve gives the same best move, margin and values; else the failed check."""
    try:
        rules = puzzle.rules_obj()
        hand = puzzle.hand()
    except FichaFlowError:
        return "replay"
    if source_rules is not None and rules.dump() != source_rules.dump():
        return "rules"
    if hand.ended or hand.turn != puzzle.seat:
        return "replay"
    if puzzle.kind == "seat":
        return _check_seat(puzzle, rules, hand, budget)
    try:
        solved = Exact(rules, puzzle.seat, budget).solve(hand)
    except OutOfNodes:
        return "too_big"
    if dict(solved.values) != dict(puzzle.values):
        return "margin"
    if len(solved.values) < 2:
        return "forced"
    margin = round(solved.values[0][1] - solved.values[1][1], 3)
    if solved.line[0] != puzzle.best or margin != puzzle.margin or margin < MIN_MARGIN:
        return "margin"
    return ""


def _check_seat(puzzle: Puzzle, rules: Rules, hand: Hand, budget: int) -> str:
    """A seat problem's deals drawn again (the same ones: the seed is its id) and solved again:
    the same values, answer, margin and way of deciding, which must still hold."""
    try:
        number = int(puzzle.source["hand"])
        solved = _seat_values(rules, hand, puzzle.moves, number, puzzle.id, budget)
    except OutOfNodes:
        return "too_big"
    except (KeyError, TypeError, ValueError):
        return "replay"
    if solved is None:
        return "replay"
    if len(solved.values) < 2:
        return "forced"
    if dict(solved.values) != dict(puzzle.values) or _decided(solved) != dict(puzzle.decided):
        return "margin"
    if not solved.decided or solved.margin != puzzle.margin or solved.margin < MIN_MARGIN:
        return "margin"
    if solved.values[0][0] != puzzle.best:
        return "margin"
    return ""


def _tiles_left(hand: Hand) -> int:
    return sum(h.bit_count() for h in hand.hands) + hand.stock_left


def mine(
    seed: int, count: int, tally: Tally | None = None, kind: str = "face_up"
) -> Iterator[Puzzle]:
    """Yield up to ``count`` puzzles of ``kind`` from partidas dealt from ``seed`` (the same
    seed, the same puzzles in the same order); at most one puzzle per hand, the first position
    that passes. Seat problems come from partidas of their own (dealt ``problemas-seat:…``)."""
    tally = tally if tally is not None else Tally()
    make = make_seat_puzzle if kind == "seat" else make_puzzle
    prefix = "problemas-seat" if kind == "seat" else "problemas"
    made = 0
    game = 0
    while made < count:
        preset, bot_names = PLAN[game % len(PLAN)]
        rules = Rules.make(preset)
        bots = [make_bot(b, seed=seed * 1000 + game * 10 + s) for s, b in enumerate(bot_names)]
        partida = Partida(rules)
        for k in range(60):
            if partida.over or made >= count:
                break
            hand = partida.deal(f"{prefix}:{seed}:{game}:{k}")
            number = k + 1
            found = False
            while not hand.ended:
                legal = hand.legal_moves()
                if len(legal) == 1 and not legal[0].is_play:
                    partida.play(legal[0])
                    continue
                if not found and _tiles_left(hand) <= MAX_TILES and hand.left >= 0:
                    tally.positions += 1
                    moves = tuple(t.notation() for t in hand.history if not t.move.is_draw)
                    source: dict[str, Any] = {
                        "seed": seed,
                        "game": game,
                        "hand": number,
                        "move": len(moves),
                        "preset": preset,
                        "scores": list(partida.scores),
                        "bots": list(bot_names),
                    }
                    puzzle = make(rules, hand, moves, source, tally)
                    if puzzle is not None:
                        found = True
                        made += 1
                        tally.made += 1
                        yield puzzle
                view = hand_view(rules, hand, hand.turn, partida.scores, number)
                partida.play(bots[hand.turn].choose(view))
        game += 1


def mine_record(record: Record, source: Mapping[str, Any], tally: Tally) -> Iterator[Puzzle]:
    """Puzzles of both kinds from a finished partida's record (a partida of the server, say),
    with the same checks and thresholds as :func:`mine`: in each hand, the first position that
    passes as a face-up problem and the first that passes as a seat problem (at most one of each
    kind per hand). Each puzzle's ``source`` is ``source`` with the hand, the move, the preset
    and the scores before the hand. A record that does not replay raises the core's error."""
    rules = record.rules
    preset = str(rules.dump().get("preset", ""))
    partida = Partida(rules, record.players)
    for number, written in enumerate(record.hands, 1):
        hand = partida.start_hand(written.deal, written.leader)
        scores = list(partida.scores)
        found: set[str] = set()
        for token in written.moves:
            draw_until_playable(hand)
            legal = hand.legal_moves()
            forced = len(legal) == 1 and not legal[0].is_play
            if len(found) < 2 and not forced and _tiles_left(hand) <= MAX_TILES and hand.left >= 0:
                tally.positions += 1
                moves = tuple(t.notation() for t in hand.history if not t.move.is_draw)
                where = {**source, "hand": number, "move": len(moves), "preset": preset}
                where["scores"] = scores
                for kind, make in (("face_up", make_puzzle), ("seat", make_seat_puzzle)):
                    if kind in found:
                        continue
                    puzzle = make(rules, hand, moves, dict(where), tally)
                    if puzzle is not None:
                        found.add(kind)
                        tally.made += 1
                        yield puzzle
            partida.play(hand.parse(token))
