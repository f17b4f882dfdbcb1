#!/usr/bin/env bash
# The GPU machine's script: build there, run the whole test suite (GPU tests included), the suites
# that need a process or devices of their own (a sticky CUDA error; pointers from another device,
# with two GPUs) on their own lines, the GPU tests under compute-sanitizer (memcheck, racecheck,
# initcheck, synccheck), the demo, with SDDMM_HUGE=1 the huge-size check (sddmm-huge-check: about
# 129 GB of device memory, 1-3 minutes on an H200), and with BENCH_ARGS set the benchmark. Logs go
# to $OUT; a summary is printed last, each step PASS, FAIL or SKIPPED with the reason.
#
# Needs (carried in a git-ignored folder, default .carry/): doctest/doctest.h and data/*.mtx.
#   SDDMM_COMMIT=<sha> SDDMM_HUGE=1 BENCH_ARGS="--suite full" scripts/gpu-check.sh
# SDDMM_COMMIT only labels the summary: write the sha out as seen where the repository lives. A
# copy of the working tree sent to a GPU machine may carry an older .git, so `git rev-parse HEAD`
# run there names the wrong commit (it named the session's first one on the device tool).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-/tmp/sddmm-gpu-check}
carry=${SDDMM_CARRY:-$PWD/.carry}
build=${BUILD_DIR:-build-gpu}
mkdir -p "$out"
summary=()
# Each result goes to the summary and, at once, to stdout: a run cut short still says how far it got.
record() { summary+=("$(printf '%-34s %s' "$1" "$2")"); echo "[gpu-check] ${summary[-1]}"; }
run_step() {  # name, log file, command...
  local name=$1 log=$2; shift 2
  local t0=$SECONDS
  if "$@" >"$out/$log" 2>&1; then record "$name" "PASS ($((SECONDS - t0)) s)"; return 0; fi
  record "$name" "FAIL ($((SECONDS - t0)) s, see $log)"; tail -n 40 "$out/$log"; return 1
}
# A step whose exit 77 means it did not run (too few GPUs, too little memory): SKIPPED, with the
# reason from the "SKIPPED: ..." line it printed.
run_gated_step() {  # name, log file, command...
  local name=$1 log=$2; shift 2
  local t0=$SECONDS rc=0
  "$@" >"$out/$log" 2>&1 || rc=$?
  case $rc in
    0) record "$name" "PASS ($((SECONDS - t0)) s)" ;;
    77) record "$name" "SKIPPED ($(grep -m1 -o 'SKIPPED: .*' "$out/$log" | cut -c10-))" ;;
    *) record "$name" "FAIL ($((SECONDS - t0)) s, exit $rc, see $log)"; tail -n 40 "$out/$log"; return 1 ;;
  esac
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
run_step "configure + build (sm_${ARCH:-90})" build.log bash -c "
  cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=${ARCH:-90} \
    -DSDDMM_DOCTEST_DIR=$carry -DSDDMM_TEST_DATA_DIR=$carry/data && cmake --build $build -j \$(nproc)" || {
  printf '%s\n' "${summary[@]}"; exit 1; }

