// Results: one Record per matrix x op x K x precision, printed as a table (a section per precision),
// written as JSON and CSV, and summarised per op, K and precision (geometric-mean speedups, the worst
// matrix, plan-creation ratio).
#pragma once

#include <cmath>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "options.hpp"
#include "timing.hpp"

namespace sddmm::bench {

struct Record {
  std::string matrix;
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t nnz = 0;
  std::string op;  // "sddmm" | "spmm"
  int64_t k = 0;   // K for SDDMM, N for SpMM
  std::string dtype = "f32";  // the precision's name (precision.hpp)
  // "ok"; "FAIL" (our output is wrong); "ERROR" (our library returned an error); "skipped" (no
  // memory, or the matrix could not be built); "no-ref" (cuSPARSE refused the case: timed, unchecked)
  std::string status;
  double ours_ms = NAN;
  double cusparse_ms = NAN;  // always fp32: other precisions carry the time of their fp32 case
  std::string cusparse_alg;  // SpMM: the fastest algorithm; SDDMM: how X2 was described
  double speedup = NAN;      // cusparse_ms / ours_ms
  double ours_f32_ms = NAN;  // other precisions: our fp32 time on the same matrix and K
  double speedup_vs_own_f32 = NAN;  // ours_f32_ms / ours_ms
  double gemm_ms = NAN;             // SDDMM: cuBLAS's dense GEMM of X1 X2 in the same precision
  double speedup_vs_gemm = NAN;     // gemm_ms / ours_ms
  // "" (not asked); "ok"; "unchecked" (no cuSPARSE output to check its samples against); "skipped"
  // (output over the cap, or no memory); "error" (cuBLAS refused); "WRONG" (samples disagree: no time)
  std::string gemm_status;
  // The share of stored entries the tensor-core kernel takes at this K (SDDMM) or N (SpMM) with
  // these contiguous, aligned operands (src/core/plan_stats.hpp).
  double tensor_core_share = NAN;
  // With a share: SDDMM "units", "squares", "wgmma-squares" or "wgmma-walk"; SpMM "spmm-units"
  // (src/core/plan_stats.hpp)
  std::string tensor_core_kernel;
  // SDDMM: the CUDA-core kernel ("entries", "line", "tile", "panel", ...: src/core/plan_stats.hpp)
  std::string cuda_core_kernel;
  double bytes = 0;  // credited bytes (bytes_model.hpp), with the precision's element sizes
  double ours_gbs = NAN;
  double ours_pct_bw = NAN;      // of the measured copy bandwidth
  double cusparse_gbs = NAN;     // fp32 cases only (cuSPARSE moves fp32 data: see that case)
  double cusparse_pct_bw = NAN;  // fp32 cases only
  // The same rates as a share of the L2's measured gather rate (DeviceInfo::l2_read_gbs): the
  // reference of the cases whose gathered rows the L2 holds (l2_probe.hpp: what it measures).
  double ours_pct_l2 = NAN;
  double cusparse_pct_l2 = NAN;  // fp32 cases only
  double ours_gflops = NAN;
  double cusparse_gflops = NAN;
  double plan_ms = NAN;            // creating our handle for this matrix (median)
  double plan_over_exec = NAN;     // plan_ms / ours_ms, SDDMM rows only
  int rotation_sets = 1;           // buffer sets rotated through so the L2 does not hold the inputs
  double check_worst_ratio = NAN;  // max error / tolerance (<= 1 passes)
  double check_max_rel_error = NAN;
  // Other precisions: the largest relative error against cuSPARSE fp32 on the unrounded operands and
  // values: what storing in the precision costs (the check itself uses the same rounded inputs).
  double max_rel_error_vs_f32 = NAN;
  bool reproducible = true;  // a second run on the same inputs gave the same bits
  std::string note;
};

struct RunInfo {
  DeviceInfo device;
  std::string started;  // local date and time, ISO 8601
  int library_version = 0;
  int cuda_runtime_version = 0;
  int cuda_driver_version = 0;
  int cusparse_version = 0;
  int cublas_version = 0;  // 0: no GEMM baseline in this run
  std::vector<std::string> dtypes;
  int reps = 0;
  int warmup = 0;
};

// Fills the derived fields (speedups, GB/s, % of copy bandwidth and of the L2's read rate, GFLOP/s)
// from the times and bytes.
void derive_rates(Record& record, const DeviceInfo& device);

void print_table(std::ostream& out, const std::vector<Record>& records);
// Geometric-mean and worst speedup per op and K, the plan-creation ratio, failures. Printed last.
void print_summary(std::ostream& out, const std::vector<Record>& records, const RunInfo& info);
void write_json(const std::string& path, const std::vector<Record>& records, const RunInfo& info);
void write_csv(const std::string& path, const std::vector<Record>& records);

}  // namespace sddmm::bench
