#include "cuda/spmm/split_tiles_rule.hpp"

#include "cuda/tuning.hpp"

namespace sddmm::cuda {

int light_tile_shift(int64_t tiles, int64_t light_entries, int64_t light_rows, int64_t resident_threads,
                     bool x_exceeds_l2, int mode) {
  const bool few = static_cast<double>(light_rows) * 32.0 <=
                   kSpmmSplitTilesMaxWaves * static_cast<double>(resident_threads > 0 ? resident_threads : 1);
  const bool short_rows = light_rows > 0 && light_entries <= kSpmmSplitTilesMaxMean * light_rows;
  const bool wide_long =
      tiles >= 4 && x_exceeds_l2 && light_rows > 0 && light_entries >= kSpmmSplitTilesWideMinMean * light_rows;
  if (mode == 0 || tiles < 2 || (mode < 0 && !(few && short_rows) && !wide_long)) return 0;
  return full_tile_shift(tiles);
}

int full_tile_shift(int64_t tiles) {
  int shift = 0;
  while (shift < 3 && (int64_t{2} << shift) <= tiles) ++shift;
  return shift;
}

bool light_tiles_outer(int64_t tiles, int64_t light_entries, int64_t light_rows, int64_t x_bytes, int64_t y_bytes,
                       int64_t l2_bytes, int mode) {
  if (mode == 0 || tiles < 2) return false;
  if (mode == 1) return true;
  const double share = static_cast<double>(x_bytes) / static_cast<double>(int64_t{1} << full_tile_shift(tiles));
  return x_bytes + y_bytes > l2_bytes && share <= kSpmmTilesOuterMaxShareOfL2 * static_cast<double>(l2_bytes) &&
         light_rows > 0 && light_entries >= kSpmmTilesOuterMinMean * light_rows;
}

LightTileSplit light_tile_split(int64_t tiles, int64_t light_entries, int64_t light_rows, int64_t resident_threads,
                                int64_t x_bytes, int64_t y_bytes, int64_t l2_bytes, int split_mode, int outer_mode) {
  if (light_tiles_outer(tiles, light_entries, light_rows, x_bytes, y_bytes, l2_bytes, outer_mode)) {
    return {full_tile_shift(tiles), true};
  }
  return {light_tile_shift(tiles, light_entries, light_rows, resident_threads, x_bytes > l2_bytes, split_mode), false};
}

}  // namespace sddmm::cuda
