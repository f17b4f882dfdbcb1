// SDDMM over a plan's panel order (cuda/panels.cuh; SddmmPanelConfig has the shape and its
// measurements). The grid is one wave of blocks, each taking one contiguous, equal share of the
// panel-ordered entries; a share crosses panels where it must. For each panel its share touches:
//  - the block stages the panel's X1 rows in shared memory (after a barrier, so that no warp still
//    reads the previous panel);
//  - each warp takes a contiguous part of the block's entries of that panel, and each lane group a
//    contiguous run of the warp's part. Entries are sorted by column within the panel, so a group
//    meets each column in a run of entries: it loads the X2 column into registers when the column
//    changes (once per run) and reads the entry's X1 row from shared memory;
//  - the group's lanes each sum 4 steps of 16 bytes of an entry; a group takes kEntriesPerGroup
//    entries an iteration (4 for float32, else 1) and sums them together by halving (scatter_sum,
//    as the line kernel does), so that each lane ends with one entry's sum: fewer shuffles, index
//    and value loads and stores per entry than a butterfly per entry.
// Against the entry kernel (sddmm_kernel.cuh), X2 columns come from L2 once per (panel, column)
// instead of once per entry, and X1 rows from shared memory instead of registers. ncu (H200,
// uniform-8000-1.28M, float32 K = 256): L1/shared-memory pipe 87 % busy, L2 53 % (the entry kernel
// and cuSPARSE were L2-bound, cuSPARSE at 84 %): the on-chip reads per entry are the bound now.
#pragma once

#include "cuda/entry_index.cuh"
#include "cuda/precision.cuh"
#include "cuda/sddmm/sddmm_config.cuh"
#include "cuda/sddmm/scatter_sum.cuh"
#include "cuda/vector.cuh"

namespace sddmm::cuda {

// The row and column of entry `at`, or of entry `last` where `at` is past it: a coordinate a lane
// group loads a whole iteration ahead of its sums.
template <typename Args, typename E, typename I>
__device__ __forceinline__ void load_coordinates(const Args& a, E at, E last, I& row, I& col) {
  const E clamped = at < last ? at : last;
  row = a.row[clamped];
  col = a.col[clamped];
}

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
  constexpr int kU = Config::kEntriesPerGroup;
  const int summed = group_lane >> Config::kSumShift;  // the iteration's entry whose sum it ends with
  const bool stores = (group_lane & ((1 << Config::kSumShift) - 1)) == 0;
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
      // Whole iterations a group: no group computes entries of the next one's run (a group past the
      // warp's part computes copies of its last entry, one X2 column load, and stores nothing).
      const E per_group = ((warp_end - warp_begin + kGroups - 1) / kGroups + E(kU - 1)) / E(kU) * E(kU);
      const E run_begin = warp_begin + E(group) * per_group;
      const E run_end = run_begin + per_group < warp_end ? run_begin + per_group : warp_end;
      const E last = warp_end - 1;  // past the run (the last groups): compute the warp's last entry, store nothing
      I cached_col = I(-1);
      Vec column[kSteps];
      // Each iteration takes kU consecutive entries of the run, whose coordinates every lane of the
      // group loads a whole iteration ahead.
      I next_row[kU], next_col[kU];
#pragma unroll
      for (int u = 0; u < kU; ++u) load_coordinates(a, run_begin + E(u), last, next_row[u], next_col[u]);
      for (E i = 0; i < per_group; i += E(kU)) {
        I row_held[kU], col_held[kU];
#pragma unroll
        for (int u = 0; u < kU; ++u) {
          row_held[u] = next_row[u];
          col_held[u] = next_col[u];
          load_coordinates(a, run_begin + i + E(kU + u), last, next_row[u], next_col[u]);
        }
        // Value and output position of the entry whose sum this lane ends with.
        const E mine = run_begin + i + E(summed);
        const E e = mine < last ? mine : last;
        const Acc scale = a.value != nullptr ? Acc(widen(a.value[e])) : Acc(1);
        const E dst = static_cast<E>(a.position[e]);
        Acc partial[kU];
#pragma unroll
        for (int u = 0; u < kU; ++u) {
          const I r = row_held[u];
          const I col = col_held[u];
          const int local_row = static_cast<int>(static_cast<int64_t>(r) - first_row);
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
          partial[u] = acc;
        }
        const Acc sum = scatter_sum<kLanes, kU>(partial, group_lane);
        if (stores && mine < run_end) a.out[dst] = narrow<O>(scale * sum);
      }
    }
    begin = segment_end;
  }
}

}  // namespace sddmm::cuda
