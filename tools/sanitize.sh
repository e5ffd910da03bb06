#!/usr/bin/env bash
# Builds everything with AddressSanitizer and UndefinedBehaviorSanitizer (the
# asan preset: clang, into build-asan/) and runs the unit tests and the
# scenario suite under them (the install test is left out: it links the
# installed library into an uninstrumented example). Then checks 100 random
# worlds with `stepslide fuzz` under the sanitizers too. Any report fails.
set -euo pipefail
cd "$(dirname "$0")/.."
STEPSLIDE_WITH_CLANG=1 bash tools/install-deps.sh
cmake --preset asan >/dev/null
cmake --build --preset asan -j "$(nproc)"
ctest --preset asan -j "$(nproc)"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  build-asan/stepslide fuzz --seed 1 --count 100 --out-dir fuzz-findings
