"""The client's own reasoning, run in the browser and held against the Python core: the fair-deal
check recomputes the core's deal and sorteo from a seed (and the published test vector), catches
a seed or a deal that was tampered with; tiles are named as the core names them; the doubles the
table calls dead are the ones seat inference calls dead."""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fichaflow.core.deal import Deal, shuffle, sorteo
from fichaflow.core.inference import dead_doubles
from fichaflow.core.partida import Partida
from fichaflow.core.record import hand_dump
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import bits, name, spoken
from fichaflow.core.view import hand_view
from tests.server.kit import ServerProcess

WEB = Path(__file__).resolve().parents[2] / "src" / "fichaflow" / "web"

RECOMPUTE = """(m, arg) => arg.seeds.map((s) =>
  [m.dealFromSeed(arg.seats, s), m.sorteoWinner(arg.seats, s), m.commitmentOf(s)])"""

# docs/records.md, "Test vector: the seed "fichaflow"".
VECTOR = [0, 27, 10, 16, 25, 7, 14, 1, 21, 5, 23, 15, 2, 11, 17, 13, 4, 26, 9, 18, 6, 12, 8,
          24, 19, 3, 20, 22]  # fmt: skip


@pytest.fixture(scope="module")
def page(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One server and one page for the whole module: these tests only run the page's modules."""
    server = ServerProcess(f"sqlite:///{tmp_path_factory.mktemp('modules') / 'web.sqlite3'}")
    server.start()
    context = browser.new_context()
    try:
        opened = context.new_page()
        opened.goto(f"{server.url}/")
        opened.locator(".create-form").wait_for()  # a locator: no script evaluated as text, which
        # the page's policy forbids (wait_for_function polls with eval)
        yield opened
    finally:
        context.close()
        server.stop()


def run(page: Any, module: str, body: str, arg: Any = None) -> Any:
    """Evaluate ``body`` (a function of the module ``m`` and ``arg``) in the page."""
    return page.evaluate(
        f"async (arg) => {{ const m = await import('/js/{module}.js'); return ({body})(m, arg); }}",
        arg,
    )


def test_the_deal_is_recomputed_as_the_core_deals(page: Any) -> None:
    assert run(page, "fairness", "(m) => m.shuffle('fichaflow')") == VECTOR == shuffle("fichaflow")
    seeds = [
        "tres-43",
        "ejemplo-3",
        "mano-1",
        "ñandú ☕",
        *(f"{random.getrandbits(64):x}" for _ in range(12)),
    ]
    for seats in (2, 3, 4):
        found = run(page, "fairness", RECOMPUTE, {"seeds": seeds, "seats": seats})
        for seed, (deal, winner, commitment) in zip(seeds, found, strict=True):
            core = Deal.from_seed(seats, seed)
            assert deal["hands"] == [[name(t) for t in bits(h)] for h in core.hands]
            assert deal["stock"] == [name(t) for t in core.stock]
            assert winner == sorteo(seats, seed)[0]
            assert commitment == hashlib.sha256(seed.encode()).hexdigest()


def test_the_fair_deal_check_catches_tampering(page: Any) -> None:
    rules = Rules.make("venezuela")
    partida = Partida(rules)
    seed = "una-semilla-cualquiera"
    hand = partida.start_hand(Deal.from_seed(4, seed))
    while not hand.ended:
        hand.play(hand.legal_moves()[0])
    summary = hand_dump(Deal.from_seed(4, seed), hand)
    summary.update(seed=seed, commitment=hashlib.sha256(seed.encode()).hexdigest())
    mine = summary["deal"][2]
    other_seed = "otra-semilla"
    promised = summary["commitment"]
    swapped = [summary["deal"][1], summary["deal"][0], *summary["deal"][2:]]
    cases: dict[str, tuple[dict[str, Any], dict[str, Any], list[str]]] = {
        "fair": ({}, {"promised": promised, "dealt": mine}, []),
        "seed changed": (
            {"seed": other_seed},
            {"promised": promised, "dealt": mine},
            ["commitment"],
        ),
        "promise changed after the deal": (
            {"seed": other_seed, "commitment": hashlib.sha256(other_seed.encode()).hexdigest()},
            {"promised": promised, "dealt": mine},
            ["commitment"],
        ),
        "hands swapped": ({"deal": swapped}, {"promised": promised, "dealt": mine}, ["deal"]),
        "not what I was dealt": ({}, {"promised": promised, "dealt": summary["deal"][3]}, ["mine"]),
    }
    for label, (change, seen, problems) in cases.items():
        checked = run(
            page, "fairness",
            "(m, a) => m.checkHand(a.summary, { seats: 4, seat: 2, sorteo: false, ...a.seen })",
            {"summary": {**summary, **change}, "seen": seen},
        )  # fmt: skip
        assert checked["problems"] == problems, label
        assert checked["ok"] is (problems == [])


def test_every_tile_is_named_as_the_core_names_it(page: Any) -> None:
    tiles = [name(t) for t in range(28)]
    for lang in ("es", "en"):
        found = run(
            page, "i18n",
            "async (m, a) => { await m.loadLanguage(a.lang); return a.tiles.map(m.tileName); }",
            {"lang": lang, "tiles": tiles},
        )  # fmt: skip
        assert found == [spoken(t, lang) for t in range(28)]
    run(page, "i18n", "(m) => m.loadLanguage('es')")


def test_the_dead_doubles_are_the_ones_the_bots_know(page: Any) -> None:
    rng = random.Random(7)
    lines, expected = [], []
    for n in range(60):
        partida = Partida(Rules.make("venezuela"))
        hand = partida.start_hand(Deal.from_seed(4, f"muerto-{n}"))
        while not hand.ended and rng.random() > 0.03:
            hand.play(rng.choice(hand.legal_moves()))
            view = hand_view(partida.rules, hand, 0)
            lines.append([list(pair) for pair in view.line])
            expected.append(sorted(t // 1 for t in bits(dead_doubles(view))))
    found = run(page, "moments", "(m, lines) => lines.map((line) => m.deadDoubles(line))", lines)
    doubles = [[(n * (n + 1)) // 2 + n for n in numbers] for numbers in found]
    assert doubles == expected
    assert any(expected), "some doubles died in the sample"


def test_the_catalogues_say_everything_in_both_languages() -> None:
    es = json.loads((WEB.parent / "i18n" / "es.json").read_text())
    en = json.loads((WEB.parent / "i18n" / "en.json").read_text())
    assert es.keys() == en.keys()
    assert all(text.strip() for text in [*es.values(), *en.values()])
    sources = "\n".join(p.read_text() for p in (WEB / "js").glob("*.js"))
    used = set(re.findall(r"\bt\(\s*'([a-z_.0-9]+)'", sources))
    assert used <= es.keys(), used - es.keys()
    for lang in (es, en):
        for key, text in lang.items():
            assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", es[key])), (
                key
            )


def test_the_table_calls_a_violin_and_a_hanged_cochina(page: Any) -> None:
    # "Violín: tener cuatro o más piedras de un mismo número al levantar" (the seed's glossary).
    calls = run(
        page,
        "moments",
        "(m, hands) => hands.map((tiles) => m.violines(tiles).map((c) => c.text))",
        [
            ["5-5", "5-4", "5-3", "5-0", "2-1", "6-6", "3-3"],
            ["5-5", "5-4", "5-3", "6-0", "2-1", "6-6", "3-3"],
            ["1-0", "2-0", "3-0", "4-0", "5-1", "6-1", "4-1"],
        ],
    )
    assert calls[0] == ["Tienes un violín de cincos: 4 fichas del mismo número."]
    assert calls[1] == []
    assert calls[2] == [
        "Tienes un violín de blancas: 4 fichas del mismo número.",
        "Tienes un violín de unos: 4 fichas del mismo número.",
    ]
    # A hand that ends with the cochina in somebody's hand: it was hanged (ahorcada).
    summary = {
        "score": {"end": "domino", "seat": 1, "capicua": False},
        "revealed": [["6-6", "2-0"], [], ["1-1"], ["4-3"]],
    }
    kinds = run(
        page,
        "moments",
        "(m, s) => m.handEndMoments(s, ['Ana', 'Beto', 'Carla', 'Dani']).map((c) => c.text)",
        summary,
    )
    assert kinds == ["Dominó de Beto.", "Ahorcaron la cochina: se le quedó a Ana."]


HEAR = """async (m, arg) => {
  const moments = await import('/js/moments.js');
  const made = [...moments.handEndMoments(arg.summary, arg.names),
                ...moments.turnMoments(arg.turns, arg.names, 0)];
  const names = m.soundsOf(made);
  const heard = [];
  const vibrated = [];
  const real = navigator.vibrate;
  navigator.vibrate = (pattern) => { vibrated.push(pattern); return true; };
  const listen = (event) => heard.push(event.detail.name);
  addEventListener('fichaflow:sound', listen);
  try {
    m.sound(names, 0.01);
    await new Promise((done) => setTimeout(done, 50));
  } finally {
    removeEventListener('fichaflow:sound', listen);
    navigator.vibrate = real;
  }
  return { names, heard, vibrated };
}"""


def test_a_capicua_and_a_draw_are_heard_and_the_capicua_felt(page: Any) -> None:
    """The moments no quick browser hand can be made to show: a dominó that is a capicúa, and a
    rival's draw from the montón (mano a mano), each with its own sound, the capicúa with its own
    vibration besides the dominó's."""
    found = run(
        page,
        "sound",
        HEAR,
        {
            "summary": {"score": {"end": "domino", "seat": 0, "capicua": True}, "revealed": []},
            "names": ["Ana", "Beto"],
            "turns": [{"kind": "draw", "seat": 1}, {"kind": "draw", "seat": 1}],
        },
    )
    assert found["names"] == ["domino", "capicua", "draw"]
    assert found["heard"] == ["domino", "capicua", "draw"]
    assert len(found["vibrated"]) == 2 and found["vibrated"][0] != found["vibrated"][1]
