// The rule that sends a 16-bit plan's indexed cells on sm_90 to the wgmma walk kernel rather than
// the wgmma squares (sddmm_wgmma_walk_kernel.cuh, sddmm_wgmma_walk_entry_warps_kernel.cuh; tuning.hpp, kTensorWgmmaWalkMinDensity, has the
// measurements). Host code, in its own file so that the CPU suite pins its decisions.
#pragma once

#include <cstdint>

namespace sddmm::cuda {

// Whether a plan of a rows x cols matrix with nnz stored entries takes the walk: where at least
// kTensorWgmmaWalkMinDensity of its cells are stored, unless `forced` says (SDDMM_TC_WGMMA_WALK: 1
// or 0; -1 the rule). Only plans that index their cells for the wgmma kernels ask.
bool wgmma_walk_pays(int64_t rows, int64_t cols, int64_t nnz, int forced);

}  // namespace sddmm::cuda
