#!/usr/bin/env bash
# The scenario gate on arm64: cross-builds `stepslide` for aarch64 with
# Debian's cross toolchain (cmake/toolchain-arm64.cmake) into build-arm64/,
# then runs `stepslide check` under qemu-user twice, with the default
# tolerances (the gate's verdict: this script's exit status) and with
# --exact (how many goldens match bit for bit), and lists the largest
# deviations from the goldens. Nothing is written into golden/ (--update no).
# Not part of .ci/run: under qemu it takes minutes (docs/fuzzing.md "arm64"); tools/nightly.sh runs it with STEPSLIDE_WITH_ARM64=1.
#
# Needs the arm64 packages: STEPSLIDE_WITH_ARM64=1 tools/install-deps.sh
# (dpkg --add-architecture arm64, crossbuild-essential-arm64, the :arm64
# libraries, qemu-user-static).
#
# qemu runs without -L (and without QEMU_LD_PREFIX): the binary's loader
# /lib/ld-linux-aarch64.so.1 is then the multiarch libc6:arm64 one, the same
# glibc build as the libc.so.6 it loads from /lib/aarch64-linux-gnu. With
# -L /usr/aarch64-linux-gnu, qemu takes the loader from the prefix (the cross
# toolchain's libc6-arm64-cross, 2.36-8cross1 here) but, as the prefix has no
# lib/aarch64-linux-gnu, libc.so.6 still from the host's multiarch directory
# (libc6:arm64, 2.36-9+deb12u14): a loader and a libc from two glibc builds
# share private state (GLIBC_PRIVATE), and the first pthread_create hangs
# (`check -j 2` prints nothing and never ends; `-j 1`, with no thread, runs).
# `qemu -strace` shows the mix.
#
# Usage: tools/arm64-gate.sh [--exact] [--tests] [-- CHECK_OPTIONS...]
#   --exact   the verdict (exit status) is the --exact run's and the hash
#             comparison's instead of the default tolerances' (which then
#             is not run)
#   --strict  accepted and ignored: every scenario decides the verdict.
#             (Scenarios with dynamic bodies were once counted apart, while
#             Bullet's dynamics world, compiled with fused multiply-adds on
#             arm64, stepped them; src/dynamics/ steps them in this build.)
#   --tests   also build the unit tests and run them under qemu (slow); the
#             tests that start the stepslide binary start it through qemu too
#             (tests/CMakeLists.txt), so no binfmt_misc is needed
# JOBS (default 2) sets the build's and the check's parallelism.
#
# Determinism hashes (docs/format.md §3.2 "--hash"): the --exact run prints
# one hash per scenario and one for the suite, and they are compared with
# the reference: the hash lines in the file HASHES when set (`check --hash`
# output from any other machine), else those of this machine's own build,
# build/stepslide, when it exists. Every differing scenario is named.
set -euo pipefail
cd "$(dirname "$0")/.."

run_tests=0
exact_verdict=0
check_options=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --tests) run_tests=1 ;;
    --exact) exact_verdict=1 ;;
    --strict) ;;
    --) shift; check_options=("$@"); break ;;
    *) echo "arm64-gate: unknown option '$1' (usage: tools/arm64-gate.sh [--exact] [--tests] [-- CHECK_OPTIONS...])" >&2; exit 2 ;;
  esac
  shift
done
jobs=${JOBS:-2}

