"""A phone held upright (360 x 740): the whole line and the whole hand are on screen, with no
scrolling, at every turn of real play (mano a mano, where draws make hands long) and with the
longest line the set allows (all 28 tiles, every double crosswise), wherever its salida sits."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest
from playwright.sync_api import expect

from tests.server.kit import ServerProcess
from tests.web.driver import Player, create_mesa, next_hand, settle_motion, start

WIDTH, HEIGHT = 360, 740

FITS = """() => {
  const inside = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.left >= -0.5 && r.top >= -0.5
      && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5;
  };
  const doc = document.scrollingElement;
  const line = [...document.querySelectorAll('.line-tile')];
  const hand = [...document.querySelectorAll('.hand-tile')];
  const ends = [...document.querySelectorAll('.end-choice')];
  return {
    scrollWidth: doc.scrollWidth, scrollHeight: doc.scrollHeight,
    line: line.length, hand: hand.length,
    outside: [...line, ...hand, ...ends].filter((el) => !inside(el))
      .map((el) => el.outerHTML.slice(0, 80)),
  };
}"""


def assert_fits(page: Any) -> dict[str, Any]:
    found = cast(dict[str, Any], page.evaluate(FITS))
    assert found["scrollWidth"] <= WIDTH and found["scrollHeight"] <= HEIGHT, found
    assert found["outside"] == [], found
    return found


def full_chain() -> list[tuple[int, int]]:
    """All 28 tiles in one line where each tile matches the next (an Euler circuit of the
    numbers 0..6, each tile an edge and each double a loop)."""
    unused = {(a, b) for a in range(7) for b in range(a + 1)}
    path: list[int] = []
    stack = [6]
    while stack:
        here = stack[-1]
        edge = next((e for e in sorted(unused) if here in e), None)
        if edge is None:
            path.append(stack.pop())
        else:
            unused.remove(edge)
            stack.append(edge[0] if edge[1] == here else edge[1])
    chain = list(itertools.pairwise(path))
    assert len(chain) == 28 and all(x[1] == y[0] for x, y in itertools.pairwise(chain))
    return chain


@pytest.mark.slow
def test_a_phone_shows_the_whole_line_and_hand_without_scrolling(
    web_server: ServerProcess, new_page: Callable[..., Any], shots: Path
) -> None:
    page = new_page(WIDTH, HEIGHT)
    create_mesa(page, web_server.url, "Ana", "mano_a_mano", 60, {1: "tirafichas"})
    start(page)
    me = Player(page)
    longest_line = biggest_hand = 0
    hands = 0
    shot = False
    while hands < 3:
        if me.summary_open():
            hands += 1
            page.locator("[data-key=see-line]").click()
            longest_line = max(longest_line, assert_fits(page)["line"])
            page.locator("[data-key=open-summary]").click()
            if page.locator("[data-key=new-partida]").count():
                break
            next_hand(page)
            continue
        if page.locator(".my-hand.my-turn").count():
            found = assert_fits(page)
            longest_line = max(longest_line, found["line"])
            biggest_hand = max(biggest_hand, found["hand"])
            if found["line"] >= 6 and not shot:
                settle_motion(page)  # the picture shows the tiles landed, not in flight
                page.screenshot(path=str(shots / "web-telefono.png"))
                shot = True
        if me.act() is None:
            page.wait_for_timeout(60)
        elif page.locator(".end-choice").count():
            assert_fits(page)
    assert longest_line >= 8 and biggest_hand >= 7

    # The longest line there can be, drawn in this page's own box, with the salida at the
    # start, in the middle and at the end, and with both ends lit for a choice; plus a hand of
    # twenty tiles.
    if me.summary_open():
        page.locator("[data-key=see-line]").click()
    page.evaluate(
        """async () => {
          const { tileSvg } = await import('/js/tiles.js');
          const tiles = Array.from({ length: 20 }, () => {
            const button = document.createElement('button');
            button.className = 'hand-tile';
            button.append(tileSvg('6-5'));
            return button;
          });
          document.querySelector('.hand-tiles').replaceChildren(...tiles);
        }"""
    )
    chain = [list(pair) for pair in full_chain()]
    for lead in (0, 13, 27):
        history = [{"kind": "play", "end": "left"}] * lead + [{"kind": "play", "end": "right"}] * (
            27 - lead
        )
        view = {"line": chain, "history": history, "ends": [chain[0][0], chain[-1][1]]}
        page.evaluate(
            """async ([view, choosing]) => {
              const { layoutTable } = await import('/js/table.js');
              const app = { state: { view, choosing }, chooseEnd() {}, cancelChoice() {} };
              layoutTable(app, document.getElementById('app'));
            }""",
            [view, {"tile": "6-6"}],
        )
        found = assert_fits(page)
        assert found["line"] == 28 and found["hand"] == 20
        expect(page.locator(".end-choice")).to_have_count(2)
    assert page.js_errors == []


SCOREBOARD = """() => [...document.querySelectorAll('.score')].map((box) => {
  const outer = box.getBoundingClientRect();
  const label = box.querySelector('.score-side').getBoundingClientRect();
  return { left: outer.left, right: outer.right, labelLeft: label.left, labelRight: label.right,
           cut: [...box.querySelectorAll('.score-side, .cut-head, .cut-tail')]
             .some((part) => part.scrollWidth > part.clientWidth + 0.5),
           title: box.title };
})"""


def test_three_long_names_and_the_target_share_the_top_of_a_phone(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    """De a tres on a phone: the waiting room sums up only the rules that apply; then each name
    stays inside its own score box (cut in the middle when it must be, the whole name in its
    title), no box runs over the next, nothing scrolls."""
    page = new_page(WIDTH, HEIGHT)
    name = "María Fernanda González"
    create_mesa(page, web_server.url, name, "tres", 100, {1: "acuestafichas", 2: "tirapuntos"})
    # Each for himself: how a tranque is won by pairs is not a rule of this mesa.
    summary = page.locator(".rules-summary")
    expect(summary).to_contain_text("Empate en el tranque")
    expect(summary).not_to_contain_text("Cómo se gana un tranque")
    start(page)
    boxes = page.evaluate(SCOREBOARD)
    assert len(boxes) == 4  # three players and the target
    for box in boxes:
        assert box["left"] - 0.5 <= box["labelLeft"] and box["labelRight"] <= box["right"] + 0.5
    for one, other in itertools.pairwise(boxes):
        assert one["right"] <= other["left"] + 0.5, "a score box runs over the next"
    assert boxes[0]["cut"] and boxes[0]["title"] == name, "a cut name keeps its title"
    assert not boxes[-1]["cut"], "the target's word is never cut"
    found = page.evaluate(FITS)
    assert found["scrollWidth"] <= WIDTH and found["scrollHeight"] <= HEIGHT, found
    assert page.js_errors == []


SUMMARY_OF_LONG_NAMES = """async (names) => {
  const { dialog } = await import('/js/chrome.js');
  const { handSummaryBody } = await import('/js/summary.js');
  const { loadLanguage } = await import('/js/i18n.js');
  await loadLanguage('es');
  const seats = names.map((name, seat) => ({ seat, name, kind: 'human', connected: true }));
  const app = {
    state: { view: { players: names }, mesa: { seats, status: 'hand_over' }, you: { id: 'a' },
             fairness: {}, partida: { number: 1 } },
    mySeat: () => 0,
  };
  const summary = {
    number: 1, seed: 'semilla', scores: [113, 0],
    revealed: [[], ['6-6', '6-5', '5-5', '4-4', '6-4', '3-3', '2-2'], ['1-0', '2-1'],
               ['6-3', '5-4', '4-3', '6-2', '5-3', '6-1', '0-0']],
    score: { end: 'tranque', seat: 0, pips: [0, 66, 4, 47], counted: [1, 3], gains: [113, 0] },
    explanation: { es: [`Tranque: gana la pareja de ${names[0]} y ${names[2]}.`] },
  };
  document.body.append(dialog('summary-dialog', 'Mano 1', [handSummaryBody(app, summary)],
    { onClose: () => {}, wide: true }));
  const box = document.querySelector('#summary-dialog .dialog-body').getBoundingClientRect();
  const wider = [...document.querySelectorAll(
    '#summary-dialog .hands-up th, #summary-dialog .hands-up td, #summary-dialog .gains li')]
    .filter((el) => el.getBoundingClientRect().right > box.right + 0.5
      || el.scrollWidth > el.clientWidth + 1)
    .map((el) => el.textContent.slice(0, 40));
  return { wider, scrollWidth: document.scrollingElement.scrollWidth,
           rows: [...document.querySelectorAll('.hands-up tbody th')]
             .map((th) => th.firstChild.textContent) };
}"""


def test_the_hand_summary_keeps_four_long_names_inside_a_phone(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    """Parejas of long names in a hand's summary on a 360 px phone: a name with no space to wrap
    at (30 letters can be one word) pushed the tiles and the points out of the dialog; now every
    name wraps in its own cell, whole, and nothing leaves the dialog or scrolls sideways."""
    page = new_page(WIDTH, HEIGHT)
    page.goto(f"{web_server.url}/")
    page.get_by_label("Tu nombre").wait_for()
    names = [
        "María Fernanda González Pérez",
        "CarolinaRodríguezFernándezzz",
        "Maximiliano Altagracia Jiménez",
        "JuanBautistaHernándezOrtega",
    ]
    found = page.evaluate(SUMMARY_OF_LONG_NAMES, names)
    assert found["wider"] == [], found
    assert found["scrollWidth"] <= WIDTH, found
    assert found["rows"] == names  # whole names, none cut
    assert page.js_errors == []
