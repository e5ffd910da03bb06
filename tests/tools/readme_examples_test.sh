#!/usr/bin/env bash
# The CTest `readme/examples`: every example block of README.md and
# docs/*.md is what tools/readme-examples.sh makes now (it names each block
# that differs, and the document it is in), and the picture
# (docs/plot-up-spiral.svg) is what tools/render-docs.sh draws.
# The blocks show output to the last bit, as the goldens' build printed it:
# on another build (another architecture, compiler or flags) the comparison
# is skipped (exit 77), as the goldens' own bits may differ there.
# Usage: tests/tools/readme_examples_test.sh SOURCE_DIR STEPSLIDE_BINARY
set -euo pipefail
source_dir=${1:?usage: readme_examples_test.sh SOURCE_DIR STEPSLIDE_BINARY}
binary=${2:?usage: readme_examples_test.sh SOURCE_DIR STEPSLIDE_BINARY}

this_build=$("$binary" --version | sed -n 's/^build: //p')
golden_build=$(sed -n 's/^# build //p' "$source_dir/golden/stairs/up_straight.csv")
if [[ "$this_build" != "$golden_build" ]]; then
  echo "skipped: the documentation's examples were made by the goldens' build, not this one"
  echo "  goldens: $golden_build"
  echo "  this:    $this_build"
  exit 77
fi
bash "$source_dir/tools/readme-examples.sh" --check --binary "$binary"
# The documentation's picture is output too.
exec bash "$source_dir/tools/render-docs.sh" --check "$(dirname "$binary")"
