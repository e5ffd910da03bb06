#!/usr/bin/env python3
"""Instructions per tick, ours against Bullet's controller, counted by callgrind.

  tools/count_instructions.py [--stepslide BUILD/stepslide] [SCENARIO_OR_DIR ...]

Runs `stepslide run --controller C` for each scenario and controller under
`valgrind --tool=callgrind`, collecting only inside the controller's update
(CharacterController::update or ReferenceController::update), and prints a
markdown table: instructions per tick for each, their ratio, and for ours the
share spent in Bullet's sweeps, contact queries and ray casts (inclusive).
Instruction counts do not depend on what else the machine is doing, so the
ratio is stable where wall time on a shared machine is not; they are not
time (a cache miss costs more than an add). Needs valgrind (Debian: valgrind).
Standard library only.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

UPDATE = {"stepslide": "stepslide::CharacterController::update*", "bullet": "stepslide::ReferenceController::update*"}
QUERIES = {
    "sweeps": "btCollisionWorld::convexSweepTest(",
    "contacts": "btCollisionWorld::contactTest(",
    "rays": "btCollisionWorld::rayTest(",
}


def is_level(path):
    """A level file (stepslide/level@1) is included by scenarios, not run: skipped as `check` does."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return re.search(r'"format"\s*:\s*"stepslide/level@1"', f.read(4096)) is not None


def scenarios(paths):
    found = []
    for path in paths:
        if os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = [d for d in dirs if not d.startswith(".")]
                found += [os.path.join(root, f) for f in files
                          if f.endswith(".json") and not f.startswith(".") and not is_level(os.path.join(root, f))]
        else:
            found.append(path)
    return sorted(found)


def ticks_of(csv_text):
    rows = [line for line in csv_text.splitlines() if line and not line.startswith("#")]
    return len(rows) - 2  # header and row 0


def count(binary, scenario, controller, work):
    out_file = os.path.join(work, "callgrind.out")
    csv_file = os.path.join(work, "run.csv")
    subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out_file,
                    "--toggle-collect=" + UPDATE[controller], binary, "run", scenario, "--controller", controller,
                    "--out", csv_file], check=False, capture_output=True)
    with open(csv_file, encoding="utf-8") as f:
        ticks = ticks_of(f.read())
    annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out_file],
                               check=True, capture_output=True, text=True).stdout
    total, parts = None, {}
    for line in annotated.splitlines():
        match = re.match(r"\s*([\d,]+) .*?\s(\S.*)$", line)
        if not match:
            continue
        ir = int(match.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in line:
            total = ir
        for name, signature in QUERIES.items():
            if signature in line:
                parts[name] = max(parts.get(name, 0), ir)
    return ticks, total or 0, parts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--stepslide", default="build/stepslide")
    parser.add_argument("paths", nargs="*", default=["scenarios"])
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for scenario in scenarios(args.paths):
            ticks, ours, parts = count(args.stepslide, scenario, "stepslide", work)
            _, bullet, _ = count(args.stepslide, scenario, "bullet", work)
            if ticks <= 0 or ours == 0:
                print(f"count_instructions: {scenario}: no count", file=sys.stderr)
                continue
            share = {name: parts.get(name, 0) / ours for name in QUERIES}
            outside = 1 - sum(share.values())
            rows.append((scenario, ours / ticks, bullet / ticks, share, outside))
    print("| scenario | instr/tick ours | instr/tick bullet | ratio | ours: sweeps | contacts | rays | own code |")
    print("|---|---|---|---|---|---|---|---|")
    for scenario, ours, bullet, share, outside in rows:
        ratio = ours / bullet if bullet else float("nan")
        print(f"| {scenario} | {ours:,.0f} | {bullet:,.0f} | {ratio:.2f} | {100 * share['sweeps']:.0f} % | "
              f"{100 * share['contacts']:.0f} % | {100 * share['rays']:.0f} % | {100 * outside:.0f} % |")
    if rows:
        ratios = sorted(r[1] / r[2] for r in rows if r[2])
        print(f"\nratio ours/bullet: median {ratios[len(ratios) // 2]:.2f}, best {ratios[0]:.2f}, "
              f"worst {ratios[-1]:.2f}; {sum(1 for r in ratios if r <= 0.5)}/{len(ratios)} at most 0.5")
    return 0


if __name__ == "__main__":
    sys.exit(main())
