"""A hand's score in the rule's own words, so that nobody argues about a tranque again.

``explain(rules, score, names)`` turns a :class:`HandScore` into sentences like "Tranque con el de
abajo: Ana 8, Beto 11. Gana Ana; su pareja anota 8 + 11 + 7 + 14 = 40. Bono de tranque: 0".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from fichaflow.core.hand import EndKind
from fichaflow.core.rules import Mode, Rules
from fichaflow.core.scoring import HandScore

TEXT: Final = {
    "es": {
        "seat": "asiento {n}",
        "pair": "{a} y {b}",
        "domino": "Dominó de {who}.",
        "capicua": "¡Capicúa!",
        "chuchazo": "¡Chuchazo! Dominó con el doble blanco.",
        "abajo": "Tranque con el de abajo: {a} con {pa}, {b} con {pb}.",
        "abajo_tie": "Empate: gana el trancador.",
        "pareja": "Tranque por parejas: {a} con {pa}, {b} con {pb}.",
        "individual": "Tranque: {list}.",
        "tie_nadie": "Empate: nadie anota.",
        "tie_salida": "Empate: gana {who}, que salió.",
        "wins_pair": "Gana {who}; su pareja anota {sum}.",
        "wins_pair_team": "Gana la pareja {who}; anota {sum}.",
        "wins": "Gana {who}; anota {sum}.",
        "domino_pair": "Su pareja anota {sum}.",
        "domino_one": "Anota {sum}.",
        "tranque_bonus": "Bono de tranque",
        "capicua_bonus": "Bono de capicúa",
        "pase_redondo_bonus": "Bono de pase redondo",
        "salida_pasada_bonus": "Bono de salida pasada",
        "chuchazo_bonus": "Bono de chuchazo",
        "bonus_to": "{label}: {points} ({who}).",
        "bonus_zero": "{label}: 0.",
        "team": "pareja {who}",
    },
    "en": {
        "seat": "seat {n}",
        "pair": "{a} and {b}",
        "domino": "Dominó by {who}.",
        "capicua": "Capicúa!",
        "chuchazo": "Chuchazo! Dominó with the double blank.",
        "abajo": "Tranque against the next player: {a} with {pa}, {b} with {pb}.",
        "abajo_tie": "Tie: the trancador wins.",
        "pareja": "Tranque by pairs: {a} with {pa}, {b} with {pb}.",
        "individual": "Tranque: {list}.",
        "tie_nadie": "Tie: nobody scores.",
        "tie_salida": "Tie: {who} led, and wins.",
        "wins_pair": "{who} wins; the pair scores {sum}.",
        "wins_pair_team": "The pair {who} wins and scores {sum}.",
        "wins": "{who} wins and scores {sum}.",
        "domino_pair": "The pair scores {sum}.",
        "domino_one": "Scores {sum}.",
        "tranque_bonus": "Tranque bonus",
        "capicua_bonus": "Capicúa bonus",
        "pase_redondo_bonus": "Pase redondo bonus",
        "salida_pasada_bonus": "Salida pasada bonus",
        "chuchazo_bonus": "Chuchazo bonus",
        "bonus_to": "{label}: {points} ({who}).",
        "bonus_zero": "{label}: 0.",
        "team": "pair {who}",
    },
}


def seat_names(rules: Rules, names: Sequence[str] | None, lang: str = "es") -> list[str]:
    """Players' names, or "asiento N" where a table gave none."""
    t = TEXT.get(lang, TEXT["es"])
    if names is not None and len(names) == rules.seats:
        return list(names)
    return [t["seat"].format(n=s) for s in range(rules.seats)]


def team_name(rules: Rules, team: int, names: Sequence[str], lang: str = "es") -> str:
    t = TEXT.get(lang, TEXT["es"])
    seats = rules.seats_of(team)
    if len(seats) == 2:
        return t["pair"].format(a=names[seats[0]], b=names[seats[1]])
    return names[seats[0]]


def _sum(pips: Sequence[int], seats: Sequence[int]) -> str:
    """``8 + 11 + 7 + 14 = 40``; hands left with 0 pips add nothing and are not written."""
    values = [v for v in (pips[s] for s in seats) if v] or [0]
    total = sum(values)
    return f"{' + '.join(map(str, values))} = {total}" if len(values) > 1 else str(total)


def explain(
    rules: Rules, score: HandScore, names: Sequence[str] | None = None, lang: str = "es"
) -> list[str]:
    """The hand's result as sentences: what ended it, what the rule compared, who counted what,
    and each bonus apart."""
    t = TEXT.get(lang, TEXT["es"])
    who = seat_names(rules, names, lang)
    facts = score.facts
    pips = facts.pips
    pairs = rules.mode is Mode.PAREJAS
    out: list[str] = []
    counted = _sum(pips, score.counted)
    if facts.end is EndKind.DOMINO:
        out.append(t["domino"].format(who=who[facts.seat]))
        if facts.capicua:
            out.append(t["capicua"])
        if facts.chuchazo:
            out.append(t["chuchazo"])
        out.append(t["domino_pair" if pairs else "domino_one"].format(sum=counted))
    else:
        if score.rule == "abajo":
            (a, pa), (b, pb) = score.compared
            out.append(t["abajo"].format(a=who[a], pa=pa, b=who[b], pb=pb))
            if score.tie:
                out.append(t["abajo_tie"])
        elif score.rule == "pareja":
            (ta, pa), (tb, pb) = score.compared
            name_a, name_b = team_name(rules, ta, who, lang), team_name(rules, tb, who, lang)
            out.append(t["pareja"].format(a=name_a, pa=pa, b=name_b, pb=pb))
        else:
            word = " con " if lang == "es" else " with "
            listing = ", ".join(f"{who[s]}{word}{p}" for s, p in score.compared)
            out.append(t["individual"].format(list=listing))
        if score.winner is None:
            out.append(t["tie_nadie"])
        elif score.tie and score.rule != "abajo":
            out.append(t["tie_salida"].format(who=who[facts.leader]))
            out.append(t["domino_pair" if pairs else "domino_one"].format(sum=counted))
        elif score.rule == "pareja":
            pair = team_name(rules, score.winner, who, lang)
            out.append(t["wins_pair_team"].format(who=pair, sum=counted))
        else:
            assert score.winning_seat is not None
            key = "wins_pair" if pairs else "wins"
            out.append(t[key].format(who=who[score.winning_seat], sum=counted))
    for bonus in score.bonuses:
        team = team_name(rules, bonus.team, who, lang)
        label = t[bonus.kind]
        team_label = t["team"].format(who=team) if pairs else team
        out.append(t["bonus_to"].format(label=label, points=bonus.points, who=team_label))
    if facts.end is EndKind.TRANQUE and not rules.tranque_bonus:
        out.append(t["bonus_zero"].format(label=t["tranque_bonus"]))
    return [line[:1].upper() + line[1:] for line in out]
