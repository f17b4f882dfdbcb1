// SpMM kernels. Both walk a row's entries in plan order and reduce in a fixed order: results are
// deterministic, with no atomics and no workspace.
//  - spmm_row_kernel: one lane group per light row (few entries), several rows per warp when N is small.
//  - spmm_heavy_row_kernel: one block per (heavy row, column tile); the block's groups take contiguous
//    slices of the row's entries and their partial sums are added in group order in shared memory.
#pragma once

#include "cuda/precision.cuh"
#include "cuda/spmm/spmm_config.cuh"
#include "cuda/vector.cuh"

namespace sddmm::cuda {

// x(i, j .. j + kVec) for the strided and the vector path.
template <typename Config, typename I>
__device__ __forceinline__ Vector<typename Config::Feature, Config::kVec> load_x(const SpmmArgs<typename Config::Types, I>& a,
                                                                                 int64_t i, int64_t j) {
  using F = typename Config::Feature;
  const F* xr = a.x + i * a.x_row_stride;
  if constexpr (Config::kStrided) {
    return Vector<F, 1>{{xr[j * a.x_col_stride]}};
  } else {
    return load_vector<F, Config::kVec>(xr + j);
  }
}

// A lane's kVec running sums of one output row.
template <typename Config>
using AccVector = Vector<typename Config::Accumulator, Config::kVec>;

// Sum of value[e] * x(index[e], j .. j + kVec) over e in [begin, end), in entry order. Entries go
// kEntriesInFlight at a time: their indices, values and X rows are all loaded before the
// arithmetic, so several gathers are outstanding per lane instead of one.
template <typename Config, typename I>
__device__ __forceinline__ AccVector<Config> accumulate_entries(const SpmmArgs<typename Config::Types, I>& a, int64_t begin,
                                                                int64_t end, int64_t j) {
  using F = typename Config::Feature;
  using Acc = typename Config::Accumulator;
  constexpr int kVec = Config::kVec;
  constexpr int kU = Config::kEntriesInFlight;
  AccVector<Config> acc;
#pragma unroll
  for (int t = 0; t < kVec; ++t) acc.v[t] = Acc(0);
  int64_t e = begin;
  for (; e + kU <= end; e += kU) {
    int64_t idx[kU];
    Acc scale[kU];
    Vector<F, kVec> xv[kU];
#pragma unroll
    for (int u = 0; u < kU; ++u) {
      idx[u] = static_cast<int64_t>(a.index[e + u]);
      scale[u] = a.value != nullptr ? Acc(widen(a.value[e + u])) : Acc(1);
    }
#pragma unroll
    for (int u = 0; u < kU; ++u) xv[u] = load_x<Config, I>(a, idx[u], j);
#pragma unroll
    for (int u = 0; u < kU; ++u) {
      const AccVector<Config> w = widen_vector<Acc>(xv[u]);
#pragma unroll
      for (int t = 0; t < kVec; ++t) acc.v[t] += scale[u] * w.v[t];
    }
  }
  for (; e < end; ++e) {
    const Acc scale = a.value != nullptr ? Acc(widen(a.value[e])) : Acc(1);
    const AccVector<Config> w = widen_vector<Acc>(load_x<Config, I>(a, static_cast<int64_t>(a.index[e]), j));
#pragma unroll
    for (int t = 0; t < kVec; ++t) acc.v[t] += scale * w.v[t];
  }
  return acc;
}

template <typename Config, typename I>
__device__ __forceinline__ void store_row_slice(const SpmmArgs<typename Config::Types, I>& a, int64_t o, int64_t j,
                                                const AccVector<Config>& acc) {
  using O = typename Config::Types::Output;
  O* yr = a.y + o * a.y_row_stride;
  if constexpr (Config::kStrided) {
    yr[j * a.y_col_stride] = narrow<O>(acc.v[0]);
  } else {
    store_narrowed<O, Config::kVec>(yr + j, acc.v);
  }
}

// One lane group per row (kSliced = false), or a whole warp per row (kSliced = true): then each
// of its 32 / group groups sums a contiguous slice of the row and the slices are combined by a fixed
// butterfly of shuffles, every lane running the same loops so the shuffles see the whole warp. Two
// instantiations rather than one runtime path: the sliced loop's extra bookkeeping cost 8-22 % on
// matrices that use one slice (banded, block-diagonal, SBM; H200, bench/RESULTS.md).
template <typename Config, typename I, bool kSliced>
__global__ void __launch_bounds__(Config::kThreadsPerBlock) spmm_row_kernel(const SpmmArgs<typename Config::Types, I> a) {
  using Acc = typename Config::Accumulator;
  constexpr int kVec = Config::kVec;
  if constexpr (!kSliced) {
    const int group_lane = threadIdx.x & (a.group - 1);
    const int64_t stride = (int64_t{gridDim.x} * blockDim.x) / a.group;
    for (int64_t item = (blockIdx.x * int64_t{blockDim.x} + threadIdx.x) / a.group; item < a.outer_count; item += stride) {
      const int64_t o = a.outer_list[item];
      const int64_t begin = a.offsets[o];
      const int64_t end = a.offsets[o + 1];
      for (int64_t j = int64_t{group_lane} * kVec; j < a.n; j += int64_t{a.group} * kVec) {
        store_row_slice<Config, I>(a, o, j, accumulate_entries<Config, I>(a, begin, end, j));
      }
    }
  } else {
    const int lane = threadIdx.x & 31;
    const int slice = lane / a.group;
    const int group_lane = lane & (a.group - 1);
    const int slice_shift = __ffs(32 / a.group) - 1;  // log2(slices); slices = 32 / group
    const int64_t stride = (int64_t{gridDim.x} * blockDim.x) / 32;
    for (int64_t item = (blockIdx.x * int64_t{blockDim.x} + threadIdx.x) / 32; item < a.outer_count; item += stride) {
      const int64_t o = a.outer_list[item];
      const int64_t begin = a.offsets[o];
      const int64_t length = a.offsets[o + 1] - begin;
      const int64_t per_slice = (length + (32 / a.group) - 1) >> slice_shift;
      const int64_t slice_begin = begin + min(length, slice * per_slice);
      const int64_t slice_end = begin + min(length, (slice + 1) * per_slice);
      for (int64_t tile = 0; tile < a.n; tile += int64_t{a.group} * kVec) {
        const int64_t j = tile + int64_t{group_lane} * kVec;
        AccVector<Config> acc;
        if (j < a.n) {
          acc = accumulate_entries<Config, I>(a, slice_begin, slice_end, j);
        } else {
#pragma unroll
          for (int t = 0; t < kVec; ++t) acc.v[t] = Acc(0);
        }
        for (int offset = a.group; offset < 32; offset *= 2) {
#pragma unroll
          for (int t = 0; t < kVec; ++t) acc.v[t] += __shfl_xor_sync(0xffffffffu, acc.v[t], offset);
        }
        if (slice == 0 && j < a.n) store_row_slice<Config, I>(a, o, j, acc);
      }
    }
  }
}

// Grid: outer_count * tiles blocks, tiles = ceil(n / (group * kVec)).
template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreadsPerBlock) spmm_heavy_row_kernel(const SpmmArgs<typename Config::Types, I> a) {
  constexpr int kVec = Config::kVec;
  __shared__ AccVector<Config> partial[Config::kThreadsPerBlock];  // (groups, group) partial sums

  const int64_t tile_width = int64_t{a.group} * kVec;
  const int64_t tiles = (a.n + tile_width - 1) / tile_width;
  const int64_t item = blockIdx.x / tiles;
  const int64_t tile = blockIdx.x % tiles;
  const int groups = Config::kThreadsPerBlock / a.group;
  const int group_id = threadIdx.x / a.group;
  const int group_lane = threadIdx.x & (a.group - 1);

  const int64_t o = a.outer_list[item];
  const int64_t begin = a.offsets[o];
  const int64_t length = a.offsets[o + 1] - begin;
  const int64_t slice = (length + groups - 1) / groups;
  const int64_t slice_begin = begin + min(length, group_id * slice);
  const int64_t slice_end = begin + min(length, (group_id + 1) * slice);
  const int64_t j = tile * tile_width + int64_t{group_lane} * kVec;
  const bool in_range = j < a.n;

  if (in_range) partial[threadIdx.x] = accumulate_entries<Config, I>(a, slice_begin, slice_end, j);
  __syncthreads();
  if (group_id == 0 && in_range) {
    AccVector<Config> sum = partial[group_lane];
    for (int g = 1; g < groups; ++g) {
      const AccVector<Config> p = partial[g * a.group + group_lane];
#pragma unroll
      for (int t = 0; t < kVec; ++t) sum.v[t] += p.v[t];
    }
    store_row_slice<Config, I>(a, o, j, sum);
  }
}

}  // namespace sddmm::cuda
