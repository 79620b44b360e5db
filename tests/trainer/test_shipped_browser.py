"""The Problemas page on a real ``fichaflow serve`` with the shipped problemas, in Chromium on a
360 x 740 phone: the position drawn with every other hand named (face down, with their counts,
for a seat problem), the right answer played out, a wrong one's cost in tantos and why. Its
screenshots are the docs' (tests/browser.py)."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fichaflow.core.hand import Hand, write_move
from fichaflow.core.record import draw_until_playable
from fichaflow.core.tiles import name
from fichaflow.problemas import Puzzle, by_id, load_set
from fichaflow.trainer.shipped import ShippedPuzzles
from tests.server.kit import ServerProcess

PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("trainer-page")
    with ServerProcess(f"sqlite:///{folder / 'fichaflow.sqlite3'}", log=folder / "log") as srv:
        yield srv


QUESTION = {"face_up": "con todas las fichas a la vista", "seat": "con lo que sabe el asiento"}


def _open(
    browser: Any,
    server: ServerProcess,
    account: tuple[str, str] | None = None,
    puzzle_id: str | None = None,
) -> tuple[Any, Any, Puzzle]:
    """A phone at /problemas/ (signed up or in first as ``(path, name)``, when given), with the
    problema ``puzzle_id`` when given (else the one the server chose)."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport=PHONE, locale="es-ES")
    page = context.new_page()
    if account is not None:
        path, name = account
        body = {"name": name, "password": "dominó a las seis"}
        signed = page.request.post(f"{server.url}/api/accounts/{path}", data=body)
        assert signed.ok, signed.text()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    asked = f"/api/problemas/{puzzle_id}" if puzzle_id else "/api/problemas/next"
    with page.expect_response(re.compile(re.escape(asked))) as sent:
        page.goto(f"{server.url}/problemas/" + (f"?id={puzzle_id}" if puzzle_id else ""))
    puzzle = by_id(sent.value.json()["id"])
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    assert errors == []
    expect(page.locator("#question")).to_contain_text(QUESTION[puzzle.kind])
    return context, page, puzzle


def _answers(puzzle: Puzzle) -> list[tuple[Hand, str]]:
    """Each of the seat's decisions in the right line, with the hand it is made in."""
    hand = puzzle.hand()
    line: list[str] = []
    out: list[tuple[Hand, str]] = []
    while True:
        answer = puzzle.solution[len(line)]
        out.append((hand.copy(), answer))
        page_moves = [write_move(h.parse(a)) for h, a in out]
        judged = ShippedPuzzles().judge(puzzle.id, page_moves[:-1], page_moves[-1])
        if judged.done:
            return out
        for move in (answer, *judged.replies):
            hand.play(hand.parse(move))
            draw_until_playable(hand)
            line.append(move)


def _tap(page: Any, hand: Hand, move: str) -> None:
    parsed = hand.parse(move)
    assert parsed.end is not None
    page.locator(f"#hand button[data-tile='{name(parsed.tile)}']").click()
    end = page.locator(f"#{parsed.end.word}")
    if end.is_enabled():
        end.click()


def test_a_shipped_problema_solved_right_and_wrong_on_a_phone(
    browser: Any, server: ServerProcess, shots: Path
) -> None:
    from playwright.sync_api import expect

    context, page, puzzle = _open(browser, server)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(shots / "problema.png"), full_page=True)
    answers = _answers(puzzle)
    for number, (hand, answer) in enumerate(answers, 1):
        _tap(page, hand, answer)
        done = number == len(answers)
        expect(page.locator("#verdict h2")).to_have_text(
            "¡Resuelto!" if done else re.compile("Bien")
        )
    assert int(page.locator("#rating").inner_text()) > 1500
    expect(page.locator("#streak")).to_have_text("1")  # a guest's, kept in this browser
    page.screenshot(path=str(shots / "problema-bien.png"), full_page=True)
    context.close()

    context, page, puzzle = _open(browser, server)
    best = puzzle.values[puzzle.solution[0]]
    first = puzzle.hand().parse(puzzle.solution[0]).tile
    wrong = next(
        m for m in puzzle.values
        if puzzle.hand().parse(m).tile != first and puzzle.values[m] < best
    )  # fmt: skip
    _tap(page, puzzle.hand(), wrong)
    expect(page.locator("#verdict h2")).to_have_text("No es esa")
    cost = best - puzzle.values[wrong]
    expect(page.locator("#verdict .cost")).to_contain_text(f"pierde {round(cost)} tantos")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(shots / "problema-mal.png"), full_page=True)
    context.close()


def test_a_theme_chosen_brings_problemas_of_that_theme_in_both_languages(
    browser: Any, server: ServerProcess
) -> None:
    from playwright.sync_api import expect

    context, page, _ = _open(browser, server)
    picker = page.locator("#theme")
    expect(picker.locator("option")).to_have_count(1 + len(_themes()))
    expect(picker.locator("option").first).to_have_text("Todos los temas")
    count = _themes()["capicua"]
    with page.expect_response(re.compile(r"/api/problemas/next\?.*theme=capicua")) as sent:
        picker.select_option(label=f"Capicúa ({count})")
    puzzle = by_id(sent.value.json()["id"])
    assert "capicua" in puzzle.themes
    expect(page.locator("body")).to_have_attribute("data-puzzle", puzzle.id)
    expect(page.locator("#puzzle-info")).to_contain_text("Capicúa")
    page.locator("#lang").click()
    expect(picker.locator("option").first).to_have_text("Every theme")
    expect(picker.locator("option:checked")).to_have_text(f"Capicúa ({count})")
    expect(page.locator("label[for='theme']")).to_have_text("Theme")
    # the choice stays in this browser: «Otro problema» and a reload keep to the theme
    with page.expect_response(re.compile(r"/api/problemas/next")) as again:
        page.reload()
    assert "capicua" in by_id(again.value.json()["id"]).themes
    expect(page.locator("#theme")).to_have_value("capicua")
    with page.expect_response(re.compile(r"/api/problemas/next")) as other:
        page.locator("#next").click()
    assert "capicua" in by_id(other.value.json()["id"]).themes
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


