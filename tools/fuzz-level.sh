#!/usr/bin/env bash
# Walks random routes on a real level with `stepslide fuzz --level` and checks
# the controller's invariants on every tick. Findings are shrunk and saved as
# scenarios on that level in fuzz-findings/level/.
#
# Usage: tools/fuzz-level.sh [COUNT] [SEED] [LEVEL_FILE]
# Defaults: 40 walks from seed 1 on scenarios/levels/oa_dm3/level/level.json
# (CI's fixed-seed run, well under a minute; CI also walks
# scenarios/levels/neverball_maze/level/level.json so). A long run:
#   nice tools/fuzz-level.sh 10000 $RANDOM
# Other levels: scenarios/levels/*/level/level.json (levels/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-40}
seed=${2:-1}
level=${3:-scenarios/levels/oa_dm3/level/level.json}
if [[ ! "$count" =~ ^[0-9]+$ || ! "$seed" =~ ^[0-9]+$ ]]; then
  echo "fuzz-level: COUNT and SEED must be numbers" >&2
  exit 2
fi
[[ -x build/stepslide ]] || bash tools/build.sh
./build/stepslide fuzz --level "$level" --seed "$seed" --count "$count" --max-ticks 600 \
  -j "${FUZZ_JOBS:-1}" --out-dir fuzz-findings/level
