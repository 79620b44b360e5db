"""A person at the table, through the page: reads what the screen shows and taps like a person.

Nothing here reads the client's internals. What a player would see (the ends, the marked tiles,
the lit ends) is read from the page; what the server recorded is read back through the rules core
to check that what was tapped is what was played."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import httpx
from playwright.sync_api import expect

from fichaflow.core.partida import Partida
from fichaflow.core.record import loads, replay

ENDS = re.compile(r"Puntas: (\d) a la izquierda y (\d) a la derecha")


def fits_both(tile: str, left: int, right: int) -> bool:
    a, b = (int(x) for x in tile.split("-"))
    return (left in (a, b)) and (right in (a, b))


def boxes_overlap(one: dict[str, float], other: dict[str, float]) -> bool:
    return not (
        one["x"] + one["width"] <= other["x"]
        or other["x"] + other["width"] <= one["x"]
        or one["y"] + one["height"] <= other["y"]
        or other["y"] + other["height"] <= one["y"]
    )


@dataclass
class Player:
    page: Any
    choices: list[tuple[str, str]] = field(default_factory=list)
    passes: int = 0
    draws: int = 0
    plays: int = 0
    pending_choice: str | None = None
    before_choice: Callable[[], None] | None = None
    """Called while both ends are lit, before one is tapped (the tests take a picture)."""

    # -- reading the screen -----------------------------------------------------------------

    def ends(self) -> tuple[int, int] | None:
        found = self.page.locator(".ends-text")
        if not found.count():
            return None
        match = ENDS.search(found.first.inner_text())
        return (int(match.group(1)), int(match.group(2))) if match else None

    def hand(self) -> list[str]:
        return cast(
            list[str],
            self.page.locator(".hand-tile").evaluate_all("els => els.map(e => e.dataset.tile)"),
        )

    def playable(self) -> list[str]:
        return cast(
            list[str],
            self.page.locator(".my-turn .hand-tile.playable").evaluate_all(
                "els => els.map(e => e.dataset.tile)"
            ),
        )

    def line(self) -> list[str]:
        return cast(
            list[str],
            self.page.locator(".line-tile").evaluate_all(
                "els => els.sort((a, b) => a.dataset.index - b.dataset.index)"
                ".map(e => e.dataset.tile)"
            ),
        )

    def summary_open(self) -> bool:
        dialogs: int = self.page.locator("[data-dialog=summary-dialog]").count()
        return dialogs > 0

    # -- acting -----------------------------------------------------------------------------

    def act(
        self, end_for_choice: str | None = None, draw: bool = True, say_paso: bool = True
    ) -> str | None:
        """One thing a person would do now, if there is anything to do: choose a lit end, say
        paso (unless ``say_paso`` is False: the caller watches who passes), draw one tile (unless
        ``draw`` is False: the caller draws), or tap a marked tile (preferring one that fits both
        ends, to make the page ask). Returns what was done."""
        page = self.page
        if self.summary_open():
            return None
        lit = page.locator(".end-choice")
        if lit.count():
            return self._choose_end(end_for_choice)
        pass_button = page.locator(".action-pass")
        if pass_button.count() and pass_button.is_enabled():
            if not say_paso:
                return None
            assert self.playable() == [], "Paso is offered while a tile is marked playable"
            before = self._progress()
            pass_button.click()
            self._settle(before)
            self.passes += 1
            return "pass"
        if self.can_draw():
            if not draw:
                return None
            self.draw()
            return "draw"
        playable = self.playable()
        if not playable or page.locator(".hand-tile[aria-disabled=false]").count() == 0:
            return None
        ends = self.ends()
        both = [t for t in playable if ends is not None and fits_both(t, *ends)]
        tile = both[0] if both else playable[0]
        before = self._progress()
        page.locator(f".hand-tile[data-tile='{tile}']").click()
        if both:
            # The tile fits both ends: the page must ask, and light up both ends.
            expect(page.locator(".end-choice")).to_have_count(2)
            self.pending_choice = tile
            return self._choose_end(end_for_choice)
        self._settle(before)
        self.plays += 1
        return "play"

    def can_draw(self) -> bool:
        button = self.page.locator(".action-draw")
        return bool(button.count()) and button.is_enabled()

    def draw(self, by_keyboard: bool = False) -> None:
        """Tap «Robar» (or focus it and press Enter) and wait until the server has answered."""
        button = self.page.locator(".action-draw")
        assert self.playable() == [], "Robar is offered while a tile is marked playable"
        before = self._progress()
        if by_keyboard:
            button.focus()
            self.page.keyboard.press("Enter")
        else:
            button.click()
        self._settle(before)
        self.draws += 1

    def _choose_end(self, wanted: str | None) -> str:
        page = self.page
        left, right = page.locator(".end-choice.end-left"), page.locator(".end-choice.end-right")
        expect(left).to_be_visible()
        expect(right).to_be_visible()
        assert not boxes_overlap(left.bounding_box(), right.bounding_box())
        assert "izquierda" in (left.get_attribute("aria-label") or "")
        assert "derecha" in (right.get_attribute("aria-label") or "")
        tile = page.locator(".hand-tile.chosen").get_attribute("data-tile")
        if self.before_choice is not None:
            self.before_choice()
        end = wanted or ("left" if len(self.choices) % 2 == 0 else "right")
        before = self._progress()
        (left if end == "left" else right).click()
        self._settle(before)
        self.choices.append((tile, end))
        self.pending_choice = None
        self.plays += 1
        return "choice"

    def _progress(self) -> str:
        screen = self.page.locator(".table-screen")
        return f"{screen.get_attribute('data-hand')}.{screen.get_attribute('data-turns')}"

    def _settle(self, before: str) -> None:
        """Wait until the server has taken the move: the screen shows a later turn of the hand
        (or another hand, or the summary). A locator, not a polled script: the page's policy
        forbids eval, which Playwright's function polling may need."""
        hand, turns = before.split(".")
        moved = f".table-screen:not([data-hand='{hand}'][data-turns='{turns}'])"
        self.page.locator(f"{moved}, [data-dialog=summary-dialog]").first.wait_for(state="attached")

    def play_until_summary(self, timeout: float = 90) -> None:
        """Play every turn of this seat until the hand's summary opens."""
        deadline = time.monotonic() + timeout
        while not self.summary_open():
            assert time.monotonic() < deadline, "the hand did not end in time"
            if self.act() is None:
                self.page.wait_for_timeout(80)


