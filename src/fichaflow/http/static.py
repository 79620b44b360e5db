"""How the browser pages' files are served: how long a browser may keep each, and every page
with its modules announced up front.

* **Caching.** The pages' modules import each other by plain names (``./table.js``), so a
  browser that kept one for a while under its plain address could run a new ``app.js`` with an
  old ``table.js`` after an update. Files under their plain address are therefore ``no-cache``:
  kept, but asked again each time with their ETag (a file that did not change comes back as a
  body-less 304). Only the icons, which nothing breaks by being a day old, are kept a day.
* **The game's files, versioned.** The game's page loads its stylesheet and modules from
  ``/v/VERSION/…``, where VERSION is a digest of every file of the web folder: the same files,
  kept for a year without asking (``immutable``). Modules import each other relatively, so the
  whole tree stays under one version; any change to any file is a new VERSION, a new set of
  addresses, and nothing old is mixed with anything new. A reload asks only for the page.
* **Every page's modules, announced.** A page's modules form a tree (the game's ``app.js``
  imports ``lobby.js``, which imports ``rules.js``...; the anotador's ``app.js`` imports
  ``./i18n.js``, which imports ``../js/i18n.js``...): a browser finds each level only once the
  one above has arrived, one round trip per level, before it can draw any text. Every page
  (:func:`built_page`, the game's and each other ``*.html`` of the web folder alike) is served
  with a ``<link rel="modulepreload">`` for every module of its tree (read from the files at
  start, so a new module needs no edit here) and a preload of the first answers its start needs,
  so that everything is asked for at once, in parallel with the stylesheet.
* **Stylesheets inline, but the game's.** Every page but the game's carries its stylesheets in
  ``<style>`` blocks, each allowed by its hash in the page's own Content-Security-Policy
  (``style-src 'self'`` and those hashes, nothing inline else). As files, served ``no-cache``
  like the page, they would be asked again at every load and hold the first drawing back by a
  round trip (Lighthouse's render-blocking request, 150 ms on ``/anotador/``); inline, they come
  with the page and its ETag. The game's stylesheet is versioned and kept for good: it stays a
  file, asked for once.
"""

from __future__ import annotations

import hashlib
import posixpath
import re
from collections.abc import Iterable, Mapping
from os import PathLike, stat_result
from pathlib import Path
from typing import Final

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from fichaflow.http.security import content_security_policy

REVALIDATE: Final = "no-cache"
A_DAY: Final = "public, max-age=86400"
FOREVER: Final = "public, max-age=31536000, immutable"
VERSIONED: Final = "/v/{version}"
"""Where the game's page finds its versioned files (:func:`game_page`)."""
KEPT_A_DAY: Final = frozenset({".svg", ".png", ".ico"})

IMPORT: Final = re.compile(
    r"""\b(?:import|export)\s*(?:[\w*{}\s,$]+?\s*from\s*)?['"]([^'"]+)['"]"""
)
"""A static ``import … from '…'``, ``import '…'`` or ``export … from '…'`` of a module (the
last loads its module as an import does; dynamic imports are not followed: they are loaded when
needed, on purpose)."""
MODULE_SCRIPT: Final = re.compile(r'<script type="module" src="([^"]+)"')
STYLESHEET: Final = re.compile(r'<link rel="stylesheet" href="([^"]+)">')


def cache_control(path: str) -> str:
    return A_DAY if Path(path).suffix.lower() in KEPT_A_DAY else REVALIDATE


