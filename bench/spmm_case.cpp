#include <cmath>
#include <optional>

#include "cases.hpp"
#include "check.hpp"
#include "device.hpp"

namespace sddmm::bench {

Record run_spmm_case(const HostMatrix& m, int64_t n, int sets, const PatternSets& pattern, const CaseContext& ctx) {
  Record record = case_record(m, Op::kSpmm, n);
  record.plan_ms = pattern.plans.plan_ms();
  record.rotation_sets = sets;
  const cudaStream_t stream = ctx.stream;
  const size_t y_count = static_cast<size_t>(m.rows * n);

  // X cols x N and Y rows x N, both row-major.
  std::vector<DeviceBuffer> x =
      replicate(random_operand(static_cast<size_t>(m.cols * n), operand_seed(n, 3)), sets, stream);
  std::vector<DeviceBuffer> ours = allocate_filled(y_count, sizeof(float), sets, 0xFF, stream);  // NaN until written
  std::vector<DeviceBuffer> theirs = allocate_filled(y_count, sizeof(float), sets, 0, stream);   // beta = 0: no NaN
  std::vector<SpmmOperands> operands;
  for (int s = 0; s < sets; ++s) operands.push_back({x[s].as<float>(), theirs[s].as<float>()});
  const auto run_ours = [&](int set) {
    our_spmm(pattern.plans.handle(set), m, n, x[set].as<float>(), ours[set].as<float>(), stream);
  };

  // Check against the first algorithm cuSPARSE accepts.
  run_ours(0);
  const std::vector<float> first_output = download(ours[0], y_count, stream);
  for (const SpmmAlgorithm& algorithm : spmm_algorithms()) {
    try {
      CusparseSpmm reference(ctx.cusparse, m, pattern.csr, n, operands, algorithm);
      reference.run(0);
      record_check(record,
                   check_spmm(m, m.val, n, SDDMM_DTYPE_FLOAT32, first_output, download(theirs[0], y_count, stream)));
      break;
    } catch (const CusparseNotSupported&) {
      // try the next algorithm; the timing loop below names the refused ones
    }
  }
  if (record.status.empty()) record.status = "no-ref";

  const Timing our_time = time_runs(stream, ctx.options.warmup, ctx.options.reps, [&](int i) { run_ours(i % sets); });
  record.ours_ms = our_time.median_ms;
  record_reproducibility(record, first_output, download(ours[0], y_count, stream));
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
  derive_rates(record, ctx.device.copy_gbs);
  return record;
}

}  // namespace sddmm::bench