run_step "ctest (CPU + GPU suites)" ctest.log ctest --test-dir "$build" --output-on-failure -j 4
grep -E "tests passed|Skipped|Failed" "$out/ctest.log" | tail -n 5
run_step "GPU suite alone (doctest)" gpu-suite.log "$build/tests/sddmm_tests" --gpu-only
tail -n 3 "$out/gpu-suite.log"
# ctest ran these too (sddmm_tests_sticky_error, sddmm_tests_two_devices); run again so that the
# summary names each. The sticky error poisons only its own process's context (no MPS here).
run_gated_step "sticky CUDA error (own process)" sticky-error.log "$build/tests/sddmm_tests" --sticky-error-only
tail -n 3 "$out/sticky-error.log"
run_gated_step "pointers from another device" two-devices.log "$build/tests/sddmm_tests" --two-devices-only
tail -n 3 "$out/two-devices.log"
# Under the sanitizers, three GPU tests are left out (they ran above, unsanitized): the out-of-memory
# test provokes failing cudaMalloc calls on purpose (memcheck counts each as an API error), the
# scratch-pool test measures the device's free memory, which the shards' processes running at once
# move, and the 16-thread x 1000-execute test takes far too long under racecheck. The rest runs in shards of
# test cases per tool, all processes at once (compute-sanitizer's cost is mostly on the
# host): the whole suite under racecheck alone took over 7 minutes in one process. The tensor-core
# cases have shards of their own (with the float32 ones, one shard of all of them ran past a
# 10-minute call). SANITIZERS picks the tools (default all four), so that a call can run some:
# at 1a5e7e7 on the H200, SANITIZERS="memcheck racecheck" took 507 s of a 565 s call (too close to
# the limit: give each its own call), "synccheck initcheck" 31 s. At 904d694 (H200) the build, ctest
# (130 s) and the GPU suite alone (120 s) took 300 s before the sanitizers began, and "memcheck
# initcheck synccheck" had not finished two shards by 470 s: run BENCH_ARGS in a call of its own.
shards=('-tc=*SDDMM matches*'
        '-tc=*tensor-core*float16*,*tensor-core*bfloat16*'
        '-tc=*tensor-core*TF32 split*'
        '-tc=*tensor-core*ALLOW_TF32*,*tensor-core*each arithmetic*'
        '-tc=*SpMM and transposed*,*heavy-row*'
        '-tc=*real graphs*'
        '-tc=*SpMM slab kernel*'
        '-tc=*narrow lane groups*'
        '-tce=*out of memory*,*scratch pool*,*16 threads*,*SDDMM matches*,*tensor-core*,*SpMM and transposed*,*heavy-row*,*real graphs*,*SpMM slab kernel*,*narrow lane groups*')
read -r -a tools <<<"${SANITIZERS-memcheck racecheck initcheck synccheck}"
t0=$SECONDS
for tool in "${tools[@]}"; do
  for i in "${!shards[@]}"; do
    compute-sanitizer --tool "$tool" --error-exitcode 99 "$build/tests/sddmm_tests" --gpu-only "${shards[$i]}" \
      >"$out/sanitizer-$tool-$i.log" 2>&1 &
  done
done
wait
for tool in "${tools[@]}"; do
  failed=()
  for i in "${!shards[@]}"; do
    log="$out/sanitizer-$tool-$i.log"
    # A shard passes when the tool's summary is clean and doctest's status line says SUCCESS.
    if ! grep -qE "(ERROR|RACECHECK) SUMMARY: 0 (errors|hazards)" "$log" || ! grep -q "Status: SUCCESS" "$log"; then
      failed+=("$i")
    fi
  done
  if [ ${#failed[@]} -eq 0 ]; then
    record "compute-sanitizer $tool" "PASS (${#shards[@]} shards, $((SECONDS - t0)) s for all tools)"
  else
    record "compute-sanitizer $tool" "FAIL (shards ${failed[*]}, see sanitizer-$tool-N.log)"
  fi
  grep -hE "ERROR SUMMARY|RACECHECK SUMMARY|test cases:" "$out"/sanitizer-"$tool"-*.log | sort | uniq -c
done
run_step "demo (R-MAT scale 20, K 64)" demo.log "$build/examples/sddmm-demo" --scale 20 --reps 20
cat "$out/demo.log"
if [ "${SDDMM_HUGE:-0}" = 1 ]; then
  run_gated_step "huge sizes (sddmm-huge-check)" huge.log "$build/tests/huge/sddmm-huge-check"
  cat "$out/huge.log"
else
  record "huge sizes (sddmm-huge-check)" "SKIPPED (opt-in: SDDMM_HUGE=1; 129 GB of device memory)"
fi
if [ -n "${BENCH_ARGS:-}" ] && [ -x "$build/bench/sddmm-bench" ]; then
  # shellcheck disable=SC2086
  run_step "benchmark" bench.log "$build/bench/sddmm-bench" $BENCH_ARGS --json "$out/bench.json" --csv "$out/bench.csv"
  tail -n 60 "$out/bench.log"
fi

echo
echo "== sddmm GPU check: commit ${SDDMM_COMMIT:-unknown}, $(cat "$out/gpu.txt")"
printf '%s\n' "${summary[@]}"
! printf '%s\n' "${summary[@]}" | grep -q FAIL
