#include "cuda/sddmm/k_halves_rule.hpp"

#include "cuda/tuning.hpp"

namespace sddmm::cuda {

bool sddmm_k_halves(int64_t k, int64_t x2_bytes, int64_t l2_bytes, int mode) {
  if (mode >= 0) return mode == 1;
  const double half = static_cast<double>(x2_bytes) / 2.0;
  return k >= kSddmmKHalvesMinK && x2_bytes > l2_bytes &&
         half <= kSddmmKHalvesMaxShareOfL2 * static_cast<double>(l2_bytes);
}

}  // namespace sddmm::cuda
