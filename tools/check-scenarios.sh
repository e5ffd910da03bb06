#!/usr/bin/env bash
# README quick start, command 1: install what is missing, build, and check
# every scenario in scenarios/ against its golden in golden/.
# Extra arguments go to `stepslide check` (e.g. -j 4 --junit report.xml).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh
exec ./build/stepslide check "$@"
