#include "core/plan_stats.hpp"

#include "core/matrix.hpp"

namespace sddmm {

int64_t tensor_core_entries(const sddmm_matrix_s* a) { return a != nullptr && a->plan ? a->plan->tensor_core_entries() : 0; }

}  // namespace sddmm
