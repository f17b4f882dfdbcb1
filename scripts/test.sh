#!/usr/bin/env bash
# Command 2 of the README: install what is missing, build, and run every test (ctest). GPU tests
# run when a CUDA device is visible and are reported as skipped otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "${JOBS:-$(nproc)}"
