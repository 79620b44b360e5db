"""The torneo's pages in Chromium: the organizer runs the docs' 6-pair round robin on a laptop
(create, pair round 1, enter its results, correct one) and sees the engine's standings; the live
standings on a 360 x 740 phone update by themselves when a result is entered elsewhere, with no
sideways scrolling; the projector's pages take turns. Screenshots go to the ``shots`` folder
(tests/browser.py)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from fichaflow.torneo import model
from fichaflow.torneo.check import check
from fichaflow.torneo.standings import standing_json, standings
from tests.axe import assert_accessible
from tests.server.kit import Client, all_told_partida_over
from tests.torneos.test_api import LIGUILLA, create, liguilla_spec, post, result
from tests.web.test_axe import STRUCTURE

if TYPE_CHECKING:  # the fixtures' types; pytest provides the fixtures themselves
    from pathlib import Path

    from tests.server.kit import ServerProcess

NAMES = [e["name"] for e in LIGUILLA["entrants"]]
ROUND_1 = [line for line in LIGUILLA["log"] if line["round"] == 1]


def shown_standings(page: Any) -> list[list[str]]:
    rows: list[list[str]] = page.locator("[data-testid=standings] tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent.trim()))"
    )
    return rows


def engine_standings(torneo: model.Torneo) -> list[list[str]]:
    out = []
    for s in standings(torneo):
        line = standing_json(torneo, s)
        diff = line["diff"]
        shown = f"+{diff}" if diff > 0 else f"−{-diff}" if diff < 0 else "0"
        figures = [str(line[k]) for k in ("pj", "pg", "pp", "pf", "pc")]
        out.append([str(line["position"]), line["name"], *figures, shown])
    return out


def test_the_organizer_runs_a_round_robin_on_a_laptop(
    browser: Any, sqlite_server: ServerProcess, shots: Path
) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="es-ES")
    page = context.new_page()
    refused: list[str] = []  # the page's own errors, a Content-Security-Policy refusal among them
    page.on("console", lambda m: refused.append(m.text) if m.type == "error" else None)
    page.goto(f"{sqlite_server.url}/torneo/")
    page.get_by_label("Nombre del torneo").fill("Liguilla del Club Los Samanes")
    page.get_by_label("Reglamento").select_option("venezuela")
    page.get_by_label("Emparejamiento").select_option("round_robin")
    page.get_by_label("Rondas", exact=True).fill("5")
    page.get_by_label("Inscritos, uno por línea").fill("\n".join(NAMES))
    assert_accessible(page, "the new torneo's form", also=STRUCTURE)
    page.get_by_role("button", name="Crear torneo").click()
    expect(page.locator("#run")).to_be_visible()
    code = page.evaluate("new URLSearchParams(location.search).get('o')")
    assert code

    page.get_by_role("button", name="Emparejar la ronda 1").click()
    expect(page.locator("[data-round='1'] [data-table]")).to_have_count(3)
    # The engine's own pairing and results, beside the page's.
    torneo = model.create({**liguilla_spec(), "name": "Liguilla del Club Los Samanes"})
    made = torneo.next_round()
    for table in made.tables:
        box = page.locator(f"[data-round='1'] [data-table='{table.number}']")
        a, b = (torneo.entrant(s[0]).name for s in (table.a, table.b))
        expect(box.locator(".sides")).to_have_text(f"{a} contra {b}")
    for line in ROUND_1:
        form = page.get_by_test_id(f"result-1-{line['table']}")
        table = made.table(line["table"])
        a, b = (torneo.entrant(s[0]).name for s in (table.a, table.b))
        form.get_by_label(f"Tantos de {a}").fill(str(line["score"][0]))
        form.get_by_label(f"Tantos de {b}").fill(str(line["score"][1]))
        form.get_by_role("button", name="Anotar").click()
        entered = page.locator(f"[data-round='1'] [data-table='{line['table']}'] .entered")
        expect(entered).to_have_text(f"{line['score'][0]}-{line['score'][1]}")
        torneo.enter(1, line["table"], model.Result(score=tuple(line["score"])), "x", "y")
    expect(page.get_by_role("button", name="Emparejar la ronda 2")).to_be_visible()
    assert shown_standings(page) == engine_standings(torneo)

    # A refused result says why, in Spanish, and changes nothing.
    page.get_by_role("button", name="Emparejar la ronda 2").click()
    form = page.get_by_test_id("result-2-1")
    form.locator("input").nth(0).fill("100")
    form.locator("input").nth(1).fill("100")
    form.get_by_role("button", name="Anotar").click()
    expect(page.get_by_role("alert")).to_contain_text("Una partida no termina empatada (100 a 100)")
    expect(page.locator("[data-round='2'] .entered")).to_have_count(0)

    # A correction of round 1's first table: a line of the history, with its note.
    page.locator("[data-round='1'] [data-table='1']").get_by_role("button", name="Corregir").click()
    fix = page.get_by_test_id("result-1-1")
    fix.locator("input[type=number]").nth(0).fill("100")
    fix.locator("input[type=number]").nth(1).fill("70")
    fix.get_by_label("Por qué (queda en el historial)").fill("la planilla decía 70")
    fix.get_by_role("button", name="Guardar la corrección").click()
    expect(page.locator("#audit")).to_contain_text("Ronda 1, mesa 1: de 100-62 a 100-70")
    expect(page.locator("#audit")).to_contain_text("la planilla decía 70")
    torneo.enter(1, 1, model.Result(score=(100, 70)), "x", "y")
    assert shown_standings(page) == engine_standings(torneo)
    assert_accessible(page, "the organizer's page", also=STRUCTURE)
    page.screenshot(path=str(shots / "torneo-organizador.png"), full_page=True)

    # The round's tables, to print: every table with its sides and seats.
    public = httpx.get(f"{sqlite_server.url}/api/torneos/{code}").json()["public"]
    page.goto(f"{sqlite_server.url}/torneo/ronda.html?p={public}&ronda=1")
    cards = page.locator(".card")
    expect(cards).to_have_count(3)
    expect(cards.first).to_contain_text("asientos 0 y 2")
    expect(cards.first).to_contain_text("100-70")
    assert_accessible(page, "a round's tables", also=STRUCTURE)
    page.screenshot(path=str(shots / "torneo-mesas.png"), full_page=True)
    page.emulate_media(media="print")
    expect(page.get_by_role("button", name="Imprimir")).to_be_hidden()
    # The refused tie above is the one error the pages may log (its 400 answer).
    assert [m for m in refused if "400" not in m] == [], refused
    context.close()


@pytest.mark.slow  # two browsers; the laptop flow stays in the quick set
def test_the_live_standings_on_a_phone_follow_a_result_entered_elsewhere(
    browser: Any, sqlite_server: ServerProcess, shots: Path
) -> None:
    from playwright.sync_api import expect

    made = create(sqlite_server, liguilla_spec())
    code, public = made["code"], made["public"]
    post(sqlite_server, f"{code}/rounds")
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="es-ES")
    page = context.new_page()
    page.goto(f"{sqlite_server.url}/torneo/clasificacion.html?p={public}")
    rows = page.locator("[data-testid=standings] tbody tr")
    expect(rows).to_have_count(6)
    expect(page.locator("#round")).to_have_text("Ronda 1 de 5")
    # Another phone (the organizer's) enters round 1's results: this page follows by itself.
    for line in ROUND_1:
        answer = result(sqlite_server, code, 1, line["table"], score=line["score"])
        assert answer.status_code == 200, answer.text
    view = httpx.get(f"{sqlite_server.url}/api/torneos/public/{public}").json()
    expect(page.locator("body")).to_have_attribute("data-version", str(view["version"]))
    torneo = model.load(view["record"])
    assert shown_standings(page) == engine_standings(torneo)
    expect(rows.first).to_contain_text("Inés y Juan")  # 100-45, the widest win
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the standings scroll sideways: {width}"
    assert_accessible(page, "the live standings", also=STRUCTURE)
    page.screenshot(path=str(shots / "torneo-clasificacion.png"), full_page=True)
    context.close()


def test_each_table_has_a_page_of_its_own_that_follows_its_result(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    """From a round's tables a phone opens one table's page: that table alone, with the link to
    watch it when it is played online; it shows the result entered elsewhere by itself. A table
    the round does not have is said in Spanish."""
    from playwright.sync_api import expect

    spec = {
        "name": "Relámpago",
        "rules": "venezuela",
        "rounds": 1,
        "pairing": "round_robin",
        "entrants": ["Ana y Beto", "Carla y Dani", "Elena y Fede", "Gabi y Hugo"],
    }
    made = create(sqlite_server, spec)
    code, public = made["code"], made["public"]
    tables = post(sqlite_server, f"{code}/rounds").json()["round"]["tables"]
    online = post(sqlite_server, f"{code}/rounds/1/tables/1/mesa")
    assert online.status_code == 201, online.text
    mesa = online.json()["mesas"][0]["mesa"]
    assert result(sqlite_server, code, 1, 2, score=[100, 64]).status_code == 200
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="es-ES")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{sqlite_server.url}/torneo/ronda.html?p={public}&ronda=1")
    expect(page.locator(".card")).to_have_count(2)
    page.locator(".card[data-table='1']").get_by_role("link", name="ver esta mesa").click()
    expect(page).to_have_url(f"{sqlite_server.url}/torneo/ronda.html?p={public}&ronda=1&mesa=1")
    card = page.locator(".card")
    expect(card).to_have_count(1)
    expect(page.locator("#round")).to_have_text("Mesa 1 · Ronda 1 de 1")
    names = [made["record"]["entrants"][tables[0][side][0] - 1]["name"] for side in ("a", "b")]
    for name in names:
        expect(card).to_contain_text(name)
    expect(card).to_contain_text("por anotar")
    watch = card.get_by_role("link", name="mirar la mesa")
    expect(watch).to_have_attribute("href", f"/m/{mesa}")
    assert_accessible(page, "a table's page", also=STRUCTURE)
    assert result(sqlite_server, code, 1, 1, score=[71, 100]).status_code == 200
    expect(card.locator(".entered")).to_have_text("71-100", timeout=15_000)
    # Table 2, played at a physical table: its result, and no mesa to watch.
    page.goto(f"{sqlite_server.url}/torneo/ronda.html?p={public}&ronda=1&mesa=2")
    expect(page.locator(".card .entered")).to_have_text("100-64")
    expect(page.locator(".card").get_by_role("link", name="mirar la mesa")).to_have_count(0)
    page.goto(f"{sqlite_server.url}/torneo/ronda.html?p={public}&ronda=1&mesa=9")
    expect(page.get_by_role("alert")).to_have_text("La ronda 1 no tiene mesa 9.")
    assert errors == [], errors
    context.close()


@pytest.mark.slow  # waits for the projector's next page (8 s)
def test_the_projector_shows_large_standings_in_turns(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    from playwright.sync_api import expect

    spec = {
        "name": "Abierto",
        "rules": "venezuela",
        "rounds": 3,
        "entrants": [f"Pareja {n}" for n in range(1, 31)],
    }
    public = create(sqlite_server, spec)["public"]
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(f"{sqlite_server.url}/torneo/clasificacion.html?p={public}&proyector=1")
    shown = page.locator("#page")
    expect(shown).to_contain_text("Página 1 de")
    size = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert size >= 24, size
    first = page.locator("[data-testid=standings] tbody tr").count()
    assert 3 <= first < 30
    expect(shown).to_contain_text("Página 2 de", timeout=15_000)
    expect(page.locator("[data-testid=standings] tbody tr").first).not_to_contain_text("Pareja 1")
    context.close()


async def play_out(server: ServerProcess, seats: list[dict[str, Any]]) -> None:
    """Each seat's player connects with the token their own page gave and plays to the end."""
    players = [Client(server, s["mesa"], s["token"], autoplay=True) for s in seats]
    for client in players:
        await client.connect()
    await all_told_partida_over(players, 120)
    for client in players:
        await client.close()