def version_of(root: Path, extra: Iterable[bytes] = ()) -> str:
    """A digest of every file under ``root`` (its path and its bytes) and of ``extra``: any
    change to any of them is a new version."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    for more in extra:
        digest.update(more)
    return digest.hexdigest()


class StaticAssets(StaticFiles):
    """Starlette's static files (ETag and Last-Modified, 304 when unchanged), each answer with
    its :func:`cache_control`, or kept for good when ``versioned`` (served under a version).
    ``pages`` (by path under ``directory``) are answered as built (:func:`site_pages`), at
    their usual addresses (``/anotador/`` is ``anotador/index.html``)."""

    def __init__(
        self,
        *,
        directory: Path,
        html: bool = False,
        versioned: bool = False,
        pages: Mapping[str, Page] | None = None,
    ) -> None:
        super().__init__(directory=directory, html=html)
        self.versioned = versioned
        self.root = Path(directory).resolve()
        self.pages = dict(pages or {})

    def file_response(
        self,
        full_path: PathLike[str] | str,
        stat_result: stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        page = self.pages.get(self._page_key(full_path)) if self.pages else None
        if page is not None and status_code == 200:
            return page.answer(Headers(scope=scope))
        response = super().file_response(full_path, stat_result, scope, status_code)
        kept = FOREVER if self.versioned else cache_control(str(full_path))
        response.headers.setdefault("Cache-Control", kept)
        return response

    def _page_key(self, full_path: PathLike[str] | str) -> str:
        try:
            return Path(full_path).resolve().relative_to(self.root).as_posix()
        except ValueError:
            return ""


def module_tree(root: Path, entry: str) -> list[str]:
    """The addresses of every module ``entry`` (an address under ``root``, like
    ``/js/app.js``) imports, directly or not, in the order they are first met."""
    seen: list[str] = []
    todo = [entry]
    while todo:
        url = todo.pop(0)
        if url in seen:
            continue
        seen.append(url)
        source = (root / url.lstrip("/")).read_text(encoding="utf-8")
        for spec in IMPORT.findall(source):
            if spec.startswith(("./", "../")):
                todo.append(posixpath.normpath(posixpath.join(posixpath.dirname(url), spec)))
            elif spec.startswith("/"):
                todo.append(spec)
    return seen[1:]


class Page:
    """A page (or a JSON document) built once at start, answered with an ETag (a 304 when the
    browser already has it) and ``no-cache``."""

    def __init__(self, text: str | bytes, headers: Mapping[str, str] | None = None) -> None:
        self.body = text.encode() if isinstance(text, str) else text
        self.etag = f'"{hashlib.sha256(self.body).hexdigest()[:20]}"'
        self.headers = dict(headers or {})

    def answer(
        self, headers: Mapping[str, str] | Headers, media_type: str = "text/html"
    ) -> Response:
        fresh = {**self.headers, "ETag": self.etag, "Cache-Control": REVALIDATE}
        if self.etag in headers.get("if-none-match", ""):
            return Response(status_code=304, headers=fresh)
        return Response(self.body, media_type=media_type, headers=fresh)


def with_preloads(html: str, modules: Iterable[str], fetches: Iterable[str]) -> str:
    """``html`` with a ``modulepreload`` for each of ``modules`` and a ``preload`` of each of
    ``fetches`` (answers the page's script asks for with ``fetch``), just before its first
    module script."""
    links = [f'<link rel="modulepreload" href="{url}">' for url in modules]
    links += [f'<link rel="preload" href="{url}" as="fetch" crossorigin>' for url in fetches]
    at = html.index('<script type="module"')
    return html[:at] + "\n  ".join([*links, ""]) + html[at:]


def page_modules(web: Path, page: str, html: str) -> list[str]:
    """Every module the page ``page`` (its path under ``web``, like ``anotador/index.html``)
    loads through its module scripts, by address, its module scripts themselves left out: the
    modules it should preload."""
    folder = posixpath.dirname("/" + page)
    entries = [
        posixpath.normpath(posixpath.join(folder, src)) for src in MODULE_SCRIPT.findall(html)
    ]
    modules: list[str] = []
    for entry in entries:
        modules += [url for url in module_tree(web, entry) if url not in modules]
    return [url for url in modules if url not in entries]


def inline_styles(web: Path, page: str, html: str) -> tuple[str, list[str]]:
    """``html`` with each of its stylesheets (``<link rel="stylesheet">``) written in a
    ``<style>`` block, and the blocks' texts (for the policy's hashes)."""
    folder = posixpath.dirname("/" + page)
    styles: list[str] = []

    def written(found: re.Match[str]) -> str:
        url = posixpath.normpath(posixpath.join(folder, found.group(1)))
        css = (web / url.lstrip("/")).read_text(encoding="utf-8")
        if "</style" in css.lower():
            raise ValueError(f"{url} cannot be written inside a <style> block")
        styles.append(css)
        return f"<style>{css}</style>"

    return STYLESHEET.sub(written, html), styles


def built_page(
    web: Path,
    page: str,
    fetches: Iterable[str] = (),
    version: str | None = None,
    inline: bool = False,
) -> Page:
    """The page ``page`` (its path under ``web``) with its module tree and the first answers it
    fetches (``fetches``) preloaded; with ``version``, its own absolute addresses of stylesheets
    and module scripts, and its modules, under ``/v/version``; with ``inline``, its stylesheets
    written in (:func:`inline_styles`) and allowed by their hashes in its own policy."""
    html = (web / page).read_text(encoding="utf-8")
    modules = page_modules(web, page, html)
    if version is not None:
        prefix = VERSIONED.format(version=version)
        html = re.sub(
            r'(<script type="module" src="|<link rel="stylesheet" href=")(/[^"]+)"',
            lambda found: f'{found.group(1)}{prefix}{found.group(2)}"',
            html,
        )
        modules = [prefix + url for url in modules]
    headers: dict[str, str] = {}
    if inline:
        html, styles = inline_styles(web, page, html)
        if styles:
            headers["Content-Security-Policy"] = content_security_policy(styles)
    if modules or fetches:
        html = with_preloads(html, modules, fetches)
    return Page(html, headers)


def game_page(web: Path, version: str, fetches: Iterable[str]) -> Page:
    """The game's page (``web/index.html``): its stylesheets and scripts under ``/v/version``,
    with its module tree and first answers preloaded."""
    return built_page(web, "index.html", fetches, version)


def site_pages(web: Path, fetches: Mapping[str, Iterable[str]]) -> dict[str, Page]:
    """Every other page of ``web`` (each ``*.html`` but the game's), by its path under ``web``,
    built with its preloads and its stylesheets inline; ``fetches`` are the first answers of the
    pages that fetch some."""
    pages = sorted(
        path.relative_to(web).as_posix()
        for path in web.rglob("*.html")
        if path.relative_to(web).parts[0] != "vendor"
    )
    return {
        page: built_page(web, page, fetches.get(page, ()), inline=True)
        for page in pages
        if page != "index.html"
    }
