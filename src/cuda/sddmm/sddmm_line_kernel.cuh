// SDDMM, entry-parallel, for K whose X1 row and X2 column are each one 64- or 128-byte line
// (SddmmLineConfig). The shares are the entry kernel's (sddmm_kernel.cuh), kEntriesPerWarp entries
// per iteration, but at K <= 32 the warps take the iterations in turn (warp_turns, with a grid of
// one wave: sddmm.cu; tuning.hpp has the measurement) instead of one contiguous share each. What
// differs is how a warp's lanes meet those entries:
//  - lane l holds the row and column of the iteration's entry l (mod kEntriesPerWarp), loaded one
//    iteration ahead; each group takes its kEntriesPerGroup entries' coordinates from those lanes by
//    shuffles;
//  - lane j of a group loads piece j (16 bytes) of each of its entries' X1 row and X2 column, so a
//    load instruction reads whole lines, and sums its pieces' products;
//  - the group adds its entries' partial sums by halving (scatter_sum): each lane ends with the sum
//    of entry (group_lane >> kSumShift) of its group, which is the warp's entry
//    lane >> kSumShift, and the first lane of each such run stores it.
// X1 is not held in registers across iterations (the entry kernel's cache; with the iterations in
// turn a warp's next one is another band of rows): a group loads its X1 line for its first entry of
// the iteration and again only where the row changes among its kEntriesPerGroup, mostly once.
// Measured against a load per entry (H200, 2026-11-27, float32 K = 32, two rounds): uniform
// 8000^2 5-7 % faster (6.4M 0.0985 -> 0.0923 ms, 3.2M 0.0523 -> 0.0492, 640k 0.0149 -> 0.0142),
// R-MAT and banded 1 %, SBM, uniform-36000-4M and the graphs within noise. Four X1 loads an
// iteration had been half the line kernel's load instructions (its L1 75 % busy: bench/RESULTS.md).
#pragma once

#include "cuda/entry_index.cuh"
#include "cuda/line_address.cuh"
#include "cuda/precision.cuh"
#include "cuda/sddmm/sddmm_config.cuh"
#include "cuda/sddmm/sddmm_kernel.cuh"
#include "cuda/sddmm/scatter_sum.cuh"
#include "cuda/vector.cuh"

namespace sddmm::cuda {

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreadsPerBlock,
                                  sizeof(I) == 4 ? Config::kMinBlocksPerSm : Config::kMinBlocksPerSmWideIndex)
    sddmm_line_kernel(const SddmmArgs<typename Config::Types, I> a) {
  using T = typename Config::Feature;
  using Acc = typename Config::Accumulator;
  using O = typename Config::Types::Output;
  using Vec = HeldVector<T, Config::kVec>;
  using E = EntryIndex<I>;
  constexpr int kVec = Config::kVec;
  constexpr int kLanes = Config::kLanes;
  constexpr int kU = Config::kEntriesPerGroup;
  constexpr int kPerWarp = Config::kEntriesPerWarp;
  const int lane = threadIdx.x & 31;
  const int group_lane = lane & (kLanes - 1);
  const int group_first = lane / kLanes * kU;    // the warp's entry that the group's slot 0 takes
  const int held = lane % kPerWarp;              // the warp's entry whose coordinates this lane loads
  const int summed = lane >> Config::kSumShift;  // the warp's entry whose sum this lane ends with
  const bool stores = (group_lane & ((1 << Config::kSumShift) - 1)) == 0;
  const E nnz = static_cast<E>(a.nnz);
  const WarpShare<E> share = launch_share(a, nnz, E(kPerWarp));
  const T* const x1 = a.x1 + group_lane * kVec;
  const T* const x2 = a.x2 + group_lane * kVec;

  if (a.nnz == 0) return;
  E e_next = plan_entry_at<Config, I>(a, nnz, share.begin + held);
  I row_next = a.entry_row[e_next];
  I col_next = a.entry_col[e_next];
  for (E base = share.begin; base < share.end; base += share.stride) {
    const I row_held = row_next;
    const I col_held = col_next;
    e_next = plan_entry_at<Config, I>(a, nnz, base + share.stride + held);
    row_next = a.entry_row[e_next];
    col_next = a.entry_col[e_next];
    // Value and output position of the entry this lane's sum ends with, loaded before the gathers.
    const E e = plan_entry_at<Config, I>(a, nnz, base + summed);
    const Acc scale = a.entry_value != nullptr ? Acc(widen(a.entry_value[e])) : Acc(1);
    const E dst = a.caller_position != nullptr ? static_cast<E>(a.caller_position[e]) : e;
    // A group's entries are consecutive in plan order, so mostly of one row: its X1 line is loaded
    // for the first of them and again only where the row changes (lanes whose group keeps the row
    // issue no load).
    Vec row_piece[kU], col_piece[kU];
    I row_before = 0;
#pragma unroll
    for (int u = 0; u < kU; ++u) {
      const I r = __shfl_sync(0xffffffffu, row_held, group_first + u);
      const I c = __shfl_sync(0xffffffffu, col_held, group_first + u);
      if (u == 0 || r != row_before) {
        row_piece[u] = load_held<T, kVec>(line_at(x1, r, a.x1_row_stride, a.x1_row_bytes));
      } else {
        row_piece[u] = row_piece[u - 1];
      }
      row_before = r;
      col_piece[u] = load_held<T, kVec>(line_at(x2, c, a.x2_col_stride, a.x2_col_bytes));
    }
    Acc partial[kU];
#pragma unroll
    for (int u = 0; u < kU; ++u) partial[u] = held_dot<Acc, T, kVec>(row_piece[u], col_piece[u]);
    const Acc sum = scatter_sum<kLanes, kU>(partial, group_lane);
    if (stores && base + summed < share.end) a.out[dst] = narrow<O>(scale * sum);
  }
}

}  // namespace sddmm::cuda
