#!/usr/bin/env bash
# The long checks CI (.ci/run) leaves out to stay within 30 minutes on two
# cores; docs/testing.md lists what each runs and how long it takes. Run it
# on a schedule, and before resolving an issue that touches the controller.
#
#   1. everything .ci/run runs;
#   2. the full sanitizer pass: every layer's unit tests and the scenario
#      suite under ASan+UBSan (tools/sanitize.sh; CI runs --quick);
#   3. the loader's libFuzzer for NIGHTLY_LOADER_SECONDS (default 600; CI 30),
#      then the controller's for NIGHTLY_LIBFUZZ_SECONDS (default 600; CI 60);
#   4. the controller fuzzer on NIGHTLY_FUZZ_COUNT fresh seeds (default
#      20000; CI 1500), from a range derived from the date
#      (tools/fuzz-fresh.sh), in shards on every core;
#   5. with STEPSLIDE_WITH_ARM64=1, the arm64 gate under qemu
#      (tools/arm64-gate.sh; installs about 1 GB of cross packages).
#
# Usage: tools/nightly.sh        exit 0 when every step passed
set -euo pipefail
cd "$(dirname "$0")/.."
step() { echo "nightly: $* ($(date -u +%H:%M:%S))"; }

step "1/5 .ci/run"
bash .ci/run
step "2/5 the full sanitizer pass"
bash tools/sanitize.sh
step "3/5 the loader and controller libFuzzer targets"
bash tools/fuzz-loader.sh "${NIGHTLY_LOADER_SECONDS:-600}"
bash tools/libfuzz-controller.sh "${NIGHTLY_LIBFUZZ_SECONDS:-600}"
step "4/5 the controller fuzzer on fresh seeds"
start=$(( $(date -u +%Y%m%d) * 100000 ))
bash tools/fuzz-fresh.sh "$start" "${NIGHTLY_FUZZ_COUNT:-20000}" -j "$(nproc)" --out "fuzz-fresh-nightly-$start"
if [[ "${STEPSLIDE_WITH_ARM64:-0}" == 1 ]]; then
  step "5/5 the arm64 gate"
  bash tools/install-deps.sh
  bash tools/arm64-gate.sh
else
  step "5/5 the arm64 gate: skipped (STEPSLIDE_WITH_ARM64=1 runs it)"
fi
step "done: every step passed"
