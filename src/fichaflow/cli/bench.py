"""``fichaflow bench``: random hands per second of the search engine and of the rules engine."""

from __future__ import annotations

import json
import platform

import click

from fichaflow import i18n
from fichaflow.cli.app import app, lang_of
from fichaflow.search.speed import measure

HEAD = "{mode:<12} {search:>18} {rules:>18} {ratio:>8}"
"""One line of the table, headings included: the columns' layout."""


@app.command()
@click.option(
    "--seconds",
    type=click.FloatRange(min=0.1, max=60),
    default=1.0,
    show_default=True,
    help="Segundos de CPU de cada medida.",
)
@click.option("--json", "as_json", is_flag=True, help="Imprime un solo objeto JSON.")
def bench(seconds: float, as_json: bool) -> None:
    """Manos por segundo del motor de búsqueda y del motor de reglas (un núcleo)."""
    speeds = measure(seconds)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "unit": "hands_per_second",
                    "seconds": seconds,
                    "python": platform.python_version(),
                    "modes": {
                        s.mode: {
                            "search": round(s.search, 1),
                            "rules": round(s.rules, 1),
                            "ratio": round(s.ratio, 2),
                        }
                        for s in speeds
                    },
                }
            )
        )
        return
    lang = lang_of()

    def text(key: str, **params: object) -> str:
        return i18n.text(f"cli.bench.{key}", lang, **params)

    click.echo(text("title"))
    click.echo(
        HEAD.format(
            mode=text("mode"), search=text("search"), rules=text("rules"), ratio=text("ratio")
        )
    )
    for s in speeds:
        click.echo(
            HEAD.format(
                mode=s.mode,
                search=f"{s.search:,.0f}".replace(",", " "),
                rules=f"{s.rules:,.0f}".replace(",", " "),
                ratio=f"{s.ratio:.1f}×",
            )
        )
    click.echo(text("note", python=platform.python_version(), seconds=seconds))
