// SDDMM by tiles over a plan's tile bounds (cuda/tile_bounds.cuh; SddmmTileConfig has the shape and
// its measurements), for K whose X1 row and X2 column are each one 128-byte line (float32 K = 32).
// A block takes one tile, kTileRows rows by kTileCols columns:
//  - it copies the tile's X2 columns and X1 rows into shared memory (cp.async: 32 + 16 KB, no
//    registers held), so that X2 crosses the L2 once a row of tiles instead of once an entry;
//  - meanwhile its first warps read the bounds of the tile's rows (the run of each row's entries
//    in the tile's columns, in the plan's row order) and sum the runs' lengths into their starts
//    in the tile: the tile's entries are numbered row by row. Thread r then writes r into the row
//    map, a byte for each entry of its run (kRowMapEntries of the tile's entries at a time);
//  - each warp takes 32 consecutive entries a step, a lane the coordinates of one (its row from
//    the row map, its column and value from the plan's row-ordered arrays), loaded a step ahead;
//    each lane group of 8 (lane j: the 16-byte piece j of each line) takes 8 of them by shuffles.
//    A group's entries are consecutive in a row mostly, so it reads the X1 piece where the row
//    changes and an X2 piece for each entry;
//  - the group sums its entries together by halving (scatter_sum, as the line kernel does): lane
//    l ends with the sum of the entry whose coordinates it loaded, and stores it at the entry's
//    place in the caller's order (a group's 8 outputs mostly one sector).
// Against the line kernel (sddmm_line_kernel.cuh), which gathers every entry's X2 column from the
// L2, the staging is the cost: it pays where a tile holds enough entries for its 48 KB (tuning.hpp,
// kSddmmTileMinEntries). The same pieces' products summed in the same tree as the line kernel's: the
// same bits.
#pragma once

#include "cuda/entry_index.cuh"
#include "cuda/mma.cuh"
#include "cuda/precision.cuh"
#include "cuda/sddmm/scatter_sum.cuh"
#include "cuda/sddmm/sddmm_config.cuh"
#include "cuda/vector.cuh"

