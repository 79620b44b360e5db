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

    python bench/web_client.py --reloads 15 --hands 3 --layouts 200 --homes 5
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import itertools
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import sync_playwright

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


@contextlib.contextmanager
def server() -> Any:
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
        command = [*SERVE, "--port", str(port), "--db", db, "--bot-workers", "1"]
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
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


def median_ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.1f} ms" if values else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reloads", type=int, default=15)
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--layouts", type=int, default=200)
    parser.add_argument("--homes", type=int, default=5)
    options = parser.parse_args()
    chromium = os.environ.get("FICHAFLOW_CHROMIUM") or "/usr/bin/chromium"
    with server() as url, sync_playwright() as playwright:
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
        page.on("response", lambda r: loaded.setdefault(r.url, r.body()) if r.ok else None)
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
        for _ in range(options.reloads):
            start = time.perf_counter()
            page.reload()
            page.locator(".hand-tile").first.wait_for()
            reloads.append(time.perf_counter() - start)
            drawn.append(page.evaluate("window.__tilesAt") / 1000)

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


if __name__ == "__main__":
    main()
