#!/usr/bin/env python3
"""World size against cost, in instructions (callgrind): loading, building, ticking.

  tools/world_size_cost.py [--stepslide build/stepslide] [--counts 10,10000,30000,100000]
                           [--base scenarios/stairs/up_straight.json]

For each count N, writes a scenario with N static boxes scattered away from the
base scenario's path (tools/world_size_scenario.py), runs `stepslide run` on it
under `valgrind --tool=callgrind` and reads inclusive instruction counts:
load (the scenario loader, JSON parsing included), build (World::World),
free (World::~World), and per tick the rest of simulate(): posing the moving
bodies, the controller's update, the row, divided by the tick count. Also the
wall and CPU time (user + system, the fastest of --repeats runs without
valgrind) of `stepslide validate`, which only loads, and of a whole
`stepslide run` (load, build, ticks, CSV). Prints a markdown table and, for the
build and load, instructions per body, whose flatness from 10 000 to 100 000
is what "linear" means. Needs valgrind. Standard library only.
"""

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import count_instructions  # noqa: E402  (the one reader of callgrind_annotate and of a run's tick count)

FUNCTIONS = {
    "load": "stepslide::load_scenario_text(",
    "build": "stepslide::World::World(",
    "free": "stepslide::World::~World(",
    "simulate": "stepslide::simulate(",
    "set_time": "stepslide::World::set_time(",
}


def best_seconds(command, repeats):
    """The fastest of `repeats` runs: (wall seconds, CPU seconds user + system)."""
    best_wall, best_cpu = None, None
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best_wall = wall if best_wall is None else min(best_wall, wall)
        best_cpu = cpu if best_cpu is None else min(best_cpu, cpu)
    return best_wall, best_cpu


def measure(binary, base, count, work, repeats):
    scenario = os.path.join(work, f"world_{count}.json")
    subprocess.run([sys.executable, os.path.join(HERE, "world_size_scenario.py"), str(count), scenario, "--base",
                    base], check=True)
    out_file = os.path.join(work, f"callgrind_{count}.out")
    csv_file = os.path.join(work, f"run_{count}.csv")
    subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out_file, binary, "run", scenario,
                    "--out", csv_file], check=True, capture_output=True)
    counts = count_instructions.inclusive_counts(out_file, FUNCTIONS)
    with open(csv_file, encoding="utf-8") as f:
        ticks = count_instructions.ticks_of(f.read())
    counts["per_tick"] = (counts.get("simulate", 0) - counts.get("build", 0) - counts.get("free", 0)) / ticks
    counts["set_time_per_tick"] = counts.get("set_time", 0) / ticks
    counts["ticks"] = ticks
    counts["bytes"] = os.path.getsize(scenario)
    counts["validate_s"] = best_seconds([binary, "validate", scenario], repeats)
    counts["run_s"] = best_seconds([binary, "run", scenario, "--out", csv_file], repeats)
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--stepslide", default="build/stepslide")
    parser.add_argument("--counts", default="10,10000,30000,100000")
    parser.add_argument("--base", default="scenarios/stairs/up_straight.json")
    parser.add_argument("--repeats", type=int, default=3, help="wall-time runs per count (the best is shown)")
    args = parser.parse_args()
    counts = [int(c) for c in args.counts.split(",")]
    with tempfile.TemporaryDirectory() as work:
        results = [(n, measure(args.stepslide, args.base, n, work, args.repeats)) for n in counts]
    print("| boxes | JSON MB | load instr | per box | build instr | per box | free instr | instr/tick (run) "
          "| set_time/tick | validate s wall / CPU | run s wall / CPU |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for n, c in results:
        print(f"| {n:,} | {c['bytes'] / 1e6:.1f} | {c.get('load', 0):,} | {c.get('load', 0) / n:,.0f} | "
              f"{c.get('build', 0):,} | {c.get('build', 0) / n:,.0f} | {c.get('free', 0):,} | {c['per_tick']:,.0f} | "
              f"{c['set_time_per_tick']:,.0f} | {c['validate_s'][0]:.3f} / {c['validate_s'][1]:.3f} | "
              f"{c['run_s'][0]:.3f} / {c['run_s'][1]:.3f} |")
    smallest = results[0][1]["per_tick"]
    for n, c in results[1:]:
        print(f"\nper tick, {n:,} boxes against {results[0][0]:,}: {c['per_tick'] / smallest:.3f}x", end="")
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
