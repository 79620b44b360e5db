"""One voice for the player: FichaFlow says «tú», as at a domino table, in the game, the
anotador, the Repaso, the server's errors and the terminal. The Spanish catalogue may not slip
back into «usted»: the test looks for its marks (the word itself, its imperatives where a
sentence starts, the forms that speak to the reader in the third person)."""

from __future__ import annotations

import re

from fichaflow import i18n

IMPERATIVES = (
    "abra", "arranque", "borre", "bórrela", "bórrelas", "bórrelo", "cambie", "cierre", "comparta",
    "compártales", "compruebe", "copie", "cree", "dé", "deshaga", "diga", "elija", "empiece",
    "escoja", "escriba", "espere", "guarde", "guárdelo", "haga", "intente", "inténtelo",
    "marque", "mire", "ponga", "pruebe", "pulse", "quite", "recargue", "revise", "seleccione",
    "siga", "tenga", "toque", "use", "vuelva",
)  # fmt: skip
"""Usted's commands, looked for where a sentence (or what follows a colon) starts: in the middle
of one, some are a third person's subjunctive («que juegue {bot}»), which is fine."""

PHRASES = (
    "usted", "ustedes le", "¿quiso", "quiere usted", "no tiene asiento", "no le toca:",
    "ya está sentado", "ya está parado", "no está en la cola", "su turno", "sus amigos",
    "pase a la siguiente", "donde tenga",
)  # fmt: skip
"""Usted anywhere in a sentence: the word, and the forms that said «you» to the reader."""

START = re.compile(r"(?:^|[.:;!?¿¡—(]\s*|\n)(\w+)", re.M)


def usted_marks(text: str) -> list[str]:
    lowered = text.lower()
    found = [p for p in PHRASES if re.search(rf"(?<!\w){re.escape(p)}(?!\w)", lowered)]
    found += [word for word in START.findall(lowered) if word in IMPERATIVES]
    return found


def test_the_spanish_catalogue_says_tu_not_usted() -> None:
    slips = {
        key: marks for key, text in i18n.catalogue("es").items() if (marks := usted_marks(text))
    }
    assert not slips, f"«usted» in the Spanish catalogue (FichaFlow says «tú»): {slips}"


def test_the_marks_are_found() -> None:
    """The check can fail: each sentence FichaFlow used to say is caught."""
    for old in (
        "Toque un nombre y marque sus tantos con el teclado.",
        "diga quién salió en esta mano",
        "hay una partida en juego: espere a que termine",
        "no le toca: le toca al asiento 2",
        "No hay pista: abra esta página desde una mesa donde tenga asiento.",
        "¿Quiso decir",
        "FichaFlow: abra http://x",
        "demasiadas peticiones: pruebe otra vez en 3 s",
    ):
        assert usted_marks(old), old
    for fine in ("Que juegue gallo por él", "Pase redondo", "Toca Dominó", "Le toca a Ana."):
        assert not usted_marks(fine), fine
