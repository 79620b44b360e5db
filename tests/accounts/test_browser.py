"""The account page (/cuenta/) in Chromium: a passkey through Chromium's virtual authenticator
(the DevTools protocol's WebAuthn domain), a password, the recovery codes shown once, signing out
and in again, deleting; and a guest who still makes and joins a mesa with just a name.

Passkeys need a host name, not an IP, so the page is opened at ``localhost``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.accounts.kit import PASSWORD, fresh_name
from tests.browser import browser  # noqa: F401  (the fixture)
from tests.server.kit import TEST_SEED, ServerProcess
from tests.web.driver import create_mesa

AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("accounts-browser")
    database = f"sqlite:///{folder / 'fichaflow.sqlite3'}"
    with ServerProcess(database, seed=TEST_SEED, log=folder / "server.log") as server:
        yield f"http://localhost:{server.port}"


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:  # noqa: F811
    """A page in a context of its own (its own cookies: another person); with ``passkeys``, the
    context has a virtual authenticator, returned with the page."""
    contexts: list[Any] = []

    def make(passkeys: bool = False) -> tuple[Any, Any]:
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-ES")
        context.set_default_timeout(20_000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.js_errors = errors
        authenticator = None
        if passkeys:
            cdp = context.new_cdp_session(page)
            cdp.send("WebAuthn.enable")
            made = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
            authenticator = (cdp, made["authenticatorId"])
        return page, authenticator

    yield make
    for context in contexts:
        context.close()


def open_account(page: Any, site: str) -> None:
    page.goto(f"{site}/cuenta/")
    expect(page.locator("body[data-ready='yes']")).to_be_attached()


def codes_shown(page: Any) -> list[str]:
    expect(page.locator("#codes")).to_be_visible()
    codes: list[str] = page.locator("#code-list li").all_inner_texts()
    assert len(codes) == 10
    page.get_by_role("button", name="Ya los guardé").click()
    expect(page.locator("#codes")).to_be_hidden()
    return codes


def test_sign_up_with_a_passkey_sign_out_and_back_in(
    site: str, new_page: Callable[..., Any]
) -> None:
    page, (cdp, authenticator) = new_page(passkeys=True)
    open_account(page, site)
    name = fresh_name("Lucía")
    page.locator("#signup").get_by_label("Tu nombre").fill(name)
    page.get_by_role("button", name="Crear con llave de acceso").click()
    codes_shown(page)
    expect(page.locator("#hello")).to_have_text(f"Hola, {name}")
    expect(page.locator("#facts")).to_contain_text("Llaves de acceso: 1")
    stored = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert len(stored["credentials"]) == 1 and stored["credentials"][0]["isResidentCredential"]

    page.get_by_role("button", name="Cerrar sesión", exact=True).click()
    expect(page.locator("#signin")).to_be_visible()
    expect(page.locator("#message")).to_have_text("Cerraste la sesión.")
    # the cookie is HttpOnly: the page's script cannot read it
    assert "fichaflow_session" not in page.evaluate("document.cookie")

    page.get_by_role("button", name="Entrar con llave de acceso").click()
    expect(page.locator("#hello")).to_have_text(f"Hola, {name}")
    # signed in, and still the page's script sees no cookie: it is HttpOnly
    assert "fichaflow_session" not in page.evaluate("document.cookie")
    after = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert after["credentials"][0]["signCount"] >= 1  # the passkey signed the sign-in
    assert page.js_errors == []


@pytest.mark.slow  # the API tests cover passwords quickly; this is the whole page's story
def test_sign_up_with_a_password_then_sign_in_elsewhere_and_delete(
    site: str, new_page: Callable[..., Any]
) -> None:
    phone, _ = new_page()
    open_account(phone, site)
    name = fresh_name("Beto")
    form = phone.locator("#signup")
    form.get_by_label("Tu nombre").fill(name)
    form.get_by_label("O una contraseña").fill(PASSWORD)
    phone.get_by_role("button", name="Crear con contraseña").click()
    codes = codes_shown(phone)
    expect(phone.locator("#hello")).to_have_text(f"Hola, {name}")
    phone.reload()  # the codes are not shown again
    expect(phone.locator("#hello")).to_have_text(f"Hola, {name}")
    assert not set(codes) & set(phone.locator("body").inner_text().split())

    laptop, _ = new_page()
    open_account(laptop, site)
    signin = laptop.locator("#signin")
    signin.get_by_label("Tu nombre").fill(name)
    signin.get_by_label("Contraseña").fill("no es la mía")
    laptop.get_by_role("button", name="Entrar con contraseña").click()
    expect(laptop.locator("#message")).to_contain_text("no abren ninguna cuenta")
    signin.get_by_label("Contraseña").fill(PASSWORD)
    laptop.get_by_role("button", name="Entrar con contraseña").click()
    expect(laptop.locator("#hello")).to_have_text(f"Hola, {name}")

    laptop.get_by_role("button", name="Cerrar todas las sesiones").click()
    expect(laptop.locator("#message")).to_have_text("Cerraste todas las sesiones (2).")
    phone.reload()
    expect(phone.locator("#signin")).to_be_visible()

    # back in with a recovery code, then the account is deleted, the export offered first
    recover = phone.locator("#recover")
    recover.get_by_label("Tu nombre").fill(name)
    recover.get_by_label("Código").fill(codes[0])
    phone.get_by_role("button", name="Entrar con el código").click()
    expect(phone.locator("#message")).to_have_text("Entraste. Te quedan 9 códigos de recuperación.")
    phone.get_by_role("button", name="Borrar mi cuenta").click()
    confirm = phone.locator("#delete-confirm")
    expect(confirm.get_by_role("link", name="Descargar mis datos (JSON)")).to_be_visible()
    with phone.expect_download() as download:
        confirm.get_by_role("link", name="Descargar mis datos (JSON)").click()
    exported = Path(download.value.path()).read_text(encoding="utf-8")
    assert name in exported and codes[1] not in exported
    phone.get_by_role("button", name="Borrar para siempre").click()
    expect(phone.locator("#message")).to_have_text("Tu cuenta está borrada.")
    expect(phone.locator("#signin")).to_be_visible()
    gone = httpx.post(
        f"{site}/api/accounts/signin", json={"name": name, "password": PASSWORD}, timeout=10
    )
    assert gone.status_code == 401
    assert phone.js_errors == [] and laptop.js_errors == []


def test_a_guest_still_makes_and_joins_a_mesa_with_just_a_name(
    site: str, new_page: Callable[..., Any]
) -> None:
    host, _ = new_page()
    create_mesa(host, site, "Ana", "mano_a_mano", 10, {})
    link = host.locator("#invite-link").input_value()
    guest, _ = new_page()
    guest.goto(link)
    guest.get_by_label("Tu nombre").fill("Carla")
    guest.get_by_role("button", name="Sentarme a jugar").click()
    expect(guest.locator(".chair.mine")).to_contain_text("Carla")
    expect(host.locator(".chair-name")).to_have_text(["Ana (tú)", "Carla"])
    signed_in = guest.evaluate("fetch('/api/accounts/me').then((r) => r.status)")
    assert signed_in == 401  # a guest: no account, no session
    assert host.js_errors == [] and guest.js_errors == []


def test_a_guest_is_not_asked_who_they_are_and_their_pages_log_no_error(
    site: str, new_page: Callable[..., Any]
) -> None:
    """A guest's home page and account page ask nothing of /api/accounts/me (its 401 was the one
    error in the console); once signed up, the same browser's home page asks and knows the
    account; a session ended behind its back costs one 401, and its hint goes with it."""
    page, _ = new_page()
    errors: list[str] = []
    asked: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.on(
        "request",
        lambda request: asked.append(request.url) if "/api/accounts/me" in request.url else None,
    )
    page.goto(f"{site}/")
    expect(page.locator("[data-key=account]")).to_have_text("Tu cuenta")
    open_account(page, site)
    expect(page.locator("#signin")).to_be_visible()
    assert errors == [] and asked == []

    name = fresh_name("Gabi")
    form = page.locator("#signup")
    form.get_by_label("Tu nombre").fill(name)
    form.get_by_label("O una contraseña").fill(PASSWORD)
    page.get_by_role("button", name="Crear con contraseña").click()
    codes_shown(page)
    page.goto(f"{site}/")
    expect(page.locator("[data-key=account]")).to_have_text(f"Tu cuenta ({name})")
    assert errors == [] and len(asked) >= 1

    page.context.clear_cookies(name="fichaflow_session")  # as if it ended elsewhere
    asked.clear()
    page.reload()
    expect(page.locator("[data-key=account]")).to_have_text("Tu cuenta")
    page.wait_for_function("() => !document.cookie.includes('fichaflow_signed_in=')")
    assert len(asked) == 1
    page.reload()
    expect(page.locator("[data-key=account]")).to_have_text("Tu cuenta")
    assert len(asked) == 1 and len(errors) == 1  # that one 401, once
    assert page.js_errors == []


@pytest.mark.slow  # the API test of the same link stays quick
def test_a_guest_who_signs_up_keeps_the_mesa_they_sit_at(
    site: str, new_page: Callable[..., Any]
) -> None:
    page, _ = new_page()
    create_mesa(page, site, "Dani", "mano_a_mano", 10, {})
    code = page.url.rsplit("/", 1)[-1]
    open_account(page, site)
    form = page.locator("#signup")
    form.get_by_label("Tu nombre").fill(fresh_name("Dani"))
    form.get_by_label("O una contraseña").fill(PASSWORD)
    page.get_by_role("button", name="Crear con contraseña").click()
    codes_shown(page)
    kept = page.locator("#mesas li a")
    expect(kept).to_have_text([f"Dani en la mesa {code}"])
    kept.click()  # back to the mesa, still in her chair
    expect(page.locator(".chair.mine")).to_contain_text("Dani")
    assert page.js_errors == []


@pytest.mark.slow  # the passkey sign-up above stays quick
def test_a_password_account_adds_a_passkey_and_signs_in_with_it(
    site: str, new_page: Callable[..., Any]
) -> None:
    page, (cdp, authenticator) = new_page(passkeys=True)
    open_account(page, site)
    name = fresh_name("Eli")
    form = page.locator("#signup")
    form.get_by_label("Tu nombre").fill(name)
    form.get_by_label("O una contraseña").fill(PASSWORD)
    page.get_by_role("button", name="Crear con contraseña").click()
    codes_shown(page)
    expect(page.locator("#facts")).to_contain_text("Llaves de acceso: 0")
    page.get_by_role("button", name="Añadir una llave de acceso").click()
    expect(page.locator("#message")).to_have_text("Llave de acceso añadida.")
    expect(page.locator("#facts")).to_contain_text("Llaves de acceso: 1")
    # the same authenticator again: the server asked it to exclude the passkey it has
    page.get_by_role("button", name="Añadir una llave de acceso").click()
    expect(page.locator("#message")).to_have_text("Esta llave de acceso ya está en tu cuenta.")
    expect(page.locator("#facts")).to_contain_text("Llaves de acceso: 1")
    stored = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})
    assert len(stored["credentials"]) == 1

    page.get_by_role("button", name="Cerrar sesión", exact=True).click()
    page.get_by_role("button", name="Entrar con llave de acceso").click()
    expect(page.locator("#hello")).to_have_text(f"Hola, {name}")
    assert page.js_errors == []


def test_the_player_allows_their_partidas_for_problemas_and_stops(
    site: str, new_page: Callable[..., Any]
) -> None:
    page, _ = new_page()
    open_account(page, site)
    name = fresh_name("Caro")
    form = page.locator("#signup")
    form.get_by_label("Tu nombre").fill(name)
    form.get_by_label("O una contraseña").fill(PASSWORD)
    page.get_by_role("button", name="Crear con contraseña").click()
    codes_shown(page)
    allowed = page.get_by_label("Permitir que mis partidas se usen para crear problemas")
    expect(allowed).not_to_be_checked()  # off until the player says so
    allowed.check()
    expect(page.locator("#message")).to_have_text(
        "Tus partidas podrán usarse para crear problemas."
    )
    page.reload()  # kept by the server, not the browser
    expect(allowed).to_be_checked()
    allowed.uncheck()
    expect(page.locator("#message")).to_contain_text("ya no se usarán para problemas")
    page.reload()
    expect(allowed).not_to_be_checked()
    assert page.js_errors == []
