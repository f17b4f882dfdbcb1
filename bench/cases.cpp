#include "cases.hpp"

#include <cstring>
#include <stdexcept>

#include "bytes_model.hpp"
#include "convert.hpp"
#include "random.hpp"

namespace sddmm::bench {

Operand::Operand(const std::vector<float>& host, sddmm_dtype_t dtype, int sets, cudaStream_t stream) : dtype_(dtype) {
  if (dtype == SDDMM_DTYPE_FLOAT32) {
    stored_ = replicate(host, sets, stream);
    return;
  }
  const size_t count = host.size();
  exact_ = upload(host.data(), count * sizeof(float), stream);
  for (int s = 0; s < sets; ++s) {
    stored_.emplace_back(count * dtype_bytes(dtype));
    if (s == 0) {
      narrow_from_f32(exact_.as<float>(), stored_[0].get(), dtype, count, stream);
    } else if (count > 0) {
      BENCH_CUDA(cudaMemcpyAsync(stored_.back().get(), stored_[0].get(), stored_[0].bytes(), cudaMemcpyDeviceToDevice,
                                 stream));
    }
  }
  rounded_ = DeviceBuffer(count * sizeof(float));
  widen_to_f32(stored_[0].get(), dtype, rounded_.as<float>(), count, stream);
}

const float* Operand::reference(int set) const {
  if (dtype_ == SDDMM_DTYPE_FLOAT32) return static_cast<const float*>(stored(set));
  if (set != 0) throw std::logic_error("Operand::reference: only set 0 has an fp32 copy");
  return rounded_.as<float>();
}

const float* Operand::exact() const {
  return dtype_ == SDDMM_DTYPE_FLOAT32 ? static_cast<const float*>(stored(0)) : exact_.as<float>();
}

Record case_record(const HostMatrix& m, Op op, int64_t k, const Precision& precision) {
  Record record;
  record.matrix = m.name;
  record.rows = m.rows;
  record.cols = m.cols;
  record.nnz = m.nnz;
  record.op = op_name(op);
  record.k = k;
  record.dtype = precision.name;
  const ElementBytes e = element_bytes(precision);
  record.bytes = op == Op::kSddmm ? sddmm_bytes(m.rows, m.nnz, k, e) : spmm_bytes(m.rows, m.nnz, k, e);
  return record;
}

FirstRun run_first(const PatternSets& pattern, const std::function<void(int)>& run_ours, const DeviceBuffer& out,
                   sddmm_dtype_t dtype, size_t count, cudaStream_t stream) {
  FirstRun first;
  first.error = pattern.plan_error;
  if (!first.error.empty()) return first;
  try {
    run_ours(0);
    first.output = download_as_f32(out, dtype, count, stream);
  } catch (const LibraryError& e) {
    first.error = e.what();
  }
  return first;
}

void time_ours(Record& record, const std::function<void(int)>& run_ours, int sets, const FirstRun& first,
               const DeviceBuffer& out, sddmm_dtype_t dtype, const CaseContext& ctx) {
  const Timing timing = time_runs(ctx.stream, ctx.options.warmup, ctx.options.reps, [&](int i) { run_ours(i % sets); });
  record.ours_ms = timing.median_ms;
  record_reproducibility(record, first.output, download_as_f32(out, dtype, first.output.size(), ctx.stream));
}

uint64_t operand_seed(int64_t k, int role) {
  constexpr uint64_t kOperandSeed = 0x5eedda7aULL;
  return testkit::stream_seed(kOperandSeed, static_cast<uint64_t>(k) * 8 + static_cast<uint64_t>(role));
}

void add_note(Record& record, const std::string& text) { record.note += (record.note.empty() ? "" : "; ") + text; }

void record_check(Record& record, const CheckResult& check) {
  record.status = check.pass ? "ok" : "FAIL";
  record.check_worst_ratio = check.worst_ratio;
  record.check_max_rel_error = check.max_rel_error;
  if (!check.pass) {
    add_note(record, std::to_string(check.bad) + " wrong, first " + check.first_bad);
  }
}

void record_reproducibility(Record& record, const std::vector<float>& first, const std::vector<float>& later) {
  // Bitwise, so that NaN == NaN and -0 != +0: the promise is the same bits run to run.
  record.reproducible =
      first.size() == later.size() && std::memcmp(first.data(), later.data(), first.size() * sizeof(float)) == 0;
  if (!record.reproducible) add_note(record, "output differs bitwise between runs");
}

}  // namespace sddmm::bench
