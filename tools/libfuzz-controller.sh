#!/usr/bin/env bash
# Fuzzes the controller with libFuzzer for SECONDS (default 60): builds the asan
# preset's stepslide_controller_fuzzer (clang, ASan+UBSan, into build-asan/,
# the build tools/sanitize.sh uses), seeds it with every self-contained
# scenario in scenarios/ and the inputs in fuzz/controller/seeds/ and
# fuzz/controller/crashes/, and stops at the first input that breaks an
# invariant (fuzz/invariants.h, checked on every tick), crashes, hangs, leaks
# or trips a sanitizer. The input is saved in fuzz-artifacts/; `stepslide fuzz
# --from-input FILE -o x.json` turns it into a scenario (docs/fuzzing.md).
#
# Usage: tools/libfuzz-controller.sh [SECONDS]
#   FUZZ_SEED=N      libFuzzer's seed (default 1, so a CI run is repeatable)
#   FUZZ_CORPUS=DIR  keep the grown corpus here between runs (default: a temp dir)
#   FUZZ_JOBS=N      run N fuzzing processes at once (default 1)
# Exit status: 0 nothing found, 1 a finding (or a build failure).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
seed=${FUZZ_SEED:-1}
jobs=${FUZZ_JOBS:-1}
if [[ ! "$seconds" =~ ^[0-9]+$ ]]; then
  echo "usage: tools/libfuzz-controller.sh [SECONDS]" >&2
  exit 2
fi

STEPSLIDE_WITH_CLANG=1 bash tools/install-deps.sh
cmake --preset asan >/dev/null
cmake --build --preset asan --target stepslide_controller_fuzzer

work=$(mktemp -d "${TMPDIR:-/tmp}/stepslide-libfuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
corpus=${FUZZ_CORPUS:-$work/corpus}
mkdir -p "$corpus" "$work/seeds" fuzz-artifacts
# libFuzzer reads corpus directories flat: copy the seeds under unique names.
# A scenario that names level or mesh files is not an input (it is skipped);
# larger than max_len it would be cut, so it is left out too.
max_len=65536
n=0
while IFS= read -r -d '' file; do
  if [[ $file == *.json ]] && grep -qE '"(file|include)"' "$file"; then continue; fi
  if (($(stat -c %s "$file") > max_len)); then continue; fi
  cp "$file" "$work/seeds/$n-$(basename "$file")"
  n=$((n + 1))
done < <(find scenarios -name '*.json' -print0 | sort -z; find fuzz/controller/seeds fuzz/controller/crashes -type f ! -name '.*' -print0 | sort -z)

echo "libfuzz-controller: $n seed inputs, ${seconds} s, seed $seed, $jobs job(s)"
status=0
parallel=()
if ((jobs > 1)); then parallel=(-fork="$jobs" -ignore_crashes=0); fi
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  build-asan/fuzz/controller/stepslide_controller_fuzzer "$corpus" "$work/seeds" \
  -dict=fuzz/loader/scenario.dict -max_total_time="$seconds" -max_len=$max_len -timeout=20 -seed="$seed" \
  "${parallel[@]}" -artifact_prefix=fuzz-artifacts/ -print_final_stats=1 >"$work/log" 2>&1 || status=$?
grep -E '^(#[0-9]+[[:space:]]+(INITED|DONE)|Done|stat::)' "$work/log" || true
if [[ $status -ne 0 ]]; then
  tail -60 "$work/log"
  echo "libfuzz-controller: FAILED (exit $status); the input is in fuzz-artifacts/:" >&2
  echo "  build/stepslide fuzz --from-input fuzz-artifacts/<file> -o finding.json" >&2
  exit 1
fi
echo "libfuzz-controller: no invariant broken, no crash, hang, leak or sanitizer report"
