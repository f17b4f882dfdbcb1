// The rule that runs an SDDMM call as two launches over halves of K (sddmm.cu, run_k_halves;
// tuning.hpp has the measurements). Host code, in its own file so that the CPU suite pins its
// decisions.
#pragma once

#include <cstdint>

namespace sddmm::cuda {

// Whether a call at K whose X2 columns take x2_bytes (cols x K x element bytes) sums K in two
// halves, each launch gathering half of every X2 column: by the rule where K is at least
// kSddmmKHalvesMinK, X2 exceeds the L2 and half of it is at most kSddmmKHalvesMaxShareOfL2 of the
// L2, so that the warps in flight read a half that about fits it instead of all of X2; always
// where `mode` is 1, never where 0. sddmm.cu takes it only where the call allows it (float32
// output, the entry kernel's vector path, K a multiple of two vectors).
bool sddmm_k_halves(int64_t k, int64_t x2_bytes, int64_t l2_bytes, int mode);

}  // namespace sddmm::cuda
