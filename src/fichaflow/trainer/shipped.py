"""The shipped problemas (:mod:`fichaflow.problemas`) in the shape the trainer asks of a set
(:class:`~fichaflow.trainer.puzzles.Puzzles`): the page's position, drawn from the position the
core replays (a seat problem's other hands face down: only their counts, and the numbers each
passed on); the page's moves (always with their end) read in that position and judged in the
problema's own notation; the line continued along the stored solution."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Engine

from fichaflow import i18n
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import Hand
from fichaflow.core.record import draw_until_playable
from fichaflow.core.tiles import bits, name
from fichaflow.problemas import Puzzle, by_id, judge, load_set
from fichaflow.problemas.solve import choices, one_line, token
from fichaflow.trainer import mined
from fichaflow.trainer.puzzles import Judged


def _others(puzzle: Puzzle, hand: Hand) -> list[dict[str, Any]]:
    """The other seats, in the order they play after the seat: partner or rival, how many
    tiles each holds, the numbers each was seen to pass on, and (face up only) their tiles."""
    rules = puzzle.rules_obj()
    passed: dict[int, set[int]] = {}
    for turn in hand.history:
        if turn.move.is_pass:
            passed.setdefault(turn.seat, set()).update({turn.left, turn.right} - {-1})
    out = []
    for step in range(1, rules.seats):
        seat = (puzzle.seat + step) % rules.seats
        same = rules.team_of(seat) == rules.team_of(puzzle.seat)
        tiles = [name(t) for t in bits(hand.hands[seat])]
        out.append(
            {
                "role": "partner" if same else "rival",
                "count": len(tiles),
                "passed": sorted(passed.get(seat, ())),
                "tiles": tiles if puzzle.kind == "face_up" else None,
            }
        )
    return out


def _question(puzzle: Puzzle, hand: Hand, lang: str) -> str:
    """The question, with every other hand in words in the order they play after the seat:
    their tiles when the problema is face up; for a seat problem only what the seat knew (how
    many tiles each holds, the numbers each passed on)."""
    rules = puzzle.rules_obj()
    others = []
    for other in _others(puzzle, hand):
        who = other["role"]
        if other["tiles"] is not None:
            tiles = ", ".join(other["tiles"])
            others.append(i18n.text(f"trainer.position.{who}", lang, tiles=tiles))
            continue
        said = i18n.text(f"trainer.position.{who}_hidden", lang, count=other["count"])
        if other["passed"]:
            said_numbers = [str(n) for n in other["passed"]]
            numbers = ", ".join(said_numbers[:-1])
            numbers += i18n.text("trainer.position.and", lang) if numbers else ""
            numbers += said_numbers[-1]  # «1, 4 y 6»
            said += i18n.text("trainer.position.passed", lang, numbers=numbers)
        others.append(said)
    stock = len(hand.stock) - hand.stock_pos
    if stock:
        others.append(i18n.text("trainer.position.stock", lang, count=stock))
    mode = i18n.text(f"value.mode.{rules.mode.value}", lang)
    return i18n.text(f"trainer.position.{puzzle.kind}", lang, mode=mode, others="; ".join(others))


_POSITIONS: dict[str, dict[str, Any]] = {}


def _position(found: Puzzle) -> dict[str, Any]:
    """The page's position, made once per problema (a problema never changes: its id is the
    digest of its position)."""
    kept = _POSITIONS.get(found.id)
    if kept is None:
        kept = _POSITIONS[found.id] = _drawn(found)
    return kept


def _drawn(found: Puzzle) -> dict[str, Any]:
    hand = found.hand()
    return {
        "kind": found.kind,
        "line": [list(pair) for pair in hand.line()],
        "ends": [hand.left, hand.right],
        "hand": [name(t) for t in bits(hand.hands[found.seat])],
        "others": _others(found, hand),
        "stock": len(hand.stock) - hand.stock_pos,
        "question": {lang: _question(found, hand, lang) for lang in i18n.LANGUAGES},
    }


class ShippedPuzzles:
    """The package's problemas, for the trainer; with ``mined`` (a database's), also the
    problemas mined from the server's partidas (:mod:`fichaflow.trainer.mined`), read again by
    :meth:`refresh`."""

    def __init__(self, mined: bool = False) -> None:
        self.mined = mined
        self.extra: dict[str, Puzzle] = {}

    def find(self, puzzle: str) -> Puzzle:
        found = self.extra.get(puzzle)
        return found if found is not None else by_id(puzzle)

    def ids(self) -> Sequence[str]:
        return [p.id for p in load_set()] + list(self.extra)

    def refresh(self, engine: Engine) -> bool:
        """Read the mined problemas again; whether the set changed. Only their ids are read
        each time (it runs every few seconds); a puzzle's JSON is read once, when it is new."""
        if not self.mined:
            return False
        stored = mined.stored_ids(engine) - {p.id for p in load_set()}
        if stored == self.extra.keys():
            return False
        kept = {key: puzzle for key, puzzle in self.extra.items() if key in stored}
        kept.update((p.id, p) for p in mined.load(engine, stored - kept.keys()))
        self.extra = kept
        return True

    def themes(self, puzzle: str) -> Sequence[str]:
        return self.find(puzzle).themes

    def rating(self, puzzle: str) -> int:
        return round(self.find(puzzle).rating)

    def position(self, puzzle: str) -> dict[str, Any]:
        return _position(self.find(puzzle))

    def judge(self, puzzle: str, moves: Sequence[str], move: str) -> Judged:
        """``move`` after the player's right ``moves`` (each checked again). The line goes on as
        stored; the seat's forced moves on it (a pass, the one tile that fits) are made for the
        player; a right answer other than the stored one ends the problema there."""
        found = self.find(puzzle)
        hand = found.hand()
        line: list[str] = []
        for answered in moves:
            if (
                len(line) >= len(found.solution)
                or not judge(found, line, _token(hand, answered)).correct
            ):
                raise FichaFlowError("problemas.not_your_turn")
            if _step(found, hand, line)[1]:
                raise FichaFlowError("problemas.not_your_turn")
        if len(line) >= len(found.solution):
            raise FichaFlowError("problemas.not_your_turn")
        mine = _token(hand, move)
        verdict = judge(found, line, mine)
        params = {k: _number(v) for k, v in verdict.params.items()}
        if not verdict.correct or mine != verdict.best:
            return Judged(verdict.correct, True, (), round(verdict.cost), verdict.best,
                          verdict.explain, params)  # fmt: skip
        made, done = _step(found, hand, line)
        # a seat problem's last answer says how it was decided
        key = "problemas.explain.right_done" if done and not verdict.done else verdict.explain
        return Judged(True, done, tuple(made[1:]), 0, verdict.best, key, params)


def _token(hand: Hand, text: str) -> str:
    """The page's move (its end always written) in the problema's notation."""
    return token(hand, one_line(hand, hand.parse(text)))


def _number(value: object) -> str:
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else f"{value:.1f}"
    return str(value)


def _step(found: Puzzle, hand: Hand, line: list[str]) -> tuple[list[str], bool]:
    """Play the stored step at ``len(line)`` and the others' replies, then the seat's forced
    steps; the moves made, and whether the problema is over."""
    made: list[str] = []
    while True:
        verdict = judge(found, line, found.solution[len(line)])
        for move in (found.solution[len(line)], *verdict.replies):
            hand.play(hand.parse(move))
            draw_until_playable(hand)
            line.append(move)
            made.append(move)
        if verdict.done or len(line) >= len(found.solution):
            return made, True
        if len(choices(hand)) > 1:
            return made, False
