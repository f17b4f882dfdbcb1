// One benchmark case: a matrix, an op, a width K and a precision. Sets up the dense operands for each
// rotation set, checks ours against cuSPARSE once, then times ours, cuSPARSE (fp32 cases) and, when
// asked, cuBLAS's dense GEMM (SDDMM).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>

#include <functional>
#include <string>
#include <vector>

#include "check.hpp"
#include "cusparse_baseline.hpp"
#include "host_matrix.hpp"
#include "options.hpp"
#include "ours.hpp"
#include "precision.hpp"
#include "report.hpp"
#include "timing.hpp"

namespace sddmm::bench {

struct CaseContext {
  const Options& options;
  const DeviceInfo& device;
  cudaStream_t stream;
  cusparseHandle_t cusparse;
  cublasHandle_t cublas;                        // null unless options.gemm
  std::function<void(const std::string&)> log;  // progress on stderr
};

// The pattern as each library holds it, one copy per rotation set.
struct PatternSets {
  const OurPlans* plans;   // null when the library refused to create them (a value type it does not
  std::string plan_error;  // offer yet): the case then records this as its error and runs the baselines
  const std::vector<CsrArrays>& csr;
  const std::vector<float>& values;  // A's values as the plans hold them, widened to fp32, for the checks
};

// A dense operand generated in fp32 and stored as `dtype`, one copy per rotation set, and the fp32
// data the references read: for fp32 the stored sets themselves; otherwise the generated values
// (`exact`) and set 0's stored values widened back (`rounded`).
class Operand {
 public:
  Operand(const std::vector<float>& host, sddmm_dtype_t dtype, int sets, cudaStream_t stream);
  const void* stored(int set) const { return stored_.at(static_cast<size_t>(set)).get(); }
  // What cuSPARSE reads for set `set`: the stored set (fp32), else the rounded set 0 (the only one
  // checked; cuSPARSE is timed in fp32 cases only).
  const float* reference(int set) const;
  const float* exact() const;

 private:
  sddmm_dtype_t dtype_;
  std::vector<DeviceBuffer> stored_;
  DeviceBuffer exact_;
  DeviceBuffer rounded_;
};

// A record with the matrix, op, K, precision and credited bytes filled in; the rest left to the case.
Record case_record(const HostMatrix& m, Op op, int64_t k, const Precision& precision);

// Run the case with `sets` rotation sets (<= the pattern's). Our library's errors are recorded
// (status "ERROR") and the baselines still run. May throw DeviceOutOfMemory and LibraryError; the
// caller records those.
Record run_sddmm_case(const HostMatrix& m, int64_t k, const Precision& precision, int sets, const PatternSets& pattern,
                      const CaseContext& ctx);
Record run_spmm_case(const HostMatrix& m, int64_t n, const Precision& precision, int sets, const PatternSets& pattern,
                     const CaseContext& ctx);

// Our first run, on set 0, its output downloaded as floats; or, when our library refuses (a precision
// it does not offer yet), its message, so that the case records ERROR and still runs the baselines.
struct FirstRun {
  std::vector<float> output;
  std::string error;
};
FirstRun run_first(const PatternSets& pattern, const std::function<void(int)>& run_ours, const DeviceBuffer& out,
                   sddmm_dtype_t dtype, size_t count, cudaStream_t stream);

// Times ours over the rotation sets into record.ours_ms, then sets record.reproducible from set 0's
// output (`out`, `count` elements of dtype) against the first run's.
void time_ours(Record& record, const std::function<void(int)>& run_ours, int sets, const FirstRun& first,
               const DeviceBuffer& out, sddmm_dtype_t dtype, const CaseContext& ctx);

// Seed of the dense operand `role` (1: X1, 2: X2, 3: X) at width k, the same for every matrix.
uint64_t operand_seed(int64_t k, int role);

// Appends `text` to the record's note ("; " between notes).
void add_note(Record& record, const std::string& text);

// Fills record.status and the check fields from a check result.
void record_check(Record& record, const CheckResult& check);

// Sets record.reproducible: whether a later run on the same inputs (set 0 is run again while timing)
// gave bit-identical output; notes it when not.
void record_reproducibility(Record& record, const std::vector<float>& first, const std::vector<float>& later);

}  // namespace sddmm::bench
