"""Engine benchmark: replay time per command and tap time, against a straightforward
implementation, in one run on the same machine (compare the ratios, not the seconds).

It plays a long legal random fight through the public contract (30 fighters, 3,000
commands, a fixed seed), then measures:

- replay: ``engine.replay(log)`` per command, versus the straightforward way (every
  command deep-copies the state dict, then applies the command to the copy);
- tap: ``engine.apply`` then ``engine.view`` on a 30-fighter state mid-fight whose board
  is on screen (it was viewed before the tap, as in the page), versus
  the straightforward way (deep copy, apply, and a board recomputed from scratch).

Usage: ``python bench/engine_bench.py [--commands 3000] [--fighters 30] [--json FILE]``
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import importlib

import engine

view_module = importlib.import_module("engine.view")
from engine.codec import decode  # noqa: E402

WEAPONS = [
    {"id": "epee", "name": "Épée", "kind": "melee", "skill": "epee"},
    {"id": "arc", "name": "Arc", "kind": "bow", "skill": "arc"},
    {"id": "dague", "name": "Dague", "kind": "thrown", "skill": "dague"},
    {"id": "bouclier", "name": "Bouclier", "kind": "shield", "skill": "bouclier", "stowed": False},
]


def fighter(rng: random.Random, n: int) -> dict[str, Any]:
    weapons = rng.sample(WEAPONS, rng.randint(1, 3))
    return {
        "name": f"Combattant {n}",
        "side": rng.choice(["pj", "pnj"]),
        "characteristics": {k: rng.randint(3, 9) for k in ("melee", "tir", "lancer", "derobee", "vue", "charisme")},
        "skills": {k: rng.randint(0, 4) for k in ("epee", "arc", "dague", "corps_a_corps", "course", "esquive")},
        "initiative_bonus": rng.randint(0, 2),
        "hope": rng.randint(0, 3),
        "weapons": weapons,
        "in_hand": [weapons[0]["id"]],
    }


def options(rng: random.Random, action: str, others: list[str]) -> dict[str, Any]:
    if action == "charge":
        return {"distance": rng.randint(0, 6), "test_result": rng.randint(0, 6), "target": rng.choice(others)}
    if action == "attaque_melee":
        return {"target": rng.choice(others)}
    if action == "utiliser_competence":
        return {"skill": "course"}
    if action == "esquive_acrobatique":
        return {"tests": {"esquive": rng.random() < 0.5, "acrobatie": rng.random() < 0.5}}
    return {}


def play(n_commands: int, n_fighters: int, seed: int = 7) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A legal random fight: the resolved log, and the states along it."""
    rng = random.Random(seed)
    state = engine.new_encounter()
    log: list[dict[str, Any]] = []
    states = []

    def send(command: dict[str, Any]) -> None:
        nonlocal state
        r = engine.apply(state, command, rng=rng)
        if r["ok"]:
            state = r["state"]
            log.append(r["command"])
            states.append(state)

    for n in range(n_fighters):
        send({"type": "add_combatant", "combatant": fighter(rng, n)})
    while len(log) < n_commands:
        board = engine.view(state)
        if board["round_over"]:
            send({"type": "start_round"})
            continue
        ids = list(board["combatants"])
        if rng.random() < 0.15:  # someone interrupts
            cid = rng.choice(ids)
            allowed = [a for a, x in board["combatants"][cid]["actions"].items()
                       if x["allowed"] and x["category"] == "interruption"]
            if allowed:
                a = rng.choice(allowed)
                send({"type": "interrupt", "actor": cid, "action": a, **options(rng, a, ids)})
            continue
        cid = board["active"][0]
        allowed = [a for a, x in board["combatants"][cid]["actions"].items()
                   if x["allowed"] and x["category"] != "interruption"]
        if rng.random() < 0.03 or not allowed:
            send({"type": "pass", "actor": cid})
            continue
        a = rng.choice(allowed)
        send({"type": "act", "actor": cid, "action": a, **options(rng, a, [i for i in ids if i != cid])})
    return log, states


# The straightforward implementation: the same rules, but every command deep-copies the
# whole state before changing it, and every board is recomputed from scratch.
def naive_apply(state: dict[str, Any], command: dict[str, Any]) -> dict[str, Any]:
    return engine.apply(copy.deepcopy(state), command)


def naive_replay(log: list[dict[str, Any]]) -> dict[str, Any]:
    state = engine.new_encounter()
    for command in log:
        state = naive_apply(state, command)["state"]
    return state


def naive_view(state: dict[str, Any]) -> dict[str, Any]:
    fighter_uncached = view_module.fighter.__wrapped__
    original = view_module.fighter
    view_module.fighter = fighter_uncached  # type: ignore[assignment]
    try:
        return view_module.board(decode(copy.deepcopy(state)))
    finally:
        view_module.fighter = original


def timed(fn: Any, *args: Any) -> float:
    t = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=3000)
    parser.add_argument("--fighters", type=int, default=30)
    parser.add_argument("--taps", type=int, default=300)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    log, states = play(args.commands, args.fighters)
    assert engine.replay(log)["state"] == states[-1]
    assert naive_replay(log) == states[-1]

    replay_fast = min(timed(engine.replay, log) for _ in range(3))
    replay_naive = min(timed(naive_replay, log) for _ in range(2))

    # Taps: the command that was really played next, on the state mid-fight before it.
    rng = random.Random(1)
    picks = [rng.randrange(args.fighters, len(log) - 1) for _ in range(args.taps)]
    pairs = [(states[i], log[i + 1]) for i in picks]
    fast, naive = [], []
    for state, command in pairs:
        engine.view(state)  # the board on screen before the tap, as in the page
        fast.append(timed(lambda s, c: engine.view(engine.apply(s, c)["state"]), state, command))
        naive.append(timed(lambda s, c: naive_view(naive_apply(s, c)["state"]), state, command))

    n = len(log)
    figures = {
        "commands": n,
        "fighters": args.fighters,
        "replay_us_per_command": replay_fast / n * 1e6,
        "replay_naive_us_per_command": replay_naive / n * 1e6,
        "replay_speedup": replay_naive / replay_fast,
        "tap_ms_median": statistics.median(fast) * 1e3,
        "tap_ms_p95": percentile(fast, 0.95) * 1e3,
        "tap_naive_ms_median": statistics.median(naive) * 1e3,
        "tap_naive_ms_p95": percentile(naive, 0.95) * 1e3,
        "tap_speedup": statistics.median(naive) / statistics.median(fast),
    }
    print(f"Fight: {n} commands, {args.fighters} fighters (Python {sys.version.split()[0]})")
    print(f"replay: {figures['replay_us_per_command']:8.1f} µs/command   "
          f"straightforward: {figures['replay_naive_us_per_command']:8.1f} µs/command   "
          f"speed-up ×{figures['replay_speedup']:.1f} (target ≥ 10)")
    print(f"tap   : median {figures['tap_ms_median']:6.2f} ms  p95 {figures['tap_ms_p95']:6.2f} ms   "
          f"straightforward: median {figures['tap_naive_ms_median']:6.2f} ms  p95 {figures['tap_naive_ms_p95']:6.2f} ms   "
          f"speed-up ×{figures['tap_speedup']:.1f} (target ≥ 4)")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
