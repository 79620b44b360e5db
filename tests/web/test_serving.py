"""How a real ``fichaflow serve`` sends the pages (#15): compressed when the browser asks, every
file with a Cache-Control (kept and revalidated by its ETag; icons kept a day), and every page
naming every module it will import, so the browser asks for them all at once."""

from __future__ import annotations

import base64
import gzip
import hashlib
import posixpath
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from fichaflow.app import WEB
from fichaflow.http.static import IMPORT
from tests.marks import slow_except
from tests.server.kit import ServerProcess

PAGES = ["/", "/index.html", "/m/ABCDEF", "/anotador/", "/repaso/"]
BIG = ["/js/app.js", "/css/table.css", "/i18n/es.json", "/anotador/app.js", "/repaso/app.js"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("serving")
    with ServerProcess(f"sqlite:///{Path(folder) / 'serving.sqlite3'}") as process:
        yield process


def static_files() -> list[str]:
    return sorted(
        "/" + path.relative_to(WEB).as_posix()
        for path in WEB.rglob("*")
        if path.is_file() and path.name != "index.html"
    )


def raw_get(url: str, **headers: str) -> tuple[httpx.Headers, bytes]:
    """The answer's headers and its body as sent (httpx would decompress it for us)."""
    with httpx.Client(timeout=10) as client, client.stream("GET", url, headers=headers) as answer:
        assert answer.status_code == 200, url
        return answer.headers, b"".join(answer.iter_raw())


@pytest.mark.parametrize("path", PAGES + BIG)
def test_pages_modules_and_words_go_gzipped_when_asked(server: ServerProcess, path: str) -> None:
    plain = httpx.get(f"{server.url}{path}", headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200, path
    assert "content-encoding" not in plain.headers
    headers, packed = raw_get(f"{server.url}{path}", **{"Accept-Encoding": "gzip, br"})
    assert headers["content-encoding"] == "gzip", path
    assert "accept-encoding" in headers["vary"].lower()
    body = gzip.decompress(packed)
    assert body == plain.content
    assert len(packed) < len(body) / 2, (path, len(packed), len(body))
    # The pages keep their policy when compressed.
    assert "script-src 'self';" in headers["content-security-policy"]


def test_every_file_says_how_long_it_may_be_kept(server: ServerProcess) -> None:
    files = static_files()
    assert len(files) >= 17
    for path in [*PAGES, "/i18n/es.json", "/i18n/en.json", *files]:
        answer = httpx.get(f"{server.url}{path}")
        assert answer.status_code == 200, path
        kept = answer.headers.get("cache-control")
        icon = path.endswith(".svg")
        assert kept == ("public, max-age=86400" if icon else "no-cache"), (path, kept)
        # Asked again with its ETag, an unchanged file comes back empty.
        etag = answer.headers.get("etag")
        assert etag, path
        again = httpx.get(f"{server.url}{path}", headers={"If-None-Match": etag})
        assert again.status_code == 304, path
        assert again.content == b""
        assert again.headers.get("cache-control") == kept, path


@pytest.mark.slow  # a browser load; the headers and gzip checks stay quick
def test_the_game_page_preloads_every_module_it_loads(browser: Any, server: ServerProcess) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="es-ES")
    page = context.new_page()
    scripts: list[str] = []
    page.on(
        "request",
        lambda request: (
            scripts.append(request.url.removeprefix(server.url))
            if request.resource_type == "script"
            else None
        ),
    )
    page.goto(f"{server.url}/")
    page.get_by_label("Tu nombre").wait_for()
    preloaded = page.locator("link[rel=modulepreload]").evaluate_all(
        "links => links.map((l) => l.getAttribute('href'))"
    )
    first = page.locator("link[rel=preload][as=fetch]").evaluate_all(
        "links => links.map((l) => l.getAttribute('href'))"
    )
    context.close()
    # Every module comes from one version of the files, and all but the first were preloaded.
    entry = [url for url in scripts if url.endswith("/js/app.js")]
    version = re.fullmatch(r"(/v/[0-9a-f]{16})/js/app\.js", entry[0]) if entry else None
    assert version, scripts
    assert all(url.startswith(version[1]) for url in scripts), scripts
    others = set(scripts) - set(entry)
    assert others <= set(preloaded), others - set(preloaded)
    assert {f"{version[1]}/js/table.js", f"{version[1]}/vendor/js-sha256/sha256.min.js"} <= set(
        preloaded
    )
    assert first == ["/i18n/es.json", "/api/presets", "/api/bots"]


EVERY_PAGE = sorted(
    path.relative_to(WEB).as_posix()
    for path in WEB.rglob("*.html")
    if path.relative_to(WEB).parts[0] != "vendor"
)
"""Every page of the web folder, by its path under it: the game's and the others alike."""
MODULE_PRELOAD = re.compile(r'\s*<link rel="modulepreload" href="([^"]+)">')


def address(page: str) -> str:
    """Where a page is opened: ``anotador/index.html`` at ``/anotador/``."""
    return "/" + page.removesuffix("index.html")


@pytest.mark.parametrize(
    "page",
    slow_except(EVERY_PAGE, quick=["index.html", "anotador/index.html", "repaso/index.html"]),
)
def test_each_page_preloads_exactly_the_modules_it_imports(
    browser: Any, server: ServerProcess, page: str
) -> None:
    """What the browser itself finds, import by import, on the page served without its
    preloads, is what the page preloads: a module added to a page (or imported in a way the
    server does not read) and not preloaded fails here, and so does a preload nothing uses."""
    url = f"{server.url}{address(page)}"
    served = httpx.get(url).text
    preloaded = MODULE_PRELOAD.findall(served)
    assert preloaded, f"{page} preloads no module"
    assert len(set(preloaded)) == len(preloaded), preloaded
    entries = {
        posixpath.normpath(posixpath.join(posixpath.dirname(f"/{page}"), src))
        for src in re.findall(r'<script type="module" src="([^"]+)"', served)
    }
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="es-ES")
    browsing = context.new_page()
    bare = MODULE_PRELOAD.sub("", served)
    browsing.route(
        url, lambda route: route.fulfill(status=200, content_type="text/html", body=bare)
    )
    scripts: list[str] = []
    browsing.on(
        "request",
        lambda request: (
            scripts.append(request.url.removeprefix(server.url))
            if request.resource_type == "script"
            else None
        ),
    )
    browsing.goto(url, wait_until="load")  # after the module scripts, their imports fetched
    context.close()
    assert entries <= set(scripts), (entries, scripts)
    imported = set(scripts) - entries
    assert sorted(imported) == sorted(preloaded), (
        f"{page}: imported, not preloaded {sorted(imported - set(preloaded))}; "
        f"preloaded, not imported {sorted(set(preloaded) - imported)}"
    )


