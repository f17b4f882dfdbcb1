// Tuning values of the CUDA backend, each with the measurement that chose it (bench/RESULTS.md has
// the full record). Host-side constants: kernels receive them through their arguments.
#pragma once

#include <cstdint>

namespace sddmm::cuda {

// SpMM: rows (transposed: columns) with more entries than this are computed by a whole block per
// column tile instead of one lane group, so that one long row no longer sets the kernel's length.
// Overridable at plan creation with the environment variable SDDMM_SPMM_HEAVY_ROW_ENTRIES (for the
// benchmark's before/after runs). Measurement: see bench/RESULTS.md, "SpMM heavy-row split".
constexpr int64_t kSpmmHeavyRowEntries = 256;

// SpMM: light rows averaging at least this many entries per lane group get a whole warp each
// (slices of the row per group, combined by shuffles). Measurement: bench/RESULTS.md, "SpMM row slices".
constexpr int64_t kSpmmEntriesPerSlice = 8;

}  // namespace sddmm::cuda