missing=()
command -v aarch64-linux-gnu-g++ >/dev/null || missing+=(crossbuild-essential-arm64)
[[ -f /usr/lib/aarch64-linux-gnu/pkgconfig/bullet-float64.pc ]] || missing+=(libbullet-dev:arm64)
[[ -f /usr/lib/aarch64-linux-gnu/pkgconfig/assimp.pc ]] || missing+=(libassimp-dev:arm64)
[[ -f /usr/lib/aarch64-linux-gnu/libpng.so ]] || missing+=(libpng-dev:arm64)
[[ -e /lib/ld-linux-aarch64.so.1 ]] || missing+=(libc6:arm64)
qemu=$(command -v qemu-aarch64-static || command -v qemu-aarch64 || true)
[[ -n "$qemu" ]] || missing+=(qemu-user-static)
if [[ $run_tests == 1 && ! -f /usr/lib/aarch64-linux-gnu/libgtest.a ]]; then missing+=(libgtest-dev:arm64); fi
if [[ ${#missing[@]} -gt 0 ]]; then
  echo "arm64-gate: missing ${missing[*]}: run STEPSLIDE_WITH_ARM64=1 tools/install-deps.sh" >&2
  exit 2
fi

seconds() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(seconds)" 'BEGIN { printf "%.1f", b - a }'; }
# qemu-user with no -L and no QEMU_LD_PREFIX (see above).
on_arm64() { env -u QEMU_LD_PREFIX "$qemu" "$@"; }

start=$(seconds)
tests_flag=OFF
[[ $run_tests == 1 ]] && tests_flag=ON
cmake --no-warn-unused-cli -G Ninja -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-arm64.cmake -DCMAKE_BUILD_TYPE=Release \
  -DSTEPSLIDE_BUILD_BENCH=OFF -DSTEPSLIDE_BUILD_TESTS=$tests_flag >/dev/null
targets=(--target stepslide)
[[ $run_tests == 1 ]] && targets+=(stepslide_controller_tests stepslide_tests)
cmake --build build-arm64 -j "$jobs" "${targets[@]}"
build_time=$(elapsed "$start")
file -L build-arm64/stepslide 2>/dev/null | grep -q aarch64 || {
  echo "arm64-gate: build-arm64/stepslide is not an aarch64 binary" >&2
  exit 1
}
binary=build-arm64/stepslide
on_arm64 "$binary" --version

work=$(mktemp -d "${TMPDIR:-/tmp}/stepslide-arm64.XXXXXX")
trap 'rm -rf "$work"' EXIT

default_time=0
gate=0
if [[ $exact_verdict == 0 ]]; then
  start=$(seconds)
  set +e
  on_arm64 "$binary" check -j "$jobs" --update no --color never "${check_options[@]}" >"$work/default.txt" 2>"$work/default.err"
  gate=$?
  set -e
  default_time=$(elapsed "$start")
fi
start=$(seconds)
set +e
on_arm64 "$binary" check -j "$jobs" --update no --color never --exact --hash "${check_options[@]}" >"$work/exact.txt" 2>"$work/exact.err"
exact_status=$?
set -e
exact_time=$(elapsed "$start")
[[ $exact_verdict == 1 ]] && gate=$exact_status

# The reference hashes: HASHES, else this machine's own build's.
reference=""
if [[ -n "${HASHES:-}" ]]; then
  reference=$HASHES
elif [[ -x build/stepslide ]] && build/stepslide --version >/dev/null 2>&1; then
  build/stepslide check -j "$jobs" --update no --color never --hash "${check_options[@]}" >"$work/host.txt" 2>/dev/null || true
  reference="$work/host.txt"
fi
hash_report=""
if [[ -n "$reference" ]]; then
  grep '^hash ' "$reference" | LC_ALL=C sort -k3,3 >"$work/reference.hashes" || true
  grep '^hash ' "$work/exact.txt" | LC_ALL=C sort -k3,3 >"$work/arm64.hashes" || true
  differing=$(LC_ALL=C join -1 3 -2 3 -o 0,1.2,2.2 "$work/reference.hashes" "$work/arm64.hashes" | awk '$2 != $3 { print $1 }')
  total=$(grep -vc ' suite of ' "$work/arm64.hashes" || true)
  same=$(LC_ALL=C join -1 3 -2 3 -o 0,1.2,2.2 "$work/reference.hashes" "$work/arm64.hashes" | awk '$2 == $3' | grep -vc '^suite ' || true)
  hash_report="hashes: $same of $total scenarios equal to ${HASHES:-build/stepslide}'s; suite $(grep ' suite of ' "$work/reference.hashes" | cut -d' ' -f2) there, $(grep ' suite of ' "$work/arm64.hashes" | cut -d' ' -f2) on arm64"
  if [[ -n "$differing" ]]; then
    hash_report+=$'\n'"hash differs: $(echo "$differing" | grep -v '^suite$' | tr '\n' ' ')"
    [[ $exact_verdict == 1 ]] && gate=1
  fi
fi

# The FAIL blocks of the --exact run: per scenario, the largest error of a
# position column (the character's x, y, z or a body's <body>.x, .y, .z)
# and the columns that differ.
largest_deviations() {
  awk '
    /^FAIL / { name = $2; sub(/:$/, "", name); worst[name] = 0; cols[name] = ""; order[++n] = name; inworst = 0; next }
    /^worst error per column:/ { inworst = 1; next }
    inworst && /^  [^ ]+ +[0-9]/ {
      col = $1; err = $2 + 0
      cols[name] = cols[name] (cols[name] == "" ? "" : " ") col
      if ((col ~ /^(x|y|z)$/ || col ~ /\.(x|y|z)$/) && err > worst[name]) worst[name] = err
      next
    }
    { inworst = 0 }
    END { for (i = 1; i <= n; i++) printf "%.3g\t%s\t%s\n", worst[order[i]], order[i], cols[order[i]] }
  ' "$1" | sort -g -r
}

echo
if [[ $exact_verdict == 0 ]]; then
  echo "== arm64 check, default tolerances (${default_time} s under qemu; build ${build_time} s)"
  grep -v '^PASS \|^hash ' "$work/default.txt" | sed -n '1,200p'
  cat "$work/default.err"
else
  echo "== build ${build_time} s"
fi
echo
echo "== arm64 check --exact (${exact_time} s under qemu): $(tail -1 "$work/exact.txt")"
echo "largest position deviation (m), scenario, columns that differ:"
largest_deviations "$work/exact.txt" | sed -n '1,60p'
[[ -n "$hash_report" ]] && echo "$hash_report"
echo "byte-identical: $(grep -c '^PASS ' "$work/exact.txt" || true) of $(grep -c '^\(PASS\|FAIL\) ' "$work/exact.txt" || true)"

if [[ $run_tests == 1 ]]; then
  echo
  start=$(seconds)
  set +e
  (cd build-arm64 && ctest -j "$jobs" -LE 'bench|install|tools' --output-on-failure) >"$work/ctest.txt" 2>&1
  set -e
  echo "== arm64 unit tests under qemu ($(elapsed "$start") s): $(grep -E 'tests passed|tests failed' "$work/ctest.txt" | tail -1)"
  grep -E '^\s+[0-9]+ - ' "$work/ctest.txt" | sed -n '1,40p' || true
fi

echo
if [[ $exact_verdict == 0 ]]; then
  echo "arm64-gate: default tolerances: $(tail -1 "$work/default.txt"); --exact: $(tail -1 "$work/exact.txt")"
else
  echo "arm64-gate: --exact: $(tail -1 "$work/exact.txt")${hash_report:+; ${hash_report%%$'\n'*}}"
fi
exit $gate
