"""A hand's score in the rule's own words, so that nobody argues about a tranque again.

``explain(rules, score, names)`` turns a :class:`HandScore` into sentences like "Tranque con el de
abajo: Ana 8, Beto 11. Gana Ana; su pareja anota 8 + 11 + 7 + 14 = 40. Bono de tranque: 0".
Every word is in the catalogue (:mod:`fichaflow.i18n`, keys ``explain.*``).
"""

from __future__ import annotations

from collections.abc import Sequence

from fichaflow import i18n
from fichaflow.core.hand import EndKind
from fichaflow.core.rules import Mode, Rules
from fichaflow.core.scoring import HandScore, ScoreRule


def seat_names(rules: Rules, names: Sequence[str] | None, lang: str = "es") -> list[str]:
    """Players' names, or "asiento N" where a table gave none."""
    if names is not None and len(names) == rules.seats:
        return list(names)
    return [i18n.text("explain.seat", lang, n=s) for s in range(rules.seats)]


def team_name(rules: Rules, team: int, names: Sequence[str], lang: str = "es") -> str:
    seats = rules.seats_of(team)
    if len(seats) == 2:
        return i18n.text("explain.pair", lang, a=names[seats[0]], b=names[seats[1]])
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

    def t(key: str, **params: object) -> str:
        return i18n.text(f"explain.{key}", lang, **params)

    who = seat_names(rules, names, lang)
    facts = score.facts
    pips = facts.pips
    pairs = rules.mode is Mode.PAREJAS
    out: list[str] = []
    counted = _sum(pips, score.counted)
    if facts.end is EndKind.DOMINO:
        out.append(t("domino", who=who[facts.seat]))
        if facts.capicua:
            out.append(t("capicua"))
        if facts.chuchazo:
            out.append(t("chuchazo"))
        out.append(t("domino_pair" if pairs else "domino_one", sum=counted))
    else:
        if score.rule is ScoreRule.ABAJO:
            (a, pa), (b, pb) = score.compared
            out.append(t("abajo", a=who[a], pa=pa, b=who[b], pb=pb))
            if score.tie:
                out.append(t("abajo_tie"))
        elif score.rule is ScoreRule.PAREJA:
            (ta, pa), (tb, pb) = score.compared
            name_a, name_b = team_name(rules, ta, who, lang), team_name(rules, tb, who, lang)
            out.append(t("pareja", a=name_a, pa=pa, b=name_b, pb=pb))
        else:
            listing = ", ".join(t("seat_pips", who=who[s], pips=p) for s, p in score.compared)
            out.append(t("individual", list=listing))
        if score.winner is None:
            out.append(t("tie_nadie"))
        elif score.tie and score.rule is not ScoreRule.ABAJO:
            out.append(t("tie_salida", who=who[facts.leader]))
            out.append(t("domino_pair" if pairs else "domino_one", sum=counted))
        elif score.rule is ScoreRule.PAREJA:
            pair = team_name(rules, score.winner, who, lang)
            out.append(t("wins_pair_team", who=pair, sum=counted))
        else:
            assert score.winning_seat is not None
            key = "wins_pair" if pairs else "wins"
            out.append(t(key, who=who[score.winning_seat], sum=counted))
    for bonus in score.bonuses:
        team = team_name(rules, bonus.team, who, lang)
        label = t(bonus.kind)
        team_label = t("team", who=team) if pairs else team
        out.append(t("bonus_to", label=label, points=bonus.points, who=team_label))
    if facts.end is EndKind.TRANQUE and not rules.tranque_bonus:
        out.append(t("bonus_zero", label=t("tranque_bonus")))
    return [line[:1].upper() + line[1:] for line in out]
