#!/usr/bin/env bash
# Checks the controller's invariants on COUNT random scenarios (default 1000)
# from seed SEED (default 1) with `stepslide fuzz`, using the release build
# (tools/build.sh). Violations are shrunk and saved in fuzz-findings/ as
# scenario files.
#
# SEED a number: a fixed range, so a run checks the same worlds every time and
# fails only when a change breaks an invariant on one of them.
# SEED `commit`: the range starts at the seed derived from the commit under
# test (tools/fuzz-seed.sh: the first 8 hex digits of `git rev-parse HEAD`),
# so every commit explores new worlds; the seed and its source are printed,
# and a failure is reproduced with the numeric command printed beside them.
# CI runs both (.ci/run).
#
# FUZZ_JOBS=N checks N worlds at once (`stepslide fuzz -j N`, 0: one per
# core; default 1); the output is the same for every N.
#
# Usage: tools/fuzz-controller.sh [COUNT] [SEED|commit]
# A long run: tools/fuzz-controller.sh 100000 $RANDOM   (about 1000 scenarios per 4.5 s per core)
# A fresh range in resumable shards, summed up by kind: tools/fuzz-fresh.sh
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000}
seed=${2:-1}
if [[ "$seed" == commit ]]; then
  derived=$(bash tools/fuzz-seed.sh)
  read -r seed source <<<"$derived"
  echo "fuzz-controller: seeds derived from the $source: $seed..$((seed + count - 1));" \
       "reproduce with: tools/fuzz-controller.sh $count $seed"
elif [[ ! "$seed" =~ ^[0-9]+$ ]]; then
  echo "fuzz-controller: SEED '$seed': expected a number or 'commit'" >&2
  exit 2
fi
jobs=${FUZZ_JOBS:-1}
if [[ ! "$jobs" =~ ^[0-9]+$ ]]; then
  echo "fuzz-controller: FUZZ_JOBS '$jobs': expected a number" >&2
  exit 2
fi
[[ -x build/stepslide ]] || bash tools/build.sh
./build/stepslide fuzz --seed "$seed" --count "$count" -j "$jobs" --out-dir fuzz-findings
