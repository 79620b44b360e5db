"""Seating a terminal partida: which bot plays, who sits where, what everybody is called, and
the seed that makes it all repeatable."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Final

from fichaflow.bots.ladder import BOTS, PLAYER_BOTS, make_bot
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.rules import Mode, Rules
from fichaflow.tui.person import Person
from fichaflow.tui.table import BotPlayer, Observer, Player, Table, bot_seed
from fichaflow.tui.texts import say

DEFAULT_BOT: Final = "gallo"
BOT_NAMES: Final = ("Beto", "Carmen", "Dani", "Elena")
"""Names for the bots' seats, in seat order; one more than needed, in case the person is called
by one of them."""


@dataclass(frozen=True, slots=True)
class Seating:
    """Everything decided before the first deal."""

    rules: Rules
    person: int
    names: tuple[str, ...]
    labels: tuple[str, ...]
    bot: str
    seed: str
    notes: tuple[str, ...]


def pick_bot(wanted: str, lang: str = "es") -> tuple[str, str | None]:
    """The bot to play with and a note when the default one is not registered yet (then the
    strongest registered player bot, the last in ladder order, stands in for it)."""
    if wanted in PLAYER_BOTS:
        return wanted, None
    if wanted in BOTS:
        raise FichaFlowError("play.bot_not_offered", name=wanted, allowed=", ".join(PLAYER_BOTS))
    if wanted == DEFAULT_BOT and PLAYER_BOTS:
        used = PLAYER_BOTS[-1]
        return used, say(lang, "bot_fallback", wanted=wanted, used=used)
    raise FichaFlowError("bot.unknown", name=wanted, allowed=", ".join(PLAYER_BOTS))


def new_seed() -> str:
    return secrets.token_hex(4)


def seat_players(
    rules: Rules,
    bot: str,
    seat: int,
    name: str | None,
    seed: str | None,
    lang: str = "es",
) -> Seating:
    """Check the options and seat the person among the bots; a bad option raises a
    FichaFlowError and nothing starts."""
    if not 0 <= seat < rules.seats:
        raise FichaFlowError("play.seat", seat=seat, high=rules.seats - 1)
    used, note = pick_bot(bot, lang)
    person_name = (name or "").strip() or say(lang, "person_name")
    bot_names = iter(n for n in BOT_NAMES if n != person_name)
    partner = (seat + 2) % 4 if rules.mode is Mode.PAREJAS else None
    names, labels = [], []
    for s in range(rules.seats):
        if s == seat:
            names.append(person_name)
            labels.append(say(lang, "you"))
        else:
            names.append(next(bot_names))
            labels.append(say(lang, "partner") if s == partner else "")
    chosen_seed = seed if seed else new_seed()
    bots = say(lang, "bots", bot=used, names=", ".join(n for s, n in enumerate(names) if s != seat))
    notes = tuple(n for n in (note, bots, say(lang, "seed", seed=chosen_seed)) if n)
    return Seating(rules, seat, tuple(names), tuple(labels), used, chosen_seed, notes)


def build_table(
    seating: Seating,
    person: Person,
    observer: Observer,
    thinking: Callable[[int], Callable[[], AbstractContextManager[object]]] | None = None,
) -> Table:
    """The table with the person at their seat and a seeded bot at every other one.
    ``thinking(seat)`` gives what to show while that seat's bot thinks."""
    players: list[Player] = []
    for s in range(seating.rules.seats):
        if s == seating.person:
            players.append(person)
        else:
            bot = make_bot(seating.bot, bot_seed(seating.seed, s))
            players.append(BotPlayer(bot, thinking(s) if thinking else None))
    return Table(seating.rules, players, seating.names, seating.seed, observer, seating.person)
