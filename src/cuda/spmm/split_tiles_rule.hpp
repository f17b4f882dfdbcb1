// The rule that deals a whole-warp light row's column tiles over several warps (spmm_kernel.cuh,
// kSplitTiles; tuning.hpp has the measurements). Host code, in its own file so that the CPU suite
// pins its decisions.
#pragma once

#include <cstdint>

namespace sddmm::cuda {

// Float32 whole-warp light rows: log2 of the warps each row's `tiles` column tiles (of 32 lanes'
// vectors: 128 columns) are dealt to (tile t to warp t mod 2^shift), by the rule, or wherever
// `mode` is 1, never where 0 (one tile: 0 always):
//  - few, short rows: a warp per light row fills at most kSpmmSplitTilesMaxWaves waves of the
//    device's resident threads and they average at most kSpmmSplitTilesMaxMean entries (the small
//    graphs' degree tails);
//  - wide N on long rows past the L2: 4 tiles or more (N > 384), X larger than the L2 and the light
//    rows averaging at least kSpmmSplitTilesWideMinMean entries.
// Up to 8 warps a row, a power of two (the kernel shifts and masks instead of dividing).
int light_tile_shift(int64_t tiles, int64_t light_entries, int64_t light_rows, int64_t resident_threads,
                     bool x_exceeds_l2, int mode);

// The shift that deals `tiles` column tiles over the most warps: log2 of the largest power of two
// up to min(tiles, 8).
int full_tile_shift(int64_t tiles);

// Whether the whole-warp light rows take their column tiles share-major (SpmmArgs::
// light_tiles_outer): dealt over 2^full_tile_shift warps, every row's first share of X's columns
// before any row's second, so that the warps in flight read one share of X instead of all of it.
// By the rule where X and Y together (x_bytes + y_bytes) exceed the L2, one share of X
// (x_bytes / 2^shift) is at most kSpmmTilesOuterMaxShareOfL2 of the L2 and the light rows average
// at least kSpmmTilesOuterMinMean entries; wherever N allows (2 tiles or more) where `mode` is 1,
// never where 0.
bool light_tiles_outer(int64_t tiles, int64_t light_entries, int64_t light_rows, int64_t x_bytes, int64_t y_bytes,
                       int64_t l2_bytes, int mode);

// What a whole-warp call does with its light rows' column tiles (SpmmArgs::light_tile_shift and
// light_tiles_outer): share-major at the full shift where light_tiles_outer takes it (outer_mode),
// else the shift of light_tile_shift (split_mode), row-major.
struct LightTileSplit {
  int shift = 0;
  bool outer = false;
};
LightTileSplit light_tile_split(int64_t tiles, int64_t light_entries, int64_t light_rows, int64_t resident_threads,
                                int64_t x_bytes, int64_t y_bytes, int64_t l2_bytes, int split_mode, int outer_mode);

}  // namespace sddmm::cuda
