// One benchmark case: a matrix, an op and a width K. Sets up the dense operands for each rotation
// set, checks ours against cuSPARSE once, then times both.
#pragma once

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
#include "report.hpp"
#include "timing.hpp"

namespace sddmm::bench {

struct CaseContext {
  const Options& options;
  const DeviceInfo& device;
  cudaStream_t stream;
  cusparseHandle_t cusparse;
  std::function<void(const std::string&)> log;  // progress on stderr
};

// The pattern as each library holds it, one copy per rotation set.
struct PatternSets {
  const OurPlans& plans;
  const std::vector<CsrArrays>& csr;
};

// A record with the matrix, op, K and credited bytes filled in; the rest left to the case.
Record case_record(const HostMatrix& m, Op op, int64_t k);

// Run the case with `sets` rotation sets (<= the pattern's). May throw DeviceOutOfMemory and
// LibraryError; the caller records those.
Record run_sddmm_case(const HostMatrix& m, int64_t k, int sets, const PatternSets& pattern, const CaseContext& ctx);
Record run_spmm_case(const HostMatrix& m, int64_t n, int sets, const PatternSets& pattern, const CaseContext& ctx);

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
