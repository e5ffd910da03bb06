#!/usr/bin/env bash
# The CTest `tools/fuzz-seed`: tools/fuzz-seed.sh derives CI's extra fuzz
# range from the commit (first 8 hex digits of HEAD), from a CI commit
# variable without .git, from the source tree without either, or takes
# STEPSLIDE_FUZZ_SEED; and tools/fuzz-controller.sh rejects a seed that is
# neither a number nor `commit`.
# Usage: tests/tools/fuzz_seed_test.sh SOURCE_DIR
set -euo pipefail

source_dir=$(cd "${1:?usage: fuzz_seed_test.sh SOURCE_DIR}" && pwd)
script="$source_dir/tools/fuzz-seed.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/stepslide-fuzz-seed.XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
expect() {  # expect NAME ACTUAL EXPECTED
  if [[ "$2" != "$3" ]]; then
    echo "FAIL $1: expected '$3', got '$2'" >&2
    failures=$((failures + 1))
  fi
}
clean_env=(env -u STEPSLIDE_FUZZ_SEED -u GITHUB_SHA -u CI_COMMIT_SHA -u GIT_COMMIT)

# Not a checkout, no CI variable: the source tree's digest, stable, and moved by any change.
mkdir -p "$work/tree/src" "$work/tree/include" "$work/tree/cli"
echo 'int a;' >"$work/tree/src/a.cpp"
echo 'int b;' >"$work/tree/cli/b.cpp"
digest=$(cd "$work/tree" && cat cli/b.cpp src/a.cpp | sha256sum)
tree_seed=$((16#${digest:0:8}))
expect "source tree" "$("${clean_env[@]}" bash "$script" "$work/tree")" "$tree_seed source tree ${digest:0:8}"
echo 'int c;' >>"$work/tree/src/a.cpp"
changed=$("${clean_env[@]}" bash "$script" "$work/tree")
[[ "$changed" != "$tree_seed source tree ${digest:0:8}" ]] || { echo "FAIL: an edit left the seed" >&2; failures=$((failures + 1)); }

# A CI variable names the commit when there is no .git.
expect "GITHUB_SHA" "$("${clean_env[@]}" GITHUB_SHA=00000001ffffffffffffffffffffffffffffffff bash "$script" "$work/tree")" \
  "1 commit 00000001ffffffffffffffffffffffffffffffff (GITHUB_SHA)"
expect "CI_COMMIT_SHA" "$("${clean_env[@]}" CI_COMMIT_SHA=FFFFFFFF12 bash "$script" "$work/tree")" \
  "4294967295 commit ffffffff12 (CI_COMMIT_SHA)"

# A checkout: the first 8 hex digits of HEAD, whatever the CI variables say.
git -C "$work/tree" init -q
git -C "$work/tree" -c user.name=t -c user.email=t@t add -A
git -C "$work/tree" -c user.name=t -c user.email=t@t commit -qm t
head=$(git -C "$work/tree" rev-parse HEAD)
expect "commit" "$("${clean_env[@]}" GITHUB_SHA=00000001ffffffffffffffffffffffffffffffff bash "$script" "$work/tree")" \
  "$((16#${head:0:8})) commit $head"

# Sources unpacked inside another repository do not take its commit.
mkdir -p "$work/tree/vendor/src"
echo 'int v;' >"$work/tree/vendor/src/v.cpp"
vendor_digest=$(cat "$work/tree/vendor/src/v.cpp" | sha256sum)
expect "nested" "$("${clean_env[@]}" bash "$script" "$work/tree/vendor")" \
  "$((16#${vendor_digest:0:8})) source tree ${vendor_digest:0:8}"

# The override wins; a malformed one is refused.
expect "override" "$("${clean_env[@]}" STEPSLIDE_FUZZ_SEED=42 bash "$script" "$work/tree")" "42 STEPSLIDE_FUZZ_SEED"
if "${clean_env[@]}" STEPSLIDE_FUZZ_SEED=4x2 bash "$script" "$work/tree" >/dev/null 2>&1; then
  echo "FAIL: STEPSLIDE_FUZZ_SEED=4x2 accepted" >&2
  failures=$((failures + 1))
fi
# fuzz-controller.sh: a seed that is neither a number nor `commit` is a usage error (before any build).
set +e
bash "$source_dir/tools/fuzz-controller.sh" 1 latest >/dev/null 2>&1
code=$?
set -e
expect "fuzz-controller SEED latest" "$code" 2
# ... and so is a FUZZ_JOBS that is not a number.
set +e
FUZZ_JOBS=two bash "$source_dir/tools/fuzz-controller.sh" 1 1 >/dev/null 2>&1
code=$?
set -e
expect "fuzz-controller FUZZ_JOBS two" "$code" 2

if [[ $failures -gt 0 ]]; then exit 1; fi
echo "fuzz-seed: all cases pass"
