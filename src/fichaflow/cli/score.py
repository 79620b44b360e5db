"""``fichaflow score``: the anotador's arithmetic for one hand, from the pips left in each hand."""

from __future__ import annotations

import json

import click

from fichaflow.cli.app import app, fail, lang_of
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.explain import explain
from fichaflow.core.hand import EndKind
from fichaflow.core.rules import DEFAULT_PRESET, Rules
from fichaflow.core.scoring import HandFacts, score_hand


def parse_sets(items: tuple[str, ...]) -> dict[str, str]:
    """``--set option=value`` pairs as a dict (values are checked by the rules)."""
    out = {}
    for item in items:
        option, sep, value = item.partition("=")
        if not sep or not option.strip():
            fail(FichaFlowError("cli.set", text=item))
        out[option.strip()] = value.strip()
    return out


def parse_pips(text: str) -> tuple[int, ...]:
    parts = [p.strip() for p in text.split(",")]
    if not all(p.isascii() and p.isdigit() for p in parts):
        fail(FichaFlowError("cli.pips", text=text))
    return tuple(int(p) for p in parts)


@app.command()
@click.option("--rules", "preset", default=DEFAULT_PRESET, show_default=True, help="Reglamento.")
@click.option("--set", "sets", multiple=True, metavar="OPCIÓN=VALOR", help="Cambia una opción.")
@click.option("--domino", "end", flag_value="domino", help="La mano terminó en dominada.")
@click.option("--tranque", "end", flag_value="tranque", help="La mano se trancó.")
@click.option("--winner", type=int, help="Con --domino: el asiento que dominó.")
@click.option("--closer", type=int, help="Con --tranque: el asiento que trancó.")
@click.option("--pips", required=True, help="Tantos de cada mano en orden de asiento: 8,11,7,14.")
@click.option("--leader", type=int, default=0, show_default=True, help="Quién salió.")
@click.option("--capicua", is_flag=True, help="La dominada fue capicúa.")
@click.option("--chuchazo", is_flag=True, help="Dominó con el doble blanco.")
@click.option("--salida-pasada", is_flag=True, help="El siguiente pasó a la salida.")
@click.option("--pase-redondo", type=int, multiple=True, help="Asiento con un pase redondo.")
@click.option("--json", "as_json", is_flag=True, help="Imprime un solo objeto JSON.")
def score(
    preset: str,
    sets: tuple[str, ...],
    end: str | None,
    winner: int | None,
    closer: int | None,
    pips: str,
    leader: int,
    capicua: bool,
    chuchazo: bool,
    salida_pasada: bool,
    pase_redondo: tuple[int, ...],
    as_json: bool,
) -> None:
    """Anota una mano: quién dominó o trancó y los tantos que le quedan a cada uno."""
    try:
        rules = Rules.make(preset, **parse_sets(sets))
        if end == "domino" and winner is not None and closer is None:
            kind, seat = EndKind.DOMINO, winner
        elif end == "tranque" and closer is not None and winner is None:
            kind, seat = EndKind.TRANQUE, closer
        else:
            raise FichaFlowError("cli.end_kind")
        facts = HandFacts(
            kind, seat, parse_pips(pips), leader, capicua, chuchazo, pase_redondo, salida_pasada
        )
        result = score_hand(rules, facts)
    except FichaFlowError as exc:
        if exc.code == "score.seat":  # name the flag the user typed, not the field behind it
            flags = {"seat": f"--{'closer' if end == 'tranque' else 'winner'}"}
            flags.update(leader="--leader", pase_redondo="--pase-redondo")
            exc.params["option"] = flags.get(exc.params["option"], exc.params["option"])
        fail(exc)
    if as_json:
        out = result.to_json(rules.teams)
        out["scores"] = out["gains"]
        out["explanation"] = explain(rules, result, None, lang_of())
        click.echo(json.dumps(out, ensure_ascii=False))
        return
    for line in explain(rules, result, None, lang_of()):
        click.echo(line)