def test_every_page_but_the_games_brings_its_styles_allowed_by_their_hashes(
    server: ServerProcess,
) -> None:
    """A stylesheet served no-cache beside its page held the first drawing back a round trip
    (render-blocking, 150 ms on /anotador/ in Lighthouse's mobile run): every page but the
    game's (whose stylesheet is versioned and kept for good) writes its styles in, and its own
    policy allows those blocks by their hashes and nothing else inline."""
    for page in EVERY_PAGE:
        answer = httpx.get(f"{server.url}{address(page)}")
        assert answer.status_code == 200, page
        policy = dict(
            part.partition(" ")[::2]
            for part in answer.headers["content-security-policy"].split("; ")
        )
        assert policy["script-src"] == "'self'", page
        styles = re.findall(r"<style>(.*?)</style>", answer.text, re.S)
        if page == "index.html":
            assert styles == [] and policy["style-src"] == "'self'"
            assert re.search(
                r'<link rel="stylesheet" href="/v/[0-9a-f]{16}/css/table\.css">', answer.text
            )
            continue
        assert '<link rel="stylesheet"' not in answer.text, page
        assert styles, page
        hashes = [
            f"'sha256-{base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()}'"
            for style in styles
        ]
        assert policy["style-src"].split() == ["'self'", *hashes], page
        again = httpx.get(
            f"{server.url}{address(page)}", headers={"If-None-Match": answer.headers["etag"]}
        )
        assert again.status_code == 304, page


