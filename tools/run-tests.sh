#!/usr/bin/env bash
# README quick start, command 2: install what is missing, build, and run every
# test: unit tests, one golden gate per scenario, determinism.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/build.sh
ctest --preset release -j "$(nproc)"