@pytest.mark.slow  # a whole online partida by four clients
def test_a_table_played_online_enters_its_result_by_itself(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    from playwright.sync_api import expect

    spec = {
        "name": "Relámpago",
        "rules": {"preset": "venezuela", "target": 10},
        "rounds": 1,
        "pairing": "round_robin",
        "entrants": [
            {"name": "Ana y Beto", "players": ["Ana", "Beto"]},
            {"name": "Carla y Dani", "players": ["Carla", "Dani"]},
        ],
    }
    code = create(sqlite_server, spec)["code"]
    post(sqlite_server, f"{code}/rounds")
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="es-ES")
    page = context.new_page()
    page.goto(f"{sqlite_server.url}/torneo/?o={code}")
    online = page.get_by_test_id("online-1-1")
    online.get_by_role("button", name="Crear la mesa en línea").click()
    expect(online.get_by_role("link", name="mirar la mesa")).to_be_visible()
    expect(online).to_contain_text("el resultado se anota solo al terminar la partida")
    mesa = online.get_by_label("Código o enlace de la mesa en línea").input_value()
    assert mesa
    # Each pair's page, as the organizer hands it out: the seats' tokens.
    pages = httpx.get(f"{sqlite_server.url}/api/torneos/{code}").json()["players"]
    seats = []
    for number in ("1", "2"):
        mine = context.new_page()
        mine.goto(f"{sqlite_server.url}{pages[number]}")
        links = mine.locator("#seats a")
        expect(links).to_have_count(2)
        seats += httpx.get(
            f"{sqlite_server.url}/api/torneos/public/{pages[number].split('p=')[1].split('&')[0]}"
            f"/entrants/{number}?k={pages[number].split('k=')[1]}"
        ).json()["seats"]
        mine.close()
    with ThreadPoolExecutor(1) as pool:  # the game's clients on their own event loop
        pool.submit(asyncio.run, play_out(sqlite_server, seats)).result()
    # Nobody brings it: the organizer's page shows it by itself.
    entered = page.locator("[data-round='1'] [data-table='1'] .entered")
    record = httpx.get(f"{sqlite_server.url}/api/mesas/{mesa}/partidas/1/record").json()
    final = model.from_partida(record).score
    assert final is not None
    expect(entered).to_have_text(f"{final[0]}-{final[1]}", timeout=30_000)
    stored = model.load(httpx.get(f"{sqlite_server.url}/api/torneos/export/{code}.json").json())
    report = check(stored)
    assert report.records == 1 and stored.log[0].by == f"mesa en línea {mesa}"
    context.close()


