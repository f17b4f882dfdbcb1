// Addresses of dense rows (or columns) picked by a plan's indices, for the gather loops.
#pragma once

#include <cstdint>

namespace sddmm::cuda {

// Where sizeof(I) == 4, pitch must fit 32 bits: the host checks it (pitch_fits_32) before it picks
// a kernel that calls line_at.
constexpr bool pitch_fits_32(int64_t pitch_bytes) { return pitch_bytes < (int64_t{1} << 32); }

// The first element of line `index` of a matrix whose lines are `stride` elements, or `pitch`
// bytes, apart. With 32-bit plan indices the product is taken 32 x 32 -> 64 bits in one multiply-add
// instead of a 64-bit multiply, the index's sign extension and a shifted add. Used by the SDDMM line
// kernel, which gathers two lines per entry and had ncu counting 169 warp instructions per 16
// entries against cuSPARSE's 92 (H200, uniform-8000-3.2M, K = 32). Measured side by side (H200,
// 2026-11-27, float32 K = 32, two rounds): uniform 8000^2 5.6-8.3 % faster (6.4M 0.1077 -> 0.0984 ms,
// 3.2M 0.0559 -> 0.0521), SBM 6 %, R-MAT 4 %. The SpMM light-row kernel with the same addresses
// lost 14-45 % at N = 32 (uniform-8000-3.2M 0.0505 -> 0.0730 ms) and 3-18 % at N = 128 / 256 (its
// registers moved: 48 -> 54 for whole-warp groups, 56 -> 48 and a spill for sliced rows): its 4- and
// 8-in-flight configurations keep 64-bit addresses (bench/RESULTS.md); its deep ones (16 in
// flight, N <= 64), whose registers did not move, gained 0.5-5 % (spmm_config.cuh).
template <typename T, typename I>
__device__ __forceinline__ const T* line_at(const T* base, I index, int64_t stride, uint32_t pitch) {
  if constexpr (sizeof(I) == 4) {
    const uint64_t offset = static_cast<uint64_t>(static_cast<uint32_t>(index)) * pitch;
    return reinterpret_cast<const T*>(reinterpret_cast<const char*>(base) + offset);
  } else {
    return base + static_cast<int64_t>(index) * stride;
  }
}

}  // namespace sddmm::cuda
