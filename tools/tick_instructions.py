#!/usr/bin/env python3
"""Instructions of every tick inside the controller's update, counted by callgrind.

  tools/tick_instructions.py [--stepslide BUILD/stepslide] [--worst N] [--reference SCENARIO]
                             [--json FILE] SCENARIO_OR_DIR ...

Runs `stepslide run` for each scenario under `valgrind --tool=callgrind`,
collecting only inside CharacterController::update and dumping after each
call, so each dump holds one tick's instructions. Prints, over all ticks of
all scenarios given together (the way bench/level_bench.cpp pools a level's
walks): the number of ticks, the median and the worst tick, worst/median, and
with --reference (default basics/walk_flat) the reference's median tick and
median/reference; then the N worst ticks (scenario and tick). This is issue
13's real-level budget (median <= 10x flat, worst <= 10x median) in
deterministic units: count_instructions.py gives means per scenario only.
Needs valgrind. Standard library and count_instructions.py (beside it) only.
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

# Scenario discovery as count_instructions.py does it (levels skipped, as `check` does).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from count_instructions import scenarios  # noqa: E402

# The same pattern in both options makes callgrind dump nothing: two spellings.
TOGGLE = "stepslide::CharacterController::update*"
DUMP = "*CharacterController::update*"


def tick_counts(binary, scenario, work):
    """Instructions of each update call of one run, in call order."""
    for stale in glob.glob(os.path.join(work, "cg.out*")) + glob.glob(os.path.join(work, "run.csv")):
        os.remove(stale)
    out = os.path.join(work, "cg.out")
    subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, "--collect-atstart=no",
                    "--toggle-collect=" + TOGGLE, "--dump-after=" + DUMP, "--dump-instr=no", binary, "run",
                    scenario, "--out", os.path.join(work, "run.csv")], check=False, capture_output=True)
    dumps = []
    for path in glob.glob(out + ".*"):
        part = int(path.rsplit(".", 1)[1])
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("summary:"):
                    dumps.append((part, int(line.split()[1])))
                    break
    return [count for _, count in sorted(dumps)]


def median(values):
    ordered = sorted(values)
    return ordered[(len(ordered) - 1) // 2] if ordered else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--stepslide", default="build/stepslide")
    parser.add_argument("--worst", type=int, default=10, help="list this many of the dearest ticks")
    parser.add_argument("--reference", default="scenarios/basics/walk_flat.json")
    parser.add_argument("--json", help="also write every tick's count to this file")
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    ticks = []  # (count, scenario, tick)
    per_scenario = {}
    with tempfile.TemporaryDirectory() as work:
        for scenario in scenarios(args.paths):
            counts = tick_counts(args.stepslide, scenario, work)
            if not counts:
                print(f"tick_instructions: {scenario}: no count", file=sys.stderr)
                return 1
            per_scenario[scenario] = counts
            ticks += [(c, scenario, i + 1) for i, c in enumerate(counts)]
        reference = tick_counts(args.stepslide, args.reference, work) if args.reference else []
    values = [t[0] for t in ticks]
    mid = median(values)
    worst = max(ticks)
    print(f"ticks {len(values)}  median {mid}  worst {worst[0]}  worst/median {worst[0] / mid:.2f}")
    if reference:
        flat = median(reference)
        print(f"reference {args.reference}: median {flat}  median/reference {mid / flat:.2f}")
    for count, scenario, tick in sorted(ticks, reverse=True)[:args.worst]:
        print(f"  {count:>9}  {scenario} tick {tick}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"scenarios": per_scenario, "reference": reference}, f, indent=1, sort_keys=True)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
