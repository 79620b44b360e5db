"""Installing FichaFlow on a phone's home screen, and the anotador with no network: the web app
manifests, the anotador's service worker (what it stores, what it never stores), the anotador
opened and used offline in Chromium after its first visit, and a new version offered to the
player, never taking over the page by itself."""

from __future__ import annotations

import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

if TYPE_CHECKING:  # the fixtures' types; pytest provides the fixtures themselves
    from tests.server.kit import ServerProcess

WEB = Path(__file__).resolve().parents[2] / "src" / "fichaflow" / "web"
IMPORT = re.compile(r"""^\s*import\s[^"']*["']([^"']+)["']""", re.M)


def shell(worker: str) -> list[str]:
    """The files the service worker stores when it installs (its SHELL list)."""
    block = re.search(r"const SHELL = \[(.*?)\];", worker, re.S)
    assert block, "the worker lists what it stores in SHELL"
    return re.findall(r'"([^"]+)"', block.group(1))


def modules(start: str) -> set[str]:
    """Every module a page's script loads, by path from the site's root, following imports."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        base = path.rsplit("/", 1)[0]
        for target in IMPORT.findall((WEB / path.lstrip("/")).read_text(encoding="utf-8")):
            parts = f"{base}/{target}".split("/")
            resolved: list[str] = []
            for part in parts:
                if part == "..":
                    resolved.pop()
                elif part not in (".", ""):
                    resolved.append(part)
            todo.append("/" + "/".join(resolved))
    return seen


def test_install_manifest_valid_and_the_worker_stores_the_whole_anotador(
    sqlite_server: ServerProcess,
) -> None:
    base = sqlite_server.url
    for page, manifest_url in (
        ("/", "/manifest.webmanifest"),
        ("/anotador/", "/anotador/manifest.webmanifest"),
    ):
        html = httpx.get(base + page).text
        assert f'<link rel="manifest" href="{manifest_url}">' in html
        answer = httpx.get(base + manifest_url)
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("application/manifest+json")
        manifest: dict[str, Any] = answer.json()
        assert manifest["name"] and len(manifest["short_name"]) <= 12  # fits under the icon
        assert manifest["display"] == "standalone" and manifest["lang"] == "es"
        assert manifest["start_url"].startswith(manifest["scope"]) and manifest["id"]
        purposes = set()
        for icon in manifest["icons"]:
            image = httpx.get(base + icon["src"])
            assert image.status_code == 200 and image.headers["content-type"] == "image/svg+xml"
            assert icon["sizes"] == "any" and icon["type"] == "image/svg+xml"
            purposes.add(icon["purpose"])
        assert purposes == {"any", "maskable"}
    policy = httpx.get(base + "/anotador/").headers["content-security-policy"]
    assert "worker-src 'self'" in policy and "manifest-src 'self'" in policy
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy

    answer = httpx.get(base + "/anotador/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"  # the browser sees each new version
    worker = answer.text
    version = re.search(r'const VERSION = "([0-9a-f]{16})";', worker)
    assert version, "the server writes the version into the worker"
    stored = shell(worker)
    # Everything the page loads is stored at install: the anotador opens offline the first time.
    needed = modules("/anotador/app.js") | {"/anotador/", "/anotador/anotador.css"}
    needed |= {"/i18n/es.json", "/i18n/en.json", "/favicon.svg", "/anotador/manifest.webmanifest"}
    assert needed <= set(stored), f"missing from the worker's SHELL: {needed - set(stored)}"
    for path in stored:
        assert not path.startswith("/api/"), "API answers must be live"
        assert httpx.get(base + path).status_code == 200, path
    assert "/api/" in worker and "respondWith" in worker


@pytest.mark.slow  # a browser with a profile of its own; the manifest test above stays quick
def test_install_chromium_finds_the_game_and_the_anotador_installable(
    browser: Any, sqlite_server: ServerProcess, tmp_path: Path
) -> None:
    """Chromium's own verdict, the one behind its «Instalar» menu entry: no installability error
    and no manifest error on the game's page and on the anotador's. (A browser with a profile on
    disk: in a private context Chromium installs nothing and says only that.) The Repaso, which
    has no manifest, shows that the check sees what is missing."""
    from tests.browser import CHROMIUM_ARGS, chromium_path

    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=chromium_path(), args=CHROMIUM_ARGS
    )
    try:
        verdicts = {}
        for path in ("/", "/anotador/", "/repaso/"):
            page = context.new_page()
            page.goto(f"{sqlite_server.url}{path}", wait_until="load")
            devtools = context.new_cdp_session(page)
            errors = devtools.send("Page.getInstallabilityErrors")["installabilityErrors"]
            manifest = devtools.send("Page.getAppManifest")
            verdicts[path] = ([e["errorId"] for e in errors], manifest.get("errors", []))
            page.close()
    finally:
        context.close()
    assert verdicts["/"] == ([], []), verdicts["/"]
    assert verdicts["/anotador/"] == ([], []), verdicts["/anotador/"]
    assert verdicts["/repaso/"][0] == ["no-manifest"], verdicts["/repaso/"]


def _controlled(page: Any) -> None:
    """Wait until the service worker controls the page (an event, not a poll)."""
    page.evaluate(
        """() => navigator.serviceWorker.controller ? true : new Promise((done) =>
            navigator.serviceWorker.addEventListener("controllerchange", () => done(true)))"""
    )


def _keys(page: Any, text: str) -> None:
    for key in text:
        page.locator(f"#entry .keypad button[data-key='{key}']").click()


@pytest.mark.slow  # a whole offline round trip in Chromium; the manifest test above stays quick
def test_install_the_service_worker_serves_the_anotador_offline(
    browser: Any, sqlite_server: ServerProcess, shots: Path
) -> None:
    from playwright.sync_api import expect

    base = sqlite_server.url
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="es-ES")
    page = context.new_page()
    page.goto(f"{base}/anotador/")
    _controlled(page)

    # A mesa made online, and a first hand stored.
    page.get_by_label("Nombre de la mesa").fill("Sin cobertura")
    for seat, name in enumerate(["Ana", "Beto", "Carla", "Diego"]):
        page.locator(f"input[name=player{seat}]").fill(name)
    page.get_by_role("button", name="Crear mesa").click()
    expect(page.locator("#sheet")).to_be_visible()
    code = page.evaluate("new URLSearchParams(location.search).get('mesa')")
    total0, total1 = page.get_by_test_id("total-0"), page.get_by_test_id("total-1")
    page.get_by_role("button", name="Dominó").click()
    page.get_by_test_id("who").get_by_role("button", name="Beto").click()
    _keys(page, "10→3→5")
    page.get_by_test_id("leader").get_by_role("button", name="Carla").click()
    page.locator("#entry-save").click()
    expect(total1).to_have_text("18")

    # A mirón's page, seen once with the network.
    watch = httpx.get(f"{base}/api/anotador/mesas/{code}").json()["watch"]
    watcher = context.new_page()
    watcher.goto(f"{base}/anotador/?ver={watch}")
    expect(watcher.get_by_test_id("total-1")).to_have_text("18")

    # No network at all, and the page opened again: it is there, with its sheet and its words.
    context.set_offline(True)
    page.reload()
    expect(page.locator("#sheet")).to_be_visible()
    expect(page.locator("#net")).to_have_text("Sin red")
    expect(total1).to_have_text("18")
    expect(page.locator("#lines li")).to_contain_text(["Mano 1"])
    # ... and it records a hand, which waits in the phone.
    page.get_by_role("button", name="Dominó").click()
    page.get_by_test_id("who").get_by_role("button", name="Ana").click()
    _keys(page, "4→6→2")
    page.locator("#entry-save").click()
    pending = page.locator("#lines li.pending")
    expect(pending).to_have_count(1)
    expect(pending).to_contain_text("Pendiente")
    page.screenshot(path=str(shots / "anotador-instalado-sin-red.png"))

    # The mirón's page too, with the sheet it last saw, saying it is offline.
    watcher.reload()
    expect(watcher.get_by_test_id("total-1")).to_have_text("18")
    expect(watcher.locator("#net")).to_have_text("Solo mirar · Sin red")
    watcher.close()

    # The start page, never opened without network before, opens too and leads to the mesa.
    page.goto(f"{base}/anotador/")
    expect(page.locator("#setup-error")).to_contain_text("Sin red")
    page.get_by_role("link", name="Sin cobertura").click()
    expect(page.locator("#lines li.pending")).to_have_count(1)

    # The network is back: the hand is stored once, and what the API answers was never stored.
    context.set_offline(False)
    expect(total0).to_have_text("12", timeout=15_000)
    expect(pending).to_have_count(0)
    stored = httpx.get(f"{base}/api/anotador/mesas/{code}").json()
    assert [line["gains"] for line in stored["state"]["partida"]["lines"]] == [[0, 18], [12, 0]]
    cached = page.evaluate(
        """async () => { const urls = [];
            for (const name of await caches.keys())
              for (const r of await (await caches.open(name)).keys())
                urls.push(new URL(r.url).pathname);
            return urls; }"""
    )
    assert "/anotador/app.js" in cached
    assert not [url for url in cached if url.startswith("/api/")]
    context.close()


class NewVersionProxy:
    """The server seen through a proxy on another port, which can start serving a new version of
    the anotador: its worker with another VERSION, as after any change to the files. (The browser
    fetches a worker's updates itself, out of the page's and the test's reach: only a server can
    change what it gets.)"""

    VERSION = re.compile(r'const VERSION = "(\w+)";')

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.version: str | None = None  # None: the server's own
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                answer = httpx.get(
                    proxy.upstream + self.path, headers={"Accept-Encoding": "identity"}
                )
                body = answer.content
                if self.path == "/anotador/sw.js" and proxy.version:
                    text = proxy.VERSION.sub(f'const VERSION = "{proxy.version}";', answer.text)
                    body = text.encode()
                self.send_response(answer.status_code)
                for name, value in answer.headers.items():
                    if name.lower() not in {
                        "content-length",
                        "transfer-encoding",
                        "connection",
                        "date",
                        "server",
                    }:
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> NewVersionProxy:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


@pytest.mark.slow  # a second browser context and a proxy
def test_install_a_new_version_is_offered_never_forced(
    browser: Any, sqlite_server: ServerProcess, shots: Path
) -> None:
    from playwright.sync_api import expect

    with NewVersionProxy(sqlite_server.url) as proxy:
        context = browser.new_context(viewport={"width": 360, "height": 740}, locale="es-ES")
        page = context.new_page()
        page.goto(f"{proxy.url}/anotador/")
        _controlled(page)
        found = proxy.VERSION.search(httpx.get(f"{proxy.url}/anotador/sw.js").text)
        assert found
        old, new = f"fichaflow-anotador-{found.group(1)}", "fichaflow-anotador-0123456789abcdef"
        assert page.evaluate("caches.keys()") == [old]

        # The player is in the middle of something when the server gets a new version.
        page.evaluate("window.notReloaded = true")
        page.get_by_label("Nombre de la mesa").fill("Mesa nueva")
        proxy.version = "0123456789abcdef"
        page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
        offer = page.locator("#update-offer")
        expect(offer).to_contain_text("Hay una versión nueva")
        expect(offer.get_by_role("button", name="Actualizar")).to_be_visible()
        page.screenshot(path=str(shots / "anotador-version-nueva.png"))
        # Offered, not taken: the same page, the old version in charge, what was typed still there.
        state = (
            "navigator.serviceWorker.getRegistration().then((r) => r.waiting && r.waiting.state)"
        )
        assert page.evaluate(state) == "installed"
        assert page.evaluate("window.notReloaded") is True
        assert sorted(page.evaluate("caches.keys()")) == sorted([old, new])
        expect(page.get_by_label("Nombre de la mesa")).to_have_value("Mesa nueva")

        # The player taps it: the new version takes over and the page opens again on it.
        with page.expect_event("load"):
            offer.get_by_role("button", name="Actualizar").click()
        assert page.evaluate("window.notReloaded") is None
        assert page.evaluate("caches.keys()") == [new]
        expect(page.locator("#setup-form")).to_be_visible()
        expect(page.locator("#update-offer")).to_have_count(0)
        context.close()
