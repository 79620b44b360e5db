"""A rated partida in Chromium: a signed-in player makes a rated mesa against a bot on the home
page, plays it out, reads «1500 → …» on the partida's end, and finds it on their page at
/jugadores/ (the rating, its chart, the partida with its change). The leaderboard and the
player's page pass axe-core (full run)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.accounts.kit import PASSWORD, fresh_name
from tests.axe import assert_accessible
from tests.browser import browser  # noqa: F401  (the fixture)
from tests.server.kit import TEST_SEED, ServerProcess
from tests.web.driver import Player, create_mesa, next_hand, start

STRUCTURE = frozenset({"landmark-one-main", "page-has-heading-one", "region", "bypass"})


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("rated-browser")
    database = f"sqlite:///{folder / 'fichaflow.sqlite3'}"
    with ServerProcess(database, seed=TEST_SEED, log=folder / "server.log") as server:
        yield f"http://localhost:{server.port}"


@pytest.fixture(scope="module")
def played(browser: Any, site: str, shots: Path) -> Iterator[dict[str, Any]]:  # noqa: F811
    """Ana signs up, makes a rated mano a mano against tirafichas to 10 and plays it out: her
    page at the partida's end, and what the end screen said."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-ES")
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    name = fresh_name("Ana")
    made = context.request.post(
        f"{site}/api/accounts/signup", data={"name": name, "password": PASSWORD}
    )
    assert made.status == 201, made.text()
    account = made.json()["account"]

    def rated(form: Any) -> None:
        form.get_by_label("Cuenta para el rating").check()

    def rated_as_account(form: Any) -> None:
        expect(form.locator("[data-key=account-name]")).to_have_text(
            f"Con tu cuenta juegas como {name}."
        )
        rated(form)

    create_mesa(page, site, "da igual", "mano_a_mano", 10, {1: "tirafichas"}, rated_as_account)
    expect(page.locator("[data-key=rated-note]")).to_contain_text("Todos entraron con su cuenta")
    start(page)
    player = Player(page)
    for _ in range(20):
        player.play_until_summary()
        if page.locator("[data-key=ratings]").count():
            break
        next_hand(page)
    ratings = page.locator("[data-key=ratings]")
    expect(ratings).to_be_visible()
    page.screenshot(path=str(shots / "partida-rating.png"))
    yield {"page": page, "name": name, "account": account, "text": ratings.inner_text()}
    assert errors == []
    context.close()


def test_a_rated_partida_moves_the_rating_on_the_end_screen_and_the_profile(
    played: dict[str, Any], site: str, shots: Path
) -> None:
    text, name = played["text"], played["name"]
    mine = re.search(rf"{re.escape(name)} 1500 → (\d+) \(([+-]\d+)\)", text)
    assert mine is not None, text
    after, change = int(mine[1]), int(mine[2])
    assert after - 1500 == change != 0
    assert re.search(r"tirafichas \d+ \(un bot no sube ni baja\)", text), text

    page = played["page"]
    page.goto(f"{site}/")  # from the home page, through her account's page, to her own
    page.locator("[data-key=account]").click()
    page.get_by_role("link", name="Tu página de jugador").click()
    expect(page.locator("body[data-ready='yes']")).to_be_attached()
    expect(page.locator("#player-name")).to_have_text(name)
    assert page.url.endswith(f"/jugadores/?id={played['account']['id']}")
    mode = page.locator("#ratings li[data-mode=mano_a_mano]")
    expect(mode).to_contain_text(str(after))
    expect(mode).to_contain_text("provisional")
    expect(page.locator("svg.chart[data-mode=mano_a_mano] circle")).to_have_count(2)
    item = page.locator("#partidas li").first
    expect(item).to_contain_text(f"1500 → {after} ({change:+d})")
    expect(item).to_contain_text("Rivales: tirafichas")
    expect(page.locator("dd[data-stat=partidas]")).to_have_text("1")
    item.get_by_role("button", name="Comprobar los repartos").click()
    expect(item.locator(".fair-ok")).to_contain_text(re.compile(r"repartos? limpios?"))
    page.screenshot(path=str(shots / "jugador.png"), full_page=True)


@pytest.mark.slow
def test_the_players_pages_pass_axe(played: dict[str, Any], site: str) -> None:
    page = played["page"]
    page.goto(f"{site}/jugadores/?id={played['account']['id']}")
    expect(page.locator("#partidas li")).to_have_count(1)
    assert_accessible(page, "a player's page", also=STRUCTURE)
    page.goto(f"{site}/jugadores/")
    expect(page.locator("#board tr[data-name='tirafichas']")).to_have_count(1)
    assert_accessible(page, "the leaderboard", also=STRUCTURE)
    page.get_by_role("button", name="Mano a mano").click()
    expect(page.locator("#board-caption")).to_have_text("Mano a mano")
    mine = page.locator(f"#board tr[data-name='{played['name']}']")
    expect(mine).to_contain_text("provisional")


@pytest.mark.slow
def test_a_rated_mesa_waits_in_the_waiting_room_for_a_guest_to_sign_in(
    browser: Any,  # noqa: F811
    site: str,
) -> None:
    host = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-ES")
    guest = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-ES")
    try:
        page = host.new_page()
        made = host.request.post(
            f"{site}/api/accounts/signup", data={"name": fresh_name("Eva"), "password": PASSWORD}
        )
        assert made.status == 201

        def rated(form: Any) -> None:
            form.get_by_label("Cuenta para el rating").check()

        code = create_mesa(page, site, "Eva", "mano_a_mano", 10, {}, rated)
        other = guest.new_page()
        other.goto(f"{site}/m/{code}")
        # a guest sees no «rated» choice of their own, and sits down with a name
        other.get_by_label("Tu nombre").fill("Beto")
        other.get_by_role("button", name=re.compile("Sentarme")).click()
        note = page.locator("[data-key=rated-note]")
        expect(note).to_contain_text("falta Beto")
        expect(page.locator(".chair[data-seat='1']")).to_contain_text("sin cuenta")
        expect(page.get_by_role("button", name="Empezar la partida")).to_be_disabled()
        expect(other.locator("[data-key=rated-note]")).to_contain_text("falta Beto")
    finally:
        host.close()
        guest.close()
