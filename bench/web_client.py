"""The browser client's weight and speed, on a 360 x 740 phone screen in Debian's Chromium against
a real ``fichaflow serve`` on SQLite (loopback only).

Figures: the bytes the table page loads (decoded, what gzip would make of them, and what the server
sent); the time from a reload in the middle of a hand to the player's tiles on screen (WebSocket,
welcome, first drawing); the time from tapping a tile to seeing it leave the hand (the server's
answer included; bots play with no pause); the time to lay out and draw the longest line (28
tiles) with a hand of seven; and a first visit to the home page (empty cache) over a throttled
phone network (DevTools' Slow 4G: 150 ms round trips, 1.6 Mbit/s), to the form on screen and to
the largest contentful paint. Each figure is the median of its runs, measured side by side in one
run.

With ``--before REV`` the reloads also go, in turns, to two more tables, each on a server of its
own: one running this tree's package with its web pages as they were at git revision REV (copied
to a temporary folder: the same server, the page as it was), one this tree's, so that the page's
first render and its time to interactive are compared before and after a change in one run, on
one machine at one load. Both are read in the page,
from the navigation's start: the first render when the player's tiles are in the page,
interactive when, after that drawing, the page's main thread is free to answer a tap (a frame
and a task later).

    python bench/web_client.py --reloads 15 --hands 3 --layouts 200 --homes 5 --before main
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import itertools
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Response, sync_playwright

SERVE = [sys.executable, "-c", "from fichaflow.cli import main; main()", "serve"]
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LAYOUT = """async ([view, runs]) => {
  const { layoutTable } = await import('/js/table.js');
  const app = { state: { view, choosing: null } };
  const root = document.getElementById('app');
  const times = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    layoutTable(app, root);
    times.push(performance.now() - start);
  }
  return times;
}"""


# A function, not an expression: Playwright evaluates a bare expression with eval, which the
# pages' Content-Security-Policy forbids.
PLAYED = """(before) => document.querySelectorAll('.hand-tile').length < before
  || document.querySelector('[data-dialog=summary-dialog]')"""
FILES = """() => performance.getEntriesByType('navigation').concat(
  performance.getEntriesByType('resource'))
  .filter((e) => !e.name.includes('/api/') && !e.name.includes('/ws'))
  .map((e) => [e.name, e.encodedBodySize, e.decodedBodySize])"""
LCP = """() => new Promise((done) => {
  new PerformanceObserver((list) => {
    const entries = list.getEntries();
    done(entries[entries.length - 1].startTime);
  }).observe({ type: 'largest-contentful-paint', buffered: true });
})"""
TILES_SEEN = """new MutationObserver((changes, watcher) => {
  if (document.querySelector('.hand-tile')) {
    window.__tilesAt = performance.now();
    watcher.disconnect();
  }
}).observe(document, { childList: true, subtree: true });"""
"""In the page: when the first tile is drawn, counted from the navigation's start (without the
driver's own delay in noticing it)."""
PHONE_NETWORK = {  # DevTools' "Slow 4G" preset, as Lighthouse's mobile runs throttle
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1.6 * 1024 * 1024 / 8,
    "uploadThroughput": 750 * 1024 / 8,
}


def home_on_a_phone_network(browser: Any, url: str) -> tuple[float, float]:
    """A first visit to the home page (empty cache) over a throttled phone network: the time to
    the form on screen, and the largest contentful paint the browser reports."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", PHONE_NETWORK)
    start = time.perf_counter()
    page.goto(f"{url}/")
    page.locator("#host-name").wait_for()
    ready = time.perf_counter() - start
    lcp = page.evaluate(LCP) / 1000
    context.close()
    return ready, lcp


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


FIRST_RENDER = """
new MutationObserver((changes, watcher) => {
  if (!document.querySelector('.hand-tile')) return;
  watcher.disconnect();
  window.__firstRender = performance.now();
  requestAnimationFrame(() => setTimeout(() => { window.__interactive = performance.now(); }, 0));
}).observe(document, { childList: true, subtree: true });
"""
TIMES = """() => new Promise((done) => {
  const ready = () => (window.__interactive
    ? done([window.__firstRender, window.__interactive]) : setTimeout(ready, 5));
  ready();
})"""


@contextlib.contextmanager
def server(source: Path | None = None) -> Any:
    """``fichaflow serve`` on a free port: this tree's package, or the one under ``source``."""
    port = free_port()
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = str(source)
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        command = [*SERVE, "--port", str(port), "--db", db, "--bot-workers", "1"]
        process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
        )
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(300):
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{url}/api/health", timeout=1).status_code == 200:
                        break
                time.sleep(0.1)
            yield url
        finally:
            process.terminate()
            process.wait(10)


