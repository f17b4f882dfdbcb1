#include "cuda/tuning.hpp"

#include <algorithm>
#include <cstdlib>

namespace sddmm::cuda {
namespace {

// The value of environment variable `name` when it is a whole number >= 0, else `fallback`.
int64_t env_count(const char* name, int64_t fallback) {
  const char* env = std::getenv(name);
  if (env == nullptr) return fallback;
  char* end = nullptr;
  const long long v = std::strtoll(env, &end, 10);
  return end != env && *end == '\0' && v >= 0 ? v : fallback;
}

// The value of environment variable `name` when it is a number >= 0, else `fallback`.
double env_fraction(const char* name, double fallback) {
  const char* env = std::getenv(name);
  if (env == nullptr) return fallback;
  char* end = nullptr;
  const double v = std::strtod(env, &end);
  return end != env && *end == '\0' && v >= 0.0 ? v : fallback;
}

// A rule's override from environment variable `name`: 1 (on wherever it may run) or 0 (never) when
// set so, else -1 (the rule decides).
int env_switch(const char* name) {
  const int64_t v = env_count(name, -1);
  return v == 0 || v == 1 ? static_cast<int>(v) : -1;
}

// A setting's override from environment variable `name`: on or off when set to 1 or 0, else `fallback`.
bool env_flag(const char* name, bool fallback) {
  const int v = env_switch(name);
  return v < 0 ? fallback : v == 1;
}

}  // namespace

int64_t spmm_heavy_row_entries() { return env_count("SDDMM_SPMM_HEAVY_ROW_ENTRIES", kSpmmHeavyRowEntries); }

int64_t spmm_heavy_row_entries_few() {
  return env_count("SDDMM_SPMM_HEAVY_ROW_ENTRIES_FEW", kSpmmHeavyRowEntriesFew);
}

int64_t spmm_heavy_row_mean_factor() {
  return env_count("SDDMM_SPMM_HEAVY_ROW_FACTOR", kSpmmHeavyRowMeanFactor);
}

int64_t spmm_entries_per_slice() { return env_count("SDDMM_SPMM_ENTRIES_PER_SLICE", kSpmmEntriesPerSlice); }

int64_t spmm_deep_rows_min_mean() { return env_count("SDDMM_SPMM_DEEP_ROWS", kSpmmDeepRowsMinMean); }

int spmm_few_rows() { return env_switch("SDDMM_SPMM_FEW_ROWS"); }

int64_t spmm_few_long_rows_min_mean() { return env_count("SDDMM_SPMM_FEW_LONG_ROWS", kSpmmFewLongRowsMinMean); }

int spmm_split_tiles() { return env_switch("SDDMM_SPMM_SPLIT_TILES"); }
int spmm_tiles_outer() { return env_switch("SDDMM_SPMM_TILES_OUTER"); }

bool spmm_shared_indices() { return env_flag("SDDMM_SPMM_SHARED_INDICES", kSpmmSharedIndices); }

int64_t sddmm_grid_max_waves() {
  const int64_t waves = env_count("SDDMM_SDDMM_GRID_WAVES", kSddmmGridMaxWaves);
  return waves >= 1 && waves <= 64 ? waves : kSddmmGridMaxWaves;
}

int64_t sddmm_wave_min_products() { return env_count("SDDMM_SDDMM_WAVE_PRODUCTS", kSddmmWaveMinProducts); }

bool sddmm_line_kernel() { return env_flag("SDDMM_SDDMM_LINE_KERNEL", kSddmmLineKernel); }

bool sddmm_line_interleave() { return env_flag("SDDMM_SDDMM_LINE_INTERLEAVE", kSddmmLineInterleave); }

int sddmm_row_shares() { return env_switch("SDDMM_SDDMM_ROW_SHARES"); }

int sddmm_sm_blocks() { return env_switch("SDDMM_SDDMM_SM_BLOCKS"); }

int sddmm_k_parts() { return static_cast<int>(std::min<int64_t>(env_count("SDDMM_SDDMM_K_PARTS", 0), 64)); }

int spmm_slabs() { return env_switch("SDDMM_SPMM_SLABS"); }

int spmm_l2_hints() { return env_switch("SDDMM_SPMM_L2_HINTS"); }

SlabMinReuse spmm_slab_min_reuse() {
  SlabMinReuse r;
  r.narrow_rows = env_fraction("SDDMM_SPMM_SLAB_REUSE", kSpmmSlabMinReuseNarrowRows);
  r.rows = env_fraction("SDDMM_SPMM_SLAB_REUSE", kSpmmSlabMinReuse);
  r.wide_rows = env_fraction("SDDMM_SPMM_SLAB_REUSE", kSpmmSlabMinReuseWideRows);
  return r;
}

int sddmm_panels() { return env_switch("SDDMM_SDDMM_PANELS"); }

double sddmm_panel_min_reuse() { return env_fraction("SDDMM_SDDMM_PANEL_REUSE", kSddmmPanelMinReuse); }

int64_t sddmm_panel_block_entries(bool half_features) {
  return env_count("SDDMM_SDDMM_PANEL_BLOCK_ENTRIES",
                   half_features ? kSddmmPanelBlockEntriesHalf : kSddmmPanelBlockEntries);
}

int sddmm_tiles() { return env_switch("SDDMM_SDDMM_TILES"); }

int64_t sddmm_tile_min_entries() { return env_count("SDDMM_SDDMM_TILE_ENTRIES", kSddmmTileMinEntries); }

bool unit_census() { return env_flag("SDDMM_UNIT_CENSUS", kUnitCensus); }

double tensor_core_min_density() { return env_fraction("SDDMM_TC_MIN_DENSITY", kTensorCoreMinDensity); }

double tensor_core_min_density_float32() {
  return env_fraction("SDDMM_TC_MIN_DENSITY_F32", kTensorCoreMinDensityFloat32);
}

double tensor_core_min_share() { return env_fraction("SDDMM_TC_MIN_SHARE", kTensorCoreMinShare); }

double spmm_tensor_min_fill() { return env_fraction("SDDMM_SPMM_TC_MIN_FILL", kSpmmTensorMinFill); }

double tensor_square_min_cover() { return env_fraction("SDDMM_TC_SQUARE_COVER", kTensorSquareMinCover); }

bool tensor_wgmma_squares() { return env_flag("SDDMM_TC_WGMMA", kTensorWgmmaSquares); }

int tensor_wgmma_walk() { return env_switch("SDDMM_TC_WGMMA_WALK"); }

double tensor_wgmma_min_density() {
  return env_fraction("SDDMM_TC_WGMMA_MIN_DENSITY", kTensorWgmmaMinDensity);
}

bool float32_tensor_cores() { return env_flag("SDDMM_F32_TENSOR_CORES", kFloat32TensorCores); }

bool plan_indices_64() { return env_flag("SDDMM_PLAN_INDICES_64", false); }

size_t creation_pool_bytes(size_t device_bytes) {
  const int64_t share = static_cast<int64_t>(device_bytes / kCreationPoolDeviceShare);
  return static_cast<size_t>(env_count("SDDMM_CREATION_POOL_BYTES", std::min(kCreationPoolMaxBytes, share)));
}

}  // namespace sddmm::cuda
