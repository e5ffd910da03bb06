#!/bin/bash -eu
# Builds stepslide's libFuzzer targets the way OSS-Fuzz and ClusterFuzzLite
# expect (docs/fuzzing.md "ClusterFuzzLite"): with their $CXX, $CXXFLAGS (the
# sanitizer of the run) and $LIB_FUZZING_ENGINE, into $OUT, each with a seed
# corpus ($OUT/<target>_seed_corpus.zip), a dictionary and an options file.
# Runs outside the image too, from a checkout, e.g.
#   SRC=/tmp OUT=/tmp/out WORK=/tmp/work CC=clang CXX=clang++ \
#   CXXFLAGS="-fsanitize=address,undefined -fsanitize=fuzzer-no-link" \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer .clusterfuzzlite/build.sh
set -euo pipefail
# In the image the source is $SRC/stepslide; elsewhere, the checkout holding this script.
source_dir=$SRC/stepslide
if [[ ! -f "$source_dir/.clusterfuzzlite/build.sh" ]]; then source_dir=$(cd "$(dirname "$0")/.." && pwd); fi
build_dir=${WORK:-/work}/build-stepslide
: "${CXXFLAGS:=}"

cmake -S "$source_dir" -B "$build_dir" -G Ninja \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
  -DSTEPSLIDE_FUZZ=ON \
  -DSTEPSLIDE_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" \
  -DCMAKE_BUILD_RPATH='$ORIGIN/lib' \
  -DSTEPSLIDE_BUILD_TESTS=OFF \
  -DSTEPSLIDE_BUILD_BENCH=OFF
cmake --build "$build_dir" --target stepslide_controller_fuzzer stepslide_load_fuzzer

cp "$build_dir/fuzz/controller/stepslide_controller_fuzzer" "$build_dir/fuzz/loader/stepslide_load_fuzzer" "$OUT/"
# The fuzzers run in another image (the runner), which has none of the
# packages installed here: the shared libraries they link (Bullet, assimp,
# libpng and what those need) go beside them, found through the rpath above.
mkdir -p "$OUT/lib"
for target in stepslide_controller_fuzzer stepslide_load_fuzzer; do
  ldd "$OUT/$target" | awk '$3 ~ /^\// {print $3}' |
    grep -vE '/(libc|libm|libdl|librt|libpthread|ld-linux[^/]*|libgcc_s)\.so' |
    while IFS= read -r library; do
      if [[ ! -e "$OUT/lib/$(basename "$library")" ]]; then cp -L "$library" "$OUT/lib/"; fi
    done
done
for target in stepslide_controller_fuzzer stepslide_load_fuzzer; do
  cp "$source_dir/fuzz/loader/scenario.dict" "$OUT/$target.dict"
done
# Both read scenario text, so their options are the same: inputs up to 64 KiB.
printf '[libfuzzer]\nmax_len = 65536\n' >"$OUT/stepslide_controller_fuzzer.options"
printf '[libfuzzer]\nmax_len = 16384\n' >"$OUT/stepslide_load_fuzzer.options"

# Seed corpora. Every self-contained scenario of the repository is an input of
# both targets as it stands (one naming level or mesh files is not); the
# controller's also gets its seed and crash inputs. Flat, unique names.
seeds=$(mktemp -d)
cd "$source_dir"
find scenarios -name '*.json' -size -65536c -print0 | sort -z | while IFS= read -r -d '' file; do
  if ! grep -qE '"(file|include)"' "$file"; then cp "$file" "$seeds/$(echo "$file" | tr '/' '_')"; fi
done
rm -f "$OUT/stepslide_load_fuzzer_seed_corpus.zip" "$OUT/stepslide_controller_fuzzer_seed_corpus.zip"
(cd "$seeds" && zip -q -j "$OUT/stepslide_load_fuzzer_seed_corpus.zip" ./*)
find fuzz/controller/seeds fuzz/controller/crashes -type f ! -name '.*' -print0 | while IFS= read -r -d '' file; do
  cp "$file" "$seeds/$(echo "$file" | tr '/' '_')"
done
(cd "$seeds" && zip -q -j "$OUT/stepslide_controller_fuzzer_seed_corpus.zip" ./*)
rm -rf "$seeds"
