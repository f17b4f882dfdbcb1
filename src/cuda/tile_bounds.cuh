// The tile bounds of a plan, for the SDDMM tile kernel (sddmm/sddmm_tile_kernel.cuh): the matrix
// cut into tiles of kTileRows rows by kTileCols columns, and for every row and slab of kTileCols
// columns the first entry of the row, in the plan's row order, whose column is in the slab or past
// it. Where every row's columns ascend, a tile's entries are then, row by row, the runs between
// the bounds of its slab and of the next one: the tile kernel walks them in row order (a lane
// group's entries mostly of one row, its outputs in one sector) without any copy of the entries.
// (The panel order's tiles, cuda/panels.cuh, are sorted by column: there the same kernel lost,
// bench/RESULTS.md.) Built at creation only where the tiles hold enough entries (the rule in
// preprocess/compress.cu, the threshold and its measurement in tuning.hpp), kept only where the
// rows ascend. Part of the plan's allocation: (slabs + 1) x rows plan indices.
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

template <typename I>
struct TileBounds {
  // ((slabs + 1) x rows, slab-major) bounds[s * rows + r]: the first row-order entry of row r whose
  // column is at least s x kTileCols, or the row's end; bounds[0 * rows + r] is the row's start.
  DeviceSpan<I> bounds;
  int64_t slabs = 0;  // ceil(cols / kTileCols)
  bool empty() const { return bounds.empty(); }
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

// Lays out the tile bounds of a rows x cols plan on `c` (the plan's allocation).
template <typename I>
void lay_out_tile_bounds(TileBounds<I>& tiles, Carver& c, int64_t rows, int64_t cols) {
  tiles.slabs = tile_slabs(cols);
  tiles.bounds = c.span<I>((tiles.slabs + 1) * rows);
}

// Fills laid-out tile bounds from the plan's CSR offsets and row-ordered columns, by a binary
// search of each row for each slab's first column: queued on `stream`. Right only where every row's
// columns ascend (the plan drops the bounds elsewhere).
template <typename I>
void fill_tile_bounds(TileBounds<I>& tiles, int64_t rows, const int64_t* row_offsets, const I* entry_col,
                      cudaStream_t stream);

}  // namespace sddmm::cuda
