#!/usr/bin/env bash
# Installs the Debian packages stepslide builds with, when any is missing.
# Runs apt-get directly as root, through sudo otherwise. Nothing is downloaded
# from anywhere but the Debian archive. Set STEPSLIDE_EXTRA_PACKAGES to add more.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  libbullet-dev libcli11-dev nlohmann-json3-dev libgtest-dev libbenchmark-dev
  python3 libpng-dev libassimp-dev
  libjs-three
  valgrind
)
# valgrind: callgrind counts instructions for the cost gate (tools/cost-gate.sh).
# libjs-three: three.js r111 and its OrbitControls, which `stepslide view`
# inlines into its pages at run time (/usr/share/javascript/three, about 10 MB installed).
# Headless Chromium (about 350 MB installed) renders a plot, a report and a 3D
# view in tests that are skipped without it: opt in with STEPSLIDE_WITH_CHROMIUM=1.
if [[ "${STEPSLIDE_WITH_CHROMIUM:-0}" == 1 ]]; then
  packages+=(chromium fonts-dejavu-core)
fi
# clang with its libFuzzer, ASan and UBSan runtimes, for the asan preset
# (tools/sanitize.sh, tools/fuzz-loader.sh), and llvm (llvm-cov and llvm-profdata
# for tools/fuzz-coverage.sh): opt in with STEPSLIDE_WITH_CLANG=1.
if [[ "${STEPSLIDE_WITH_CLANG:-0}" == 1 ]]; then
  packages+=(clang libclang-rt-14-dev llvm)
fi
# The arm64 cross build and qemu-user, for tools/arm64-gate.sh (docs/fuzzing.md "arm64"):
# opt in with STEPSLIDE_WITH_ARM64=1. Adds the arm64 architecture to dpkg
# (multiarch) first. About 1 GB: the cross compiler, the arm64 libraries
# stepslide links (Bullet, assimp and its dependencies, libpng, zlib, glibc),
# GoogleTest for the unit tests, and qemu.
with_arm64=0
if [[ "${STEPSLIDE_WITH_ARM64:-0}" == 1 ]]; then
  with_arm64=1
  packages+=(crossbuild-essential-arm64 libbullet-dev:arm64 libassimp-dev:arm64 libpng-dev:arm64
             libgtest-dev:arm64 qemu-user-static)
fi
# shellcheck disable=SC2206
packages+=(${STEPSLIDE_EXTRA_PACKAGES:-})

# Installed for the architecture asked: NAME:ARCH for that one, a plain NAME
# for this machine's (or arch all). With multiarch, a plain name matches one
# line per installed architecture.
native=$(dpkg --print-architecture)
installed() {
  local name=${1%%:*} arch=${1#*:}
  [[ "$arch" == "$1" ]] && arch="($native|all)"
  local lines  # read whole first: `| grep -q` would end dpkg-query with SIGPIPE, failing under pipefail
  lines=$(dpkg-query -W -f='${Architecture} ${Status}\n' "$name" 2>/dev/null || true)
  grep -qE "^$arch install ok installed\$" <<<"$lines"
}
missing=()
for p in "${packages[@]}"; do
  installed "$p" || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-deps: need root or sudo to install: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if [[ $with_arm64 == 1 ]] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
  "${as_root[@]}" dpkg --add-architecture arm64
fi
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
