#!/usr/bin/env bash
# Sweeps one tuning value of the CUDA backend with sddmm-bench, one run per value, in one go on the
# GPU machine: the environment variable is read at plan creation (src/cuda/tuning.hpp names them).
#   scripts/sweep.sh VARIABLE "v1 v2 ..." [sddmm-bench options...]
#   scripts/sweep.sh SDDMM_SPMM_ENTRIES_PER_SLICE "8 16 32" --ops spmm --only blockdiag,sbm
# Each run's JSON goes to $OUT (or /tmp/sddmm-sweep) as sweep-VARIABLE-value.json, its table to a .txt
# beside it; stdout gets one line per value and case: value, matrix, op, K, ours ms, ratio.
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 2 ] || { sed -n 2,8p "$0"; exit 2; }
variable=$1
values=$2
shift 2
bench=${BENCH:-${BUILD_DIR:-build-gpu}/bench/sddmm-bench}
out=${OUT:-/tmp/sddmm-sweep}
mkdir -p "$out"
status=0
for value in $values; do
  json="$out/sweep-$variable-$value.json"
  echo "== $variable=$value" >&2
  env "$variable=$value" "$bench" "$@" --json "$json" >"${json%.json}.txt" 2>"${json%.json}.log" || status=1
  python3 - "$json" "$value" <<'EOF'
import json, sys
path, value = sys.argv[1], sys.argv[2]
try:
    records = json.load(open(path))
except (OSError, ValueError) as e:
    print(f"{value}\t(no results: {e})")
    sys.exit(0)
records = records.get("results", records) if isinstance(records, dict) else records
for r in records:
    ours = r.get("ours_ms")
    print(f"{value}\t{r.get('matrix')}\t{r.get('op')}\t{r.get('dtype', 'f32')}\tK={r.get('k')}\tours={ours}\t"
          f"vs_cusparse={r.get('speedup')}\tvs_own_f32={r.get('speedup_vs_own_f32')}\t"
          f"vs_gemm={r.get('speedup_vs_gemm')}\ttc_share={r.get('tensor_core_share')}\tstatus={r.get('status')}")
EOF
done
exit $status
