#!/usr/bin/env bash
# The CTest `tools/bench-pair`: stepslide_bench's pair/ family runs both
# controllers back to back and reports the median of the pairs' ratios with
# each controller's time per tick; tools/bench_table.py turns it into issue
# 13's budget line (median, worst, how many within 0.5 and above 1.0) and a
# table row. A smoke test of the plumbing: times are never asserted.
# Usage: tests/tools/bench_pair_test.sh SOURCE_DIR STEPSLIDE_BENCH
set -euo pipefail

source_dir=$(cd "${1:?usage: bench_pair_test.sh SOURCE_DIR STEPSLIDE_BENCH}" && pwd)
bench=${2:?usage: bench_pair_test.sh SOURCE_DIR STEPSLIDE_BENCH}
work=$(mktemp -d "${TMPDIR:-/tmp}/stepslide-bench-pair.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$bench" --benchmark_filter='^pair/basics/(walk_flat|jump)/' --benchmark_min_time=0.01 \
  --benchmark_format=json --benchmark_out="$work/pair.json" >/dev/null
python3 "$source_dir/tools/bench_table.py" "$work/pair.json" >"$work/table.md"
python3 - "$work/pair.json" "$work/table.md" <<'PY'
import json, re, sys
entries = [b for b in json.load(open(sys.argv[1]))["benchmarks"] if b["name"].startswith("pair/")]
assert len(entries) == 2, [b["name"] for b in entries]
for b in entries:
    for counter in ("ratio_median", "ours_us_per_tick", "bullet_us_per_tick"):
        assert b.get(counter, 0) > 0, (b["name"], counter, b.get(counter))
table = open(sys.argv[2]).read()
line = re.search(r"^- paired runs ours/bullet: median ([\d.]+) \(budget ≤ 0.5\), worst ([\d.]+) \((basics/\w+)\), "
                 r"(\d+)/2 within 0.5, (\d+) above 1.0", table, re.M)
assert line, "no paired budget line:\n" + table
worst = max(entries, key=lambda b: b["ratio_median"])
assert line.group(3) == worst["name"].split("/manual_time")[0][len("pair/"):], (line.group(3), worst["name"])
assert abs(float(line.group(2)) - worst["ratio_median"]) < 0.006, (line.group(2), worst["ratio_median"])
for name in ("basics/walk_flat", "basics/jump"):
    assert re.search(rf"^\| {name} \| [\d.]+ \| [\d.]+ \| [\d.]+ \|$", table, re.M), name + " row missing:\n" + table
PY
