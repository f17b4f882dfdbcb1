// libsddmm, the library under test: CUDA backend, fp32, created from COO device arrays with 32-bit
// indices, in the same entry order as the cuSPARSE CSR (host_matrix.hpp). Dense layouts as in
// cusparse_baseline.hpp: X1 row-major, X2 column-major, X and Y row-major, all packed (ld = width).
#pragma once

#include <cuda_runtime.h>

#include <vector>

#include "host_matrix.hpp"
#include "sddmm.h"

namespace sddmm::bench {

// One handle per rotation set, all of the same matrix, and the time it takes to create one.
class OurPlans {
 public:
  // Creates max(sets, kMinPlanTimings) handles, keeping `sets`, each timed with a host clock around
  // sddmm_create_coo (which synchronises); plan_ms() is the median, which leaves out the first
  // creation's one-off costs (lazy module loading) unless it is the only one.
  OurPlans(const HostMatrix& m, int sets, int device, cudaStream_t stream);
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

// out (nnz) = SDDMM on handle with X1 (rows x k, row-major) and X2 (k x cols, column-major).
void our_sddmm(sddmm_matrix_t handle, const HostMatrix& m, int64_t k, const float* x1, const float* x2, float* out,
               cudaStream_t stream);

// Y (rows x n, row-major) = A @ X (cols x n, row-major).
void our_spmm(sddmm_matrix_t handle, const HostMatrix& m, int64_t n, const float* x, float* y, cudaStream_t stream);

}  // namespace sddmm::bench
