#!/usr/bin/env bash
# The CTest `tools/check-scenarios`: README quick-start command 1
# (tools/check-scenarios.sh) runs, checks every scenario, and builds the
# `stepslide` target alone: every `cmake --build` it runs names
# `--target stepslide` (the unit tests and benchmarks take most of a full
# build and `check` needs neither). `cmake` is wrapped to log its arguments.
# Usage: tests/tools/check_scenarios_test.sh SOURCE_DIR
set -euo pipefail

source_dir=$(cd "${1:?usage: check_scenarios_test.sh SOURCE_DIR}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/stepslide-quickstart.XXXXXX")
trap 'rm -rf "$work"' EXIT

real_cmake=$(command -v cmake)
mkdir "$work/bin"
cat >"$work/bin/cmake" <<WRAP
#!/usr/bin/env bash
printf '%s\n' "\$*" >>"$work/cmake.log"
exec "$real_cmake" "\$@"
WRAP
chmod +x "$work/bin/cmake"

if ! PATH="$work/bin:$PATH" bash "$source_dir/tools/check-scenarios.sh" >"$work/out.txt" 2>"$work/err.txt"; then
  echo "FAIL: tools/check-scenarios.sh failed" >&2
  tail -20 "$work/out.txt" "$work/err.txt" >&2
  exit 1
fi
# Level files (stepslide/level@1) are included by scenarios, not checked.
scenarios=$(find "$source_dir/scenarios" -name '*.json' -exec grep -L '"stepslide/level@1"' {} + | wc -l)
if ! tail -1 "$work/out.txt" | grep -qx "$scenarios passed, 0 failed"; then
  echo "FAIL: expected '$scenarios passed, 0 failed' last, got:" >&2
  tail -3 "$work/out.txt" >&2
  exit 1
fi
builds=$(grep -c -- '--build' "$work/cmake.log" || true)
if [[ "$builds" -lt 1 ]]; then
  echo "FAIL: the script never ran cmake --build:" >&2
  cat "$work/cmake.log" >&2
  exit 1
fi
if grep -- '--build' "$work/cmake.log" | grep -v -- '--target stepslide$'; then
  echo "FAIL: the cmake --build above builds more than the stepslide target" >&2
  exit 1
fi
echo "tools/check-scenarios.sh: $scenarios passed; cmake --build ran $builds time(s), each for --target stepslide only"
