// SDDMM over a plan's panel tiles (cuda/panels.cuh; SddmmPanelTileConfig has the shape and its
// measurements), for K whose X1 row and X2 column are each one 128-byte line (float32 K = 32). A
// block takes one tile, the entries of a 64-row panel in kPanelTileCols consecutive columns:
//  - it copies the tile's X2 columns and the panel's X1 rows into shared memory (cp.async: 32 + 8
//    KB, no registers held), so that X2 crosses the L2 once a panel instead of once an entry;
//  - each lane group of 8 (lane j: the 16-byte piece j of each line) takes kEntriesPerGroup
//    consecutive entries a step, whose coordinates the warp's lanes load a step ahead (one each)
//    and hand over by shuffles. Entries are sorted by column within the tile, so a group reads an
//    X2 piece for its first entry and again only where the column changes, and an X1 piece for
//    each entry;
//  - the group sums its entries together by halving (scatter_sum, as the line kernel does): each
//    lane ends with one entry's sum, and stores it at the entry's place in the caller's order.
// Against the line kernel (sddmm_line_kernel.cuh), which gathers every entry's X2 column from the
// L2, the on-chip reads and the tile's staging are the cost: it pays where a tile holds enough
// entries for its 40 KB (tuning.hpp, kSddmmPanelTileMinEntries).
#pragma once

#include "cuda/entry_index.cuh"
#include "cuda/mma.cuh"
#include "cuda/panels.cuh"
#include "cuda/precision.cuh"
#include "cuda/sddmm/scatter_sum.cuh"
#include "cuda/sddmm/sddmm_config.cuh"
#include "cuda/vector.cuh"

namespace sddmm::cuda {

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreadsPerBlock,
                                  sizeof(I) == 4 ? Config::kMinBlocksPerSm : Config::kMinBlocksPerSmWideIndex)
    sddmm_panel_tile_kernel(const SddmmPanelArgs<typename Config::Types, I> a) {
  using T = typename Config::Feature;
  using Acc = typename Config::Accumulator;
  using O = typename Config::Types::Output;
  using Vec = HeldVector<T, Config::kVec>;
  using E = EntryIndex<I>;
  constexpr int kVec = Config::kVec;
  constexpr int kLanes = Config::kLanes;  // also the 16-byte pieces of a line
  constexpr int kU = Config::kEntriesPerGroup;
  constexpr int kPerWarp = Config::kEntriesPerWarp;
  constexpr int kThreads = Config::kThreadsPerBlock;
  constexpr E kStride = E(kThreads / 32 * kPerWarp);  // the block's entries a step
  static_assert(sizeof(Vec) == 16, "16-byte pieces");
  extern __shared__ uint4 tile_storage[];
  Vec* const columns = reinterpret_cast<Vec*>(tile_storage);  // column c of the tile: pieces from c * kLanes
  Vec* const rows = columns + Config::kTileCols * kLanes;     // row r of the panel: pieces from r * kLanes
  const int64_t tile = blockIdx.x;
  const E begin = static_cast<E>(a.tile_offsets[tile]);
  const E end = static_cast<E>(a.tile_offsets[tile + 1]);
  if (begin == end) return;
  const int64_t first_row = tile / a.tile_columns * kPanelRows;
  const int64_t first_col = tile % a.tile_columns * Config::kTileCols;
  const int tile_rows = static_cast<int>(a.rows - first_row < kPanelRows ? a.rows - first_row : kPanelRows);
  const int tile_cols =
      static_cast<int>(a.cols - first_col < Config::kTileCols ? a.cols - first_col : Config::kTileCols);
  for (int v = threadIdx.x; v < tile_cols * kLanes; v += kThreads) {
    copy_16_async(static_cast<unsigned>(__cvta_generic_to_shared(columns + v)),
                  a.x2 + (first_col + v / kLanes) * a.x2_ld + v % kLanes * kVec, true);
  }
  for (int v = threadIdx.x; v < tile_rows * kLanes; v += kThreads) {
    copy_16_async(static_cast<unsigned>(__cvta_generic_to_shared(rows + v)),
                  a.x1 + (first_row + v / kLanes) * a.x1_ld + v % kLanes * kVec, true);
  }
  commit_copies();

  const int lane = threadIdx.x & 31;
  const int group_lane = lane & (kLanes - 1);
  const int group_first = lane / kLanes * kU;                                 // the warp's entry of the group's slot 0
  const int held = lane % kPerWarp;                                           // the entry whose coordinates it loads
  const int summed = lane / kLanes * kU + (group_lane >> Config::kSumShift);  // the entry whose sum it ends with
  const bool stores = (group_lane & ((1 << Config::kSumShift) - 1)) == 0;
  const E last = end - 1;  // past the tile's end a lane loads the last entry's and stores nothing
  // The coordinates (tile-local), value and output place of the first step, loaded while the
  // copies land; each step then loads the next one's.
  E at = begin + E(threadIdx.x / 32 * kPerWarp);
  E next = at + E(held) < last ? at + E(held) : last;
  int next_row = static_cast<int>(static_cast<int64_t>(a.row[next]) - first_row);
  int next_col = static_cast<int>(static_cast<int64_t>(a.col[next]) - first_col);
  E mine = at + E(summed) < last ? at + E(summed) : last;
  Acc next_scale = a.value != nullptr ? Acc(widen(a.value[mine])) : Acc(1);
  E next_dst = static_cast<E>(a.position[mine]);
  wait_copies<0>();
  __syncthreads();
  for (; at < end; at += kStride) {
    const int row_held = next_row;
    const int col_held = next_col;
    const Acc scale = next_scale;
    const E dst = next_dst;
    const bool valid = stores && at + E(summed) < end;
    next = at + kStride + E(held) < last ? at + kStride + E(held) : last;
    next_row = static_cast<int>(static_cast<int64_t>(a.row[next]) - first_row);
    next_col = static_cast<int>(static_cast<int64_t>(a.col[next]) - first_col);
    mine = at + kStride + E(summed) < last ? at + kStride + E(summed) : last;
    next_scale = a.value != nullptr ? Acc(widen(a.value[mine])) : Acc(1);
    next_dst = static_cast<E>(a.position[mine]);
    Vec row_piece[kU], col_piece[kU];
    int col_before = -1;
#pragma unroll
    for (int u = 0; u < kU; ++u) {
      const int r = __shfl_sync(0xffffffffu, row_held, group_first + u);
      const int c = __shfl_sync(0xffffffffu, col_held, group_first + u);
      if (u == 0 || c != col_before) {
        col_piece[u] = columns[c * kLanes + group_lane];
      } else {
        col_piece[u] = col_piece[u - 1];
      }
      col_before = c;
      row_piece[u] = rows[r * kLanes + group_lane];
    }
    Acc partial[kU];
#pragma unroll
    for (int u = 0; u < kU; ++u) partial[u] = held_dot<Acc, T, kVec>(row_piece[u], col_piece[u]);
    const Acc sum = scatter_sum<kLanes, kU>(partial, group_lane);
    if (valid) a.out[dst] = narrow<O>(scale * sum);
  }
}

}  // namespace sddmm::cuda
