#include "cuda/sddmm/walk_rule.hpp"

#include "cuda/tuning.hpp"

namespace sddmm::cuda {

bool wgmma_walk_pays(int64_t rows, int64_t cols, int64_t nnz, int forced) {
  if (forced >= 0) return forced == 1;
  const double cells = static_cast<double>(rows) * static_cast<double>(cols);
  return cells > 0 && static_cast<double>(nnz) >= kTensorWgmmaWalkMinDensity * cells;
}

}  // namespace sddmm::cuda
