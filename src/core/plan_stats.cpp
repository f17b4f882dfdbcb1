#include "core/plan_stats.hpp"

#include "core/matrix.hpp"

namespace sddmm {

int64_t tensor_core_entries(const sddmm_matrix_s* a, int64_t k, sddmm_dtype_t features) {
  return a != nullptr && a->plan ? a->plan->tensor_core_entries(k, features) : 0;
}

const char* tensor_core_kernel(const sddmm_matrix_s* a, int64_t k, sddmm_dtype_t features) {
  return a != nullptr && a->plan ? a->plan->tensor_core_kernel(k, features) : "";
}

const char* cuda_core_kernel(const sddmm_matrix_s* a, int64_t k, sddmm_dtype_t features) {
  return a != nullptr && a->plan ? a->plan->cuda_core_kernel(k, features) : "";
}

int64_t spmm_tensor_core_entries(const sddmm_matrix_s* a, int64_t n, sddmm_dtype_t features) {
  return a != nullptr && a->plan ? a->plan->spmm_tensor_core_entries(n, features) : 0;
}

}  // namespace sddmm
