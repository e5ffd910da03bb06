#!/usr/bin/env bash
# CTest `capture/example`: examples/capture (built in the tree) runs its game
# loop and writes a scenario; `stepslide run` replays it, and the scenario's
# own expectation (the recorded end position, within 1e-9 m) passes.
# Usage: tests/capture/example.sh CAPTURE_EXAMPLE STEPSLIDE
set -euo pipefail
example=${1:?usage: example.sh CAPTURE_EXAMPLE STEPSLIDE}
stepslide=${2:?usage: example.sh CAPTURE_EXAMPLE STEPSLIDE}
work=$(mktemp -d "${TMPDIR:-/tmp}/stepslide-capture.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
"$example" bug.json
"$stepslide" run --no-project bug.json --out bug.csv
grep -q '"tick": "end", "position"' bug.json
echo "capture example: the written scenario replays to its recorded end"
