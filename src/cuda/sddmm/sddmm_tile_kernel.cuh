// SDDMM by tiles over a plan's tile bounds (cuda/tile_bounds.cuh; SddmmTileConfig has the shape and
// its measurements), for K whose X1 row and X2 column are each one 128-byte line (float32 K = 32).
// A block takes one tile, kTileRows rows by kTileCols columns:
//  - it copies the tile's X2 columns and X1 rows into shared memory (cp.async: 32 + 16 KB, no
//    registers held), so that X2 crosses the L2 once a row of tiles instead of once an entry;
//  - meanwhile its first warps read the bounds of the tile's rows (the run of each row's entries
//    in the tile's columns, in the plan's row order) and sum the runs' lengths into their starts
//    in the tile: the tile's entries are numbered row by row;
//  - each warp takes 32 consecutive entries a step, a lane the coordinates of one (its row by a
//    binary search of the runs' starts, its column and value from the plan's row-ordered arrays),
//    loaded a step ahead; each lane group of 8 (lane j: the 16-byte piece j of each line) takes 8
//    of them by shuffles. A group's entries are consecutive in a row mostly, so it reads the X1
//    piece where the row changes and an X2 piece for each entry;
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

// Shared memory of the tile kernel: the staged lines, then the runs' plan entries and starts
// (E: the kernel's entry counter type) and the scan's sums of its warps.
template <typename Config, typename E>
constexpr size_t tile_kernel_shared_bytes() {
  return Config::kLinesBytes + (2 * size_t{Config::kTileRows} + 1 + Config::kTileRows / 32) * sizeof(E);
}

// The tile's row whose run holds its entry j (0 <= j < the tile's entries): the last r with
// start[r] <= j, whose run is not empty. kRows a power of two.
template <int kRows, typename E>
__device__ __forceinline__ int run_of(const E* start, E j) {
  int r = 0;
#pragma unroll
  for (int step = kRows / 2; step >= 1; step /= 2) {
    if (start[r + step] <= j) r += step;
  }
  return r;
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
  extern __shared__ uint4 tile_storage[];
  Vec* const columns = reinterpret_cast<Vec*>(tile_storage);          // column c of the tile: pieces from c * kLanes
  Vec* const lines = columns + kCols * kLanes;                        // row r of the tile: pieces from r * kLanes
  E* const run_entry = reinterpret_cast<E*>(lines + kRows * kLanes);  // (kRows) the plan entry starting row r's run
  E* const run_start = run_entry + kRows;     // (kRows + 1) where row r's run starts in the tile; last: its entries
  E* const warp_sum = run_start + kRows + 1;  // (kRows / 32) the scan's warp totals
  const int64_t slab = blockIdx.x % a.slabs;
  const int64_t first_row = blockIdx.x / a.slabs * kRows;
  const int64_t first_col = slab * kCols;
  const int tile_rows = static_cast<int>(a.rows - first_row < kRows ? a.rows - first_row : kRows);
  const int tile_cols = static_cast<int>(a.cols - first_col < kCols ? a.cols - first_col : kCols);
  for (int v = threadIdx.x; v < tile_cols * kLanes; v += kThreads) {
    copy_16_async(static_cast<unsigned>(__cvta_generic_to_shared(columns + v)),
                  a.x2 + (first_col + v / kLanes) * a.x2_ld + v % kLanes * kVec, true);
  }
  for (int v = threadIdx.x; v < tile_rows * kLanes; v += kThreads) {
    copy_16_async(static_cast<unsigned>(__cvta_generic_to_shared(lines + v)),
                  a.x1 + (first_row + v / kLanes) * a.x1_ld + v % kLanes * kVec, true);
  }
  commit_copies();

  // The runs: thread r < kRows reads row r's bounds; its warp's inclusive scan, then the warps' totals.
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x / 32;
  E run = 0, scanned = 0;
  if (threadIdx.x < kRows) {
    E entry = 0;
    if (threadIdx.x < tile_rows) {
      const int64_t r = first_row + threadIdx.x;
      entry = static_cast<E>(a.bounds[slab * a.rows + r]);
      run = static_cast<E>(a.bounds[(slab + 1) * a.rows + r]) - entry;
    }
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
  if (threadIdx.x < kRows) {
    E before = 0;
    for (int w = 0; w < warp; ++w) before += warp_sum[w];
    run_start[threadIdx.x] = before + scanned - run;
    if (threadIdx.x == kRows - 1) run_start[kRows] = before + scanned;
  }
  __syncthreads();
  const E total = run_start[kRows];
  if (total == 0) {
    wait_copies<0>();  // nothing to compute; no copy left in flight
    return;
  }

  const int group_lane = lane & (kLanes - 1);
  const int group_first = lane / kLanes * kU;  // the warp's entry of the group's slot 0
  const E last = total - 1;                    // past the tile's end a lane loads the last entry's and stores nothing
  // Lane l's entry of a step: its coordinates (row << 8 | column, tile-local), value and output
  // place, loaded kAhead steps ahead (the first ones while the copies land).
  constexpr int kAhead = Config::kStepsAhead;
  const auto load_entry = [&](E j, int& packed, Acc& scale, E& dst) {
    const E at = j < last ? j : last;
    const int r = run_of<kRows>(run_start, at);
    const E e = run_entry[r] + (at - run_start[r]);
    packed = r << 8 | static_cast<int>(static_cast<int64_t>(a.entry_col[e]) - first_col);
    scale = a.entry_value != nullptr ? Acc(widen(a.entry_value[e])) : Acc(1);
    dst = a.caller_position != nullptr ? static_cast<E>(a.caller_position[e]) : e;
  };
  E at = E(warp * Config::kEntriesPerWarp);
  int ahead_packed[kAhead];
  Acc ahead_scale[kAhead];
  E ahead_dst[kAhead];
#pragma unroll
  for (int s = 0; s < kAhead; ++s) {
    load_entry(at + E(s) * kStride + E(lane), ahead_packed[s], ahead_scale[s], ahead_dst[s]);
  }
  wait_copies<0>();
  __syncthreads();
  for (; at < total; at += kStride) {
    const int packed_held = ahead_packed[0];
    const Acc scale = ahead_scale[0];
    const E dst = ahead_dst[0];
    const bool valid = at + E(lane) < total;
#pragma unroll
    for (int s = 0; s + 1 < kAhead; ++s) {
      ahead_packed[s] = ahead_packed[s + 1];
      ahead_scale[s] = ahead_scale[s + 1];
      ahead_dst[s] = ahead_dst[s + 1];
    }
    load_entry(at + E(kAhead) * kStride + E(lane), ahead_packed[kAhead - 1], ahead_scale[kAhead - 1],
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

}  // namespace sddmm::cuda
