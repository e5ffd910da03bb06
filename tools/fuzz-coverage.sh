#!/usr/bin/env bash
# Line coverage of the controller's fuzz target over a corpus: builds the
# replay binary of the target (stepslide_controller_fuzz_replay: the same
# entry point as the libFuzzer binary, with a small main that runs each file)
# with clang's source-based coverage (-fprofile-instr-generate
# -fcoverage-mapping) into build-coverage/, runs it over the directories
# given (default: the seed corpus, i.e. scenarios/ and fuzz/controller/seeds/
# and crashes/), merges the profiles with llvm-profdata and prints
# llvm-cov's report for src/controller, src/collision and src/geometry: per
# file, then the total of the three folders (regions, functions, lines,
# branches). Not part of .ci/run; a figure for docs/fuzzing.md. An input that
# breaks an invariant aborts the run (as the ctest replay would): its profile
# is then lost and the script says which input it was.
#
# Usage: tools/fuzz-coverage.sh [CORPUS_DIR...]
#   e.g. FUZZ_CORPUS=/tmp/corpus tools/libfuzz-controller.sh 600, then
#        tools/fuzz-coverage.sh /tmp/corpus scenarios fuzz/controller/seeds
#   COVERAGE_HTML=DIR  also write llvm-cov's HTML pages there
#   JOBS=N             the build's parallelism (default 2)
# Needs clang and llvm (STEPSLIDE_WITH_CLANG=1 tools/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
dirs=("$@")
if [[ ${#dirs[@]} -eq 0 ]]; then dirs=(scenarios fuzz/controller/seeds fuzz/controller/crashes); fi
for d in "${dirs[@]}"; do
  [[ -e "$d" ]] || { echo "fuzz-coverage: no such file or directory: $d" >&2; exit 2; }
done

STEPSLIDE_WITH_CLANG=1 bash tools/install-deps.sh
profdata=$(command -v llvm-profdata || command -v llvm-profdata-14)
cov=$(command -v llvm-cov || command -v llvm-cov-14)

cmake -G Ninja -S . -B build-coverage -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS="-fprofile-instr-generate -fcoverage-mapping" \
  -DCMAKE_EXE_LINKER_FLAGS="-fprofile-instr-generate" \
  -DSTEPSLIDE_BUILD_BENCH=OFF -DSTEPSLIDE_BUILD_TESTS=ON -DSTEPSLIDE_FUZZ=OFF >/dev/null
cmake --build build-coverage -j "$jobs" --target stepslide_controller_fuzz_replay
binary=build-coverage/fuzz/controller/stepslide_controller_fuzz_replay

work=$(mktemp -d "${TMPDIR:-/tmp}/stepslide-coverage.XXXXXX")
trap 'rm -rf "$work"' EXIT
inputs=$(for d in "${dirs[@]}"; do if [[ -d "$d" ]]; then find "$d" -type f ! -name '.*'; else echo "$d"; fi; done | wc -l)
echo "fuzz-coverage: $inputs inputs from ${dirs[*]}"
start=$(date +%s)
set +e
LLVM_PROFILE_FILE="$work/replay-%p.profraw" "$binary" "${dirs[@]}" >"$work/replay.log" 2>&1
status=$?
set -e
if [[ $status -ne 0 ]]; then
  tail -20 "$work/replay.log"
  echo "fuzz-coverage: the replay stopped (exit $status) at the input above: a finding; no coverage figure" >&2
  exit 1
fi
echo "fuzz-coverage: replayed in $(($(date +%s) - start)) s: $(tail -1 "$work/replay.log")"
"$profdata" merge -sparse "$work"/*.profraw -o "$work/replay.profdata"
[[ -n "${COVERAGE_HTML:-}" ]] && "$cov" show "$binary" -instr-profile="$work/replay.profdata" -format=html \
  -output-dir="$COVERAGE_HTML"
# llvm-cov's table for every file, kept to the three folders: per file, then
# one line per folder and one for the three. Its columns: file, regions,
# missed, cover, functions, missed, executed, lines, missed, cover, ...
# (paths as the build recorded them, relative or absolute: matched by folder).
"$cov" report "$binary" -instr-profile="$work/replay.profdata" >"$work/report.txt"
awk '
  function folder(path) { if (match(path, /(^|\/)src\/(controller|collision|geometry)\//)) return substr(path, RSTART + (substr(path, RSTART, 1) == "/"), RLENGTH - (substr(path, RSTART, 1) == "/") - 1); return "" }
  NR == 1 { print; next }
  {
    f = folder($1)
    if (f == "") next
    print
    regions[f] += $2; rmiss[f] += $3; funcs[f] += $5; fmiss[f] += $6; lines[f] += $8; lmiss[f] += $9
    regions["all"] += $2; rmiss["all"] += $3; funcs["all"] += $5; fmiss["all"] += $6; lines["all"] += $8; lmiss["all"] += $9
  }
  function line(name, k) {
    printf "fuzz-coverage: %-45s lines %6d of %6d (%5.1f %%), functions %4d of %4d (%5.1f %%), regions %5.1f %%\n", name,
      lines[k] - lmiss[k], lines[k], 100 * (lines[k] - lmiss[k]) / lines[k], funcs[k] - fmiss[k], funcs[k],
      100 * (funcs[k] - fmiss[k]) / funcs[k], 100 * (regions[k] - rmiss[k]) / regions[k]
  }
  END {
    print ""
    line("src/controller", "src/controller"); line("src/collision", "src/collision"); line("src/geometry", "src/geometry")
    line("src/controller + src/collision + src/geometry", "all")
  }' "$work/report.txt"
