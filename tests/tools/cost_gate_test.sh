#!/usr/bin/env bash
# The CTest `tools/cost-gate`: the cost gate's comparison (tools/cost_gate.py)
# on made-up records, without callgrind: within the margin passes, growth
# beyond it fails naming the scenario and both counts, a scenario left
# uncounted fails, a cheaper one passes with a note, malformed input exits 2.
# Usage: tests/tools/cost_gate_test.sh SOURCE_DIR
set -euo pipefail

source_dir=$(cd "${1:?usage: cost_gate_test.sh SOURCE_DIR}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/stepslide-cost-gate.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0

record() {  # margin, then NAME=COUNT ...
  local margin=$1
  shift
  python3 - "$margin" "$@" <<'PY'
import json, sys
margin = float(sys.argv[1])
scenarios = {arg.split("=")[0]: {"stepslide": int(arg.split("=")[1])} for arg in sys.argv[2:]}
print(json.dumps({"margin_percent": margin, "scenarios": scenarios}))
PY
}

# expect NAME RC WANTED_LINE: runs the comparison of $work/record.json with
# $work/current.json and checks the exit code and one whole line of stdout.
expect() {
  local name=$1 rc_wanted=$2 line=$3 rc=0
  python3 "$source_dir/tools/cost_gate.py" "$work/record.json" "$work/current.json" >"$work/out.txt" 2>&1 || rc=$?
  if [[ $rc -ne $rc_wanted ]] || ! grep -qxF -- "$line" "$work/out.txt"; then
    echo "FAIL $name: wanted exit $rc_wanted and the line '$line', got exit $rc and:" >&2
    cat "$work/out.txt" >&2
    failed=1
  fi
}

record 3 basics/walk_flat=10000 stairs/up=20000 >"$work/record.json"
record 3 basics/walk_flat=10300 stairs/up=19000 >"$work/current.json"
expect "3 % exactly passes" 0 "cost-gate: 2 of 2 scenarios within 3 % of the record"
expect "a drop is noted" 0 "cost-gate: note: stairs/up: 19,000 instructions per tick, recorded 20,000 (-5.0 %): cheaper; record it with tools/cost-gate.sh --update"

record 3 basics/walk_flat=10301 stairs/up=20000 >"$work/current.json"
expect "growth beyond the margin fails" 1 "cost-gate: FAIL basics/walk_flat: 10,301 instructions per tick, recorded 10,000 (+3.0 %, more than the 3 % allowed)"
expect "the closing line counts it" 1 "cost-gate: 1 of 2 scenarios within 3 % of the record"

record 10 basics/walk_flat=10000 stairs/up=20000 >"$work/record.json"
record 3 basics/walk_flat=10900 stairs/up=20000 >"$work/current.json"
expect "the record's margin is used" 0 "cost-gate: 2 of 2 scenarios within 10 % of the record"

record 3 basics/walk_flat=10000 >"$work/current.json"
expect "an uncounted scenario fails" 1 "cost-gate: FAIL stairs/up: recorded 20,000 instructions per tick, but it was not counted"

record 3 basics/walk_flat=10000 stairs/up=20000 new/one=5 >"$work/current.json"
expect "a new scenario is noted" 0 "cost-gate: note: new/one: 5 instructions per tick, not recorded; record it with tools/cost-gate.sh --update"

echo '{"scenarios": {"a": {"stepslide": "many"}}}' >"$work/current.json"
expect "malformed counts exit 2" 2 "cost-gate: $work/current.json: /scenarios/a/stepslide: expected a positive integer"

# The recorded file itself is well formed.
cp "$source_dir/bench/instruction_counts.json" "$work/record.json"
cp "$source_dir/bench/instruction_counts.json" "$work/current.json"
expect "the checked-in record compares equal to itself" 0 \
  "cost-gate: $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["scenarios"]))' "$work/record.json") of $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["scenarios"]))' "$work/record.json") scenarios within 3 % of the record"

exit $failed
