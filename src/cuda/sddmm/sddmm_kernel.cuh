// SDDMM, entry-parallel: a persistent grid of lane groups walks the entries in plan (row) order. Each
// group carries kEntriesPerGroup consecutive-in-warp entries per iteration, issues all their X1/X2
// loads before the arithmetic, splits K across its lanes and reduces by shuffles. Work per entry is
// K no matter how skewed the rows are, so power-law graphs balance by construction; neighbouring
// groups share X1's row in L1.
#pragma once

#include "cuda/precision.cuh"
#include "cuda/sddmm/sddmm_config.cuh"
#include "cuda/vector.cuh"

namespace sddmm::cuda {

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreadsPerBlock)
    sddmm_entry_kernel(const SddmmArgs<typename Config::Types, I> a) {
  using T = typename Config::Feature;
  using Acc = typename Config::Accumulator;
  using O = typename Config::Types::Output;
  constexpr int kVec = Config::kVec;
  constexpr int kU = Config::kEntriesPerGroup;
  const int lane = threadIdx.x & 31;
  const int group_lane = lane & (a.group - 1);
  const int group_in_warp = lane / a.group;
  const int groups_per_warp = 32 / a.group;
  const int64_t warp = (blockIdx.x * int64_t{blockDim.x} + threadIdx.x) / 32;
  const int64_t warps = (int64_t{gridDim.x} * blockDim.x) / 32;
  const int64_t per_warp = int64_t{groups_per_warp} * kU;  // entries a warp takes per iteration

  // `base` is the same for every lane of a warp, so all lanes iterate together (group_sum needs them).
  for (int64_t base = warp * per_warp; base < a.nnz; base += warps * per_warp) {
    const T* u[kU];
    const T* v[kU];
    int64_t entry[kU];  // position in this launch's work
    int64_t plan_entry[kU];
#pragma unroll
    for (int i = 0; i < kU; ++i) {
      entry[i] = base + int64_t{i} * groups_per_warp + group_in_warp;
      const int64_t w = entry[i] < a.nnz ? entry[i] : a.nnz - 1;  // tail lanes re-read a valid entry
      plan_entry[i] = a.entry_list != nullptr ? static_cast<int64_t>(a.entry_list[w]) : w;
      u[i] = a.x1 + static_cast<int64_t>(a.entry_row[plan_entry[i]]) * a.x1_row_stride;
      v[i] = a.x2 + static_cast<int64_t>(a.entry_col[plan_entry[i]]) * a.x2_col_stride;
    }
    Acc acc[kU];
#pragma unroll
    for (int i = 0; i < kU; ++i) acc[i] = Acc(0);
    if constexpr (Config::kStrided) {
      for (int64_t k = group_lane; k < a.k; k += a.group) {
        T uu[kU], vv[kU];
#pragma unroll
        for (int i = 0; i < kU; ++i) uu[i] = u[i][k * a.x1_k_stride], vv[i] = v[i][k * a.x2_k_stride];
#pragma unroll
        for (int i = 0; i < kU; ++i) acc[i] += widen(uu[i]) * widen(vv[i]);
      }
    } else {
      for (int64_t k = int64_t{group_lane} * kVec; k < a.k; k += int64_t{a.group} * kVec) {
        Vector<T, kVec> uu[kU], vv[kU];
#pragma unroll
        for (int i = 0; i < kU; ++i) uu[i] = load_vector<T, kVec>(u[i] + k), vv[i] = load_vector<T, kVec>(v[i] + k);
#pragma unroll
        for (int i = 0; i < kU; ++i) {
          const Vector<Acc, kVec> wu = widen_vector<Acc>(uu[i]), wv = widen_vector<Acc>(vv[i]);
#pragma unroll
          for (int j = 0; j < kVec; ++j) acc[i] += wu.v[j] * wv.v[j];
        }
      }
    }
#pragma unroll
    for (int i = 0; i < kU; ++i) acc[i] = group_sum(acc[i], a.group);
    if (group_lane == 0) {
#pragma unroll
      for (int i = 0; i < kU; ++i) {
        if (entry[i] < a.nnz) {
          const int64_t e = plan_entry[i];
          const Acc scale = a.entry_value != nullptr ? Acc(widen(a.entry_value[e])) : Acc(1);
          const int64_t dst = a.caller_position != nullptr ? static_cast<int64_t>(a.caller_position[e]) : e;
          a.out[dst] = narrow<O>(scale * acc[i]);
        }
      }
    }
  }
}

}  // namespace sddmm::cuda
