#include <cmath>
#include <optional>

#include "cases.hpp"
#include "core/plan_stats.hpp"  // libsddmm internals (static library): the tensor-core share
#include "check.hpp"
#include "convert.hpp"
#include "device.hpp"

namespace sddmm::bench {
namespace {

// Runs set 0 of `operands` with the first algorithm cuSPARSE accepts; false if it refuses them all.
bool cusparse_once(const HostMatrix& m, int64_t n, const std::vector<CsrArrays>& csr,
                   const std::vector<SpmmOperands>& operands, const CaseContext& ctx) {
  for (const SpmmAlgorithm& algorithm : spmm_algorithms()) {
    try {
      const CusparseSpmm reference(ctx.cusparse, m, csr, n, operands, algorithm);
      reference.run(0);
      return true;
    } catch (const CusparseNotSupported&) {
      // try the next algorithm; the timing loop names the refused ones
    }
  }
  return false;
}

}  // namespace

Record run_spmm_case(const HostMatrix& m, int64_t n, const Precision& precision, int sets, const PatternSets& pattern,
                     const CaseContext& ctx) {
  Record record = case_record(m, Op::kSpmm, n, precision);
  record.plan_ms = pattern.plans != nullptr ? pattern.plans->plan_ms() : NAN;
  record.rotation_sets = sets;
  if (pattern.plans != nullptr && m.nnz > 0) {
    const auto entries =
        static_cast<double>(sddmm::spmm_tensor_core_entries(pattern.plans->handle(0), n, precision.features));
    record.tensor_core_share = entries / static_cast<double>(m.nnz);
    if (entries > 0) record.tensor_core_kernel = "spmm-units";
  }
  const cudaStream_t stream = ctx.stream;
  const size_t y_count = static_cast<size_t>(m.rows * n);
  const bool f32 = precision.is_f32();

  // X cols x N and Y rows x N, both row-major.
  const Operand x(random_operand(static_cast<size_t>(m.cols * n), operand_seed(n, 3)), precision.features, sets,
                  stream);
  std::vector<DeviceBuffer> ours = allocate_filled(y_count, dtype_bytes(precision.output), sets, 0xFF, stream);  // NaN
  // cuSPARSE is timed (over every set) in fp32 cases only; other precisions run it once, to check.
  std::vector<DeviceBuffer> theirs = allocate_filled(y_count, sizeof(float), f32 ? sets : 1, 0, stream);  // beta = 0
  std::vector<SpmmOperands> operands;
  for (size_t s = 0; s < theirs.size(); ++s) {
    operands.push_back({x.reference(static_cast<int>(s)), theirs[s].as<float>()});
  }
  // The check's cuSPARSE reads A's values as our plans hold them: rounded, when stored narrower.
  std::vector<CsrArrays> rounded_csr;
  if (precision.values != SDDMM_DTYPE_FLOAT32) {
    rounded_csr.push_back(csr_with_values(pattern.csr.at(0), pattern.values, stream));
  }
  const std::vector<CsrArrays>& reference_csr = rounded_csr.empty() ? pattern.csr : rounded_csr;
  const auto run_ours = [&](int set) {
    our_spmm(pattern.plans->handle(set), m, n, precision, x.stored(set), ours[set].get(), stream);
  };

  const FirstRun first = run_first(pattern, run_ours, ours[0], precision.output, y_count, stream);
  if (!first.error.empty()) {
    record.status = "ERROR";
    add_note(record, first.error);
  } else {
    if (cusparse_once(m, n, reference_csr, operands, ctx)) {
      record_check(record, check_spmm(m, pattern.values, n, precision.output, first.output,
                                      download(theirs[0], y_count, stream)));
      if (!f32) {
        std::vector<DeviceBuffer> exact = allocate_filled(y_count, sizeof(float), 1, 0, stream);
        if (cusparse_once(m, n, pattern.csr, {{x.exact(), exact[0].as<float>()}}, ctx)) {
          const std::vector<float> y = download(exact[0], y_count, stream);
          record.max_rel_error_vs_f32 = check_spmm(m, m.val, n, precision.output, first.output, y).max_rel_error;
        }
      }
    } else {
      record.status = "no-ref";
    }
    time_ours(record, run_ours, sets, first, ours[0], precision.output, ctx);
  }
  if (!f32) return record;
  // The baseline is cuSPARSE's fastest algorithm; each is preprocessed before its own timing.
  std::string refused;
  for (const SpmmAlgorithm& algorithm : spmm_algorithms()) {
    std::optional<CusparseSpmm> reference;
    try {
      reference.emplace(ctx.cusparse, m, pattern.csr, n, operands, algorithm);
    } catch (const CusparseNotSupported&) {
      refused += std::string(refused.empty() ? "" : ", ") + algorithm.name;
      continue;
    }
    const Timing t = time_runs(stream, ctx.options.warmup, ctx.options.reps, [&](int i) { reference->run(i % sets); });
    if (std::isnan(record.cusparse_ms) || t.median_ms < record.cusparse_ms) {
      record.cusparse_ms = t.median_ms;
      record.cusparse_alg = algorithm.name;
    }
  }
  if (!refused.empty()) add_note(record, "cuSPARSE refused " + refused);
  return record;
}

}  // namespace sddmm::bench
