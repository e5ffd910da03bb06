#!/usr/bin/env bash
# The install test (CTest `install/embed`, label `install`): installs an
# already-built tree into a temporary prefix, then checks what a game would
# rely on:
#   1. every installed header compiles on its own (none includes a header
#      that was left uninstalled, such as the generated build_info.h);
#   2. the package config names no path inside the source or build tree;
#   3. examples/embed, a separate CMake project, configures against the
#      prefix with find_package(stepslide), builds, and runs: it exits
#      non-zero unless its character walks onto a 0.2 m step;
#   2b. the public API: at most ten headers, which include only each other,
#      Bullet's (no broadphase or heightfield header) and the standard
#      library's, never an internal header of src/ (none is installed);
#   4. the installed libraries are the controller (with collision and
#      geometry, its link-only dependencies), the capture recorder and base
#      (capture's std-only link dependency), none of their internal headers
#      installed: the package config finds nothing but Bullet (no
#      nlohmann_json, CLI11 or pkg-config), none of controller, collision,
#      geometry or capture defines a symbol of the scenario, gate or fuzz
#      layers, and base needs nothing but the C++ standard library;
#   5. the installed CLI runs;
#   6. examples/scenarios_ctest, a game's project with two scenarios and their
#      goldens, registers them as CTest tests with stepslide_add_scenarios()
#      (from the package config), each running the installed stepslide: they
#      pass, and with one golden broken exactly that test fails;
#   7. docs/embedding.md's "It prints:" block is what examples/embed printed;
#   8. examples/capture, a separate project linking stepslide::capture,
#      builds against the prefix, runs its game loop and writes a scenario
#      that the installed stepslide replays to the recorded end.
# Usage: tests/install/run.sh BUILD_DIR
set -euo pipefail

