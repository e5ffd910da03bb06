#!/usr/bin/env bash
# AddressSanitizer and UndefinedBehaviorSanitizer (the asan preset: clang,
# into build-asan/). Any report fails.
#
# Usage: tools/sanitize.sh [--quick]
#   (full)    builds everything and runs every CTest test under the
#             sanitizers: every layer's unit tests and every scenario's
#             golden check (the install test is left out: it links the
#             installed library into an uninstrumented example), then 100
#             random worlds with `stepslide fuzz`. tools/nightly.sh runs it.
#   --quick   what CI runs (.ci/run): builds the controller's unit tests
#             (geometry, collision, controller: where the pair math indexes
#             arrays of features and triangles) and the libFuzzer targets of
#             the loader and the controller, and runs those tests under the
#             sanitizers. CI then fuzzes the loader with that build
#             (tools/fuzz-loader.sh: the code that reads untrusted files) and
#             the controller (tools/libfuzz-controller.sh). The gate and the
#             CLI are compiled a second time only nightly.
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
case "${1:-}" in
  "") ;;
  --quick) quick=1 ;;
  *) echo "usage: tools/sanitize.sh [--quick]" >&2; exit 2 ;;
esac
STEPSLIDE_WITH_CLANG=1 bash tools/install-deps.sh
cmake --preset asan >/dev/null
if [[ $quick == 1 ]]; then
  cmake --build --preset asan -j "$(nproc)" --target stepslide_controller_tests stepslide_load_fuzzer \
    stepslide_controller_fuzzer
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    build-asan/tests/stepslide_controller_tests --gtest_brief=1
  exit 0
fi
cmake --build --preset asan -j "$(nproc)"
ctest --preset asan -j "$(nproc)"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  build-asan/stepslide fuzz --seed 1 --count 100 --out-dir fuzz-findings