def test_the_anotador_draws_with_its_inline_styles_under_its_policy(
    browser: Any, server: ServerProcess
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="es-ES")
    page = context.new_page()
    page.add_init_script(
        "window.__violations = [];"
        "document.addEventListener('securitypolicyviolation',"
        " (event) => window.__violations.push(event.violatedDirective));"
    )
    sheets: list[str] = []
    page.on(
        "request",
        lambda request: (
            sheets.append(request.url) if request.resource_type == "stylesheet" else None
        ),
    )
    page.goto(f"{server.url}/anotador/")
    page.locator("input[name=player3]").wait_for()
    top = page.locator(".top").evaluate("(el) => getComputedStyle(el).backgroundColor")
    violations = page.evaluate("window.__violations")
    context.close()
    assert sheets == []  # nothing asked for before the first drawing
    assert top == "rgb(13, 92, 70)"  # the anotador's green: its styles apply
    assert violations == []


def test_the_game_files_are_versioned_and_kept_for_good(server: ServerProcess) -> None:
    page = httpx.get(f"{server.url}/").text
    found = re.search(r'<link rel="stylesheet" href="(/v/[0-9a-f]{16})/css/table\.css">', page)
    assert found, page
    version = found[1]
    assert f'<script type="module" src="{version}/js/app.js">' in page
    for path in ["/css/table.css", "/js/app.js", "/js/table.js", "/vendor/js-sha256/sha256.min.js"]:
        kept = httpx.get(f"{server.url}{version}{path}")
        plain = httpx.get(f"{server.url}{path}")
        assert kept.status_code == 200 and kept.content == plain.content, path
        assert kept.headers["cache-control"] == "public, max-age=31536000, immutable", path
        assert plain.headers["cache-control"] == "no-cache", path
    # Another version's addresses are not served: a changed file is never mixed with old ones.
    assert httpx.get(f"{server.url}/v/0123456789abcdef/js/app.js").status_code == 404


SHIFTS = """() => new Promise((done) => {
  const shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!entry.hadRecentInput) shifts.push(entry.value);
    }
  }).observe({ type: 'layout-shift', buffered: true });
  setTimeout(() => done(shifts.reduce((a, b) => a + b, 0)), 300);
})"""


READY = {"/": "#host-name", "/anotador/": "input[name=player3]", "/repaso/": "#analyze"}
"""Each page, and what it shows once it has filled."""


@pytest.mark.parametrize("path", slow_except(READY, quick=["/anotador/"]))
def test_each_page_has_a_description_and_does_not_jump_as_it_fills(
    browser: Any, server: ServerProcess, path: str
) -> None:
    ready = READY[path]
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="es-ES")
    page = context.new_page()
    page.goto(f"{server.url}{path}")
    page.locator(ready).wait_for()
    description = page.locator("meta[name=description]").get_attribute("content")
    shifted = page.evaluate(SHIFTS)
    context.close()
    assert description and len(description) > 40, path
    # The anotador's chairs appeared after the presets and pushed the form down: 0.106.
    assert shifted < 0.01, (path, shifted)


def test_the_game_modules_import_each_other_relatively() -> None:
    """An import by an absolute address (``/js/x.js``) would load that module from its plain,
    unversioned address: a second copy beside the versioned one, and a file that may be older."""
    for module in sorted((WEB / "js").glob("*.js")):
        absolute = [spec for spec in IMPORT.findall(module.read_text()) if spec.startswith("/")]
        assert absolute == [], f"{module.name} imports {absolute}: use './…' or '../…'"
