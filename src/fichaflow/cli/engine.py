"""``fichaflow engine --bot NAME``: a FichaFlow bot for other programs, one JSON line at a time.

Each line on stdin is a request: a seat view as :meth:`SeatView.to_json` writes it (optionally
with an ``"id"`` that the answer repeats). Each answer is one line on stdout: ``{"move": "6-4"}``
in record notation, or ``{"error": {"code": ..., "message": ...}}`` for a request it cannot
answer. Nothing a client sends ends the session; end of input does. See
``docs/engine-protocol.md``.
"""

from __future__ import annotations

import dataclasses
import io
import json
import sys
from typing import Any, TextIO

import click

from fichaflow.bots.base import Bot
from fichaflow.bots.ladder import PLAYER_BOTS, make_bot
from fichaflow.cli.app import app, fail, lang_of
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import Hand, Move, write_move
from fichaflow.core.view import SeatView


def core_legal(view: SeatView) -> tuple[Move, ...]:
    """The legal moves the rules core gives this seat: its own tiles against the open ends, a
    forced salida, and a draw or a pass by the montón's count. The other hands do not matter to
    what this seat may play, so the probe position leaves them empty."""
    assert view.seat is not None
    hands = [view.tiles if s == view.seat else 0 for s in range(view.rules.seats)]
    probe = Hand(hands, tuple(range(view.stock_left)), view.leader, view.forced_lead)
    probe.turn = view.seat
    probe.left, probe.right = view.left, view.right
    return tuple(probe.legal_moves())


def notation(view: SeatView, move: Move) -> str:
    """The move in record notation (the end named only where the tile fits both)."""
    return write_move(move, (view.left, view.right))


def _error(error: FichaFlowError, lang: str) -> dict[str, Any]:
    return {"error": {"code": error.code, "message": error.message(lang)}}


def respond(bot: Bot, line: str, lang: str = "es") -> dict[str, Any]:
    """The answer to one request line (never raises for anything the line holds)."""
    request_id: object = None
    try:
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise FichaFlowError("engine.not_json", column=exc.colno) from None
        except (ValueError, RecursionError):  # e.g. nesting too deep to read
            raise FichaFlowError("engine.not_json", column=1) from None
        if isinstance(data, dict) and "id" in data:
            data = dict(data)
            request_id = data.pop("id")
        view = SeatView.from_json(data)
        if not view.my_turn:
            raise FichaFlowError("engine.not_your_turn", seat=view.seat)
        legal = core_legal(view)
        if view.legal and set(view.legal) != set(legal):
            shown = ", ".join(notation(view, m) for m in legal)
            raise FichaFlowError("engine.legal_mismatch", legal=shown)
        view = dataclasses.replace(view, legal=legal)
        try:
            move = bot.choose(view)
        except Exception as exc:  # a bot's bug must not end the session
            raise FichaFlowError("engine.bot_failed", bot=bot.name, detail=repr(exc)) from None
        if move not in legal:
            raise FichaFlowError("engine.bot_failed", bot=bot.name, detail=repr(move))
        answer: dict[str, Any] = {"move": notation(view, move)}
    except FichaFlowError as exc:
        answer = _error(exc, lang)
    if request_id is not None:
        answer = {"id": request_id, **answer}
    return answer


def serve_lines(bot: Bot, source: TextIO, sink: TextIO, lang: str = "es") -> None:
    """Answer every non-blank line of ``source`` on ``sink``, flushing each answer."""
    for line in source:
        if not line.strip():
            continue
        try:
            answer = respond(bot, line, lang)
        except Exception as exc:  # the protocol's promise: an answer line, never a crash
            answer = _error(FichaFlowError("engine.internal", detail=repr(exc)), lang)
        sink.write(json.dumps(answer, ensure_ascii=False) + "\n")
        sink.flush()


@app.command()
@click.option("--bot", "bot_name", default="jugador", show_default=True, help="El bot que juega.")
@click.option("--seed", type=int, default=0, show_default=True, help="Semilla del bot.")
def engine(bot_name: str, seed: int) -> None:
    """Protocolo de motor: una vista JSON por línea en la entrada, una jugada JSON por línea."""
    try:
        bot = make_bot(bot_name, seed)
    except FichaFlowError as exc:
        fail(exc)
    if bot.sees_all:
        allowed = ", ".join(PLAYER_BOTS)
        fail(FichaFlowError("engine.sees_all", bot=bot_name, allowed=allowed))
    # UTF-8 both ways whatever the locale; bytes that are not UTF-8 make a request unreadable,
    # not the session.
    source = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    sink = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", line_buffering=True)
    serve_lines(bot, source, sink, lang_of())
