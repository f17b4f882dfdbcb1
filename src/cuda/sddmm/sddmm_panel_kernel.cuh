// SDDMM over a plan's panel order (cuda/panels.cuh; SddmmPanelConfig has the shape and its
// measurements). The grid is one wave of blocks, each taking one contiguous, equal share of the
// panel-ordered entries; a share crosses panels where it must. For each panel its share touches:
//  - the block stages the panel's X1 rows in shared memory (after a barrier, so that no warp still
//    reads the previous panel);
//  - each warp takes a contiguous part of the block's entries of that panel, and each lane group a
//    contiguous run of the warp's part. Entries are sorted by column within the panel, so a group
//    meets each column in a run of entries: it loads the X2 column into registers when the column
//    changes (once per run) and reads the entry's X1 row from shared memory;
//  - the group's lanes each sum 4 steps of 16 bytes, then the group by shuffles.
// Against the entry kernel (sddmm_kernel.cuh), X2 columns come from L2 once per (panel, column)
// instead of once per entry, and X1 rows from shared memory instead of registers. ncu (H200,
// uniform-8000-1.28M, float32 K = 256): L1/shared-memory pipe 87 % busy, L2 53 % (the entry kernel
// and cuSPARSE were L2-bound, cuSPARSE at 84 %): the on-chip reads per entry are the bound now.
#pragma once

#include "cuda/entry_index.cuh"
#include "cuda/precision.cuh"
#include "cuda/sddmm/sddmm_config.cuh"
#include "cuda/vector.cuh"

namespace sddmm::cuda {

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreadsPerBlock, Config::kMinBlocksPerSm)
    sddmm_panel_kernel(const SddmmPanelArgs<typename Config::Types, I> a) {
  using T = typename Config::Feature;
  using Acc = typename Config::Accumulator;
  using O = typename Config::Types::Output;
  using Vec = HeldVector<T, Config::kVec>;
  using E = EntryIndex<I>;
  constexpr int kVec = Config::kVec;
  constexpr int kLanes = Config::kLanes;
  constexpr int kSteps = Config::kStepsPerLane;
  constexpr int kRowVectors = Config::kK / kVec;  // 16-byte vectors per row: kLanes * kSteps
  constexpr int kGroups = 32 / kLanes;            // lane groups per warp
  constexpr int kWarps = Config::kThreadsPerBlock / 32;
  static_assert(sizeof(Vec) == 16, "16-byte vectors");
  extern __shared__ uint4 staged_storage[];
  Vec* const staged =
      reinterpret_cast<Vec*>(staged_storage);  // row r of the panel: kRowVectors vectors from r * kRowVectors
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x / 32;
  const int group_lane = lane & (kLanes - 1);
  const int group = lane / kLanes;
  const int64_t share = (a.nnz + gridDim.x - 1) / gridDim.x;
  int64_t begin = blockIdx.x * share;
  const int64_t end = begin + share < a.nnz ? begin + share : a.nnz;

  while (begin < end) {
    const int64_t panel = static_cast<int64_t>(a.row[begin]) / kPanelRows;
    const int64_t segment_end = a.panel_offsets[panel + 1] < end ? a.panel_offsets[panel + 1] : end;
    const int64_t first_row = panel * kPanelRows;
    const int panel_rows = static_cast<int>(a.rows - first_row < kPanelRows ? a.rows - first_row : kPanelRows);
    __syncthreads();
    for (int v = threadIdx.x; v < panel_rows * kRowVectors; v += Config::kThreadsPerBlock) {
      const int r = v / kRowVectors, j = v % kRowVectors;
      staged[v] = load_held<T, kVec>(a.x1 + (first_row + r) * a.x1_ld + j * kVec);
    }
    __syncthreads();
    // This warp's part of the segment [begin, segment_end), then this group's run of the warp's part.
    const E per_warp = static_cast<E>((segment_end - begin + kWarps - 1) / kWarps);
    const E warp_begin = static_cast<E>(begin) + E(warp) * per_warp;
    const E warp_end =
        warp_begin + per_warp < static_cast<E>(segment_end) ? warp_begin + per_warp : static_cast<E>(segment_end);
    if (warp_begin < warp_end) {
      const E per_group = (warp_end - warp_begin + kGroups - 1) / kGroups;
      const E run_begin = warp_begin + E(group) * per_group;
      const E run_end = run_begin + per_group < warp_end ? run_begin + per_group : warp_end;
      const E last = warp_end - 1;  // past the run (the last groups): compute the warp's last entry, store nothing
      I cached_col = I(-1);
      Vec column[kSteps];
      E at = run_begin < last ? run_begin : last;
      I next_row = a.row[at], next_col = a.col[at];
      for (E i = 0; i < per_group; ++i) {
        const E entry = run_begin + i;
        const E e = entry < last ? entry : last;
        const int local_row = static_cast<int>(static_cast<int64_t>(next_row) - first_row);
        const I col = next_col;
        at = entry + 1 < last ? entry + 1 : last;
        next_row = a.row[at];
        next_col = a.col[at];
        const Acc scale = a.value != nullptr ? Acc(widen(a.value[e])) : Acc(1);
        const E dst = static_cast<E>(a.position[e]);
        if (col != cached_col) {
          const T* x2 = a.x2 + static_cast<int64_t>(col) * a.x2_ld;
#pragma unroll
          for (int s = 0; s < kSteps; ++s) column[s] = load_held<T, kVec>(x2 + (group_lane + s * kLanes) * kVec);
          cached_col = col;
        }
        Vec row[kSteps];
#pragma unroll
        for (int s = 0; s < kSteps; ++s) row[s] = staged[local_row * kRowVectors + group_lane + s * kLanes];
        Acc step_sum[kSteps];
#pragma unroll
        for (int s = 0; s < kSteps; ++s) step_sum[s] = held_dot<Acc, T, kVec>(row[s], column[s]);
        Acc acc = step_sum[0];
#pragma unroll
        for (int s = 1; s < kSteps; ++s) acc += step_sum[s];
#pragma unroll
        for (int offset = kLanes / 2; offset > 0; offset /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, offset);
        if (group_lane == 0 && entry < run_end) a.out[dst] = narrow<O>(scale * acc);
      }
    }
    begin = segment_end;
  }
}

}  // namespace sddmm::cuda
