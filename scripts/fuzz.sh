#!/usr/bin/env bash
# Builds the libFuzzer harness (clang, ASan + UBSan, CPU backend) into build-fuzz and runs it for
# FUZZ_SECONDS (default 60) from the checked-in seeds in fuzz/corpus. New inputs go to
# build-fuzz/corpus, a crashing input to build-fuzz/findings/ (reproduce: sddmm_fuzz_api FILE).
# It runs through scripts/no-aslr.sh (clang 14 sanitizers and kernel address randomisation).
# Extra arguments go to libFuzzer, e.g. scripts/fuzz.sh -jobs=2.
# The seeds were made by a 5-minute run, then kept only where they add an edge of coverage:
#   sddmm_fuzz_api -merge=1 -use_counters=0 -use_value_profile=0 NEW_DIR OLD_DIRS...
set -euo pipefail
cd "$(dirname "$0")/.."
CC=clang CXX=clang++ BUILD_DIR=build-fuzz scripts/build.sh -DSDDMM_BUILD_FUZZ=ON -DSDDMM_ENABLE_CUDA=OFF \
  -DSDDMM_BUILD_TESTS=OFF -DSDDMM_BUILD_EXAMPLES=OFF -DSDDMM_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo
mkdir -p build-fuzz/corpus build-fuzz/findings
exec scripts/no-aslr.sh build-fuzz/fuzz/sddmm_fuzz_api -max_total_time="${FUZZ_SECONDS:-60}" -timeout=10 \
  -rss_limit_mb=2048 -artifact_prefix=build-fuzz/findings/ -print_final_stats=1 "$@" build-fuzz/corpus fuzz/corpus
