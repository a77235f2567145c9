"""Engine benchmark: replay time per command and tap time, against a straightforward
implementation, and how undo, reload and export grow with the fight, in one run on the
same machine (compare the ratios, not the seconds).

It plays a long legal random fight through the table session (30 fighters, 10,000
commands, a fixed seed), then measures:

- replay: ``engine.replay(log)`` per command (the first 3,000), versus the straightforward
  way (every command deep-copies the state dict, then applies the command to the copy);
- tap: what the page's worker does per tap, ``engine.table.Table.apply`` (the command,
  the board and the save text) on a 30-fighter fight mid-way (its board drawn by the tap
  before, as in the page), versus the straightforward way (deep copy, apply, and a board
  recomputed from scratch);
- scale: undo (p50 and p95 of 50 undos in a row), reload (``Table.load`` of the autosave
  text, without and with the checkpoint the autosave keeps beside it) and export
  (``Table.export`` with the board) at 100, 1,000 and 10,000 commands.

Usage: ``python bench/engine_bench.py [--commands 10000] [--fighters 30] [--json FILE]``
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
from engine import save
from engine.codec import decode, encode
from engine.model import Encounter
from engine.table import Table

view_module = importlib.import_module("engine.view")

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


def play(n_commands: int, n_fighters: int, seed: int = 7) -> tuple[list[dict[str, Any]], list[Encounter]]:
    """A legal random fight played on a table session: the resolved log, and the
    encounters along it (``encounters[i]`` after ``log[i]``)."""
    rng = random.Random(seed)
    table = Table(rng=rng)
    log: list[dict[str, Any]] = []
    encounters: list[Encounter] = []
    board = table.show()["board"]

    def send(command: dict[str, Any]) -> None:
        nonlocal board
        answer = table.apply(command)
        if answer["ok"]:
            board = answer["board"]
            log.append(answer["command"])
            encounters.append(table._enc)

    for n in range(n_fighters):
        send({"type": "add_combatant", "combatant": fighter(rng, n)})
    while len(log) < n_commands:
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
    return log, encounters


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
    """Every fighter's part drawn again (engine.view.board: no memo of the boards before)."""
    return view_module.board(decode(copy.deepcopy(state)))


def timed(fn: Any, *args: Any) -> float:
    t = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def scale(log: list[dict[str, Any]], sizes: tuple[int, ...], undos: int = 50) -> list[dict[str, Any]]:
    """Undo, reload and export of the first ``n`` commands of the fight, for each ``n``."""
    rows = []
    for n in sizes:
        table = Table()
        loaded = table.load(save.dump(log[:n]))
        assert loaded["ok"]
        text, kept = table.export(True)["text"], loaded.get("checkpoint")
        export = sorted(timed(table.export, True) for _ in range(7))
        reload = sorted(timed(Table().load, text) for _ in range(3))
        restore = sorted(timed(Table().load, text, kept) for _ in range(3))
        undo = sorted(timed(table.undo) for _ in range(min(undos, n)))
        rows.append({"commands": n, "save_chars": len(text),
                     "undo_ms_p50": statistics.median(undo) * 1e3, "undo_ms_p95": percentile(undo, 0.95) * 1e3,
                     "reload_ms": statistics.median(reload) * 1e3, "restore_ms": statistics.median(restore) * 1e3,
                     "export_ms": statistics.median(export) * 1e3})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=10_000)
    parser.add_argument("--replayed", type=int, default=3000)
    parser.add_argument("--fighters", type=int, default=30)
    parser.add_argument("--taps", type=int, default=300)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    log, encounters = play(args.commands, args.fighters)
    head = log[: args.replayed]
    assert engine.replay(head)["state"] == encode(encounters[len(head) - 1])
    assert naive_replay(head) == encode(encounters[len(head) - 1])

    replay_fast = min(timed(engine.replay, head) for _ in range(3))
    replay_naive = min(timed(naive_replay, head) for _ in range(2))

    # Taps: the commands really played next, from mid-fight, on a table session that
    # holds the fight so far (each tap's board is the one on screen for the next).
    first = len(head) // 2
    table = Table()
    assert table.load(save.dump(log[:first]))["ok"]
    fast, naive = [], []
    for i in range(first, first + args.taps):
        state = encode(encounters[i - 1])
        fast.append(timed(table.apply, log[i]))
        naive.append(timed(lambda s, c: naive_view(naive_apply(s, c)["state"]), state, log[i]))
    assert table._enc == encounters[first + args.taps - 1]

    n = len(head)
    figures: dict[str, Any] = {
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
        "scale": scale(log, tuple(k for k in (100, 1000, 10_000) if k <= len(log))),
    }
    print(f"Fight: {len(log)} commands, {args.fighters} fighters (Python {sys.version.split()[0]})")
    print(f"replay: {figures['replay_us_per_command']:8.1f} µs/command   "
          f"straightforward: {figures['replay_naive_us_per_command']:8.1f} µs/command   "
          f"speed-up ×{figures['replay_speedup']:.1f} (target ≥ 10; first {n} commands)")
    print(f"tap   : median {figures['tap_ms_median']:6.2f} ms  p95 {figures['tap_ms_p95']:6.2f} ms   "
          f"straightforward: median {figures['tap_naive_ms_median']:6.2f} ms  p95 {figures['tap_naive_ms_p95']:6.2f} ms   "
          f"speed-up ×{figures['tap_speedup']:.1f} (target ≥ 4)")
    print("\nHow cost grows with the fight (Table: undo = 50 undos in a row, reload = load of the autosave, "
          "with its checkpoint = the same with the checkpoint kept beside it, export = the file's text)")
    print(f"{'commands':>10}{'save (chars)':>14}{'undo p50':>11}{'undo p95':>11}{'reload':>11}"
          f"{'with its checkpoint':>21}{'export':>11}")
    for row in figures["scale"]:
        print(f"{row['commands']:>10,}{row['save_chars']:>14,}{row['undo_ms_p50']:>8.2f} ms{row['undo_ms_p95']:>8.2f} ms"
              f"{row['reload_ms']:>8.0f} ms{row['restore_ms']:>18.0f} ms{row['export_ms']:>8.2f} ms")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
