#!/usr/bin/env bash
# Regenerates the pictures in docs/ from scenarios in scenarios/ with
# `stepslide plot` (each run drawn over its golden). With --png, also takes a
# PNG of each in headless Chromium (STEPSLIDE_WITH_CHROMIUM=1 tools/install-deps.sh).
# With --check, draws them into a scratch folder instead and exits 1 when
# docs/ holds anything else. Then takes a PNG of `stepslide view`'s 3D page in
# headless Chromium with software WebGL (skipped with a note when Chromium is
# missing, unless --png; not with --check).
# Usage: tools/render-docs.sh [--png | --check] [BUILD_DIR]   (default build/; its stepslide is built when missing)
set -euo pipefail
cd "$(dirname "$0")/.."

png=0
check=0
while [[ "${1:-}" == --* ]]; do
  case "$1" in
    --png) png=1 ;;
    --check) check=1 ;;  # draw into a scratch folder and fail when docs/ differs (CTest readme/examples)
    *) echo "render-docs: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
build=${1:-build}
if [[ ! -x "$build/stepslide" ]]; then
  # Only the command draws: no need for the tests and benchmarks.
  bash tools/install-deps.sh
  cmake --preset release >/dev/null
  cmake --build --preset release -j "$(nproc)" --target stepslide
  build=build
fi

# scenario -> picture: up a spiral staircase onto its top step; up the
# turning stairs of the OpenArena level (its floors, not its roof).
pictures=(
  "scenarios/stairs/up_spiral.json docs/plot-up-spiral.svg"
  "scenarios/levels/oa_dm3/stairs_16u_up_turning.json docs/plot-oa-dm3-stairs.svg"
)

for entry in "${pictures[@]}"; do
  read -r scenario svg <<<"$entry"
  golden="golden/${scenario#scenarios/}"
  golden="${golden%.json}.csv"
  # Exits 1 when the run no longer matches its golden: a picture must show
  # the behaviour the gate accepts.
  if [[ $check == 1 ]]; then
    fresh=$(mktemp -d)
    "$build/stepslide" plot "$scenario" --golden "$golden" --out "$fresh/picture.svg" >/dev/null
    if ! cmp -s "$fresh/picture.svg" "$svg"; then
      rm -rf "$fresh"
      echo "render-docs: $svg is not what \`stepslide plot $scenario\` draws now; run tools/render-docs.sh" >&2
      exit 1
    fi
    rm -rf "$fresh"
    echo "render-docs: $svg is up to date"
    continue
  fi
  "$build/stepslide" plot "$scenario" --golden "$golden" --out "$svg"
  if [[ $png == 1 ]]; then
    chromium=$(command -v chromium || true)
    if [[ -z "$chromium" ]]; then
      echo "render-docs: chromium is not installed (STEPSLIDE_WITH_CHROMIUM=1 tools/install-deps.sh)" >&2
      exit 2
    fi
    width=$(grep -o -m1 'width="[0-9]*' "$svg" | head -1 | tr -dc 0-9)
    height=$(grep -o -m1 'height="[0-9]*' "$svg" | head -1 | tr -dc 0-9)
    profile=$(mktemp -d)
    "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
      --disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
      --user-data-dir="$profile" --screenshot="$PWD/${svg%.svg}.png" --window-size="$width,$height" \
      "file://$PWD/$svg" >/dev/null 2>&1
    rm -rf "$profile"
    echo "rendered ${svg%.svg}.png (${width}x${height})"
  fi
done

# scenario, tick -> screenshot of its 3D view over its golden (the second:
# the first frame inside a level, cut open at the character). Screenshots
# depend on the renderer, so --check does not compare them.
[[ $check == 1 ]] && exit 0
views=(
  "scenarios/stairs/up_spiral.json 35 docs/view-up-spiral.png"
  "scenarios/levels/oa_dm3/stairs_8u_up.json 0 docs/view-oa-dm3-stairs.png"
)
chromium=$(command -v chromium || true)
if [[ -z "$chromium" ]]; then
  echo "render-docs: chromium is not installed (STEPSLIDE_WITH_CHROMIUM=1 tools/install-deps.sh); view pictures not redrawn" >&2
  [[ $png == 1 ]] && exit 2
  exit 0
fi
for entry in "${views[@]}"; do
  read -r scenario tick picture <<<"$entry"
  golden="golden/${scenario#scenarios/}"
  golden="${golden%.json}.csv"
  work=$(mktemp -d)
  "$build/stepslide" view "$scenario" --golden "$golden" --out "$work/view.html"
  "$chromium" --headless --no-sandbox --use-angle=swiftshader --enable-unsafe-swiftshader --disable-quic \
    --no-first-run --disable-background-networking --disable-component-update --disable-sync --hide-scrollbars \
    --user-data-dir="$work/profile" --screenshot="$PWD/$picture" --window-size=1280,760 \
    "file://$work/view.html#tick=$tick" >/dev/null 2>&1
  rm -rf "$work"
  echo "rendered $picture (1280x760, tick $tick)"
done
