#!/usr/bin/env bash
# The cost gate: instructions per tick inside the controller's
# update, counted by callgrind for a fixed set of scenarios (one of each kind),
# against the record in bench/instruction_counts.json. Fails when one grew by
# more than the record's margin_percent, naming the scenario and both counts
# (tools/cost_gate.py). Instruction counts are deterministic for a given
# binary, so the gate does not flake as wall time would; they depend on the
# compiler and flags, so the record is the release preset's (tools/build.sh).
# About 20 s (callgrind runs the scenarios ~50x slower than natively).
#
# Usage: tools/cost-gate.sh            check against the record
#        tools/cost-gate.sh --update   count again and rewrite the record
set -euo pipefail
cd "$(dirname "$0")/.."
record=bench/instruction_counts.json
scenarios=(
  scenarios/basics/walk_flat.json
  scenarios/stairs/up_straight.json
  scenarios/basics/slide_along_wall.json
  scenarios/terrain/mesh_stairs.json
  scenarios/terrain/heightfield_bumps.json
  scenarios/platforms/spin_disc.json
)
command -v valgrind >/dev/null || { echo "cost-gate: needs valgrind (tools/install-deps.sh installs it)" >&2; exit 2; }
[[ -x build/stepslide ]] || bash tools/build.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 tools/count_instructions.py --controller stepslide --json "$work/current.json" "${scenarios[@]}" >"$work/table.md"
if [[ "${1:-}" == "--update" ]]; then
  margin=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("margin_percent", 3))' "$record" 2>/dev/null || echo 3)
  python3 - "$work/current.json" "$record" "$margin" <<'PY'
import json, sys
current = json.load(open(sys.argv[1]))
margin = float(sys.argv[3])
record = {"margin_percent": int(margin) if margin.is_integer() else margin, "scenarios": current["scenarios"]}
with open(sys.argv[2] + ".tmp", "w", encoding="utf-8") as f:
    json.dump(record, f, indent=2, sort_keys=True)
    f.write("\n")
PY
  mv "$record.tmp" "$record"
  cat "$work/table.md"
  echo "cost-gate: recorded $record"
  exit 0
fi
python3 tools/cost_gate.py "$record" "$work/current.json"
