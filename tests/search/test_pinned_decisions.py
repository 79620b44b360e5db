"""gallo's decisions and the Repaso's values, pinned for fixed seeds and work budgets.

gallo's choice and the Repaso's verdict come from one search loop; these figures were written by
the code before that loop was shared, so a change to it that changes play or a review shows up
here. Every path of the loop is met: playouts, exact solving, a node budget that runs out on the
first deal (playouts instead) or after some (the rest played out, the solved deals correcting the
playouts' mean), the Repaso's per-deal node limit and its memo of solved deals, omnisciente's
search of the true position, and hindsight.

When play is meant to change, write the figures again and say why in the commit:

    python -m tests.search.test_pinned_decisions
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fichaflow.bots.ladder import make_bot
from fichaflow.core.hand import Hand, Move
from fichaflow.core.rules import Rules
from fichaflow.core.view import hand_view
from fichaflow.review.evaluate import Evaluation, MoveValue, evaluate, hindsight
from fichaflow.review.hand import decision_points
from fichaflow.review.precision import PRECISIONS, Precision
from fichaflow.search.decide import Decision
from tests.review.helpers import played, replay_to, view_of
from tests.search.helpers import new_hand

PINNED = Path(__file__).with_name("pinned_decisions.json")

GALLO_WORK = (
    {"budget_ms": None, "samples": 6, "playouts": 2, "nodes": 20_000},
    {"budget_ms": None, "samples": 5, "playouts": 3, "nodes": 3_000, "exact_after": 4},
)
OMNISCIENTE_WORK = {"nodes": 2_000, "samples": 8}
REVIEW_WORK = Precision("pin", samples=8, playouts=3, exact_after=6, nodes=2_500,
                        exact_total=12_000, exact_hand=10**6, hindsight_nodes=20_000)  # fmt: skip
"""Small enough to be quick, and tight enough that some deals are solved and some played out."""


def _move(move: Move) -> list[int | None]:
    return [move.tile, None if move.end is None else int(move.end), move.left]


def _decision(last: Decision | None) -> dict[str, Any]:
    assert last is not None
    return {
        "move": _move(last.move),
        "values": {str(k): round(v, 9) for k, v in sorted(last.values.items())},
        "work": [last.samples, last.playouts, last.nodes, last.exact],
    }


def gallo_games() -> list[dict[str, Any]]:
    """Whole hands of gallo (and omnisciente beside it), every searched decision written down."""
    out = []
    for preset in ("venezuela", "mano_a_mano", "tres", "dominicana"):
        rules = Rules.make(preset)
        for seed, work in enumerate(GALLO_WORK):
            hand = new_hand(rules, seed + 3)
            number = 1 if hand.forced_lead is not None else 2
            bots = [make_bot("gallo", seed + s, **work) for s in range(rules.seats)]
            if rules.seats == 4:
                bots[3] = make_bot("omnisciente", seed, **OMNISCIENTE_WORK)
            out.append(
                {"preset": preset, "seed": seed, "decisions": _play(rules, hand, bots, number)}
            )
    return out


def _play(rules: Rules, hand: Hand, bots: list[Any], number: int) -> list[dict[str, Any]]:
    made = []
    while not hand.ended:
        seat = hand.turn
        view = hand_view(rules, hand, seat, hand_number=number)
        bot = bots[seat]
        bot.last = None
        move = bot.choose_seeing_all(view, hand.copy()) if bot.sees_all else bot.choose(view)
        if bot.last is not None:
            made.append({"seat": seat, "turn": len(hand.history), **_decision(bot.last)})
        hand.play(move)
    return made


def _evaluation(found: Evaluation) -> dict[str, Any]:
    def estimates(m: MoveValue) -> list[float]:
        return [round(x, 9) for e in (m.points, m.win, m.cost) for x in (e.mean, e.se)]

    moves = [[_move(m.move), *estimates(m), m.verdict, m.hindsight] for m in found.moves]
    work = ("samples", "exact_samples", "playouts", "nodes", "hindsight_solved", "hindsight_nodes")
    return {"moves": moves, "work": [getattr(found, k) for k in work]}


def reviews() -> list[dict[str, Any]]:
    """Every decision of one seat in a few hands, at a small precision and at ``fast``."""
    out = []
    for preset, seed in (("venezuela", 2), ("dominicana", 5), ("mano_a_mano", 1), ("tres", 4)):
        subject = played(preset, seed, forced_first=seed % 2 == 0)
        seat = seed % subject.rules.seats
        for index in decision_points(subject, seat):
            truth = replay_to(subject, index)
            view = view_of(subject, truth)
            for precision in (REVIEW_WORK, PRECISIONS["fast"]):
                found = hindsight(truth, subject.rules, evaluate(view, precision, seed),
                                  REVIEW_WORK.hindsight_nodes)  # fmt: skip
                out.append({"preset": preset, "seed": seed, "index": index,
                            "precision": precision.name, **_evaluation(found)})  # fmt: skip
    return out


def everything() -> dict[str, Any]:
    return {"gallo": gallo_games(), "repaso": reviews()}


def test_gallo_and_the_repaso_decide_as_pinned() -> None:
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    now = json.loads(json.dumps(everything()))
    for key in ("gallo", "repaso"):
        assert len(now[key]) == len(pinned[key])
        for found, expected in zip(now[key], pinned[key], strict=True):
            assert found == expected


if __name__ == "__main__":
    # One decision or review a line, so that a change shows as the lines it changed.
    found = everything()
    lines = ['{"gallo": [']
    for game in found["gallo"]:
        head = json.dumps({k: v for k, v in game.items() if k != "decisions"})[:-1]
        rows = ",\n  ".join(json.dumps(d) for d in game["decisions"])
        lines.append(f'{head}, "decisions": [\n  {rows}]}},')
    lines[-1] = lines[-1].rstrip(",")
    lines.append('], "repaso": [')
    lines.append(",\n".join(json.dumps(r) for r in found["repaso"]))
    lines.append("]}")
    text = "\n".join(lines) + "\n"
    assert json.loads(text) == json.loads(json.dumps(found))
    PINNED.write_text(text, encoding="utf-8")
