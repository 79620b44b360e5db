"""Pictures of the table for a terminal, built with rich from what the watcher may know.

Every function here takes a :class:`~fichaflow.tui.table.TableState` (or part of it) and returns
something rich can print; none of them prints, reads or decides a rule. Hand-end sentences come
from :func:`fichaflow.core.explain.explain`, in the rule's own words.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from fichaflow.core.explain import explain, team_name
from fichaflow.core.hand import End
from fichaflow.core.rules import Mode, Rules
from fichaflow.core.scoring import HandScore
from fichaflow.core.tiles import HALVES, bits, name
from fichaflow.core.view import PublicTurn, SeatView, TurnKind
from fichaflow.tui.commands import hand_order
from fichaflow.tui.table import PartidaResult, TableState
from fichaflow.tui.texts import say

END_STYLE = "bold yellow"
PLAYABLE_STYLE = "bold green"
TURN_MARK = "▶"
GAP = 3
"""Columns between the players and the anotador beside them."""


def tile_box(left: int, right: int) -> str:
    """A tile as it lies on the table: ``[6|4]``."""
    return f"[{left}|{right}]"


def sides(
    rules: Rules, names: Sequence[str], watcher: int | None, lang: str
) -> list[tuple[int, str]]:
    """The anotador's columns as ``(team, heading)``, the watcher's own side first as on their
    paper: "Nosotros" and "Ellos" in parejas (the pairs' names for a mirón), each player's name
    in the individual modes."""
    order = list(range(rules.teams))
    if watcher is not None:
        ours = rules.team_of(watcher)
        order = [ours] + [t for t in order if t != ours]
    if rules.mode is Mode.PAREJAS and watcher is not None:
        return [(t, say(lang, "us" if t == order[0] else "them")) for t in order]
    return [(t, team_name(rules, t, names, lang)) for t in order]


def line_text(view: SeatView, lang: str) -> Text:
    """The line from left to right, the two open halves standing out (in colour, and named on
    the next line for a screen without it)."""
    if not view.line:
        return Text(say(lang, "line_empty"))
    text = Text(f"{say(lang, 'line')}  ", style="bold")
    last = len(view.line) - 1
    for i, (a, b) in enumerate(view.line):
        text.append("[")
        text.append(str(a), style=END_STYLE if i == 0 else "")
        text.append("|")
        text.append(str(b), style=END_STYLE if i == last else "")
        text.append("] " if i < last else "]")
    return text


def ends_text(view: SeatView, lang: str) -> Text:
    return Text(say(lang, "ends", left=view.left, right=view.right), style="dim")


def playable_tiles(view: SeatView) -> set[int]:
    """The tiles the core lists as playable for the watcher now."""
    return {m.tile for m in view.legal if m.is_play}


def hand_text(view: SeatView, lang: str) -> Text:
    """The watcher's tiles, numbered as the person chooses them, the playable ones in green and
    marked (so the mark does not depend on colour)."""
    playable = playable_tiles(view)
    text = Text(say(lang, "your_tiles"), style="bold")
    for number, tile in enumerate(hand_order(view.tiles), 1):
        hi, lo = HALVES[tile]
        fits = tile in playable
        text.append(f"  {number} ", style="cyan")
        text.append(tile_box(hi, lo), style=PLAYABLE_STYLE if fits else "")
        text.append("*" if fits else " ", style=PLAYABLE_STYLE)
    return text


def stock_text(view: SeatView, lang: str) -> Text:
    if view.stock_left == 0:
        return Text(say(lang, "stock_empty"))
    if view.stock_left == 1:
        return Text(say(lang, "stock_one"))
    return Text(say(lang, "stock", count=view.stock_left))


def _passes(history: Sequence[PublicTurn], seat: int, lang: str) -> str:
    """The ends a seat passed on in this hand, as "4 y 1, 3 y 1"."""
    faced: dict[frozenset[int], str] = {}
    for turn in history:
        if turn.seat == seat and turn.kind is TurnKind.PASS and turn.left >= 0:
            same = turn.left == turn.right
            pair = (
                f"{turn.left}"
                if same
                else say(lang, "passed_pair", left=turn.left, right=turn.right)
            )
            faced.setdefault(frozenset((turn.left, turn.right)), pair)
    return ", ".join(faced.values())


def _last_action(history: Sequence[PublicTurn], seat: int, lang: str) -> str:
    """What a seat did last in this hand (draws in a row counted together)."""
    drew = 0
    for turn in reversed(history):
        if turn.seat != seat:
            if drew:
                break
            continue
        if turn.kind is TurnKind.DRAW:
            drew += 1
            continue
        if drew:
            break
        if turn.kind is TurnKind.PASS:
            return say(lang, "last_pass")
        if turn.end is None:
            return say(lang, "last_lead", tile=name(turn.tile))
        return say(lang, "last_play", tile=name(turn.tile))
    return say(lang, "last_draw", count=drew) if drew else ""


def players_table(state: TableState, labels: Sequence[str], lang: str) -> Table:
    """One row per seat in turn order: who they are, how many tiles, what they passed on and
    their last action; the seat to move is marked."""
    view = state.view
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, expand=False, show_edge=False)
    table.add_column("", width=1)
    table.add_column("#", justify="right")
    table.add_column(say(lang, "player"))
    table.add_column(say(lang, "tiles"), justify="right")
    table.add_column(say(lang, "passes"))
    table.add_column(say(lang, "last"))
    for seat, who in enumerate(state.names):
        mark = TURN_MARK if seat == view.turn and not view.ended else ""
        label = f"{who} ({labels[seat]})" if labels[seat] else who
        style = "bold" if seat == state.watcher else ""
        table.add_row(
            Text(mark, style="bold cyan"),
            str(seat),
            Text(label, style=style),
            str(view.counts[seat]),
            _passes(view.history, seat, lang),
            _last_action(view.history, seat, lang),
        )
    return table


def sheet_table(state: TableState, lang: str) -> Table:
    """The anotador: one column per side, one row per hand, the totals and the target."""
    rules = state.rules
    table = Table(
        title=say(lang, "sheet"),
        caption=say(lang, "sheet_target", target=rules.target),
        box=box.SIMPLE_HEAD,
        show_footer=True,
        pad_edge=False,
    )
    table.add_column(say(lang, "sheet_hand"), footer=say(lang, "sheet_total"), justify="right")
    columns = sides(rules, state.names, state.watcher, lang)
    for team, label in columns:
        table.add_column(Text(label), footer=str(state.scores[team]), justify="right")
    for number, gains in enumerate(state.sheet, 1):
        table.add_row(str(number), *(str(gains[t]) if gains[t] else "–" for t, _ in columns))
    return table


def scores_line(state: TableState, lang: str) -> Text:
    columns = sides(state.rules, state.names, state.watcher, lang)
    scores = " · ".join(f"{label} {state.scores[team]}" for team, label in columns)
    return Text(say(lang, "scores_line", scores=scores, target=state.rules.target), style="dim")


def table_view(
    state: TableState, labels: Sequence[str], lang: str, console: Console
) -> RenderableType:
    """The whole table as the person sees it on their turn: the players, the anotador (beside
    them when the screen is wide enough, its totals only when not), the line and the tiles."""
    view = state.view
    title = say(lang, "title", preset=state.rules.preset, target=state.rules.target)
    title = f"{say(lang, 'hand_title', number=view.hand_number)} · {title}"
    players = players_table(state, labels, lang)
    parts: list[RenderableType] = [players]
    if state.rules.has_stock:
        parts.append(stock_text(view, lang))
    sheet = sheet_table(state, lang)
    needed = sum(Measurement.get(console, console.options, r).maximum for r in (players, sheet))
    inner: RenderableType
    if needed + GAP + 4 <= console.width:
        inner = Table.grid(padding=(0, GAP))
        inner.add_row(Group(*parts), sheet)
    else:
        inner = Group(*parts, scores_line(state, lang))
    panel = Panel(inner, title=title, title_align="left", box=box.ROUNDED, expand=False)
    body: list[RenderableType] = [panel, line_text(view, lang)]
    if view.line:
        body.append(ends_text(view, lang))
    if view.seat is not None:
        body.append(hand_text(view, lang))
    return Group(*body)


def turn_prompt(state: TableState, lang: str) -> Text:
    """One line that says what the person has to do now."""
    view = state.view
    who = state.names[view.seat] if view.seat is not None else ""
    if view.left < 0:
        if view.forced_lead is not None:
            text = say(lang, "your_forced_lead", who=who, tile=name(view.forced_lead))
        else:
            text = say(lang, "your_lead", who=who)
    elif any(m.is_draw for m in view.legal):
        text = f"{say(lang, 'your_turn', who=who)} {say(lang, 'you_must_draw')}"
    elif any(m.is_pass for m in view.legal):
        text = f"{say(lang, 'your_turn', who=who)} {say(lang, 'you_must_pass')}"
    else:
        text = say(lang, "your_turn", who=who)
    prompt = Text(text, style="bold cyan")
    if any(m.is_play for m in view.legal):
        prompt.append(f"  {say(lang, 'playable_note')}", style="dim")
    return prompt


def event_text(state: TableState, turn: PublicTurn, lang: str) -> Text:
    """One line for a lead, a play or a pass (draws are told together by the screen)."""
    who = state.names[turn.seat]
    if turn.kind is TurnKind.PASS:
        key = "ev_pass_one" if turn.left == turn.right else "ev_pass"
        return Text(say(lang, key, who=who, left=turn.left, right=turn.right))
    view = state.view
    if turn.end is None:
        line = say(lang, "ev_lead", who=who, tile=name(turn.tile))
    else:
        side = say(lang, "left" if turn.end is End.LEFT else "right")
        line = say(lang, "ev_play", who=who, tile=name(turn.tile), end=side)
    text = Text(line)
    if not view.ended:
        text.append(f"   {say(lang, 'ev_ends', left=view.left, right=view.right)}", style="dim")
    return text


def hand_summary(state: TableState, score: HandScore, lang: str) -> RenderableType:
    """The end of a hand: the rule's own explanation (bonuses on their own lines), every hand
    face up with its pips, and the anotador."""
    view = state.view
    sentences = explain(state.rules, score, state.names, lang)
    explanation = Text("\n".join(sentences), style="bold")
    faces = Table(box=None, show_header=False, pad_edge=False, padding=(0, 2, 0, 0))
    faces.add_column()
    faces.add_column()
    faces.add_column(justify="right")
    revealed = view.revealed or ()
    for seat, tiles in enumerate(revealed):
        shown = " ".join(tile_box(*HALVES[t]) for t in sorted(bits(tiles), reverse=True))
        left = score.facts.pips[seat]
        pips = say(lang, "pips_one") if left == 1 else say(lang, "pips", pips=left)
        faces.add_row(Text(state.names[seat]), shown or say(lang, "no_tiles"), pips)
    heading = Text(say(lang, "hands_face_up"), style="underline")
    body = Group(explanation, Text(""), heading, faces, Text(""), line_text(view, lang))
    panel = Panel(
        body,
        title=say(lang, "hand_over", number=view.hand_number),
        title_align="left",
        expand=False,
    )
    return Group(panel, Padding(sheet_table(state, lang), (0, 0, 0, 1)))


def partida_summary(state: TableState, result: PartidaResult, lang: str) -> RenderableType:
    """The end of the partida: who won, by how much, and a zapato or chancleta."""
    rules = state.rules
    names = state.names
    winner = team_name(rules, result.winner, names, lang)
    score = result.scores[result.winner]
    if len(result.losers) == 1:
        rest = str(result.scores[result.losers[0]])
        lines = [say(lang, "partida_winner", who=winner, score=score, rest=rest)]
    else:
        rest = ", ".join(
            f"{team_name(rules, t, names, lang)} {result.scores[t]}" for t in result.losers
        )
        lines = [say(lang, "partida_winner_many", who=winner, score=score, rest=rest)]
    losers = " · ".join(team_name(rules, t, names, lang) for t in result.losers)
    many = len(result.losers) > 1 or rules.mode is Mode.PAREJAS
    if result.zapato:
        lines.append(say(lang, "zapato_many" if many else "zapato", who=losers))
    elif result.chancleta:
        lines.append(say(lang, "chancleta_many" if many else "chancleta", who=losers))
    return Panel(
        Text("\n".join(lines), style="bold"),
        title=say(lang, "partida_over"),
        title_align="left",
        expand=False,
        border_style="green",
    )
