#include "cuda/tuning.hpp"

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

}  // namespace

int64_t spmm_heavy_row_entries() { return env_count("SDDMM_SPMM_HEAVY_ROW_ENTRIES", kSpmmHeavyRowEntries); }

int64_t spmm_entries_per_slice() { return env_count("SDDMM_SPMM_ENTRIES_PER_SLICE", kSpmmEntriesPerSlice); }

double tensor_core_min_density() {
  const char* env = std::getenv("SDDMM_TC_MIN_DENSITY");
  if (env == nullptr) return kTensorCoreMinDensity;
  char* end = nullptr;
  const double v = std::strtod(env, &end);
  return end != env && *end == '\0' && v >= 0.0 ? v : kTensorCoreMinDensity;
}

}  // namespace sddmm::cuda
