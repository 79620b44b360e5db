"""Tune jugador's weights by self-play (SPSA on duplicate duels), then check the result.

Method: simultaneous-perturbation stochastic approximation. At step k every weight is pushed by
+c_k or -c_k at random (the same signs for all, a vector Delta); jugador with weights W + c_k Delta
plays jugador with W - c_k Delta on the same duplicate deals; the objective is the first side's
share of the decided hands minus one half; each weight moves by a_k * objective / (2 c_k Delta_i).
Both sides play the same deals in both seatings, so the luck of the deal cancels out and a few
hundred hands give a usable signal. Gains follow the usual SPSA schedule
(a_k = a / (k + 1 + A)^0.602, c_k = c / (k + 1)^0.101), each step is clipped to +-0.5.

The run is split into chunks that each stay under a few minutes (the state file keeps the
weights, the step number and every step's result), and ``check`` plays the final weights against
the starting ones and against tirapuntos on fresh deals:

    python bench/tune_jugador.py tune --state bench/jugador_tuning.json --steps 20
    python bench/tune_jugador.py tune --state bench/jugador_tuning.json --steps 20
    python bench/tune_jugador.py check --state bench/jugador_tuning.json --hands 2000
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from pathlib import Path
from typing import Any

from fichaflow.bots.jugador import DEFAULT_WEIGHTS
from fichaflow.core.rules import Rules
from fichaflow.match.duplicate import DuelSpec, run_duel

A_GAIN, C_GAIN, STABILITY, CLIP = 6.0, 0.4, 5, 0.5


def load(path: Path, preset: str, hands: int, seed: int) -> dict[str, Any]:
    if path.exists():
        state: dict[str, Any] = json.loads(path.read_text())
        return state
    return {
        "method": "SPSA self-play, duplicate hands",
        "preset": preset,
        "hands_per_step": hands,
        "seed": seed,
        "start": dict(DEFAULT_WEIGHTS),
        "weights": dict(DEFAULT_WEIGHTS),
        "step": 0,
        "steps": [],
    }


def share(spec: DuelSpec, hands: int, workers: int) -> tuple[float, Any]:
    result = run_duel(spec, hands, workers=workers)
    assert result.hands is not None and result.hands.share is not None
    return result.hands.share.estimate, result


def tune(args: argparse.Namespace) -> None:
    path = Path(args.state)
    state = load(path, args.rules, args.hands, args.seed)
    rules = Rules.make(state["preset"])
    names = list(state["weights"])
    for _ in range(args.steps):
        k = state["step"]
        rng = random.Random(f"spsa:{state['seed']}:{k}")
        delta = {n: rng.choice((-1.0, 1.0)) for n in names}
        a_k = A_GAIN / (k + 1 + STABILITY) ** 0.602
        c_k = C_GAIN / (k + 1) ** 0.101
        plus = {n: state["weights"][n] + c_k * delta[n] for n in names}
        minus = {n: state["weights"][n] - c_k * delta[n] for n in names}
        spec = DuelSpec(
            "jugador",
            "jugador",
            rules,
            seed=state["seed"] * 100_000 + k,
            options_a={"weights": plus},
            options_b={"weights": minus},
        )
        started = time.time()
        value, _ = share(spec, state["hands_per_step"], args.workers)
        objective = value - 0.5
        for n in names:
            step = a_k * objective / (2 * c_k * delta[n])
            state["weights"][n] = round(state["weights"][n] + max(-CLIP, min(CLIP, step)), 4)
        state["steps"].append(
            {"step": k, "share_plus": round(value, 4), "seconds": round(time.time() - started, 1)}
        )
        state["step"] = k + 1
        path.write_text(json.dumps(state, indent=1) + "\n")
        print(f"step {k}: W+ won {value:.3f} of decided hands ({time.time() - started:.0f} s)")
    print(json.dumps(state["weights"], indent=1))


def check(args: argparse.Namespace) -> None:
    state = json.loads(Path(args.state).read_text())
    rules = Rules.make(state["preset"])
    tuned = {"weights": state["weights"]}
    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
    for label, other, options in (
        ("tuned vs start", "jugador", {"weights": state["start"]}),
        ("tuned vs tirapuntos", "tirapuntos", {}),
    ):
        spec = DuelSpec("jugador", other, rules, args.seed, tuned, options)
        started = time.time()
        result = run_duel(spec, args.hands, workers=args.workers)
        hands = result.hands
        assert hands is not None and hands.share is not None
        s = hands.share
        print(
            f"{label}: {hands.played} hands, won {hands.won}, undecided {hands.undecided}, "
            f"share {s.estimate:.3f} [{s.low:.3f}, {s.high:.3f}] "
            f"({time.time() - started:.0f} s)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("tune")
    t.add_argument("--state", default="bench/jugador_tuning.json")
    t.add_argument("--steps", type=int, default=10)
    t.add_argument("--hands", type=int, default=400)
    t.add_argument("--rules", default="venezuela")
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--workers", type=int, default=1)
    t.set_defaults(run=tune)
    c = sub.add_parser("check")
    c.add_argument("--state", default="bench/jugador_tuning.json")
    c.add_argument("--hands", type=int, default=2000)
    c.add_argument("--seed", type=int, default=777)
    c.add_argument("--workers", type=int, default=1)
    c.set_defaults(run=check)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
