#!/usr/bin/env bash
# The CTest `tools/tick-instructions`: tools/tick_instructions.py counts every
# tick of a run (one callgrind dump per update call): as many counts as the
# scenario has ticks, each positive, and a summary whose median and worst
# are those counts'. Skipped (77) without valgrind or on a sanitized binary.
# Usage: tests/tools/tick_instructions_test.sh SOURCE_DIR STEPSLIDE
set -euo pipefail

source_dir=$(cd "${1:?usage: tick_instructions_test.sh SOURCE_DIR STEPSLIDE}" && pwd)
binary=${2:?usage: tick_instructions_test.sh SOURCE_DIR STEPSLIDE}
command -v valgrind >/dev/null || { echo "tick_instructions_test: no valgrind, skipped"; exit 77; }
# Valgrind cannot run a sanitized binary (ASan reserves the shadow memory
# valgrind needs): CI's ASan build skips this test, the release build runs it.
if [[ $(nm -D "$binary" 2>/dev/null | grep -c __asan_init) -gt 0 ]]; then
  echo "tick_instructions_test: sanitized binary, skipped"
  exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/stepslide-tick-instructions.XXXXXX")
trap 'rm -rf "$work"' EXIT
scenario="$source_dir/scenarios/basics/walk_flat.json"
python3 "$source_dir/tools/tick_instructions.py" --stepslide "$binary" --worst 2 --reference "$scenario" \
  --json "$work/ticks.json" "$scenario" >"$work/out.txt"
"$binary" run "$scenario" --out "$work/run.csv" >/dev/null
python3 - "$work/ticks.json" "$work/out.txt" "$scenario" "$work/run.csv" <<'PY'
import json, re, sys
data = json.load(open(sys.argv[1]))
out = open(sys.argv[2]).read()
counts = data["scenarios"][sys.argv[3]]
rows = [line for line in open(sys.argv[4]) if line.strip() and not line.startswith("#")]
ticks = len(rows) - 2  # the header and row 0
assert len(counts) == ticks, f"{len(counts)} counts for {ticks} ticks"
assert all(c > 0 for c in counts), "a tick without instructions"
assert data["reference"] == counts, "the reference run counts differently"
ordered = sorted(counts)
median, worst = ordered[(len(ordered) - 1) // 2], ordered[-1]
summary = re.search(r"^ticks (\d+)  median (\d+)  worst (\d+)  worst/median ([\d.]+)$", out, re.M)
assert summary, "no summary line:\n" + out
assert [int(summary.group(i)) for i in (1, 2, 3)] == [ticks, median, worst], out
assert re.search(rf"^ +{worst}  .*walk_flat\.json tick \d+$", out, re.M), "the dearest tick is not listed:\n" + out
PY
echo "tick_instructions_test: ok"
