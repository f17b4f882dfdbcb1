// The rule that runs an SDDMM call as launches over equal parts of K (sddmm.cu, run_k_parts;
// tuning.hpp has the measurements). Host code, in its own file so that the CPU suite pins its
// decisions.
#pragma once

#include <cstdint>

namespace sddmm::cuda {

// Into how many launches a call at K whose X2 columns take x2_bytes (cols x K x element bytes)
// splits K, each gathering 1/parts of every X2 column: 1 (one launch) unless X2 exceeds the L2;
// then the fewest parts, a power of two up to kSddmmKPartsMax, of which one fits the L2 (up to
// kSddmmKPartFitShareOfL2 of it), or as many as keep parts of at least kSddmmKPartMinK of K where
// none fits; below K = kSddmmKPartsUnboundedMinK taken only where a part is at most
// kSddmmKPartMaxShareOfL2 of the L2, else 1. `forced` >= 1 is returned as it is
// (SDDMM_SDDMM_K_PARTS). sddmm.cu takes parts only where the call allows them (float32 output,
// the entry kernel's vector path, K a multiple of parts x the vector).
int sddmm_k_parts(int64_t k, int64_t x2_bytes, int64_t l2_bytes, int forced);

}  // namespace sddmm::cuda
