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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TextIO, TypeVar

import click

from fichaflow.bots.base import Bot
from fichaflow.bots.ladder import BOTS, PLAYER_BOTS, make_bot
from fichaflow.cli.app import app, fail, lang_of
from fichaflow.core.coherence import check_view
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import Hand, Move, write_move
from fichaflow.core.partida import forced_first_lead
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


def same_choice(view: SeatView, move: Move) -> tuple[int, int | None]:
    """What a move chooses, whichever way a client spelled it: the tile and its end, with no
    end where the ends show one number (either end gives the same line)."""
    mirror = view.left >= 0 and view.left == view.right
    return move.tile, None if mirror or move.end is None else int(move.end)


def _error(error: FichaFlowError, lang: str) -> dict[str, Any]:
    return {"error": {"code": error.code, "message": error.message(lang)}}


F = TypeVar("F", bound=Callable[..., Any])

DEFAULT_SAMPLES: Final = 150
DEFAULT_NODES: Final = 40_000
"""The engine's default work per gallo decision, within gallo's 150 ms clock in the server at the
median (docs/engine-protocol.md gives the figures). The nodes go to the exact search from nine
tiles on the line: from 10,000 to 40,000 gallo solves several times more of its deals there,
leans stronger against itself at 10,000 (not shown against the baseline of #14), leaves its
median decision where it was and keeps its p99 under 400 ms on a quiet machine
(docs/benchmarks.md, «More nodes for the exact search»)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a searching bot (gallo) may do per request. The work limits make answers
    reproducible: the same seed, budget and requests give the same answers on any machine.
    ``time_ms`` adds a clock, which makes them depend on the machine's speed and load."""

    samples: int = DEFAULT_SAMPLES
    nodes: int = DEFAULT_NODES
    time_ms: int | None = None

    def options(self) -> dict[str, Any]:
        return {"samples": self.samples, "nodes": self.nodes, "budget_ms": self.time_ms}


BUDGET_RANGES: Final = {"samples": (1, 100_000), "nodes": (1, 100_000_000), "time_ms": (1, 60_000)}
"""What each budget may be, per session (``--samples``...) and per request (``"budget"``)."""


def read_budget(data: object, base: Budget) -> Budget:
    """A request's ``"budget"`` object over the session's: any of ``samples``, ``nodes`` and
    ``time_ms`` (``null`` for no clock)."""
    if not isinstance(data, dict):
        raise FichaFlowError("view.not_object", key="budget")
    changes: dict[str, int | None] = {}
    for key, value in data.items():
        if key not in BUDGET_RANGES:
            allowed = ", ".join(BUDGET_RANGES)
            raise FichaFlowError("view.unknown_key", key=f"budget.{key}", allowed=allowed)
        low, high = BUDGET_RANGES[key]
        if value is None and key == "time_ms":
            changes[key] = None
        elif isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            changes[key] = value
        else:
            raise FichaFlowError(
                "view.number", key=f"budget.{key}", low=low, high=high, value=repr(value)
            )
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


class Player:
    """The session's bot, built once per budget it is asked to play with."""

    def __init__(self, name: str, seed: int, budget: Budget) -> None:
        self.name = name
        self.seed = seed
        self.budget = budget
        self._bots: dict[Budget, Bot] = {}

    def bot(self, budget: Budget | None = None) -> Bot:
        kind = BOTS[self.name]
        key = (budget or self.budget) if kind.searches else Budget()
        bot = self._bots.get(key)
        if bot is None:
            options = key.options() if kind.searches else {}
            bot = self._bots[key] = make_bot(self.name, self.seed, **options)
        return bot


NO_ID: Final = object()
"""A request without an ``id`` (``"id": null`` is an id, echoed like any other)."""


def read_view(data: object) -> SeatView:
    """The request's view, with the forced salida the rules give its leader, checked against
    itself (:func:`~fichaflow.core.coherence.check_view`)."""
    view = SeatView.from_json(data)
    if not view.history and view.seat == view.leader and view.forced_lead is None:
        forced = forced_first_lead(view.rules, view.hand_number, view.tiles)
        view = dataclasses.replace(view, forced_lead=forced)
    check_view(view)
    return view


def respond(player: Player | Bot, line: str, lang: str = "es") -> dict[str, Any]:
    """The answer to one request line (never raises for anything the line holds)."""
    request_id: object = NO_ID
    budget: Budget | None = None
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
        if isinstance(data, dict) and "budget" in data:
            data = dict(data)
            base = player.budget if isinstance(player, Player) else Budget()
            budget = read_budget(data.pop("budget"), base)
        bot = player.bot(budget) if isinstance(player, Player) else player
        view = read_view(data)
        if not view.my_turn:
            raise FichaFlowError("engine.not_your_turn", seat=view.seat)
        legal = core_legal(view)
        given = {same_choice(view, m) for m in view.legal}
        if view.legal and given != {same_choice(view, m) for m in legal}:
            shown = ", ".join(write_move(m) for m in legal)
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
    if request_id is not NO_ID:
        answer = {"id": request_id, **answer}
    return answer


def serve_lines(player: Player, source: TextIO, sink: TextIO, lang: str = "es") -> None:
    """Answer every non-blank line of ``source`` on ``sink``, flushing each answer."""
    for line in source:
        if not line.strip():
            continue
        try:
            answer = respond(player, line, lang)
        except Exception as exc:  # the protocol's promise: an answer line, never a crash
            answer = _error(FichaFlowError("engine.internal", detail=repr(exc)), lang)
        sink.write(json.dumps(answer, ensure_ascii=False) + "\n")
        sink.flush()


def _budget_option(name: str, help_text: str, default: int | None) -> Callable[[F], F]:
    low, high = BUDGET_RANGES[name.replace("-", "_")]
    return click.option(
        f"--{name}",
        type=click.IntRange(low, high),
        default=default,
        show_default=default is not None,
        help=help_text,
    )


@app.command()
@click.option("--bot", "bot_name", default="jugador", show_default=True, help="El bot que juega.")
@click.option("--seed", type=int, default=0, show_default=True, help="Semilla del bot.")
@_budget_option("samples", "gallo: repartos que examina por jugada, como mucho.", DEFAULT_SAMPLES)
@_budget_option("nodes", "gallo: nodos del cálculo exacto por jugada, como mucho.", DEFAULT_NODES)
@_budget_option("time-ms", "gallo: además, un reloj por jugada (ya no se repite).", None)
def engine(bot_name: str, seed: int, samples: int, nodes: int, time_ms: int | None) -> None:
    """Protocolo de motor: una vista JSON por línea en la entrada, una jugada JSON por línea."""
    allowed = ", ".join(PLAYER_BOTS)
    if bot_name not in PLAYER_BOTS:  # the bots that play from a seat view, and only those
        code = "engine.sees_all" if bot_name in BOTS else "bot.unknown"
        fail(FichaFlowError(code, bot=bot_name, name=bot_name, allowed=allowed))
    player = Player(bot_name, seed, Budget(samples, nodes, time_ms))
    # UTF-8 both ways whatever the locale; bytes that are not UTF-8 make a request unreadable,
    # not the session.
    source = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
    sink = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", line_buffering=True)
    serve_lines(player, source, sink, lang_of())