@pytest.mark.slow  # the engine's duplicate tests stay quick
def test_a_duplicate_round_on_the_organizers_page_ranks_by_matchpoints(
    browser: Any, sqlite_server: ServerProcess, shots: Path
) -> None:
    from playwright.sync_api import expect

    spec = {
        "name": "Duplicado del jueves",
        "rules": "venezuela",
        "rounds": 3,
        "duplicate": 2,
        "entrants": ["Ana y Beto", "Carla y Dani", "Elena y Fede", "Gabi y Hugo"],
    }
    code = create(sqlite_server, spec)["code"]
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="es-ES")
    page = context.new_page()
    page.goto(f"{sqlite_server.url}/torneo/?o={code}")
    # A late arrival with its two players, before the first round is paired.
    page.get_by_label("Nombre", exact=True).fill("Inés y Juan")
    page.get_by_label("Jugador 1").fill("Inés")
    page.get_by_label("Jugador 2").fill("Juan")
    page.get_by_role("button", name="Inscribir").click()
    expect(page.locator("#entrants li")).to_have_count(5)
    page.locator("#entrants li").nth(4).get_by_role("button", name="Retirar").click()
    expect(page.locator("#entrants li").nth(4)).to_contain_text("retirado antes de empezar")
    page.get_by_role("button", name="Emparejar la ronda 1").click()
    deals = {1: "25-0 0-30", 2: "30-0 0-20"}
    for table, text in deals.items():
        form = page.get_by_test_id(f"result-1-{table}")
        form.get_by_label("Tantos de cada reparto (25-0 0-30 …)").fill(text)
        form.get_by_role("button", name="Anotar").click()
        expect(page.locator(f"[data-round='1'] [data-table='{table}'] .entered")).to_have_text(text)
    record = httpx.get(f"{sqlite_server.url}/api/torneos/{code}").json()
    torneo = model.load(record["record"])
    wanted = [standing_json(torneo, s) for s in standings(torneo)]
    shown = shown_standings(page)
    assert [row[1] for row in shown] == [w["name"] for w in wanted]
    assert [float(row[-1]) for row in shown] == [w["mp"] for w in wanted]
    expect(page.locator("[data-testid=standings] thead")).to_contain_text("PM")
    page.locator("#standings").screenshot(path=str(shots / "torneo-duplicado.png"))
    context.close()


