#!/usr/bin/env bash
# Regenerates the pictures in docs/ from scenarios in scenarios/ with
# `stepslide plot` (each run drawn over its golden). With --png, also takes a
# PNG of each in headless Chromium (STEPSLIDE_WITH_CHROMIUM=1 tools/install-deps.sh).
# Then takes a PNG of `stepslide view`'s 3D page in headless Chromium with
# software WebGL (skipped with a note when Chromium is missing, unless --png).
# Usage: tools/render-docs.sh [--png] [BUILD_DIR]   (default build/, built when missing)
set -euo pipefail
cd "$(dirname "$0")/.."

png=0
if [[ "${1:-}" == "--png" ]]; then
  png=1
  shift
fi
build=${1:-build}
if [[ ! -x "$build/stepslide" ]]; then
  bash tools/build.sh
  build=build
fi

# scenario -> picture: up a spiral staircase onto its top step.
pictures=(
  "scenarios/stairs/up_spiral.json docs/plot-up-spiral.svg"
)

for entry in "${pictures[@]}"; do
  read -r scenario svg <<<"$entry"
  golden="golden/${scenario#scenarios/}"
  golden="${golden%.json}.csv"
  # Exits 1 when the run no longer matches its golden: a picture must show
  # the behaviour the gate accepts.
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

# scenario, tick -> screenshot of its 3D view over its golden.
views=(
  "scenarios/stairs/up_spiral.json 35 docs/view-up-spiral.png"
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
