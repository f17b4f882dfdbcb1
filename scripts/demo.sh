#!/usr/bin/env bash
# Command 1 of the README: install what is missing, build, and run the demo (GPU when present,
# CPU otherwise). Arguments go to the demo, e.g. scripts/demo.sh --mtx ../shared/data/cora.mtx
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
exec build/examples/sddmm-demo "$@"
