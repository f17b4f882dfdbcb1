// SDDMM, entry-parallel: each group of lanes takes one stored entry (entries in row order, so
// neighbouring groups share X1's row in cache), splits K across its lanes, and reduces by shuffles.
// Work per group is K no matter how skewed the rows are, so power-law graphs balance by construction.
#pragma once

#include "cuda/sddmm/sddmm_config.cuh"
#include "cuda/vector.cuh"

namespace sddmm::cuda {

template <typename Config, typename I>
__device__ __forceinline__ typename Config::Accumulator partial_dot(const SddmmArgs<typename Config::Scalar, I>& a,
                                                                    const typename Config::Scalar* __restrict__ u,
                                                                    const typename Config::Scalar* __restrict__ v,
                                                                    int group_lane) {
  using T = typename Config::Scalar;
  constexpr int kVec = Config::kVec;
  typename Config::Accumulator acc = 0;
  if constexpr (Config::kStrided) {
    for (int64_t k = group_lane; k < a.k; k += a.group) acc += u[k * a.x1_k_stride] * v[k * a.x2_k_stride];
  } else {
    for (int64_t k = int64_t{group_lane} * kVec; k < a.k; k += int64_t{a.group} * kVec) {
      const Vector<T, kVec> uu = load_vector<T, kVec>(u + k);
      const Vector<T, kVec> vv = load_vector<T, kVec>(v + k);
#pragma unroll
      for (int j = 0; j < kVec; ++j) acc += uu.v[j] * vv.v[j];
    }
  }
  return acc;
}

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreadsPerBlock)
    sddmm_entry_kernel(const SddmmArgs<typename Config::Scalar, I> a) {
  using T = typename Config::Scalar;
  const int lane = threadIdx.x & 31;
  const int group_lane = lane & (a.group - 1);
  const int group_in_warp = lane / a.group;
  const int64_t stride = (int64_t{gridDim.x} * blockDim.x) / a.group;
  // The loop bound uses the warp's first entry so that all lanes of a warp iterate together (the
  // shuffles in group_sum need every lane).
  for (int64_t e = (blockIdx.x * int64_t{blockDim.x} + threadIdx.x) / a.group; e - group_in_warp < a.nnz; e += stride) {
    const bool active = e < a.nnz;
    typename Config::Accumulator acc = 0;
    if (active) {
      const T* u = a.x1 + static_cast<int64_t>(a.entry_row[e]) * a.x1_row_stride;
      const T* v = a.x2 + static_cast<int64_t>(a.entry_col[e]) * a.x2_col_stride;
      acc = partial_dot<Config, I>(a, u, v, group_lane);
    }
    acc = group_sum(acc, a.group);
    if (active && group_lane == 0) {
      const T scale = a.entry_value != nullptr ? a.entry_value[e] : T(1);
      const int64_t dst = a.caller_position != nullptr ? static_cast<int64_t>(a.caller_position[e]) : e;
      a.out[dst] = scale * acc;
    }
  }
}

}  // namespace sddmm::cuda
