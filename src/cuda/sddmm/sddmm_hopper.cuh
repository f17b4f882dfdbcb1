// The SDDMM kernels that only Hopper runs (wgmma: sm_90a), in a translation unit of their own built
// for compute_90a alone (src/CMakeLists.txt), so that the rest of the library keeps its portable
// architecture list. SDDMM_HOPPER_KERNELS is 1 in builds that hold it.
#pragma once

#include <cstdint>
#include <utility>

#include "cuda/precision.cuh"
#include "cuda/sddmm/sddmm_config.cuh"

#ifndef SDDMM_HOPPER_KERNELS
#define SDDMM_HOPPER_KERNELS 0
#endif

namespace sddmm::cuda {

constexpr bool kHaveHopperKernels = SDDMM_HOPPER_KERNELS != 0;

// Launches a wgmma kernel over every cell of the plan's indexed cells for features, values and
// output of 16-bit type V at this K: the walk kernel (sddmm_wgmma_walk_kernel.cuh at K = 128,
// sddmm_wgmma_walk_entry_warps_kernel.cuh at K = 256) where `walk`, else the square kernel
// (sddmm_wgmma_square_kernel.cuh); false where neither has K (or the build has no Hopper
// kernels). The caller checked that the device is sm_90.
template <typename V, typename I>
bool launch_wgmma_squares(const SddmmTensorArgs<Precision<V, V, V>, I>& args, int64_t k, bool walk,
                          cudaStream_t stream);

// The K the wgmma square kernel has, each an instantiation (K = 64 was measured and lost:
// bench/RESULTS.md), and whether it takes a call's K (the choice in sddmm.cu asks before it
// launches).
using WgmmaSquareKs = std::integer_sequence<int, 128, 256>;
template <int... kKs>
constexpr bool listed_k(std::integer_sequence<int, kKs...>, int64_t k) {
  return ((k == kKs) || ...);
}
constexpr bool wgmma_squares_take(int64_t k) { return kHaveHopperKernels && listed_k(WgmmaSquareKs{}, k); }

// Allows its kernels their shared memory on the current device (plan creation).
template <typename V, typename I>
void prepare_wgmma_squares();

}  // namespace sddmm::cuda