# -- setting up a mesa through the page --------------------------------------------------------


def create_mesa(
    page: Any,
    base_url: str,
    name: str,
    preset: str,
    target: int,
    bots: dict[int, str],
    more: Callable[[Any], None] | None = None,
) -> str:
    """Build a mesa on the home page (host in seat 1), put ``bots`` in their seats; returns the
    mesa's code. ``more`` fills more of the form (the page) before it is sent."""
    page.goto(f"{base_url}/")
    page.get_by_label("Tu nombre").fill(name)
    page.get_by_label("Reglamento").select_option(preset)
    page.get_by_label("Meta").fill(str(target))
    page.get_by_label("Ritmo de los bots").select_option("0")
    if more is not None:
        more(page)
    page.get_by_role("button", name="Crear la mesa").click()
    expect(page.locator(".chair-ring")).to_be_visible()
    for seat, bot in bots.items():
        page.locator(f"#bot-for-{seat}").select_option(bot)
        page.get_by_role("button", name=f"Poner bot en el asiento {seat + 1}").click()
        expect(page.locator(f".chair[data-seat='{seat}']")).to_have_class(re.compile(r"\bbot\b"))
    url: str = page.url
    return url.rsplit("/", 1)[-1]


def start(page: Any) -> None:
    page.get_by_role("button", name="Empezar la partida").click()
    expect(page.locator(".table-screen")).to_be_visible()


def settle_motion(page: Any) -> None:
    """Wait until the tiles travelling or gliding to the line have landed (motion.js names its
    animations ``ff-…``): where a person would drop a tile, or a picture show the table."""
    page.evaluate(
        "() => Promise.all(document.getAnimations()"
        ".filter((a) => a.id.startsWith('ff-')).map((a) => a.finished))"
    )


def next_hand(page: Any) -> None:
    """Close a hand's summary by saying ready (or, at a partida's end, start another)."""
    again = page.locator("[data-key=new-partida]")
    if again.count():
        again.click()
    else:
        page.locator("[data-key=next-hand]").click()
    expect(page.locator("[data-dialog=summary-dialog]")).to_have_count(0)


# -- what the server recorded, read through the rules core --------------------------------------


def recorded_partida(base_url: str, code: str, number: int) -> Partida:
    response = httpx.get(f"{base_url}/api/mesas/{code}/partidas/{number}/record", timeout=10)
    assert response.status_code == 200, response.text
    return replay(loads(response.text))


def seat_moves(partida: Partida, seat: int) -> tuple[list[tuple[str, str]], int]:
    """The end choices (tile, end) that ``seat`` made where a tile fitted both ends, and how
    many times it passed."""
    choices: list[tuple[str, str]] = []
    passes = 0
    for played in partida.played:
        for turn in played.hand.history:
            if turn.seat != seat:
                continue
            if turn.move.is_pass:
                passes += 1
            notation = turn.notation()
            if ":" in notation:
                tile, end = notation.split(":")
                choices.append((tile, end))
    return choices, passes
