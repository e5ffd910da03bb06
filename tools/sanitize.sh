#!/usr/bin/env bash
# AddressSanitizer and UndefinedBehaviorSanitizer (the asan preset: clang,
# into build-asan/). Any report fails.
#
# Usage: tools/sanitize.sh [--quick]
#   (full)    builds everything and runs every CTest test under the
#             sanitizers (the install test is left out: it links the
#             installed library into an uninstrumented example), then 100
#             random worlds with `stepslide fuzz`. Run nightly
#             (tools/nightly.sh): the unit tests of every layer.
#   --quick   what CI runs (.ci/run): builds the `stepslide` command and the
#             controller's unit tests (geometry, collision, controller) only,
#             runs those tests, every scenario's golden check and the same
#             100 random worlds under the sanitizers. That is every line the
#             controller runs for the suite, the whole loader and gate path
#             of `check`, and the fuzzer's worlds, without compiling the
#             other layers' tests a second time.
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
  cmake --build --preset asan -j "$(nproc)" --target stepslide stepslide_controller_tests
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1 \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    build-asan/tests/stepslide_controller_tests --gtest_brief=1
  ctest --preset asan -j "$(nproc)" -L scenario
else
  cmake --build --preset asan -j "$(nproc)"
  ctest --preset asan -j "$(nproc)"
fi
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  build-asan/stepslide fuzz --seed 1 --count 100 --out-dir fuzz-findings
