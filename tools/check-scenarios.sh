#!/usr/bin/env bash
# README quick start, command 1: install what is missing, build the `stepslide`
# command alone (not the unit tests or the benchmarks: `check` needs neither),
# and check every scenario in scenarios/ against its golden in golden/.
# Extra arguments go to `stepslide check` (e.g. -j 4 --junit report.xml).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)" --target stepslide
exec ./build/stepslide check "$@"