@pytest.mark.slow  # the catalogue tests check every key in both languages
def test_the_pages_speak_english_when_asked(browser: Any, sqlite_server: ServerProcess) -> None:
    from playwright.sync_api import expect

    made = create(sqlite_server, liguilla_spec())
    post(sqlite_server, f"{made['code']}/rounds")
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{sqlite_server.url}/torneo/ronda.html?p={made['public']}")
    expect(page.locator(".card").first).to_contain_text("asientos 0 y 2")  # Spanish by default
    page.get_by_role("button", name="English").click()
    expect(page.locator(".card").first).to_contain_text("Table 1")
    expect(page.locator(".card").first).to_contain_text("seats 0 and 2")
    expect(page.locator("#round")).to_have_text("Round 1 of 5")
    page.goto(f"{sqlite_server.url}/torneo/clasificacion.html?p={made['public']}&lang=en")
    expect(page.locator("[data-testid=standings] thead")).to_contain_text("Name")
    expect(page.locator("#tiebreaks")).to_contain_text("Tie-breaks:")
    context.close()


def test_the_printed_round_of_a_duplicate_torneo_carries_each_tables_deal_slip(
    browser: Any, sqlite_server: ServerProcess, shots: Path
) -> None:
    """With the organizer's link, the round's page prints one slip per table, each on its own
    page, with every seat's tiles of every deal (the seed's deals) and the seat that leads;
    with the public link the slips are not there (the seed is secret while the round lasts)."""
    from playwright.sync_api import expect

    spec = {
        "name": "Duplicado del jueves",
        "rules": "venezuela",
        "rounds": 2,
        "duplicate": 3,
        "entrants": [
            {"name": "Ana y Beto", "players": ["Ana", "Beto"]},
            "Carla y Dani",
            "Elena y Fede",
            "Gabi y Hugo",
        ],
    }
    made = create(sqlite_server, spec)
    code, public = made["code"], made["public"]
    paired = post(sqlite_server, f"{code}/rounds").json()["round"]
    wanted = httpx.get(f"{sqlite_server.url}/api/torneos/{code}/rounds/1/deals").json()
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="es-ES")
    page = context.new_page()
    page.goto(f"{sqlite_server.url}/torneo/?o={code}")
    page.get_by_role("link", name="Planillas de repartos (duplicado, para imprimir)").click()
    page.emulate_media(media="print")
    slips = page.locator(".slip")
    expect(slips).to_have_count(len(paired["tables"]))
    expect(page.get_by_role("button", name="Imprimir")).to_be_hidden()
    for table, box in zip(paired["tables"], slips.all(), strict=True):
        expect(box).to_be_visible()
        expect(box.locator("h3")).to_have_text(
            f"Mesa {table['table']} · ronda 1 · planilla de repartos"
        )
        rows = box.locator("tbody tr")
        expect(rows).to_have_count(3)
        for deal, row in zip(wanted["deals"], rows.all(), strict=True):
            cells = row.locator("td").all_text_contents()
            assert cells == [str(deal["leader"]), *(" ".join(hand) for hand in deal["hands"])]
        assert box.evaluate("b => getComputedStyle(b).breakBefore") == "page"
    first = slips.nth(paired["tables"].index(next(t for t in paired["tables"] if 1 in t["a"])))
    expect(first.locator("thead")).to_contain_text("Ana (Ana y Beto)")
    expect(first.locator("thead")).to_contain_text("Beto (Ana y Beto)")
    assert_accessible(page, "a duplicate round's deal slips", also=STRUCTURE)
    page.screenshot(path=str(shots / "torneo-planillas.png"), full_page=True)
    page.emulate_media(media="screen")
    page.goto(f"{sqlite_server.url}/torneo/ronda.html?p={public}&ronda=1")
    expect(page.locator(".card")).to_have_count(len(paired["tables"]))
    expect(page.locator("#slips-secret")).to_be_visible()
    expect(page.locator(".slip")).to_have_count(0)
    context.close()


