#include "core/plan_stats.hpp"

#include "core/matrix.hpp"

namespace sddmm {

int64_t tensor_core_entries(const sddmm_matrix_s* a, int64_t k, sddmm_dtype_t features) {
  return a != nullptr && a->plan ? a->plan->tensor_core_entries(k, features) : 0;
}

bool tensor_core_squares(const sddmm_matrix_s* a, int64_t k, sddmm_dtype_t features) {
  return a != nullptr && a->plan && a->plan->tensor_core_squares(k, features);
}

}  // namespace sddmm
