"""The lab's benchmark (engine/labo.py): random rounds of a 10-fighter fight under the
book's rules and under other rules (interruption 5 → 4), side by side, as « Essayer sur
ce combat » plays them, timed in CPython; and the replay of a played fight's log under
those rules.

Usage: ``python bench/labo_bench.py [--rounds 2000] [--fighters 10]``
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine_bench import fighter, play
from engine import labo, simulation

OTHER = {"cout_interruption": 4}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--fighters", type=int, default=10)
    args = parser.parse_args()
    rng = random.Random(11)
    cast = [{"type": "add_combatant", "combatant": {**fighter(rng, i), "id": f"f{i}"}} for i in range(args.fighters)]
    start = time.perf_counter()
    result = labo.compare(cast, OTHER, rounds=args.rounds, seed=1)
    seconds = time.perf_counter() - start
    print(f"== lab: {args.rounds} random rounds of {args.fighters} fighters, under each of 2 rule sets (interruption 5 → 4)")
    print(f"total {seconds:.1f} s, {1000 * seconds / (2 * args.rounds):.1f} ms per round "
          f"({result['a']['cut']} + {result['b']['cut']} rounds cut at {simulation.MAX_PHASES} phases)")
    for side in ("a", "b"):
        r = result[side]
        print(f"  {side}: {r['actions']} actions and {r['interruptions']} interruptions per fighter per round, "
              f"interruption possible {r['interruption_possible']:.0%}, Espoir {r['espoir']} per round")
    for line in result["lines"]["en"]:
        print(f"  {line}")
    log, _ = play(1000, args.fighters)
    start = time.perf_counter()
    verdict = labo.replay(log, OTHER)
    seconds = time.perf_counter() - start
    print(f"== lab: replay of a {len(log)}-command log under other rules: {seconds:.2f} s, "
          f"{len(verdict['changed'])} commands changed, refused at {verdict['refused'] and verdict['refused']['index']}")


if __name__ == "__main__":
    main()
