// Launch shape shared by the plan-creation kernels: fixed 256-thread blocks, a grid capped so that
// huge inputs loop (grid-stride) instead of asking for more blocks than a launch allows.
#pragma once

#include <cstdint>

#include "sddmm.h"

namespace sddmm::cuda {

constexpr int kPreprocessThreads = 256;

inline int preprocess_blocks(int64_t n) {
  constexpr int64_t kMaxBlocks = 65535 * 8;
  const int64_t b = (n + kPreprocessThreads - 1) / kPreprocessThreads;
  return static_cast<int>(b < kMaxBlocks ? (b > 0 ? b : 1) : kMaxBlocks);
}

// Calls kernel(typed indices, blocks for n) with the caller's index array as int32 or int64.
template <typename Kernel>
void launch_on_index_type(sddmm_index_type_t type, const void* indices, int64_t n, Kernel&& kernel) {
  if (type == SDDMM_INDEX_INT64) {
    kernel(static_cast<const int64_t*>(indices), preprocess_blocks(n));
  } else {
    kernel(static_cast<const int32_t*>(indices), preprocess_blocks(n));
  }
}

}  // namespace sddmm::cuda

// for (int64_t i = first index of this thread; i < n; i += threads in the grid)
#define SDDMM_GRID_STRIDE(i, n) \
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < (n); i += int64_t{gridDim.x} * blockDim.x)
