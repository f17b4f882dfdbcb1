// The tile bounds (cuda/tile_bounds.cuh): a thread per (slab, row), a binary search of the row's
// ascending columns for the slab's first. (slabs + 1) x rows threads, about a twentieth of the
// entries where the rule builds them (tuning.hpp, kSddmmTileMinEntries): a few microseconds.
#include <cstdint>

#include "cuda/preprocess/launch.cuh"
#include "cuda/tile_bounds.cuh"

namespace sddmm::cuda {
namespace {

template <typename I>
__global__ void tile_bounds_kernel(const int64_t* row_offsets, const I* entry_col, int64_t rows, int64_t slabs,
                                   I* bounds) {
  SDDMM_GRID_STRIDE(i, (slabs + 1) * rows) {
    const int64_t s = i / rows;
    const int64_t r = i - s * rows;
    int64_t lo = row_offsets[r];  // the first entry whose column is at least s x kTileCols
    int64_t hi = row_offsets[r + 1];
    if (s == slabs) {
      lo = hi;
    } else if (s > 0) {
      const int64_t first = s * kTileCols;
      while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (static_cast<int64_t>(entry_col[mid]) < first)
          lo = mid + 1;
        else
          hi = mid;
      }
    }
    bounds[i] = static_cast<I>(lo);
  }
}

}  // namespace

template <typename I>
void fill_tile_bounds(TileBounds<I>& tiles, int64_t rows, const int64_t* row_offsets, const I* entry_col,
                      cudaStream_t stream) {
  const int64_t n = (tiles.slabs + 1) * rows;
  tile_bounds_kernel<I><<<preprocess_blocks(n), kPreprocessThreads, 0, stream>>>(row_offsets, entry_col, rows,
                                                                                 tiles.slabs, tiles.bounds.get());
  check_launch("tile_bounds_kernel");
}

template void fill_tile_bounds<int32_t>(TileBounds<int32_t>&, int64_t, const int64_t*, const int32_t*, cudaStream_t);
template void fill_tile_bounds<int64_t>(TileBounds<int64_t>&, int64_t, const int64_t*, const int64_t*, cudaStream_t);

}  // namespace sddmm::cuda
