#!/usr/bin/env python3
"""The cost gate's comparison: recorded instructions per tick against a new count.

  tools/cost_gate.py RECORD CURRENT

RECORD (bench/instruction_counts.json) is
  {"margin_percent": 3, "scenarios": {NAME: {"stepslide": N}, ...}}
and CURRENT is what `tools/count_instructions.py --controller stepslide --json`
writes ({"scenarios": {NAME: {"stepslide": N}}}). Fails (exit 1) when a
scenario's count grew by more than margin_percent over its record, or when a
recorded scenario was not counted, naming the scenario and both counts; a count
that fell by more than the margin passes with a note to update the record.
Exit 2 on an unreadable or malformed file. Standard library only.
"""

import json
import sys

UPDATE_COMMAND = "tools/cost-gate.sh --update"


def load(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict) or not isinstance(data.get("scenarios"), dict):
        raise ValueError(f"{path}: expected an object with a \"scenarios\" object")
    counts = {}
    for name, entry in data["scenarios"].items():
        value = entry.get("stepslide") if isinstance(entry, dict) else None
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise ValueError(f"{path}: /scenarios/{name}/stepslide: expected a positive integer")
        counts[name] = value
    return data, counts


def compare(record, current, margin_percent):
    """Returns (failures, notes): lines of text, one per scenario concerned."""
    failures, notes = [], []
    for name in sorted(record):
        old = record[name]
        if name not in current:
            failures.append(f"{name}: recorded {old:,} instructions per tick, but it was not counted")
            continue
        new = current[name]
        change = 100.0 * (new - old) / old
        if change > margin_percent:
            failures.append(f"{name}: {new:,} instructions per tick, recorded {old:,} "
                            f"(+{change:.1f} %, more than the {margin_percent:g} % allowed)")
        elif change < -margin_percent:
            notes.append(f"{name}: {new:,} instructions per tick, recorded {old:,} ({change:.1f} %): "
                         f"cheaper; record it with {UPDATE_COMMAND}")
    for name in sorted(set(current) - set(record)):
        notes.append(f"{name}: {current[name]:,} instructions per tick, not recorded; "
                     f"record it with {UPDATE_COMMAND}")
    return failures, notes


def main(argv):
    if len(argv) != 3:
        print(__doc__.split("\n\n")[1].strip(), file=sys.stderr)
        return 2
    try:
        record_data, record = load(argv[1])
        _, current = load(argv[2])
        margin = record_data.get("margin_percent", 3)
        if not isinstance(margin, (int, float)) or isinstance(margin, bool) or margin < 0:
            raise ValueError(f"{argv[1]}: /margin_percent: expected a non-negative number")
    except (OSError, ValueError) as e:
        print(f"cost-gate: {e}", file=sys.stderr)
        return 2
    failures, notes = compare(record, current, margin)
    for line in notes:
        print(f"cost-gate: note: {line}")
    for line in failures:
        print(f"cost-gate: FAIL {line}")
    print(f"cost-gate: {len(record) - len(failures)} of {len(record)} scenarios within {margin:g} % of the record")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
