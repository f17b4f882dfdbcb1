// A lane group's sums of several entries at once, by halving (scatter_sum): the SDDMM line and
// panel kernels' group reduction (sddmm_line_kernel.cuh, sddmm_panel_kernel.cuh).
#pragma once

namespace sddmm::cuda {

// Sums each of a lane group's kU values over its kLanes lanes (a power of two, kU <= kLanes): every
// level exchanges half of what a lane holds with the lane `offset` away and keeps the other half,
// then the levels left add whole sums. Lane j ends with the sum of value j >> log2(kLanes / kU). The
// same tree of additions for every value (each addition commutes between the two lanes that make
// it): an entry's sum does not depend on its place in the iteration. Every lane of the warp must call it.
template <int kLanes, int kU, typename Acc>
__device__ __forceinline__ Acc scatter_sum(Acc (&v)[kU], int group_lane) {
  static_assert(kU >= 1 && kU <= kLanes && (kU & (kU - 1)) == 0, "kU a power of two, at most kLanes");
#pragma unroll
  for (int n = kU / 2, offset = kLanes / 2; n >= 1; n /= 2, offset /= 2) {
    const bool upper = (group_lane & offset) != 0;
#pragma unroll
    for (int i = 0; i < n; ++i) {
      const Acc send = upper ? v[i] : v[i + n];
      const Acc keep = upper ? v[i + n] : v[i];
      v[i] = keep + __shfl_xor_sync(0xffffffffu, send, offset);
    }
  }
  Acc sum = v[0];
#pragma unroll
  for (int offset = kLanes / kU / 2; offset >= 1; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  return sum;
}

}  // namespace sddmm::cuda
