#include "cuda/sddmm/k_parts_rule.hpp"

#include "cuda/tuning.hpp"

namespace sddmm::cuda {

int sddmm_k_parts(int64_t k, int64_t x2_bytes, int64_t l2_bytes, int forced) {
  if (forced >= 1) return forced;
  if (x2_bytes <= l2_bytes) return 1;
  const double l2 = static_cast<double>(l2_bytes);
  const auto part_share = [&](int parts) { return static_cast<double>(x2_bytes) / parts / l2; };
  // The fewest parts of which one fits the L2, doubling while the next count keeps parts of at
  // least kSddmmKPartMinK and is within kSddmmKPartsMax.
  int parts = 2;
  while (part_share(parts) > kSddmmKPartFitShareOfL2 && parts * 2 <= kSddmmKPartsMax &&
         k / (int64_t{parts} * 2) >= kSddmmKPartMinK) {
    parts *= 2;
  }
  if (k / parts < kSddmmKPartMinK) return 1;
  if (k < kSddmmKPartsUnboundedMinK && part_share(parts) > kSddmmKPartMaxShareOfL2) return 1;
  return parts;
}

}  // namespace sddmm::cuda
