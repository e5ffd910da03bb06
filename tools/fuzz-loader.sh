#!/usr/bin/env bash
# Fuzzes the scenario loader with libFuzzer for SECONDS (default 30): builds
# the asan preset's stepslide_load_fuzzer (clang, ASan+UBSan), seeds it with
# every scenario in scenarios/ and every file of tests/bad_input/, and stops at
# the first input that crashes, hangs, leaks or breaks the loader's contract
# (fuzz/loader/load_fuzzer.cpp). A crashing input is saved in fuzz-artifacts/: add
# it to tests/bad_input/ with its expected errors once fixed.
#
# Usage: tools/fuzz-loader.sh [SECONDS]
#   FUZZ_SEED=N     libFuzzer's seed (default 1, so a CI run is repeatable)
#   FUZZ_CORPUS=DIR keep the grown corpus here between runs (default: a temp dir)
# A long run: FUZZ_SEED=$RANDOM FUZZ_CORPUS=~/stepslide-corpus tools/fuzz-loader.sh 3600
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
seed=${FUZZ_SEED:-1}

STEPSLIDE_WITH_CLANG=1 bash tools/install-deps.sh
cmake --preset asan >/dev/null
cmake --build --preset asan --target stepslide_load_fuzzer

work=$(mktemp -d "${TMPDIR:-/tmp}/stepslide-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
corpus=${FUZZ_CORPUS:-$work/corpus}
mkdir -p "$corpus" "$work/seeds" fuzz-artifacts
# libFuzzer reads corpus directories flat: copy the seeds under unique names.
n=0
while IFS= read -r -d '' file; do
  cp "$file" "$work/seeds/$n-$(basename "$file")"
  n=$((n + 1))
done < <(find scenarios tests/bad_input -name '*.json' -print0 | sort -z)

echo "fuzz-loader: $n seed files, ${seconds} s, seed $seed"
status=0
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  build-asan/fuzz/loader/stepslide_load_fuzzer "$corpus" "$work/seeds" -dict=fuzz/loader/scenario.dict \
  -max_total_time="$seconds" -max_len=16384 -timeout=10 -seed="$seed" \
  -artifact_prefix=fuzz-artifacts/ -print_final_stats=1 >"$work/log" 2>&1 || status=$?
grep -E '^(Done|stat::number_of_executed_units|stat::new_units_added|stat::peak_rss_mb)' "$work/log" || true
if [[ $status -ne 0 ]]; then
  tail -60 "$work/log"
  echo "fuzz-loader: FAILED (exit $status); the input is in fuzz-artifacts/" >&2
  exit 1
fi
echo "fuzz-loader: no crash, hang, leak or contract violation"
