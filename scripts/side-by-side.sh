#!/usr/bin/env bash
# The GPU machine's script for comparing builds in one call (bench/RESULTS.md's rule: ratios side
# by side in one run): builds a base (a `git archive` tarball of the commit before, carried in a
# git-ignored folder), this working tree, and variants of it (each a copy with one sed expression
# applied to one file, or with patches applied), runs the tensor-core tests on every build but the
# base, the benchmark on each build in turn for ROUNDS rounds, compares them (bench/compare.py),
# and then runs the GPU suite alone and the four compute-sanitizer tools on the walk's test cases
# on the fastest build (or on PICK). Logs and JSON go to $OUT as one tarball; the comparison is
# printed.
#
#   BASE_TAR=.carry/base.tar VARIANTS=.carry/variants.txt scripts/side-by-side.sh
#
# With the base made where the repository lives (git archive --format=tar HEAD > .carry/base.tar)
# and VARIANTS lines "name<TAB>file<TAB>sed expression", e.g.
#   dbl	src/cuda/sddmm/sddmm_config.cuh	s/kDoubleSums = kKValue >= 256;/kDoubleSums = true;/
# (a variant whose expression changes nothing fails: it would time the tree twice), or
# "name<TAB>git-apply<TAB>patch [patch ...]": the patches (paths in the repository, e.g.
# bench/experiments/*.patch) applied to the tree's copy in turn. Also read:
# BENCH_ARGS (default: the walk's cells, uniform 8000^2 at 3-10 %, K = 128 / 256, float16 and
# bfloat16 beside the GEMM), ROUNDS (2), SUITE_SECONDS (the GPU suite's limit, 240), SANITIZE_SECONDS
# (the sanitizers' step's limit, 290), PICK, CHECK (0: stop after the comparison), TC (0: no tensor-core
# tests), TC_SECONDS (their limit, 300).
# Needs (carried): doctest/doctest.h and data/*.mtx under SDDMM_CARRY (default .carry/).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
t0=$SECONDS
log() { echo "[$((SECONDS - t0)) s] $*"; }
# The logs and JSON as one tarball in $out (a device call returns at most 8 files).
pack() {
  local extra=()
  [ -d "$out/sanitizers" ] && extra=(./sanitizers)
  (cd "$out" && tar -czf side-by-side.tgz ./*.log ./*.txt ./*.err ./*.json "${extra[@]}" &&
    rm -rf ./*.log ./*.err ./*-r*.txt ./*.json ./sanitizers)
}
out=${OUT:-/tmp/sddmm-side-by-side}
carry=${SDDMM_CARRY:-$PWD/.carry}
mkdir -p "$out"
[ -f "${BASE_TAR:-}" ] || { echo "BASE_TAR: no such tarball (git archive --format=tar REV > it)"; exit 2; }
work=${SIDE_BY_SIDE_WORK:-/tmp/sddmm-side-by-side-work}  # the builds' sources and build folders
builds=(tree)
declare -A src=([base]=$work/base [tree]=$work/tree)
rm -rf "$work" && mkdir -p "$work/base" "$work/tree"
tar -xf "$BASE_TAR" -C "$work/base"
tar --exclude='./build*' --exclude=./.carry --exclude=./.git -cf - . | tar -xf - -C "$work/tree"
if [ -n "${VARIANTS:-}" ]; then
  while IFS=$'\t' read -r name file expression; do
    [ -n "$name" ] || continue
    mkdir -p "$work/$name" && cp -a "$work/tree/." "$work/$name"
    if [ "$file" = git-apply ]; then  # the expression: patches (paths in the repository), applied in turn
      for patch in $expression; do
        (cd "$work/$name" && git apply "$OLDPWD/$patch") || { echo "variant $name: $patch does not apply"; exit 2; }
      done
    else
      sed -i "$expression" "$work/$name/$file"
      if cmp -s "$work/tree/$file" "$work/$name/$file"; then echo "variant $name changes nothing"; exit 2; fi
    fi
    src[$name]=$work/$name
    builds+=("$name")
  done <"$VARIANTS"
fi
jobs=$(( $(nproc) / (${#builds[@]} + 1) ))
[ "$jobs" -ge 1 ] || jobs=1
build_one() {  # name, targets...
  local name=$1; shift
  cmake -S "${src[$name]}" -B "${src[$name]}/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DSDDMM_DOCTEST_DIR="$carry" -DSDDMM_TEST_DATA_DIR="$carry/data" >"$out/conf-$name.log" 2>&1 &&
    cmake --build "${src[$name]}/build" -j "$jobs" --target "$@" >"$out/build-$name.log" 2>&1
  echo $? >"$out/build-$name.status"
}
build_one base sddmm-bench &
for b in "${builds[@]}"; do build_one "$b" sddmm_tests sddmm-bench & done
wait
for b in base "${builds[@]}"; do
  if [ "$(cat "$out/build-$b.status" 2>/dev/null)" != 0 ]; then
    echo "build $b failed:"; tail -n 20 "$out/conf-$b.log" "$out/build-$b.log"; exit 1
  fi
done
log "builds done"
# The tensor-core tests, on every build at once: their CPU references share the cores, so four
# builds' took more than 150 s (cut there, 2026-12-01, .carry/e47.sh; two builds' took less). TC=0
# leaves them out (the benchmark still checks every output against cuSPARSE).
if [ "${TC:-1}" != 0 ]; then
  for b in "${builds[@]}"; do
    (timeout "${TC_SECONDS:-300}" "${src[$b]}/build/tests/sddmm_tests" --gpu-only -tc='*tensor-core SDDMM*' >"$out/tc-$b.log" 2>&1
     echo "tensor-core tests $b: exit $? $(grep -E 'test cases:' "$out/tc-$b.log" | tail -1)") &
  done
  wait
fi
bench_args=${BENCH_ARGS:---suite full --only uniform-8000-1.92M,uniform-8000-2.56M,uniform-8000-3.2M,uniform-8000-6.4M --ops sddmm --k 128,256 --dtype f16,bf16 --gemm --reps 20 --warmup 3}
for r in $(seq 1 "${ROUNDS:-2}"); do
  for b in base "${builds[@]}"; do
    # shellcheck disable=SC2086
    timeout 120 "${src[$b]}/build/bench/sddmm-bench" $bench_args --json "$out/$b-r$r.json" >"$out/$b-r$r.txt" \
      2>"$out/$b-r$r.err" || echo "bench $b round $r: exit $?"
  done
done
python3 bench/compare.py "$out" base "${builds[@]}" | tee "$out/compare.txt" || { echo "no comparison"; exit 1; }
if [ "${CHECK:-1}" = 0 ]; then  # the comparison alone: the checks in a call of their own
  log "done (CHECK=0: no GPU suite, no sanitizers)"
  pack
  exit 0
fi
pick=${PICK:-$(tail -n 1 "$out/compare.txt")}
if [ -z "$pick" ] || [ -z "${src[$pick]:-}" ]; then echo "no build named '$pick'"; exit 1; fi
log "the GPU suite, then the sanitizers, on $pick"
tests="${src[$pick]}/build/tests/sddmm_tests"
# The suite alone first: beside the 12 sanitizer processes it was cut at 330 s in its 14th case
# (2026-12-01, .carry/e45.sh), a run that says nothing about the cases it did not reach.
timeout "${SUITE_SECONDS:-240}" "$tests" --gpu-only >"$out/gpu-suite.log" 2>&1
echo "gpu-suite.log: exit $? $(grep -E 'test cases:' "$out/gpu-suite.log" | tail -1)"
# The four tools on the walk's test cases (the three whose names hold "wgmma"), through
# scripts/gpu-check.sh in the picked build's copy and its build folder (its build step found it
# built: 2 s, 2026-12-02, .carry/e54.sh), run its way: a process per case and tool, CUB's kernels
# left out of racecheck (127 s for the three cases there). SANITIZE_SECONDS bounds the whole step.
(cd "${src[$pick]}" && OUT="$out/sanitizers" SDDMM_CARRY="$carry" BUILD_DIR=build SANITIZERS_ONLY=1 \
  SANITIZER_CASES="${SANITIZER_CASES:-*wgmma*}" timeout "${SANITIZE_SECONDS:-290}" bash scripts/gpu-check.sh >"$out/sanitizers.log" 2>&1)
echo "sanitizers (scripts/gpu-check.sh): exit $?"
grep -E '^(compute-sanitizer|configure)' "$out/sanitizers.log"
log "done"
pack
