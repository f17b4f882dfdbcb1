#!/usr/bin/env bash
# The GPU machine's script: build there, run the whole test suite (GPU tests included), the suites
# that need a process or devices of their own (a sticky CUDA error; pointers from another device,
# with two GPUs) on their own lines, the GPU tests under compute-sanitizer (memcheck, racecheck,
# initcheck, synccheck), the demo, with SDDMM_HUGE=1 the huge-size check (sddmm-huge-check: about
# 129 GB of device memory, 9 s on an H200 on d070b19), and with BENCH_ARGS set the benchmark. Logs go
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

if [ "${SANITIZERS_ONLY:-0}" != 1 ]; then
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
fi
# Under the sanitizers, three GPU tests are left out (they ran above, unsanitized): the out-of-memory
# test provokes failing cudaMalloc calls on purpose (memcheck counts each as an API error), the
# scratch-pool test measures the device's free memory, which the other processes running at once
# move, and the 16-thread x 1000-execute test takes far too long under racecheck. Every other GPU
# test case runs in a process of its own per tool, SANITIZER_JOBS of them at once (default: the
# CPU count, at most 16: each holds a CUDA context on the one GPU), case after case in the suite's
# order, tool by tool (below). compute-sanitizer's cost is mostly on the host and serial in a
# process: shards of many cases, all at once, did not finish in a 10-minute call (H200,
# 2026-11-29, 9fb280d: memcheck, initcheck and synccheck of 9 shards and racecheck of one, 28
# processes, cut at 380 s; the same on 3 shards, 10 processes, cut at 405 s), where one process
# per case, 16 at once, ran those 3 shards' 28 cases under the 3 tools (80 processes) in 267 s, the
# longest case (SpMM's narrow lane groups) 221-227 s of it.
# racecheck is the slow one: in the same pool (2e9784a, H200) the 14 cases of differential_test.cpp
# each ran past 428 s under it, while the 17 others timed alone took 6-168 s. So that calls of limited
# length can split the work: SANITIZERS picks the tools (default all four), SANITIZER_CASES the
# cases (a doctest name filter, default all), and SANITIZERS_ONLY=1 skips every other step but the
# build. racecheck leaves CUB's and Thrust's kernels (plan creation's sorts and scans, library code:
# names containing "cub") out of its instrumentation, RACECHECK_EXCLUDE (a --kernel-name-exclude
# value, default kns=cub; empty: instrument every kernel): so the 14 differential cases, all at
# once, each finished in 87-538 s (H200, 17f391f), where instrumented they each ran past 536 s.
# SANITIZE_SECONDS bounds the sanitizers' step (default: no bound), so that a run in a call of limited
# length ends in time to pack its logs (the device tool returns 8 files, not a folder of logs: a
# call cut at its limit with the logs unpacked returned 5 of 190, e92): a process still running then
# is stopped and its case reported CUT, one not yet started NOT RUN; either makes the tool's line
# INCOMPLETE and the script's exit status a failure.
read -r -a tools <<<"${SANITIZERS-memcheck racecheck initcheck synccheck}"
sanitize_deadline=$(( ${SANITIZE_SECONDS:+$(date +%s) + SANITIZE_SECONDS} ))  # epoch seconds; 0: no bound
left_out='*out of memory*,*scratch pool*,*16 threads*'
# doctest lists the names between its banner lines (without a GPU the runner prints a SKIPPED line
# instead, and no case is listed); a comma in a name would split the -tc filter (a list), so each
# is matched with ? there.
mapfile -t cases < <("$build/tests/sddmm_tests" --gpu-only --list-test-cases -tc="${SANITIZER_CASES:-*}" -tce="$left_out" |
  grep -vE '^(\[doctest\]|=+$|$|SKIPPED: )')
