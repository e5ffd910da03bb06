#!/usr/bin/env python3
"""Instructions per tick, ours against Bullet's controller, counted by callgrind.

  tools/count_instructions.py [--stepslide BUILD/stepslide] [--controller both|stepslide|bullet]
                              [--json FILE] [SCENARIO_OR_DIR ...]

Runs `stepslide run --controller C` for each scenario and controller under
`valgrind --tool=callgrind`, collecting only inside the controller's update
(CharacterController::update or ReferenceController::update), and prints a
markdown table: instructions per tick for each, their ratio, and for ours the
share spent in the collision adapter's sweeps, contact queries and rays
(inclusive: Bullet's work and the adapter's own exact queries and reuse).
--json also writes {"scenarios": {NAME: {"stepslide": N, "bullet": N}}},
instructions per tick rounded to integers, NAME the path below scenarios/
without .json (tools/cost-gate.sh reads it).
Instruction counts do not depend on what else the machine is doing, so the
ratio is stable where wall time on a shared machine is not; they are not
time (a cache miss costs more than an add). Needs valgrind (Debian: valgrind).
Standard library only.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

UPDATE = {"stepslide": "stepslide::CharacterController::update*", "bullet": "stepslide::ReferenceController::update*"}
QUERIES = {
    "sweeps": "stepslide::CollisionQueries::sweep(",
    "contacts": "stepslide::CollisionQueries::contacts(",
    "rays": "stepslide::CollisionQueries::ray(",
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


def inclusive_counts(out_file, signatures):
    """Inclusive instructions per name in `signatures` (name -> text a callgrind_annotate
    function line contains; the largest line wins) and "total", the program's total."""
    annotated = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out_file],
                               check=True, capture_output=True, text=True).stdout
    counts = {}
    for line in annotated.splitlines():
        match = re.match(r"\s*([\d,]+) ", line)
        if not match:
            continue
        ir = int(match.group(1).replace(",", ""))
        if "PROGRAM TOTALS" in line:
            counts["total"] = ir
        for name, signature in signatures.items():
            if signature in line:
                counts[name] = max(counts.get(name, 0), ir)
    return counts


def count(binary, scenario, controller, work):
    out_file = os.path.join(work, "callgrind.out")
    csv_file = os.path.join(work, "run.csv")
    for stale in (out_file, csv_file):  # never read the previous scenario's
        if os.path.exists(stale):
            os.remove(stale)
    subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out_file,
                    "--toggle-collect=" + UPDATE[controller], binary, "run", scenario, "--controller", controller,
                    "--out", csv_file], check=False, capture_output=True)
    if not os.path.exists(csv_file) or not os.path.exists(out_file):
        return 0, 0, {}
    with open(csv_file, encoding="utf-8") as f:
        ticks = ticks_of(f.read())
    counts = inclusive_counts(out_file, QUERIES)
    total = counts.pop("total", 0)
    return ticks, total, counts


def scenario_name(path):
    """scenarios/a/b.json -> a/b (the golden gate's scenario names)."""
    rel = os.path.relpath(path, "scenarios")
    if rel.startswith(".."):
        rel = path
    return rel[:-5] if rel.endswith(".json") else rel


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--stepslide", default="build/stepslide")
    parser.add_argument("--controller", choices=["both", "stepslide", "bullet"], default="both")
    parser.add_argument("--json", help="also write the counts to this file")
    parser.add_argument("paths", nargs="*", default=["scenarios"])
    args = parser.parse_args()
    rows = []
    record = {}
    with tempfile.TemporaryDirectory() as work:
        for scenario in scenarios(args.paths):
            ticks, ours, parts, bullet = 0, 0, {}, 0
            if args.controller != "bullet":
                ticks, ours, parts = count(args.stepslide, scenario, "stepslide", work)
            if args.controller != "stepslide":
                ticks, bullet, _ = count(args.stepslide, scenario, "bullet", work)
            if ticks <= 0 or (ours == 0 and bullet == 0):
                print(f"count_instructions: {scenario}: no count", file=sys.stderr)
                return 1
            entry = {}
            if args.controller != "bullet":
                entry["stepslide"] = round(ours / ticks)
            if args.controller != "stepslide":
                entry["bullet"] = round(bullet / ticks)
            record[scenario_name(scenario)] = entry
            share = {name: parts.get(name, 0) / ours if ours else 0.0 for name in QUERIES}
            outside = 1 - sum(share.values()) if ours else 0.0
            rows.append((scenario, ours / ticks, bullet / ticks, share, outside))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"scenarios": record}, f, indent=2, sort_keys=True)
            f.write("\n")
    print("| scenario | instr/tick ours | instr/tick bullet | ratio | ours: sweeps | contacts | rays | own code |")
    print("|---|---|---|---|---|---|---|---|")
    for scenario, ours, bullet, share, outside in rows:
        ratio = ours / bullet if bullet else float("nan")
        print(f"| {scenario} | {ours:,.0f} | {bullet:,.0f} | {ratio:.2f} | {100 * share['sweeps']:.0f} % | "
              f"{100 * share['contacts']:.0f} % | {100 * share['rays']:.0f} % | {100 * outside:.0f} % |")
    ratios = sorted(r[1] / r[2] for r in rows if r[1] and r[2])
    if ratios:
        print(f"\nratio ours/bullet: median {ratios[len(ratios) // 2]:.2f}, best {ratios[0]:.2f}, "
              f"worst {ratios[-1]:.2f}; {sum(1 for r in ratios if r <= 0.5)}/{len(ratios)} at most 0.5")
    return 0


if __name__ == "__main__":
    sys.exit(main())
