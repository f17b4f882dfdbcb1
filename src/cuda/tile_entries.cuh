// The tile entries of a plan, for the SDDMM tile kernel (sddmm/sddmm_tile_kernel.cuh): the matrix
// cut into tiles of kTileRows rows by kTileCols columns, and the plan's entries listed once more in
// tile order (tile t = row of tiles x slabs + slab; inside a tile row by row, each row's columns
// ascending), each with what the kernel reads of it: its row and column inside the tile in one
// 32-bit word, its value, and its place in the caller's order. A lane then loads its entry's
// coordinates, value and place in three coalesced loads and looks nothing up: the form of the
// stand-alone prototype (bench/experiments/sddmm-tile-k32.cu), which ran 1.3x cuSPARSE at 3.2M /
// 6.4M entries where the library's kernel over per-row bounds, finding each entry's row in shared
// memory, ran 1.0 / 1.1x (bench/RESULTS.md). Built at creation only where the tiles hold enough
// entries (the rule in preprocess/compress.cu, the threshold and its measurement in tuning.hpp),
// kept only where every row's columns ascend. Part of the plan's allocation: 4 + i bytes an entry
// (+ v with values) and tiles + 1 plan indices, which creation goes without where it runs out of
// device memory with them (build_device_pattern).
#pragma once

#include <cstdint>

#include "cuda/carved.cuh"
#include "cuda/runtime.cuh"

namespace sddmm::cuda {

// The tile's shape: 128 rows of X1 and 256 columns of X2 of 128 bytes (float32 K = 32) are 48 KB
// of shared memory: four blocks a multiprocessor (ncu, e73). Measured in the stand-alone prototype
// (bench/experiments/sddmm-tile-k32.cu, H200, 2026-12-02, uniform 8000^2 float32 K = 32, medians
// of 30, us, 1.92M / 2.56M / 3.2M / 6.4M entries, tiles in row order): 128 x 256 29.5 / 34.6 / 39.8
// / 67.1, 64 x 256 36.0 / 40.7 / 45.5 / 70.3; the line kernel 31.4 / 40.2 / 49.5 / 92.4, cuSPARSE
// 37.1 / 44.4 / 52.0 / 88.9.
constexpr int64_t kTileRows = 128;
constexpr int64_t kTileCols = 256;

template <typename T, typename I>
struct TileEntries {
  DeviceSpan<I> begin;                 // (tiles + 1) tile t's entries: [begin[t], begin[t + 1]) of those below
  DeviceSpan<uint32_t> local;          // (nnz) (row - the tile's first row) << 8 | (column - its first column)
  DeviceSpan<T> value;                 // (nnz) or empty: ones
  DeviceSpan<I> place;                 // (nnz) the entry's place in the caller's order (its output)
  bool empty() const { return begin.empty(); }
};

inline int64_t tile_slabs(int64_t cols) {
  return cols > 0 ? (cols - 1) / kTileCols + 1 : 0;
}

// Tiles of a rows x cols matrix: the tile kernel's blocks, one each; -1 where they are 2^31 or
// more (one launch).
inline int64_t tile_count(int64_t rows, int64_t cols) {
  if (rows <= 0 || cols <= 0) return 0;
  const int64_t panels = (rows - 1) / kTileRows + 1;
  const int64_t slabs = tile_slabs(cols);
  return slabs >= (int64_t{1} << 31) / panels ? -1 : panels * slabs;
}

// Lays out the tile entries of a rows x cols plan of nnz entries (1 to 2^31 - 1 tiles, tile_count)
// on `c` (the plan's allocation).
template <typename T, typename I>
void lay_out_tile_entries(TileEntries<T, I>& t, Carver& c, int64_t rows, int64_t cols, int64_t nnz, bool has_values) {
  t.begin = c.span<I>(tile_count(rows, cols) + 1);
  t.local = c.span<uint32_t>(nnz);
  t.value = c.span<T>(has_values ? nnz : 0);
  t.place = c.span<I>(nnz);
}

// Fills laid-out tile entries from the plan's CSR offsets and row-ordered arrays (entry_value and
// caller_position may be null: ones, identity), queued on `stream`: a block a tile, which finds
// each of its rows' run in the tile by binary searches of the row's columns and lists the runs.
// The list is right only where every row's columns ascend (the plan drops it elsewhere); whatever
// the order, every write stays inside the arrays.
template <typename T, typename I>
void fill_tile_entries(const TileEntries<T, I>& t, int64_t rows, int64_t cols, const int64_t* row_offsets,
                       const I* entry_col, const T* entry_value, const I* caller_position, cudaStream_t stream);

}  // namespace sddmm::cuda
