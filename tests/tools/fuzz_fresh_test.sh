#!/usr/bin/env bash
# The CTest `tools/fuzz-fresh`: tools/fuzz-fresh.sh splits a seed range into
# shards, runs them (resuming finished ones, stopping at a deadline), and sums
# up worlds, ticks and violations by kind with reproducing commands, smallest
# first. Most cases run a stub `stepslide` that reports made-up findings; the
# last runs the real binary on three worlds.
# Usage: tests/tools/fuzz_fresh_test.sh SOURCE_DIR STEPSLIDE_BINARY
set -euo pipefail

source_dir=$(cd "${1:?usage: fuzz_fresh_test.sh SOURCE_DIR STEPSLIDE_BINARY}" && pwd)
binary=${2:?usage: fuzz_fresh_test.sh SOURCE_DIR STEPSLIDE_BINARY}
binary="$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")"
script="$source_dir/tools/fuzz-fresh.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/stepslide-fuzz-fresh.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL $*" >&2; failures=$((failures + 1)); }
expect() {  # expect NAME ACTUAL EXPECTED
  [[ "$2" == "$3" ]] || fail "$1: expected
$3
got
$2"
}

# The stub: 10 ticks per world; a rise in every seed ending in 3 (shrunk to
# seed % 50 ticks), an overlap at seed 117; exit 2 without a closing line
# when its range holds seed 999. Each call is logged to calls.txt.
cat >"$work/stepslide" <<'EOF'
#!/usr/bin/env bash
seed=$3 count=$5 out=$9
echo "$seed $count" >>"$(dirname "$0")/calls.txt"
found=0
for ((s = seed; s < seed + count; s++)); do
  [[ $s -eq 999 ]] && { echo "boom" >&2; exit 2; }
  kind=""
  [[ $((s % 10)) -eq 3 ]] && kind=rise
  [[ $s -eq 117 ]] && kind=overlap
  [[ -z "$kind" ]] && continue
  found=$((found + 1))
  echo "seed $s: $kind at tick 4: made up"
  echo "  saved $out/seed${s}_$kind.json (shrunk: bodies 3 -> 1, input keys 2 -> 1, ticks 300 -> $((s % 50)) (9 runs))"
done
echo "fuzz: $count scenarios (seeds $seed..$((seed + count - 1))), $((10 * count)) ticks checked, $found violations"
[[ $found -eq 0 ]]
EOF
chmod +x "$work/stepslide"
cd "$work"
export STEPSLIDE="$work/stepslide"

status=0
out=$(bash "$script" 100 25 -j 2 --shard 10 --out runs 2>/dev/null) || status=$?
expect "exit with violations" "$status" 1
expect "summary" "$out" "fuzz-fresh: 25 worlds (seeds 100..124) in 3 of 3 shards, 250 ticks checked, 4 violations
by kind: overlap 1, rise 3

overlap (1), smallest reproducer first:
  seed 117: overlap at tick 4: made up
    reproduce: stepslide fuzz --seed 117 --count 1
    shrunk:    stepslide fuzz --replay runs/findings/seed117_overlap.json (17 ticks)

rise (3), smallest reproducer first:
  seed 103: rise at tick 4: made up
    reproduce: stepslide fuzz --seed 103 --count 1
    shrunk:    stepslide fuzz --replay runs/findings/seed103_rise.json (3 ticks)
  seed 113: rise at tick 4: made up
    reproduce: stepslide fuzz --seed 113 --count 1
    shrunk:    stepslide fuzz --replay runs/findings/seed113_rise.json (13 ticks)
  seed 123: rise at tick 4: made up
    reproduce: stepslide fuzz --seed 123 --count 1
    shrunk:    stepslide fuzz --replay runs/findings/seed123_rise.json (23 ticks)"
expect "shards" "$(sort -n calls.txt | tr '\n' ' ')" "100 10 110 10 120 5 "

# Finished shards are not run again; a range grown past them runs the shards
# that changed (120 grew from 5 worlds to 10) and the new ones.
rm calls.txt
bash "$script" 100 35 --shard 10 --out runs >/dev/null 2>&1 || true
expect "resume" "$(tr '\n' ' ' <calls.txt)" "120 10 130 5 "
# --summary runs nothing; --stop-at in the past starts nothing.
rm calls.txt
out=$(STEPSLIDE=/nonexistent bash "$script" 100 35 --shard 10 --out runs --summary 2>/dev/null) || true
expect "summary only" "$(head -1 <<<"$out")" \
  "fuzz-fresh: 35 worlds (seeds 100..134) in 4 of 4 shards, 350 ticks checked, 5 violations"
[[ -f runs/logs/shard-100-10.log.cpu ]] || fail "no CPU time kept for shard 100"
# The CPU seconds of finished shards give worlds per CPU-minute (set here by hand).
for f in runs/logs/*.cpu; do echo 0.25 >"$f"; done
out=$(bash "$script" 100 35 --shard 10 --out runs --summary 2>/dev/null) || true
expect "CPU line" "$(grep '^CPU' <<<"$out")" "CPU: 1.0 s for 35 worlds, 2100 worlds per CPU-minute"
out=$(bash "$script" 200 20 --shard 10 --out late --stop-at "1 hour ago" 2>/dev/null) || true
expect "stop-at" "$out" "fuzz-fresh: 0 worlds in 0 of 2 shards, 0 ticks checked, 0 violations"
[[ ! -e calls.txt ]] || fail "--summary or --stop-at ran a shard: $(cat calls.txt)"

# A shard that fails is not counted, and says so; the run exits 2.
status=0
out=$(bash "$script" 990 20 --shard 10 --out broken 2>err.txt) || status=$?
expect "failed shard exit" "$status" 2
expect "failed shard summary" "$(head -1 <<<"$out")" \
  "fuzz-fresh: 10 worlds (seeds 1000..1009) in 1 of 2 shards, 100 ticks checked, 1 violation"
grep -q "shard 990 (+10) failed with exit code 2" err.txt || fail "no word of the failed shard: $(cat err.txt)"
grep -q boom broken/logs/shard-990-10.log.failed || fail "the failed shard's stderr was not kept"
# A shard that is running (a .part log) is neither counted nor a failure.
touch runs/logs/shard-140-10.log.part runs/logs/shard-140-10.log.err
status=0
bash "$script" 100 50 --shard 10 --out runs --summary >/dev/null 2>&1 || status=$?
expect "running shard" "$status" 1

# Usage errors.
for args in "" "12" "x 10" "1 10 -j 0" "1 10 --shard" "1 10 --what" "9999999999999999999 10"; do
  status=0
  # shellcheck disable=SC2086
  bash "$script" $args >/dev/null 2>&1 || status=$?
  expect "usage '$args'" "$status" 2
done

# The real binary: three clean worlds, the same ticks as fuzz itself counts.
export STEPSLIDE="$binary"
status=0
out=$(bash "$script" 1 3 --out real 2>/dev/null) || status=$?
expect "real exit" "$status" 0
ticks=$(sed -n 's/^fuzz: 3 scenarios (seeds 1..3), \([0-9]*\) ticks checked, 0 violations$/\1/p' real/logs/shard-1-3.log)
[[ -n "$ticks" ]] || fail "real shard log: $(cat real/logs/shard-1-3.log)"
expect "real summary" "$out" "fuzz-fresh: 3 worlds (seeds 1..3) in 1 of 1 shards, $ticks ticks checked, 0 violations"

[[ $failures -eq 0 ]] && echo "fuzz-fresh: all cases pass"
exit $((failures > 0))
