#include <optional>

#include "core/plan_stats.hpp"  // libsddmm internals (static library): the tensor-core share
#include "cases.hpp"
#include "check.hpp"
#include "convert.hpp"
#include "cublas_baseline.hpp"
#include "device.hpp"

namespace sddmm::bench {
namespace {

// cuSPARSE's SDDMM once, on set 0 of the given fp32 operands, into a fresh buffer; its output on the host.
std::vector<float> cusparse_once(const HostMatrix& m, int64_t k, const std::vector<CsrArrays>& csr, const float* x1,
                                 const float* x2, const CaseContext& ctx) {
  const size_t nnz = static_cast<size_t>(m.nnz);
  std::vector<DeviceBuffer> out = allocate_filled(nnz, sizeof(float), 1, 0, ctx.stream);  // beta = 0 must not meet NaN
  const CusparseSddmm sddmm(ctx.cusparse, m, csr, k, {{x1, x2, out[0].as<float>()}});
  sddmm.run(0);
  return download(out[0], nnz, ctx.stream);
}

}  // namespace

Record run_sddmm_case(const HostMatrix& m, int64_t k, const Precision& precision, int sets, const PatternSets& pattern,
                      const CaseContext& ctx) {
  Record record = case_record(m, Op::kSddmm, k, precision);
  record.plan_ms = pattern.plans != nullptr ? pattern.plans->plan_ms() : NAN;
  record.rotation_sets = sets;
  if (pattern.plans != nullptr && m.nnz > 0) {
    const auto entries =
        static_cast<double>(sddmm::tensor_core_entries(pattern.plans->handle(0), k, precision.features));
    record.tensor_core_share = entries / static_cast<double>(m.nnz);
    record.tensor_core_kernel = sddmm::tensor_core_kernel(pattern.plans->handle(0), k, precision.features);
    record.cuda_core_kernel = sddmm::cuda_core_kernel(pattern.plans->handle(0), k, precision.features);
  }
  const cudaStream_t stream = ctx.stream;
  const size_t nnz = static_cast<size_t>(m.nnz);
  const bool f32 = precision.is_f32();

  // X1 rows x K row-major, X2 K x cols column-major: both are (rows or cols) x K elements in memory.
  const Operand x1(random_operand(static_cast<size_t>(m.rows * k), operand_seed(k, 1)), precision.features, sets,
                   stream);
  const Operand x2(random_operand(static_cast<size_t>(m.cols * k), operand_seed(k, 2)), precision.features, sets,
                   stream);
  std::vector<DeviceBuffer> ours = allocate_filled(nnz, dtype_bytes(precision.output), sets, 0xFF, stream);  // NaN
  // cuSPARSE is timed (over every set) in fp32 cases only; other precisions run it once, to check.
  std::vector<DeviceBuffer> theirs = allocate_filled(nnz, sizeof(float), f32 ? sets : 1, 0, stream);  // beta = 0
  const auto run_ours = [&](int set) {
    our_sddmm(pattern.plans->handle(set), m, k, precision, x1.stored(set), x2.stored(set), ours[set].get(), stream);
  };

  std::optional<CusparseSddmm> reference;
  try {
    std::vector<SddmmOperands> operands;
    for (size_t s = 0; s < theirs.size(); ++s) {
      const int set = static_cast<int>(s);
      operands.push_back({x1.reference(set), x2.reference(set), theirs[s].as<float>()});
    }
    reference.emplace(ctx.cusparse, m, pattern.csr, k, operands);
    record.cusparse_alg = reference->layout();
  } catch (const CusparseNotSupported& e) {
    add_note(record, std::string("cuSPARSE refused: ") + e.what());
  }
  std::vector<float> products;  // cuSPARSE's output: X1 X2 at each entry, from the rounded operands
  if (reference) {
    reference->run(0);
    products = download(theirs[0], nnz, stream);
  }

  const FirstRun first = run_first(pattern, run_ours, ours[0], precision.output, nnz, stream);
  if (!first.error.empty()) {
    record.status = "ERROR";
    add_note(record, first.error);
  } else {
    if (reference) {
      record_check(record, check_sddmm(m, pattern.values, k, precision.output, product_error(precision), first.output, products));
      if (!f32) {
        const std::vector<float> exact = cusparse_once(m, k, pattern.csr, x1.exact(), x2.exact(), ctx);
        record.max_rel_error_vs_f32 = check_sddmm(m, m.val, k, precision.output, product_error(precision), first.output, exact).max_rel_error;
      }
    } else {
      record.status = "no-ref";
    }
    time_ours(record, run_ours, sets, first, ours[0], precision.output, ctx);
  }
  if (reference && f32) {
    const Timing their_time =
        time_runs(stream, ctx.options.warmup, ctx.options.reps, [&](int i) { reference->run(i % sets); });
    record.cusparse_ms = their_time.median_ms;
  }
  if (ctx.cublas != nullptr) measure_gemm(record, m, k, precision, x1, x2, sets, products, ctx);
  return record;
}

}  // namespace sddmm::bench