def _themes() -> dict[str, int]:
    counted: dict[str, int] = {}
    for puzzle in load_set():
        for theme in puzzle.themes:
            counted[theme] = counted.get(theme, 0) + 1
    return counted


def test_a_signed_in_players_streak_and_rating_are_the_servers_on_another_device(
    browser: Any, server: ServerProcess
) -> None:
    from playwright.sync_api import expect

    name = f"Ana {secrets.token_hex(3)}"
    context, page, puzzle = _open(browser, server, ("signup", name))
    expect(page.locator("#who")).to_contain_text(f"Con tu cuenta, {name}")
    answers = _answers(puzzle)
    for hand, answer in answers:
        _tap(page, hand, answer)
    expect(page.locator("#verdict h2")).to_have_text("¡Resuelto!")
    expect(page.locator("#streak")).to_have_text("1")
    expect(page.locator("#streak-best")).to_have_text("1")
    rating = page.locator("#rating").inner_text()
    assert int(rating) > 1500
    kept = page.evaluate("Object.keys(localStorage).filter((k) => k.includes('rating'))")
    assert kept == []  # nothing of it in this browser
    context.close()

    # a laptop, signed in as the same player: the same rating, streak and attempt
    context, page, _ = _open(browser, server, ("signin", name))
    expect(page.locator("#rating")).to_have_text(rating)
    expect(page.locator("#streak")).to_have_text("1")
    expect(page.locator("#history li")).to_have_count(1)
    expect(page.locator("#history li")).to_contain_text(f"{puzzle.id}: resuelto")
    context.close()


def _seat(how: str) -> Puzzle:
    """A seat problem decided ``how``, in parejas, with a wrong move of another tile."""
    return next(
        p
        for p in load_set()
        if p.kind == "seat" and p.decided["how"] == how and p.rules_obj().seats == 4
        and len({p.hand().parse(m).tile for m in p.values}) > 1
    )  # fmt: skip


def _shows_only_what_the_seat_knew(page: Any, puzzle: Puzzle) -> None:
    """Only the seat's tiles face up; each other hand face down, as many backs as it holds."""
    from playwright.sync_api import expect

    hand = puzzle.hand()
    others = [(puzzle.seat + k) % 4 for k in (1, 2, 3)]
    rows = page.locator("#others .other")
    expect(rows).to_have_count(3)
    for row, seat in enumerate(others):
        count = hand.hands[seat].bit_count()
        expect(rows.nth(row)).to_have_attribute("data-count", str(count))
        expect(rows.nth(row).locator("svg.tile-back")).to_have_count(count)
        expect(rows.nth(row)).to_contain_text(f"{count} fichas")
    expect(rows.nth(1)).to_contain_text("Tu compañero")
    expect(page.locator("#others [role=img]")).to_have_count(0)  # no face-up tile of theirs
    expect(page.locator("#hand button")).to_have_count(hand.hands[puzzle.seat].bit_count())
    hidden = {name(t) for s in others for t in range(28) if hand.hands[s] >> t & 1}
    assert not hidden & set(page.locator("#question").inner_text().replace(",", " ").split())


def test_a_seat_problem_shows_only_what_the_seat_knew_and_says_why_right_and_wrong(
    browser: Any, server: ServerProcess, shots: Path
) -> None:
    from playwright.sync_api import expect

    puzzle = _seat("every_deal")
    context, page, _ = _open(browser, server, puzzle_id=puzzle.id)
    _shows_only_what_the_seat_knew(page, puzzle)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(shots / "problema-asiento.png"), full_page=True)
    _tap(page, puzzle.hand(), puzzle.best)
    expect(page.locator("#verdict h2")).to_have_text("¡Resuelto!")
    expect(page.locator("#verdict .why")).to_contain_text(
        f"es la mejor en todos los repartos posibles de las fichas que no ves "
        f"(los {puzzle.decided['deals']}"
    )
    expect(page.locator("#verdict .why")).to_contain_text("sean cuales sean las fichas escondidas")
    assert int(page.locator("#rating").inner_text()) > 1500
    context.close()

    puzzle = _seat("expected")
    context, page, _ = _open(browser, server, puzzle_id=puzzle.id)
    _shows_only_what_the_seat_knew(page, puzzle)
    first = puzzle.hand().parse(puzzle.best).tile
    wrong = next(m for m in puzzle.values if puzzle.hand().parse(m).tile != first)
    _tap(page, puzzle.hand(), wrong)
    expect(page.locator("#verdict h2")).to_have_text("No es esa")
    cost = round(puzzle.values[puzzle.best] - puzzle.values[wrong])
    expect(page.locator("#verdict .cost")).to_have_text(
        f"Esa jugada pierde {cost} tantos en promedio. La buena era {puzzle.best}."
    )
    why = page.locator("#verdict .why")
    expect(why).to_contain_text("tantos en promedio")
    expect(why).to_contain_text(f"es la mejor en promedio, por {round(puzzle.margin)} tantos")
    expect(why).to_contain_text(f"{puzzle.decided['deals']} repartos posibles")
    assert int(page.locator("#rating").inner_text()) < 1500
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(shots / "problema-asiento-mal.png"), full_page=True)
    page.locator("#lang").click()
    expect(why).to_contain_text("on average")
    context.close()
