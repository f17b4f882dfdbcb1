// The tile entries (cuda/tile_entries.cuh): a block a tile, a thread a row of it. Each thread finds
// its row's run in the tile's columns by two binary searches of the row; the block sums the runs'
// lengths into their starts in the tile and the entries of the tile's rows before the slab into
// the tile's first place in the list (the entries of the rows of tiles above it are the CSR
// offset of its first row): no pass over the whole matrix. Then its threads write the tile's
// entries at consecutive places, each finding its entry's row by a binary search of the run
// starts. The rule builds them at 1200 entries a tile or more (tuning.hpp): a block writes
// many entries for its searches.
#include <cstdint>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "cuda/preprocess/launch.cuh"
#include "cuda/preprocess/sorted.cuh"
#include "cuda/tile_entries.cuh"

namespace sddmm::cuda {
namespace {

constexpr int kBlockRows = static_cast<int>(kTileRows);

// In-block sums over the tile's rows (thread r holds row r's): the exclusive scan of `run` and the
// totals of `run` and `before`, by CUB's block primitives; every thread gets the totals.
struct RowSums {
  int64_t run_start = 0;  // the runs of the rows above this one
  int64_t runs = 0;       // every row's
  int64_t befores = 0;    // every row's
};

__device__ RowSums sum_rows(int64_t run, int64_t before) {
  using Scan = cub::BlockScan<int64_t, kBlockRows>;
  using Reduce = cub::BlockReduce<int64_t, kBlockRows>;
  __shared__ typename Scan::TempStorage scan_storage;
  __shared__ typename Reduce::TempStorage reduce_storage;
  __shared__ int64_t befores;
  RowSums sums;
  Scan(scan_storage).ExclusiveSum(run, sums.run_start, sums.runs);
  const int64_t total = Reduce(reduce_storage).Sum(before);  // valid in thread 0 only
  if (threadIdx.x == 0) befores = total;
  __syncthreads();
  sums.befores = befores;
  return sums;
}

template <typename T, typename I>
__global__ void __launch_bounds__(kTileRows)
    tile_entries_kernel(const int64_t* row_offsets, const I* entry_col, const T* entry_value, const I* caller_position,
                        int64_t rows, int64_t slabs, int64_t tiles, I* begin, uint32_t* local, T* value, I* place) {
  __shared__ int64_t run_first[kTileRows];      // the plan entry that starts row r's run
  __shared__ int64_t run_start[kTileRows + 1];  // where row r's run starts in the tile; last: the tile's entries
  const int64_t tile = blockIdx.x;
  const int64_t first_row = tile / slabs * kTileRows;
  const int64_t first_col = tile % slabs * kTileCols;
  const int64_t row = first_row + threadIdx.x;
  int64_t lo = 0, run = 0, before = 0;
  if (row < rows) {
    const int64_t start = row_offsets[row];
    const int64_t end = row_offsets[row + 1];
    // Where the row's columns ascend, its first entry in the slab and the run's length; in any
    // order, an entry of [start, end] and a length of at least 0 that stays inside the row.
    lo = start + first_not_below(entry_col + start, end - start, first_col);
    run = first_not_below(entry_col + lo, end - lo, first_col + kTileCols);
    before = lo - start;
  }
  const RowSums sums = sum_rows(run, before);
  run_first[threadIdx.x] = lo;
  run_start[threadIdx.x] = sums.run_start;
  if (threadIdx.x == 0) run_start[kTileRows] = sums.runs;
  // The tile's place: every entry of the rows above its row of tiles, then those of its rows in
  // the slabs to its left. Its last place is at most the end of its rows' entries, in any order.
  const int64_t base = row_offsets[first_row] + sums.befores;
  if (threadIdx.x == 0) {
    begin[tile] = static_cast<I>(base);
    if (tile == tiles - 1) begin[tiles] = static_cast<I>(base + sums.runs);
  }
  __syncthreads();
  for (int64_t k = threadIdx.x; k < sums.runs; k += kTileRows) {
    int r = 0;  // the last row whose run starts at or before k (runs may be empty)
#pragma unroll
    for (int step = static_cast<int>(kTileRows / 2); step >= 1; step /= 2) {
      if (run_start[r + step] <= k) r += step;
    }
    const int64_t e = run_first[r] + (k - run_start[r]);
    const int64_t at = base + k;
    // The column's offset in the slab, in [0, kTileCols) where the row's columns ascend.
    local[at] =
        static_cast<uint32_t>(r) << 8 | (static_cast<uint32_t>(entry_col[e]) - static_cast<uint32_t>(first_col));
    if (value != nullptr) value[at] = entry_value[e];
    place[at] = caller_position != nullptr ? caller_position[e] : static_cast<I>(e);
  }
}

}  // namespace

template <typename T, typename I>
void fill_tile_entries(const TileEntries<T, I>& t, int64_t rows, int64_t cols, const int64_t* row_offsets,
                       const I* entry_col, const T* entry_value, const I* caller_position, cudaStream_t stream) {
  const int64_t tiles = tile_count(rows, cols);
  if (tiles <= 0 || t.local.empty()) return;
  tile_entries_kernel<T, I><<<static_cast<unsigned>(tiles), kTileRows, 0, stream>>>(
      row_offsets, entry_col, entry_value, caller_position, rows, tile_slabs(cols), tiles, t.begin.get(), t.local.get(),
      t.value.get(), t.place.get());
  check_launch("tile_entries_kernel");
}

template void fill_tile_entries<float, int32_t>(const TileEntries<float, int32_t>&, int64_t, int64_t, const int64_t*,
                                                const int32_t*, const float*, const int32_t*, cudaStream_t);
template void fill_tile_entries<float, int64_t>(const TileEntries<float, int64_t>&, int64_t, int64_t, const int64_t*,
                                                const int64_t*, const float*, const int64_t*, cudaStream_t);

}  // namespace sddmm::cuda
