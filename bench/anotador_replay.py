"""How long the anotador takes to check one more action on a long mesa, side by side.

Every action the server accepts is checked by replaying the mesa's whole log with it. This
builds a night of play (random hands, a new partida whenever one is won) and times, in alternate
rounds, a replay with a cold line cache (a server just started) and a warm one (every later
action), plus the sheet's JSON. Prints each round and the medians.

    python bench/anotador_replay.py --actions 400 --rounds 9
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time

from fichaflow.anotador import Action, AddEntry, HandEntry, MesaSetup, NewPartida, replay
from fichaflow.anotador.entries import Change
from fichaflow.anotador.sheet import _score_line
from fichaflow.anotador.views import state_json
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import EndKind
from fichaflow.core.rules import Rules


def night(size: int, seed: int = 1) -> tuple[MesaSetup, list[Action]]:
    """A mesa with ``size`` accepted actions of random dominós and tranques."""
    mesa = MesaSetup("Patio", Rules.make("dominicana"), ("Ana", "Beto", "Carla", "Diego"))
    rng = random.Random(seed)
    actions: list[Action] = []
    while len(actions) < size:
        state = replay(mesa, actions)
        change: Change
        if state.current.over:
            change = NewPartida("same")
        else:
            end = rng.choice((EndKind.DOMINO, EndKind.TRANQUE))
            seat = rng.randrange(4)
            pips = [rng.randrange(0, 25) for _ in range(4)]
            if end is EndKind.DOMINO:
                pips[seat] = 0
            leader = None if state.current.lines else 0
            change = AddEntry(HandEntry(end, seat, tuple(pips), leader=leader))
        action = Action(str(len(actions) + 1), change)
        try:
            replay(mesa, [*actions, action])
        except FichaFlowError:
            continue
        actions.append(action)
    return mesa, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    mesa, actions = night(args.actions)
    cold, warm, sheet = [], [], []
    for round_number in range(args.rounds):
        _score_line.cache_clear()
        start = time.perf_counter()
        replay(mesa, actions)
        cold.append(time.perf_counter() - start)
        start = time.perf_counter()
        state = replay(mesa, actions)
        warm.append(time.perf_counter() - start)
        start = time.perf_counter()
        state_json(state)
        sheet.append(time.perf_counter() - start)
        print(
            f"round {round_number + 1}: cold {cold[-1] * 1000:.1f} ms,"
            f" warm {warm[-1] * 1000:.1f} ms, sheet JSON {sheet[-1] * 1000:.2f} ms"
        )
    partidas = len(replay(mesa, actions).partidas)
    print(
        f"{platform.python_implementation()} {platform.python_version()}, {len(actions)} actions,"
    )
    print(f"{partidas} partidas. Medians: cold {statistics.median(cold) * 1000:.1f} ms,")
    print(
        f"warm {statistics.median(warm) * 1000:.1f} ms,"
        f" sheet JSON {statistics.median(sheet) * 1000:.2f} ms;"
    )
    print(f"cold / warm = {statistics.median(cold) / statistics.median(warm):.1f}")


if __name__ == "__main__":
    main()
