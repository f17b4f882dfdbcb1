#include <optional>

#include "cases.hpp"
#include "check.hpp"
#include "device.hpp"

namespace sddmm::bench {

Record run_sddmm_case(const HostMatrix& m, int64_t k, int sets, const PatternSets& pattern, const CaseContext& ctx) {
  Record record = case_record(m, Op::kSddmm, k);
  record.plan_ms = pattern.plans.plan_ms();
  record.rotation_sets = sets;
  const cudaStream_t stream = ctx.stream;
  const size_t nnz = static_cast<size_t>(m.nnz);

  // X1 rows x K row-major, X2 K x cols column-major: both are (rows or cols) x K floats in memory.
  std::vector<DeviceBuffer> x1 =
      replicate(random_operand(static_cast<size_t>(m.rows * k), operand_seed(k, 1)), sets, stream);
  std::vector<DeviceBuffer> x2 =
      replicate(random_operand(static_cast<size_t>(m.cols * k), operand_seed(k, 2)), sets, stream);
  std::vector<DeviceBuffer> ours = allocate_filled(nnz, sizeof(float), sets, 0xFF, stream);  // NaN until written
  std::vector<DeviceBuffer> theirs = allocate_filled(nnz, sizeof(float), sets, 0, stream);   // beta = 0: no NaN
  const auto run_ours = [&](int set) {
    our_sddmm(pattern.plans.handle(set), m, k, x1[set].as<float>(), x2[set].as<float>(), ours[set].as<float>(), stream);
  };

  std::optional<CusparseSddmm> reference;
  try {
    std::vector<SddmmOperands> operands;
    for (int s = 0; s < sets; ++s) operands.push_back({x1[s].as<float>(), x2[s].as<float>(), theirs[s].as<float>()});
    reference.emplace(ctx.cusparse, m, pattern.csr, k, operands);
    record.cusparse_alg = reference->layout();
  } catch (const CusparseNotSupported& e) {
    add_note(record, std::string("cuSPARSE refused: ") + e.what());
  }

  run_ours(0);
  const std::vector<float> first_output = download(ours[0], nnz, stream);
  if (reference) {
    reference->run(0);
    record_check(record, check_sddmm(m, m.val, k, SDDMM_DTYPE_FLOAT32, first_output, download(theirs[0], nnz, stream)));
  } else {
    record.status = "no-ref";
  }

  const Timing our_time = time_runs(stream, ctx.options.warmup, ctx.options.reps, [&](int i) { run_ours(i % sets); });
  record.ours_ms = our_time.median_ms;
  record_reproducibility(record, first_output, download(ours[0], nnz, stream));
  if (reference) {
    const Timing their_time =
        time_runs(stream, ctx.options.warmup, ctx.options.reps, [&](int i) { reference->run(i % sets); });
    record.cusparse_ms = their_time.median_ms;
  }
  derive_rates(record, ctx.device.copy_gbs);
  record.plan_over_exec = record.plan_ms / record.ours_ms;
  return record;
}

}  // namespace sddmm::bench