source_dir=$(cd "$(dirname "$0")/../.." && pwd)
build_dir=$(cd "${1:?usage: tests/install/run.sh BUILD_DIR}" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/stepslide-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix

# The example is built with the compiler (and generator) the tree was built with.
cache_value() { sed -n "s/^$1:[A-Z]*=//p" "$build_dir/CMakeCache.txt"; }
cxx=$(cache_value CMAKE_CXX_COMPILER)
generator=$(cache_value CMAKE_GENERATOR)

cmake --install "$build_dir" --prefix "$prefix" >/dev/null
echo "installed into $prefix: $(cd "$prefix" && find . -type f | sort | tr '\n' ' ')"

# shellcheck disable=SC2207
bullet_cflags=($(pkg-config --cflags bullet-float64))
headers=0
while IFS= read -r header; do
  name=stepslide/${header#"$prefix"/include/stepslide/}
  if ! echo "#include <$name>" |
      "$cxx" -std=c++17 -fsyntax-only -I"$prefix/include" "${bullet_cflags[@]}" -x c++ -; then
    echo "FAIL: installed header <$name> does not compile on its own" >&2
    exit 1
  fi
  headers=$((headers + 1))
done < <(find "$prefix/include/stepslide" -name '*.h' | sort)
if [[ $headers -eq 0 ]]; then
  echo "FAIL: no headers installed under $prefix/include/stepslide" >&2
  exit 1
fi
echo "$headers installed headers compile on their own"

# The public API is what a game uses, and no more: one concept a header (the
# controller, its settings, the character, the stages, the observer, the
# contact filter, what it may push, ...), at most twelve, each
# including only installed stepslide headers, Bullet's and the standard
# library's (never an internal header of src/), and none pulling Bullet's
# broadphase or heightfield (the collision caches stay behind a pointer).
max_headers=12
if [[ $headers -gt $max_headers ]]; then
  echo "FAIL: $headers headers installed under include/stepslide, more than $max_headers:" >&2
  (cd "$prefix/include" && find stepslide -name '*.h' | sort) >&2
  exit 1
fi
bullet_dirs=()
for flag in "${bullet_cflags[@]}"; do
  [[ $flag == -I* ]] && bullet_dirs+=("${flag#-I}")
done
while IFS= read -r header; do
  name=stepslide/${header#"$prefix"/include/stepslide/}
  while IFS= read -r target; do
    if [[ -f "$prefix/include/$target" || -f "$(dirname "$header")/$target" ]]; then
      continue
    fi
    bullet=""
    for dir in "${bullet_dirs[@]}"; do
      [[ -f "$dir/$target" ]] && bullet=$dir/$target
    done
    if [[ -n "$bullet" ]]; then
      if [[ $target == *BroadphaseCollision/* || $target == *Heightfield* || $target == btBulletCollisionCommon.h ]]; then
        echo "FAIL: installed header <$name> includes Bullet's <$target>: the public API needs no broadphase" >&2
        exit 1
      fi
      continue
    fi
    # The C++ standard library: names without a suffix (<vector>, <memory>).
    if [[ $target != */* && $target != *.* ]]; then
      continue
    fi
    echo "FAIL: installed header <$name> includes \"$target\", which is neither installed nor Bullet's nor" \
         "the standard library's (an internal header of src/?)" >&2
    exit 1
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]\([^>"]*\)[>"].*/\1/p' "$header")
done < <(find "$prefix/include/stepslide" -name '*.h' | sort)
for internal in geometry collision controller base capture scenario gate; do
  if [[ -e "$prefix/include/$internal" ]]; then
    echo "FAIL: $prefix/include/$internal was installed: internal headers stay in src/" >&2
    exit 1
  fi
done
echo "$headers public headers (at most $max_headers) include only each other, Bullet's (no broadphase) and std"

if grep -rl -e "$source_dir" -e "$build_dir" "$prefix/lib"/cmake/stepslide; then
  echo "FAIL: the installed package config above refers into the source or build tree" >&2
  exit 1
fi

config_dir="$prefix/lib/cmake/stepslide"
if grep -n -i -E 'nlohmann|CLI11|PkgConfig|pkg_check_modules|find_dependency' "$config_dir"/*.cmake; then
  echo "FAIL: the package config above needs more than Bullet" >&2
  exit 1
fi
for archive in "$prefix/lib/libstepslide_controller.a" "$prefix/lib/libstepslide_collision.a" \
               "$prefix/lib/libstepslide_geometry.a" "$prefix/lib/libstepslide_capture.a"; do
  # Defined symbols of layers a game must not link: the scenario loader, the
  # world and runner, the gate (CSV, diff, check, plots, JUnit), the fuzzer,
  # nlohmann_json and CLI11.
  leaks=$(nm -C --defined-only "$archive" |
    grep -E 'nlohmann|CLI::|stepslide::(load_scenario|World|simulate|parse_csv|to_csv|diff_trajectories|check_scenario|junit|plot|run_fuzz|fuzz|Trajectory|JsonReader|read_file)' || true)
  if [[ -n "$leaks" ]]; then
    echo "FAIL: $(basename "$archive") defines symbols of other layers:" >&2
    echo "$leaks" | head -20 >&2
    exit 1
  fi
  echo "$(basename "$archive") needs only Bullet; $(nm --defined-only "$archive" | grep -c ' T ') functions, none outside it"
done
base_archive="$prefix/lib/libstepslide_base.a"
# Undefined symbols of base that are not the standard library's or libc's.
outside=$(nm -C --undefined-only "$base_archive" | sed -n 's/^ *U //p' | sort -u |
  grep -v -E '^(std::|operator (new|delete)|__cxa_|__gxx_|__gcc_|__stack_chk|_Unwind|__errno_location|__fxstat|__xstat|__lxstat|_GLOBAL_OFFSET_TABLE_|vtable for __cxxabiv1|typeinfo for std::|stepslide::)' |
  grep -v -E '^[a-z_][a-z0-9_]*(@.*)?$' || true)
if [[ -n "$outside" ]]; then
  echo "FAIL: libstepslide_base.a needs more than the C++ standard library:" >&2
  echo "$outside" | head -20 >&2
  exit 1
fi
if [[ -d "$prefix/include/base" ]] || find "$prefix/include" -path '*base/*.h' | grep -q .; then
  echo "FAIL: base's headers were installed; they are private to the build" >&2
  exit 1
fi
echo "libstepslide_base.a needs only the C++ standard library; its headers stay private"

cmake -S "$source_dir/examples/embed" -B "$work/embed" -G "$generator" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release >/dev/null
found_dir=$(sed -n 's/^stepslide_DIR:[A-Z]*=//p' "$work/embed/CMakeCache.txt")
if [[ "$found_dir" != "$prefix"/* ]]; then
  echo "FAIL: find_package(stepslide) found '$found_dir', not the package in $prefix" >&2
  exit 1
fi
cmake --build "$work/embed" >/dev/null
"$work/embed/embed"
bash "$source_dir/tools/readme-examples.sh" --check --only embed-output --embed "$work/embed/embed" \
  --binary "$prefix/bin/stepslide"

"$prefix/bin/stepslide" validate "$source_dir/scenarios/stairs/up_straight.json" >/dev/null

# A game that records its character (stepslide::capture) and writes a
# scenario, which the installed stepslide replays to the recorded end.
cmake -S "$source_dir/examples/capture" -B "$work/capture" -G "$generator" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/capture" >/dev/null
(cd "$work/capture" && ./capture bug.json && "$prefix/bin/stepslide" run --no-project bug.json --out bug.csv)

# A game's scenarios as CTest tests, in a copy (one golden gets broken).
game=$work/game
cp -r "$source_dir/examples/scenarios_ctest" "$game"
cmake -S "$game" -B "$game/build" -G "$generator" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" >/dev/null
expected_tests="game/stairs/three_steps game/walk_to_crate"
listed=$(ctest --test-dir "$game/build" --show-only=json-v1 | python3 -c '
import json, sys
tests = json.load(sys.stdin)["tests"]
for t in tests:
    print(t["name"], t["command"][0])
')
if [[ "$(echo "$listed" | cut -d" " -f1 | tr '\n' ' ' | sed 's/ $//')" != "$expected_tests" ]]; then
  echo "FAIL: stepslide_add_scenarios registered these tests, expected $expected_tests:" >&2
  echo "$listed" >&2
  exit 1
fi
if echo "$listed" | cut -d" " -f2 | grep -v -x "$prefix/bin/stepslide"; then
  echo "FAIL: the scenario tests above do not run the installed $prefix/bin/stepslide" >&2
  exit 1
fi
if ! ctest --test-dir "$game/build" --output-on-failure >"$work/ctest-pass.txt" 2>&1; then
  echo "FAIL: the game's scenario tests fail against their goldens:" >&2
  cat "$work/ctest-pass.txt" >&2
  exit 1
fi
# Break one golden: the crate moved 0.5 m in the last row's x.
python3 - "$game/golden/walk_to_crate.csv" <<'PY'
import sys
path = sys.argv[1]
lines = open(path).read().split("\n")
header = next(i for i, l in enumerate(lines) if not l.startswith("#"))
x = lines[header].split(",").index("x")
last = max(i for i, l in enumerate(lines) if l and not l.startswith("#"))
cells = lines[last].split(",")
cells[x] = str(float(cells[x]) + 0.5)
lines[last] = ",".join(cells)
open(path, "w").write("\n".join(lines))
PY
if ctest --test-dir "$game/build" --output-on-failure >"$work/ctest-fail.txt" 2>&1; then
  echo "FAIL: ctest passed with a broken golden" >&2
  exit 1
fi
if ! grep -q "50% tests passed, 1 tests failed out of 2" "$work/ctest-fail.txt" ||
    ! grep -q "game/walk_to_crate .*Failed" "$work/ctest-fail.txt" ||
    ! grep -q "first divergence at tick 60, column x" "$work/ctest-fail.txt"; then
  echo "FAIL: expected game/walk_to_crate alone to fail at tick 60, column x:" >&2
  cat "$work/ctest-fail.txt" >&2
  exit 1
fi
echo "stepslide_add_scenarios: $expected_tests pass with the installed stepslide; a broken golden fails its test"
echo "install test passed"
