// SDDMM by tiles over a plan's tile entries (cuda/tile_entries.cuh; SddmmTileConfig has the shape
// and its measurements), for K whose X1 row and X2 column are each one 128-byte line (float32 K = 32).
// A block takes one tile, kTileRows rows by kTileCols columns:
//  - it copies the tile's X2 columns and X1 rows into shared memory (cp.async: 32 + 16 KB, no
//    registers held), so that X2 crosses the L2 once a row of tiles instead of once an entry;
//  - meanwhile each warp loads the coordinates (row << 8 | column, tile-local), value and output
//    place of its first 32 of the tile's entries, a lane one entry's (the plan's tile order: row
//    by row), and then, every step, those of the step after the one it computes;
//  - each lane group of 8 (lane j: the 16-byte piece j of each line) takes 8 of the warp's
//    entries by shuffles. A group's entries are consecutive in a row mostly, so it reads the X1
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

// Shared memory of the tile kernel: the staged lines.
template <typename Config>
constexpr size_t tile_kernel_shared_bytes() {
  return Config::kLinesBytes;
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
  static_assert(kRows <= 256 && kCols <= 256, "a coordinate's row and column in 8 bits each");
  extern __shared__ uint4 tile_storage[];
  Vec* const columns = reinterpret_cast<Vec*>(tile_storage);  // column c of the tile: pieces from c * kLanes
  Vec* const lines = columns + kCols * kLanes;                // row r of the tile: pieces from r * kLanes
  const E begin = static_cast<E>(__ldg(a.begin + blockIdx.x));
  const E end = static_cast<E>(__ldg(a.begin + blockIdx.x + 1));
  if (begin == end) return;  // nothing staged, nothing to compute
  const int64_t first_row = blockIdx.x / a.slabs * kRows;
  const int64_t first_col = blockIdx.x % a.slabs * kCols;
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

  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x / 32;
  const int group_lane = lane & (kLanes - 1);
  const int group_first = lane / kLanes * kU;  // the warp's entry of the group's slot 0
  // Lane l's entry of a step: its coordinates, value and output place, loaded kAhead steps ahead
  // (the first ones while the copies land). Past the tile's end a lane loads its last entry's and
  // stores nothing.
  constexpr int kAhead = Config::kStepsAhead;
  const E last = end - 1;
  const auto load_entry = [&](E j, unsigned& packed, Acc& scale, E& dst) {
    const E at = j < last ? j : last;
    packed = __ldg(a.local + at);
    scale = a.value != nullptr ? Acc(widen(__ldg(a.value + at))) : Acc(1);
    dst = static_cast<E>(__ldg(a.place + at));
  };
  E at = begin + E(warp * Config::kEntriesPerWarp);
  unsigned ahead_packed[kAhead];
  Acc ahead_scale[kAhead];
  E ahead_dst[kAhead];
#pragma unroll
  for (int s = 0; s < kAhead; ++s) {
    load_entry(at + E(s) * kStride + E(lane), ahead_packed[s], ahead_scale[s], ahead_dst[s]);
  }
  wait_copies<0>();
  __syncthreads();
  for (; at < end; at += kStride) {
    const unsigned packed_held = ahead_packed[0];
    const Acc scale = ahead_scale[0];
    const E dst = ahead_dst[0];
    const bool valid = at + E(lane) < end;
#pragma unroll
    for (int s = 0; s + 1 < kAhead; ++s) {
      ahead_packed[s] = ahead_packed[s + 1];
      ahead_scale[s] = ahead_scale[s + 1];
      ahead_dst[s] = ahead_dst[s + 1];
    }
    load_entry(at + E(kAhead) * kStride + E(lane), ahead_packed[kAhead - 1], ahead_scale[kAhead - 1],
               ahead_dst[kAhead - 1]);
    Vec row_piece[kU], col_piece[kU];
    unsigned row_before = ~0u;
#pragma unroll
    for (int u = 0; u < kU; ++u) {
      const unsigned p = __shfl_sync(0xffffffffu, packed_held, group_first + u);
      const unsigned r = p >> 8;
      if (u == 0 || r != row_before) {
        row_piece[u] = lines[r * kLanes + group_lane];
      } else {
        row_piece[u] = row_piece[u - 1];
      }
      row_before = r;
      col_piece[u] = columns[(p & 0xffu) * kLanes + group_lane];
    }
    Acc partial[kU];
#pragma unroll
    for (int u = 0; u < kU; ++u) partial[u] = held_dot<Acc, T, kVec>(row_piece[u], col_piece[u]);
    const Acc sum = scatter_sum<kLanes, kU>(partial, group_lane);  // lane l: its own entry's (kSumShift 0)
    if (valid) a.out[dst] = narrow<O>(scale * sum);
  }
}

}  // namespace sddmm::cuda
