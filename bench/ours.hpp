// libsddmm, the library under test: CUDA backend, created from COO device arrays with 32-bit indices,
// in the same entry order as the cuSPARSE CSR (host_matrix.hpp), values and dense data in the case's
// precision. Dense layouts as in cusparse_baseline.hpp: X1 row-major, X2 column-major, X and Y
// row-major, all packed (ld = width).
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "host_matrix.hpp"
#include "precision.hpp"
#include "sddmm.h"

namespace sddmm::bench {

// One handle per rotation set, all of the same matrix, and the time it takes to create one.
class OurPlans {
 public:
  // Creates max(sets, kMinPlanTimings) handles with A's values stored as value_dtype and the create
  // flags given (SDDMM_CREATE_ALLOW_TF32 or none), keeping `sets`,
  // each timed with a host clock around sddmm_create_coo (which synchronises); plan_ms() is the
  // median, which leaves out the first creation's one-off costs (lazy module loading) unless it is
  // the only one.
  OurPlans(const HostMatrix& m, sddmm_dtype_t value_dtype, uint32_t flags, int sets, int device, cudaStream_t stream);
  ~OurPlans();
  OurPlans(const OurPlans&) = delete;
  OurPlans& operator=(const OurPlans&) = delete;

  sddmm_matrix_t handle(int set) const { return handles_.at(static_cast<size_t>(set)); }
  double plan_ms() const { return plan_ms_; }

  static constexpr int kMinPlanTimings = 3;

 private:
  std::vector<sddmm_matrix_t> handles_;
  double plan_ms_ = 0;
};

// out (nnz) = SDDMM on handle with X1 (rows x k, row-major) and X2 (k x cols, column-major); X1 and X2
// of precision.features, out of precision.output.
void our_sddmm(sddmm_matrix_t handle, const HostMatrix& m, int64_t k, const Precision& precision, const void* x1,
               const void* x2, void* out, cudaStream_t stream);

// Y (rows x n, row-major, precision.output) = A @ X (cols x n, row-major, precision.features).
void our_spmm(sddmm_matrix_t handle, const HostMatrix& m, int64_t n, const Precision& precision, const void* x, void* y,
              cudaStream_t stream);

}  // namespace sddmm::bench
