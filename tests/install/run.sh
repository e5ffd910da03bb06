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
#   4. the installed library is the controller alone: its package config
#      finds nothing but Bullet (no nlohmann_json, CLI11 or pkg-config), and
#      the archive defines no symbol of the scenario, gate or fuzz layers;
#   5. the installed CLI runs.
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
for header in "$prefix"/include/stepslide/*.h; do
  name=stepslide/$(basename "$header")
  if ! echo "#include <$name>" |
      "$cxx" -std=c++17 -fsyntax-only -I"$prefix/include" "${bullet_cflags[@]}" -x c++ -; then
    echo "FAIL: installed header <$name> does not compile on its own" >&2
    exit 1
  fi
  headers=$((headers + 1))
done
if [[ $headers -eq 0 ]]; then
  echo "FAIL: no headers installed under $prefix/include/stepslide" >&2
  exit 1
fi
echo "$headers installed headers compile on their own"

if grep -rl -e "$source_dir" -e "$build_dir" "$prefix/lib"/cmake/stepslide; then
  echo "FAIL: the installed package config above refers into the source or build tree" >&2
  exit 1
fi

config_dir="$prefix/lib/cmake/stepslide"
if grep -n -i -E 'nlohmann|CLI11|PkgConfig|pkg_check_modules|find_dependency' "$config_dir"/*.cmake; then
  echo "FAIL: the package config above needs more than Bullet" >&2
  exit 1
fi
archive="$prefix/lib/libstepslide_controller.a"
# Defined symbols of layers a game must not link: the scenario loader, the
# world and runner, the gate (CSV, diff, check, plots, JUnit), the fuzzer,
# nlohmann_json and CLI11.
leaks=$(nm -C --defined-only "$archive" |
  grep -E 'nlohmann|CLI::|stepslide::(load_scenario|World|simulate|parse_csv|to_csv|diff_trajectories|check_scenario|junit|plot|run_fuzz|fuzz|Trajectory|JsonReader|read_file)' || true)
if [[ -n "$leaks" ]]; then
  echo "FAIL: the controller archive defines symbols of other layers:" >&2
  echo "$leaks" | head -20 >&2
  exit 1
fi
echo "the package needs only Bullet; $(nm --defined-only "$archive" | grep -c ' T ') functions, none outside the controller"

cmake -S "$source_dir/examples/embed" -B "$work/embed" -G "$generator" \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release >/dev/null
found_dir=$(sed -n 's/^stepslide_DIR:[A-Z]*=//p' "$work/embed/CMakeCache.txt")
if [[ "$found_dir" != "$prefix"/* ]]; then
  echo "FAIL: find_package(stepslide) found '$found_dir', not the package in $prefix" >&2
  exit 1
fi
cmake --build "$work/embed" >/dev/null
"$work/embed/embed"

"$prefix/bin/stepslide" validate "$source_dir/scenarios/stairs/up_straight.json" >/dev/null
echo "install test passed"