# The cases whose settings are subcases of their own (tests/cuda/differential_test.cpp: one per
# setting), each run as one process per subcase: whole, each ran past 420 s under initcheck and
# synccheck among 16 processes (H200, 2026-12-02, e62), where the other 51 cases finished. Lines
# of "case name<TAB>subcase name"; a name that no longer matches fails its log's check below (doctest
# then enters no subcase and runs no assertion), and one more process a case runs every subcase
# the file does not name (-sce), so that a setting added to the test is not left unsanitized.
subcases_file=${SANITIZER_SUBCASES_FILE:-scripts/sanitizer-subcases.tsv}
sanitize_case() {  # "tool<TAB>case number<TAB>case name[<TAB>subcase name]": one process, its log named by them
  local tool=${1%%$'\t'*} rest=${1#*$'\t'}
  local i=${rest%%$'\t'*} name=${rest#*$'\t'} sub="" log
  if [[ $name == *$'\t'* ]]; then sub=${name#*$'\t'}; name=${name%%$'\t'*}; fi
  local exclude=() left_out_kernels=${RACECHECK_EXCLUDE-kns=cub} pick=()
  if [ "$tool" = racecheck ] && [ -n "$left_out_kernels" ]; then
    exclude=(--kernel-name-exclude "$left_out_kernels")
  fi
  log="$out/sanitizer-$tool-$i.log"
  if [ "$sub" = "(the rest)" ]; then
    pick=("-sce=$(awk -F'\t' -v c="$name" '$1 == c { gsub(",", "?", $2); printf "%s%s", (n++ ? "," : ""), $2 }' "$subcases_file")")
    log="$out/sanitizer-$tool-$i-rest.log"
  elif [ -n "$sub" ]; then
    pick=("-sc=${sub//,/?}")
    log="$out/sanitizer-$tool-$i-sub-$(printf '%s' "$sub" | cksum | cut -d' ' -f1).log"
  fi
  local bound=()
  if [ "$sanitize_deadline" -gt 0 ]; then
    local left=$(( sanitize_deadline - $(date +%s) ))
    if [ "$left" -le 0 ]; then echo "NOT RUN: past SANITIZE_SECONDS" >"$log"; return 0; fi
    bound=(timeout -k 5 "$left")
  fi
  "${bound[@]}" compute-sanitizer --tool "$tool" "${exclude[@]}" --error-exitcode 99 "$build/tests/sddmm_tests" \
    --gpu-only "-tc=${name//,/?}" "${pick[@]}" >"$log" 2>&1
  local rc=$?
  if [ ${#bound[@]} -gt 0 ] && { [ $rc -eq 124 ] || [ $rc -eq 137 ]; }; then echo "CUT: stopped at SANITIZE_SECONDS" >>"$log"; fi
}
export -f sanitize_case
export build out subcases_file sanitize_deadline
t0=$SECONDS
# The pool's order is tool by tool (every case under the first tool, then under the next): one tool
# at a time ran the 139 case-tool runs that e65 had left in 518 s (H200, 2026-12-02, e67 and e68:
# initcheck and synccheck on 47 cases each, 64-68 s, then racecheck on 45, 386 s), where the same
# tools interleaved case by case (e65) had finished about 50 of them in 420 s.
for tool in "${tools[@]}"; do
  for i in "${!cases[@]}"; do
    mapfile -t subs < <([ -f "$subcases_file" ] && awk -F'\t' -v c="${cases[$i]}" '$1 == c { print $2 }' "$subcases_file")
    if [ ${#subs[@]} -eq 0 ]; then printf '%s\t%s\t%s\n' "$tool" "$i" "${cases[$i]}"; fi
    for sub in "${subs[@]}" ${subs[0]:+"(the rest)"}; do printf '%s\t%s\t%s\t%s\n' "$tool" "$i" "${cases[$i]}" "$sub"; done
  done
done | xargs -d '\n' -P "${SANITIZER_JOBS:-$(( $(nproc) < 16 ? $(nproc) : 16 ))}" -I{} bash -c 'sanitize_case "$1"' _ {}
for tool in "${tools[@]}"; do
  failed=() unfinished=()
  for i in "${!cases[@]}"; do
    # A case passes when each of its logs (one, or one a subcase and the rest) has a clean summary
    # from the tool and doctest ran exactly that one case, passed, with at least one assertion (a
    # filter that matched nothing would run none and still say SUCCESS; the rest may have none).
    logs=("$out/sanitizer-$tool-$i.log")
    compgen -G "$out/sanitizer-$tool-$i-sub-*.log" >/dev/null && logs=("$out/sanitizer-$tool-$i"-sub-*.log "$out/sanitizer-$tool-$i-rest.log")
    for log in "${logs[@]}"; do
      if grep -qE "^(NOT RUN|CUT): " "$log"; then
        unfinished+=("$i")
        break
      fi
      if ! grep -qE "(ERROR|RACECHECK) SUMMARY: 0 (errors|hazards)" "$log" ||
         ! grep -qE "test cases: +1 \| +1 passed \| +0 failed" "$log" ||
         { [[ $log != *-rest.log ]] && grep -qE "assertions: +0 \|" "$log"; }; then
        failed+=("$i")
        break
      fi
    done
  done
  if [ ${#cases[@]} -eq 0 ]; then
    record "compute-sanitizer $tool" "FAIL (no GPU test cases listed)"
  elif [ ${#failed[@]} -eq 0 ] && [ ${#unfinished[@]} -eq 0 ]; then
    record "compute-sanitizer $tool" "PASS (${#cases[@]} cases, $((SECONDS - t0)) s for all tools)"
  elif [ ${#failed[@]} -eq 0 ]; then
    record "compute-sanitizer $tool" "INCOMPLETE (cases ${unfinished[*]} cut or not run at SANITIZE_SECONDS; the other $(( ${#cases[@]} - ${#unfinished[@]} )) clean)"
  else
    record "compute-sanitizer $tool" "FAIL (cases ${failed[*]}, see sanitizer-$tool-N.log)"
    for i in "${failed[@]}"; do echo "  $i: ${cases[$i]}"; done
  fi
done
if [ "${SANITIZERS_ONLY:-0}" != 1 ]; then
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
fi

echo
echo "== sddmm GPU check: commit ${SDDMM_COMMIT:-unknown}, $(cat "$out/gpu.txt")"
printf '%s\n' "${summary[@]}"
! printf '%s\n' "${summary[@]}" | grep -qE "FAIL|INCOMPLETE"
