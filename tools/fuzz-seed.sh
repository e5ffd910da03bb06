#!/usr/bin/env bash
# Prints the first seed of the fuzz range derived from the code being tested,
# and where it came from, as "SEED SOURCE...": every commit explores its own
# random worlds (tools/fuzz-controller.sh ... commit, .ci/run), and a failure
# is reproducible from the commit alone. In order:
#   1. STEPSLIDE_FUZZ_SEED, when set: that seed ("STEPSLIDE_FUZZ_SEED");
#   2. a git checkout: the first 8 hex digits of `git rev-parse HEAD`, as a
#      number ("commit <hash>");
#   3. the commit a CI system names (GITHUB_SHA, CI_COMMIT_SHA, GIT_COMMIT),
#      the same way, for a CI job that exported the sources without .git;
#   4. otherwise the first 8 hex digits of the SHA-256 of every file under
#      src/ include/ cli/ (sorted by path), so the same source tarball always
#      fuzzes the same worlds ("source tree <digits>").
# Usage: tools/fuzz-seed.sh [SOURCE_DIR]   (default: this script's repository)
set -euo pipefail
dir=${1:-"$(dirname "$0")/.."}
cd "$dir"

seed_of_hex() { echo $((16#${1:0:8})); }

if [[ -n "${STEPSLIDE_FUZZ_SEED:-}" ]]; then
  if [[ ! "$STEPSLIDE_FUZZ_SEED" =~ ^[0-9]{1,19}$ ]]; then
    echo "fuzz-seed: STEPSLIDE_FUZZ_SEED='$STEPSLIDE_FUZZ_SEED': expected a decimal seed" >&2
    exit 2
  fi
  echo "$STEPSLIDE_FUZZ_SEED STEPSLIDE_FUZZ_SEED"
  exit 0
fi
# Only a checkout of this directory itself: sources unpacked inside some other
# repository must not take that repository's commit.
top=$(git rev-parse --show-toplevel 2>/dev/null || true)
if [[ -n "$top" && "$(cd "$top" && pwd -P)" == "$(pwd -P)" ]] &&
   commit=$(git rev-parse --verify --quiet HEAD 2>/dev/null) && [[ "$commit" =~ ^[0-9a-f]{40,64}$ ]]; then
  echo "$(seed_of_hex "$commit") commit $commit"
  exit 0
fi
for var in GITHUB_SHA CI_COMMIT_SHA GIT_COMMIT; do
  value=${!var:-}
  if [[ "$value" =~ ^[0-9a-fA-F]{8,64}$ ]]; then
    value=${value,,}
    echo "$(seed_of_hex "$value") commit $value ($var)"
    exit 0
  fi
done
dirs=()
for d in src include cli; do [[ -d "$d" ]] && dirs+=("$d"); done
if [[ ${#dirs[@]} -eq 0 ]]; then
  echo "fuzz-seed: $(pwd): neither a git checkout nor a source tree (src/, include/, cli/)" >&2
  exit 2
fi
digest=$(find "${dirs[@]}" -type f -print0 | LC_ALL=C sort -z | xargs -0 cat -- | sha256sum)
echo "$(seed_of_hex "$digest") source tree ${digest:0:8}"
