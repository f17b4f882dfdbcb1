#!/usr/bin/env bash
# Command 2 of the README: install what is missing, build, and run every test (ctest). GPU tests
# run when a CUDA device is visible and are reported as skipped otherwise.
# Then the CPU path again, built by clang: the CPU suite under AddressSanitizer + UBSan, the CPU suite
# under ThreadSanitizer, and the libFuzzer harness for FUZZ_SECONDS (default 60).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "${JOBS:-$(nproc)}"

step() { echo "== scripts/test.sh: $* ($SECONDS s so far)"; }
sanitized_build() {  # build dir, CMake options...
  local dir=$1
  shift
  CC=clang CXX=clang++ BUILD_DIR=$dir scripts/build.sh -DSDDMM_ENABLE_CUDA=OFF -DSDDMM_BUILD_EXAMPLES=OFF \
    -DSDDMM_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
}

# clang's UBSan also reports NULL + offset, which GCC's does not. Leaks are checked (LeakSanitizer).
# Sanitized binaries run through scripts/no-aslr.sh: clang 14's sanitizers die at random on kernels
# with more than 28 bits of address randomisation (measurements in that script).
step "AddressSanitizer + UBSan: build-asan, CPU suite"
sanitized_build build-asan -DSDDMM_SANITIZE=ON
asan_env=(ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1 UBSAN_OPTIONS=print_stacktrace=1)
scripts/no-aslr.sh env "${asan_env[@]}" build-asan/tests/sddmm_tests
scripts/no-aslr.sh env "${asan_env[@]}" CUDA_VISIBLE_DEVICES= build-asan/tests/sddmm_tests --no-device-only

# OpenMP runs with its real threads: Archer (from libomp-dev) gives TSan OpenMP's synchronisation,
# and tests/tsan.supp leaves out only libomp's own uninstrumented internals.
step "ThreadSanitizer: build-tsan, CPU suite (OpenMP through Archer)"
sanitized_build build-tsan -DSDDMM_TSAN=ON
scripts/no-aslr.sh env OMP_TOOL_LIBRARIES="/usr/lib/llvm-$(clang -dumpversion | cut -d. -f1)/lib/libarcher.so" \
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/tests/tsan.supp" build-tsan/tests/sddmm_tests

step "libFuzzer: build-fuzz, ${FUZZ_SECONDS:-60} s from fuzz/corpus"
scripts/fuzz.sh
step "all passed"