def test_a_player_registers_by_the_link_on_a_phone(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    """The registration link on a 360 x 740 phone: name and partner, the player's own page;
    once full, the page says so in Spanish and the form is gone."""
    from playwright.sync_api import expect

    spec = {"name": "Abierto del sábado", "rules": "venezuela", "rounds": 3, "entrants": ["A y B"]}
    made = create(sqlite_server, spec)
    post(sqlite_server, f"{made['code']}/registration", {"open": True, "limit": 2})
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="es-ES")
    page = context.new_page()
    page.goto(f"{sqlite_server.url}/torneo/inscripcion.html?p={made['public']}")
    expect(page.locator("#state")).to_contain_text("1 inscritos de 2 plazas")
    page.get_by_label("Tu nombre").fill("Nora")
    page.get_by_label("El nombre de tu compañero").fill("Óscar")
    assert_accessible(page, "the registration form", also=STRUCTURE)
    page.get_by_role("button", name="Inscribirme").click()
    expect(page.locator("#done")).to_contain_text("Nora y Óscar, con el número 2.")
    page.get_by_role("link", name="Mi página del torneo").click()
    expect(page.locator("#who")).to_have_text("Nora y Óscar")
    expect(page.locator("#where")).to_have_text("Aún no hay rondas emparejadas.")
    assert_accessible(page, "a player's own page", also=STRUCTURE)
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], width
    other = context.new_page()
    other.goto(f"{sqlite_server.url}/torneo/inscripcion.html?p={made['public']}")
    expect(other.locator("#state")).to_contain_text("2 inscritos de 2 plazas")
    other.get_by_label("Tu nombre").fill("Pía")
    other.get_by_label("El nombre de tu compañero").fill("Quique")
    other.get_by_role("button", name="Inscribirme").click()
    expect(other.get_by_role("alert")).to_contain_text(
        "No quedan plazas: el torneo admite 2 inscritos"
    )
    context.close()
