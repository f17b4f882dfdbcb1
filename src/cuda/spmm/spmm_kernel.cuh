// SpMM, row-parallel: a group of lanes owns one output row and walks that row's entries in plan
// order (a fixed order: results are deterministic, no atomics), each lane accumulating kVec columns.
#pragma once

#include "cuda/spmm/spmm_config.cuh"
#include "cuda/vector.cuh"

namespace sddmm::cuda {

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreadsPerBlock) spmm_row_kernel(const SpmmArgs<typename Config::Scalar, I> a) {
  using T = typename Config::Scalar;
  constexpr int kVec = Config::kVec;
  const int group_lane = threadIdx.x & (a.group - 1);
  const int64_t stride = (int64_t{gridDim.x} * blockDim.x) / a.group;
  for (int64_t o = (blockIdx.x * int64_t{blockDim.x} + threadIdx.x) / a.group; o < a.outer; o += stride) {
    const int64_t begin = a.offsets[o];
    const int64_t end = a.offsets[o + 1];
    for (int64_t j = int64_t{group_lane} * kVec; j < a.n; j += int64_t{a.group} * kVec) {
      Vector<T, kVec> acc;
#pragma unroll
      for (int t = 0; t < kVec; ++t) acc.v[t] = T(0);
      for (int64_t e = begin; e < end; ++e) {
        const T scale = a.value != nullptr ? a.value[e] : T(1);
        const T* xr = a.x + static_cast<int64_t>(a.index[e]) * a.x_row_stride;
        if constexpr (Config::kStrided) {
          acc.v[0] += scale * xr[j * a.x_col_stride];
        } else {
          const Vector<T, kVec> xv = load_vector<T, kVec>(xr + j);
#pragma unroll
          for (int t = 0; t < kVec; ++t) acc.v[t] += scale * xv.v[t];
        }
      }
      T* yr = a.y + o * a.y_row_stride;
      if constexpr (Config::kStrided) {
        yr[j * a.y_col_stride] = acc.v[0];
      } else {
        store_vector<T, kVec>(yr + j, acc);
      }
    }
  }
}

}  // namespace sddmm::cuda