namespace sddmm::cuda {

// Shared memory of the tile kernel: the staged lines, the runs' plan entries and starts (E: the
// kernel's entry counter type), the scan's sums of its warps, then the row map (a byte an entry).
template <typename Config, typename E>
constexpr size_t tile_kernel_shared_bytes() {
  return Config::kLinesBytes + (2 * size_t{Config::kTileRows} + 1 + Config::kTileRows / 32) * sizeof(E) +
         size_t{Config::kRowMapEntries};
}

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreadsPerBlock, Config::kMinBlocksPerSm)
    sddmm_tile_kernel(const SddmmTileArgs<typename Config::Types, I> a) {
  using T = typename Config::Feature;
  using Acc = typename Config::Accumulator;
  using O = typename Config::Types::Output;
  using Vec = HeldVector<T, Config::kVec>;
  using E = EntryIndex<I>;
  constexpr int kVec = Config::kVec;
  constexpr int kLanes = Config::kLanes;  // also the 16-byte pieces of a line
  constexpr int kU = Config::kEntriesPerGroup;
  constexpr int kThreads = Config::kThreadsPerBlock;
  constexpr int kRows = Config::kTileRows;
  constexpr int kCols = Config::kTileCols;
  constexpr E kStride = E(kThreads / 32 * Config::kEntriesPerWarp);  // the block's entries a step
  static_assert(sizeof(Vec) == 16, "16-byte pieces");
  static_assert((kRows & (kRows - 1)) == 0 && kRows <= kThreads && kRows % 32 == 0, "a thread per row, whole warps");
  static_assert(kRows <= 256 && kCols <= 256, "a coordinate's row and column in 8 bits each");
  constexpr E kMap = E(Config::kRowMapEntries);  // the tile's entries mapped at a time: whole steps
  static_assert(Config::kRowMapEntries % (kThreads / 32 * Config::kEntriesPerWarp) == 0, "whole steps a map");
  extern __shared__ uint4 tile_storage[];
  Vec* const columns = reinterpret_cast<Vec*>(tile_storage);          // column c of the tile: pieces from c * kLanes
  Vec* const lines = columns + kCols * kLanes;                        // row r of the tile: pieces from r * kLanes
  E* const run_entry = reinterpret_cast<E*>(lines + kRows * kLanes);  // (kRows) the plan entry starting row r's run
  E* const run_start = run_entry + kRows;     // (kRows + 1) where row r's run starts in the tile; last: its entries
  E* const warp_sum = run_start + kRows + 1;  // (kRows / 32) the scan's warp totals
  unsigned char* const row_map = reinterpret_cast<unsigned char*>(warp_sum + kRows / 32);  // (kMap) entries' rows
  const int64_t slab = blockIdx.x % a.slabs;
  const int64_t first_row = blockIdx.x / a.slabs * kRows;
  const int64_t first_col = slab * kCols;
  const int tile_rows = static_cast<int>(a.rows - first_row < kRows ? a.rows - first_row : kRows);
  const int tile_cols = static_cast<int>(a.cols - first_col < kCols ? a.cols - first_col : kCols);

  // The runs: thread r < kRows reads row r's bounds (before it issues its copies: the runs, not the
  // copies, are the longer way to the first entries); its warp's inclusive scan, then the warps' totals.
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x / 32;
  E run = 0, scanned = 0, entry = 0;
  if (threadIdx.x < tile_rows) {
    const int64_t r = first_row + threadIdx.x;
    entry = static_cast<E>(__ldg(a.bounds + slab * a.rows + r));
    run = static_cast<E>(__ldg(a.bounds + (slab + 1) * a.rows + r)) - entry;
  }
  for (int v = threadIdx.x; v < tile_cols * kLanes; v += kThreads) {
    copy_16_async(static_cast<unsigned>(__cvta_generic_to_shared(columns + v)),
                  a.x2 + (first_col + v / kLanes) * a.x2_ld + v % kLanes * kVec, true);
  }
  for (int v = threadIdx.x; v < tile_rows * kLanes; v += kThreads) {
    copy_16_async(static_cast<unsigned>(__cvta_generic_to_shared(lines + v)),
                  a.x1 + (first_row + v / kLanes) * a.x1_ld + v % kLanes * kVec, true);
  }
  commit_copies();
  if (threadIdx.x < kRows) {
    run_entry[threadIdx.x] = entry;
    scanned = run;
#pragma unroll
    for (int offset = 1; offset < 32; offset *= 2) {
      const E below = __shfl_up_sync(0xffffffffu, scanned, offset);
      if (lane >= offset) scanned += below;
    }
    if (lane == 31) warp_sum[warp] = scanned;
  }
  __syncthreads();
  E run_end = 0;  // thread r < kRows: where row r's run ends in the tile
  if (threadIdx.x < kRows) {
    E before = 0;
    for (int w = 0; w < warp; ++w) before += warp_sum[w];
    run_end = before + scanned;
    run_start[threadIdx.x] = run_end - run;
    if (threadIdx.x == kRows - 1) run_start[kRows] = run_end;
  }
  __syncthreads();
  const E total = run_start[kRows];
  if (total == 0) {
    wait_copies<0>();  // nothing to compute; no copy left in flight
    return;
  }
  const E run_begin = run_end - run;

  const int group_lane = lane & (kLanes - 1);
  const int group_first = lane / kLanes * kU;  // the warp's entry of the group's slot 0
  // Lane l's entry of a step: its coordinates (row << 8 | column, tile-local), value and output
  // place, loaded kAhead steps ahead (a map's first ones once it is written, the tile's first
  // while the copies land). Past the map's end a lane loads the map's last entry's and stores
  // nothing.
  constexpr int kAhead = Config::kStepsAhead;
  const auto load_entry = [&](E j, E map_first, E last, int& packed, Acc& scale, E& dst) {
    const E at = j < last ? j : last;
    const int r = row_map[at - map_first];
    const E e = run_entry[r] + (at - run_start[r]);
    // The column's offset in the slab, in [0, kCols): the low 32 bits' difference is exact.
    packed =
        r << 8 | static_cast<int>(static_cast<unsigned>(__ldg(a.entry_col + e)) - static_cast<unsigned>(first_col));
    scale = a.entry_value != nullptr ? Acc(widen(__ldg(a.entry_value + e))) : Acc(1);
    dst = a.caller_position != nullptr ? static_cast<E>(__ldg(a.caller_position + e)) : e;
  };
  for (E map_first = 0; map_first < total; map_first += kMap) {
    const E map_end = total - map_first < kMap ? total : map_first + kMap;
    if (map_first != 0) __syncthreads();  // every warp done with the last map
    if (threadIdx.x < kRows) {
      const E from = run_begin > map_first ? run_begin : map_first;
      const E to = run_end < map_end ? run_end : map_end;
      for (E j = from; j < to; ++j) row_map[j - map_first] = static_cast<unsigned char>(threadIdx.x);
    }
    __syncthreads();
    const E last = map_end - 1;
    E at = map_first + E(warp * Config::kEntriesPerWarp);
    int ahead_packed[kAhead];
    Acc ahead_scale[kAhead];
    E ahead_dst[kAhead];
#pragma unroll
    for (int s = 0; s < kAhead; ++s) {
      load_entry(at + E(s) * kStride + E(lane), map_first, last, ahead_packed[s], ahead_scale[s], ahead_dst[s]);
    }
    if (map_first == 0) {  // the first map's first loads are in flight: now the copies
      wait_copies<0>();
      __syncthreads();
    }
    for (; at < map_end; at += kStride) {
      const int packed_held = ahead_packed[0];
      const Acc scale = ahead_scale[0];
      const E dst = ahead_dst[0];
      const bool valid = at + E(lane) < map_end;
#pragma unroll
      for (int s = 0; s + 1 < kAhead; ++s) {
        ahead_packed[s] = ahead_packed[s + 1];
        ahead_scale[s] = ahead_scale[s + 1];
        ahead_dst[s] = ahead_dst[s + 1];
      }
      load_entry(at + E(kAhead) * kStride + E(lane), map_first, last, ahead_packed[kAhead - 1], ahead_scale[kAhead - 1],
                 ahead_dst[kAhead - 1]);
      Vec row_piece[kU], col_piece[kU];
      int row_before = -1;
#pragma unroll
      for (int u = 0; u < kU; ++u) {
        const int p = __shfl_sync(0xffffffffu, packed_held, group_first + u);
        const int r = p >> 8;
        if (u == 0 || r != row_before) {
          row_piece[u] = lines[r * kLanes + group_lane];
        } else {
          row_piece[u] = row_piece[u - 1];
        }
        row_before = r;
        col_piece[u] = columns[(p & 0xff) * kLanes + group_lane];
      }
      Acc partial[kU];
#pragma unroll
      for (int u = 0; u < kU; ++u) partial[u] = held_dot<Acc, T, kVec>(row_piece[u], col_piece[u]);
      const Acc sum = scatter_sum<kLanes, kU>(partial, group_lane);  // lane l: its own entry's (kSumShift 0)
      if (valid) a.out[dst] = narrow<O>(scale * sum);
    }
  }
}

}  // namespace sddmm::cuda
