#!/usr/bin/env bash
# Checks the controller's invariants on COUNT random scenarios (default 1000)
# from seed SEED (default 1) with `stepslide fuzz`, using the release build
# (tools/build.sh). The seeds are fixed, so a CI run checks the same worlds
# every time and fails only when a change breaks an invariant on one of them.
# Violations are shrunk and saved in fuzz-findings/ as scenario files.
#
# Usage: tools/fuzz-controller.sh [COUNT] [SEED]
# A long run: tools/fuzz-controller.sh 100000 $RANDOM   (about 1000 scenarios per 10 s per core)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000}
seed=${2:-1}
[[ -x build/stepslide ]] || bash tools/build.sh
./build/stepslide fuzz --seed "$seed" --count "$count" --out-dir fuzz-findings
