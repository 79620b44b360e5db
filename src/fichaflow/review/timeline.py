"""A finished hand rebuilt move by move, for the Repaso page to step through.

Every state comes from the rules engine replaying the hand (the page draws, it never decides):
each seat's tiles, the line from its left end to its right end, the open ends and the montón
after every action, with the action in words. A finished hand is face up for everybody, so the
tiles drawn from the montón are shown too.
"""

from __future__ import annotations

from typing import Any

from fichaflow.core.explain import explain, seat_names
from fichaflow.core.hand import Hand, Turn, write_move
from fichaflow.core.partida import facts_of
from fichaflow.core.scoring import score_hand
from fichaflow.core.tiles import bits, name
from fichaflow.review.hand import HandToReview, fresh


def _state(hand: Hand, turn: Turn | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": None,
        "kind": None,
        "move": None,
        "tile": None,
        "end": None,
    }
    if turn is not None:
        move = turn.move
        kind = "play" if move.is_play else ("pass" if move.is_pass else "draw")
        out.update(seat=turn.seat, kind=kind)
        if move.is_play:
            out.update(move=write_move(move), tile=name(move.tile))
            out["end"] = None if move.end is None else move.end.word
        elif move.is_draw:
            out["tile"] = name(turn.drawn)
    out.update(
        turn=None if hand.ended else hand.turn,
        hands=[[name(t) for t in bits(h)] for h in hand.hands],
        line=[list(pair) for pair in hand.line()],
        ends=None if hand.left < 0 else [hand.left, hand.right],
        stock=[name(t) for t in hand.stock[hand.stock_pos :]],
        pips=list(hand.pips()),
        ended=hand.ended,
    )
    return out


def timeline(subject: HandToReview) -> dict[str, Any]:
    """The hand's states, from the deal to its end, and how it was scored."""
    rules = subject.rules
    hand = fresh(subject)
    steps = [_state(hand, None)]
    for turn in subject.hand.history:
        hand.push(turn.move)
        steps.append(_state(hand, turn))
    score = score_hand(rules, facts_of(subject.hand))
    gains = score.gains(rules.teams)
    return {
        "hand": subject.number,
        "rules": rules.dump(),
        "seats": rules.seats,
        "teams": [rules.team_of(s) for s in range(rules.seats)],
        "players": {lang: seat_names(rules, subject.players, lang) for lang in ("es", "en")},
        # without names the players are already "asiento N" (as the record counts them): the
        # page adds no second number
        "named": subject.players is not None and len(subject.players) == rules.seats,
        "leader": subject.hand.leader,
        "steps": steps,
        "score": score.to_json(rules.teams),
        "explanation": {
            lang: explain(rules, score, subject.players, lang) for lang in ("es", "en")
        },
        "scores_before": list(subject.scores),
        "scores_after": [s + g for s, g in zip(subject.scores, gains, strict=True)],
    }
