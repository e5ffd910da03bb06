#!/usr/bin/env bash
# Same bytes from every compiler and optimisation level: builds `stepslide`
# with each compiler at each level into build-matrix/<compiler><level>/
# (tests and benchmarks off; ccache when CMAKE_CXX_COMPILER_LAUNCHER is set),
# runs `check --exact --hash` on the scenarios given with each build, and
# compares every build's hash lines with the first build's. Nothing is
# written into golden/ (--update no).
#
# Usage: tools/compiler-matrix.sh [PATHS...]     (default: scenarios/dynamic)
#   COMPILERS   default "gcc clang" (clang: STEPSLIDE_WITH_CLANG=1 tools/install-deps.sh)
#   LEVELS      default "-O0 -O2"
#   JOBS        the build's and the check's parallelism, default 2
#   REFERENCE   a stepslide binary already built (e.g. build/stepslide, the
#               release preset: gcc -O2) whose hashes are the reference;
#               default: the first build's
# Exit 0 when every build passes --exact and every hash is equal; 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
paths=("$@")
[[ ${#paths[@]} -gt 0 ]] || paths=(scenarios/dynamic)
compilers=(${COMPILERS:-gcc clang})
levels=(${LEVELS:--O0 -O2})
jobs=${JOBS:-2}
work=$(mktemp -d "${TMPDIR:-/tmp}/stepslide-matrix.XXXXXX")
trap 'rm -rf "$work"' EXIT

status=0
reference=""
if [[ -n "${REFERENCE:-}" ]]; then
  "$REFERENCE" check -j "$jobs" --exact --hash --update no --color never "${paths[@]}" >"$work/reference.txt" 2>&1 || status=1
  grep '^hash ' "$work/reference.txt" | LC_ALL=C sort -k3 >"$work/reference.hashes" || true
  reference=reference
  echo "reference $REFERENCE: $(tail -n 1 "$work/reference.txt"); $(grep -c . "$work/reference.hashes") hash lines"
fi
for compiler in "${compilers[@]}"; do
  case "$compiler" in
    gcc) cc=gcc; cxx=g++ ;;
    clang) cc=clang; cxx=clang++ ;;
    *) echo "compiler-matrix: unknown compiler '$compiler' (gcc or clang)" >&2; exit 2 ;;
  esac
  command -v "$cxx" >/dev/null || { echo "compiler-matrix: $cxx not found" >&2; exit 2; }
  for level in "${levels[@]}"; do
    name="$compiler$level"
    dir="build-matrix/$name"
    # Build type None: the level is the only optimisation flag (CMakeLists.txt
    # sets Release's own flags, -O2, over any given on the command line).
    cmake --no-warn-unused-cli -G Ninja -S . -B "$dir" -DCMAKE_BUILD_TYPE=None \
      -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
      -DCMAKE_C_FLAGS="$level -DNDEBUG" -DCMAKE_CXX_FLAGS="$level -DNDEBUG" \
      -DSTEPSLIDE_BUILD_TESTS=OFF -DSTEPSLIDE_BUILD_BENCH=OFF >/dev/null
    grep -q -- "FLAGS = $level " "$dir/build.ninja" || { echo "compiler-matrix: $dir does not build with $level" >&2; exit 2; }
    cmake --build "$dir" -j "$jobs" --target stepslide >/dev/null
    set +e
    "$dir/stepslide" check -j "$jobs" --exact --hash --update no --color never "${paths[@]}" >"$work/$name.txt" 2>&1
    exact=$?
    set -e
    grep '^hash ' "$work/$name.txt" | LC_ALL=C sort -k3 >"$work/$name.hashes" || true
    line="$name: $(tail -n 1 "$work/$name.txt")"
    if [[ $exact != 0 ]]; then status=1; line+=" (--exact failed)"; fi
    if [[ -z "$reference" ]]; then
      reference=$name
      line+="; $(grep -c . "$work/$name.hashes") hash lines, the reference"
    elif cmp -s "$work/$reference.hashes" "$work/$name.hashes"; then
      line+="; hashes equal to $reference's"
    else
      status=1
      line+="; hashes differ from $reference's: $(LC_ALL=C join -1 3 -2 3 -o 0,1.2,2.2 "$work/$reference.hashes" "$work/$name.hashes" | awk '$2 != $3 { printf "%s ", $1 }')"
    fi
    echo "$line"
  done
done
exit $status
