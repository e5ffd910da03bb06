#!/usr/bin/env bash
# Installs what is missing (Debian packages only), then configures and builds
# the release preset into build/. Shared by the two README commands.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