def full_chain() -> list[list[int]]:
    """All 28 tiles as one line (an Euler circuit of the numbers 0..6)."""
    unused = {(a, b) for a in range(7) for b in range(a + 1)}
    path: list[int] = []
    stack = [6]
    while stack:
        edge = next((e for e in sorted(unused) if stack[-1] in e), None)
        if edge is None:
            path.append(stack.pop())
        else:
            unused.remove(edge)
            stack.append(edge[0] if edge[1] == stack[-1] else edge[1])
    return [list(pair) for pair in itertools.pairwise(path)]


@contextlib.contextmanager
def exported(revision: str | None) -> Any:
    """This tree's package with its web pages (``src/fichaflow/web``) as they were at git
    ``revision``, in a temporary folder (None: none). Only the pages differ, so the server behind
    them is the same on both sides and the comparison is the page's alone."""
    if revision is None:
        yield None
        return
    root = Path(__file__).resolve().parents[1]
    web = "src/fichaflow/web"
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "src"
        shutil.copytree(root / "src", source, ignore=shutil.ignore_patterns("__pycache__"))
        shutil.rmtree(Path(folder) / web)
        archive = subprocess.run(
            ["git", "-C", str(root), "archive", revision, web], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", folder], input=archive, check=True)
        yield source


def open_table(context: Any, url: str) -> Any:
    """A mesa with three bots (no pause) at ``url``, started, and its host's page at the table."""
    created = httpx.post(
        f"{url}/api/mesas",
        json={
            "rules": {"preset": "dominicana", "target": 500},
            "seats": [None, "tirafichas", "tirapuntos", "acuestafichas"],
            "name": "Ana",
            "seat": 0,
            "options": {"bot_pause_ms": 0},
        },
    ).json()
    code = created["code"]
    ticket = json.dumps({"token": created["token"], "person": created["person"]})
    page = context.new_page()
    page.add_init_script(f"localStorage.setItem('fichaflow.mesa.{code}', {json.dumps(ticket)})")
    page.add_init_script(FIRST_RENDER)
    page.goto(f"{url}/m/{code}")
    page.get_by_role("button", name="Empezar la partida").click()
    page.locator(".hand-tile").first.wait_for()
    return page


def reload_times(page: Any) -> tuple[float, float]:
    """One reload: the page's own first render and interactive times, in seconds from the
    navigation's start."""
    page.reload()
    page.locator(".hand-tile").first.wait_for()
    first, ready = page.evaluate(TIMES)
    return first / 1000, ready / 1000


def median_ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.1f} ms" if values else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reloads", type=int, default=15)
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--layouts", type=int, default=200)
    parser.add_argument("--homes", type=int, default=5)
    parser.add_argument("--before", help="a git revision whose page to compare the reloads with")
    options = parser.parse_args()
    chromium = os.environ.get("FICHAFLOW_CHROMIUM") or "/usr/bin/chromium"
    compared: dict[str, list[tuple[float, float]]] = {"before": [], "after": []}
    with (
        exported(options.before) as old_source,
        server() as url,
        server(old_source) if old_source else contextlib.nullcontext() as old_url,
        server() if old_source else contextlib.nullcontext() as new_url,
        sync_playwright() as playwright,
    ):
        created = httpx.post(
            f"{url}/api/mesas",
            json={
                "rules": {"preset": "dominicana", "target": 500},
                "seats": [None, "tirafichas", "tirapuntos", "acuestafichas"],
                "name": "Ana",
                "seat": 0,
                "options": {"bot_pause_ms": 0},
            },
        ).json()
        code = created["code"]
        ticket = json.dumps({"token": created["token"], "person": created["person"]})
        browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
        context = browser.new_context(viewport={"width": 360, "height": 740}, device_scale_factor=2)
        context.add_init_script(
            f"localStorage.setItem('fichaflow.mesa.{code}', {json.dumps(ticket)})"
        )
        context.add_init_script(TILES_SEEN)
        page = context.new_page()
        loaded: dict[str, bytes] = {}

        def keep(response: Response) -> None:
            if response.ok:
                loaded.setdefault(response.url, response.body())

        page.on("response", keep)
        page.goto(f"{url}/m/{code}")
        page.get_by_role("button", name="Empezar la partida").click()
        page.locator(".hand-tile").first.wait_for()
        files = {u: b for u, b in loaded.items() if "/api/" not in u and "/ws" not in u}
        raw = sum(len(b) for b in files.values())
        zipped = sum(len(gzip.compress(b, 9)) for b in files.values())
        # What the first visit took from the network: the bodies as sent (compressed or not).
        sent = sum(size for _, size, _ in page.evaluate(FILES))

        reloads: list[float] = []
        drawn: list[float] = []
        tables = (
            {"before": open_table(context, old_url), "after": open_table(context, new_url)}
            if old_url and new_url
            else {}
        )
        for _ in range(options.reloads):
            start = time.perf_counter()
            page.reload()
            page.locator(".hand-tile").first.wait_for()
            reloads.append(time.perf_counter() - start)
            drawn.append(page.evaluate("window.__tilesAt") / 1000)
            # In turns, each side first every other time: the second reload of a pair is not
            # served alike (an A/A run with one order measured +9% on the second side).
            for label, table in sorted(tables.items(), reverse=len(reloads) % 2 == 0):
                compared[label].append(reload_times(table))
        for table in tables.values():
            table.close()

        taps: list[float] = []
        hands = 0
        while hands < options.hands:
            if page.locator("[data-dialog=summary-dialog]").count():
                hands += 1
                page.locator("[data-key=next-hand], [data-key=new-partida]").first.click()
                page.wait_for_timeout(300)
                continue
            playable = page.locator(".my-turn .hand-tile.playable")
            if not playable.count() or page.locator(".hand-tile[aria-disabled=false]").count() == 0:
                if page.locator(".action-pass").count():
                    page.locator(".action-pass").click()
                page.wait_for_timeout(20)
                continue
            before = page.locator(".hand-tile").count()
            start = time.perf_counter()
            playable.first.click()
            if page.locator(".end-choice").count():
                page.locator(".end-choice").first.click()
            page.wait_for_function(PLAYED, arg=before)
            taps.append(time.perf_counter() - start)

        chain = full_chain()
        view = {
            "line": chain,
            "history": [{"kind": "play", "end": "left"}] * 13
            + [{"kind": "play", "end": "right"}] * 14,
            "ends": [chain[0][0], chain[-1][1]],
        }
        layouts = [t / 1000 for t in page.evaluate(LAYOUT, [view, options.layouts])]
        homes = [home_on_a_phone_network(browser, url) for _ in range(options.homes)]
        browser.close()

    print(f"machine: {platform.platform()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    print(f"date: {time.strftime('%Y-%m-%d')}, Chromium {browser.version}")
    print(
        f"files of the table page: {len(files)}, {raw / 1024:.1f} KiB as served, "
        f"{zipped / 1024:.1f} KiB gzipped, {sent / 1024:.1f} KiB sent by the server"
    )
    print(
        f"reload mid-hand to tiles on screen: median {median_ms(reloads)} over {len(reloads)}"
        f" (in the page, from the navigation's start: {median_ms(drawn)})"
    )
    taps.sort()
    p90 = taps[int(0.9 * (len(taps) - 1))] if taps else 0
    print(
        f"tap to tile played: median {median_ms(taps)}, 90th percentile {p90 * 1000:.1f} ms "
        f"over {len(taps)} taps"
    )
    print(f"layout and drawing, 28-tile line: median {median_ms(layouts)} over {len(layouts)}")
    print(
        f"home page, first visit over Slow 4G: form on screen median "
        f"{median_ms([ready for ready, _ in homes])}, largest contentful paint median "
        f"{median_ms([lcp for _, lcp in homes])} over {len(homes)}"
    )
    for label, runs in compared.items():
        if runs:
            name = f"{options.before} (before)" if label == "before" else "this tree (after)"
            print(
                f"{name}: first render median {median_ms([r[0] for r in runs])}, "
                f"interactive median {median_ms([r[1] for r in runs])} over {len(runs)} reloads"
            )
    if compared["before"] and compared["after"]:
        for index, figure in ((0, "first render"), (1, "interactive")):
            old = statistics.median(r[index] for r in compared["before"])
            new = statistics.median(r[index] for r in compared["after"])
            print(f"{figure}: after / before = {new / old:.2f}")


if __name__ == "__main__":
    main()
