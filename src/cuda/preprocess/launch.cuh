// Launch shape shared by the plan-creation kernels: fixed 256-thread blocks, a grid capped so that
// huge inputs loop (grid-stride) instead of asking for more blocks than a launch allows, and the
// batched loop of the kernels that touch every entry.
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

// Entries a thread of an entry-wise kernel takes per trip of batched_loop, all loaded before
// any is used. One 4-byte load in flight per thread leaves the H200 latency bound: 132 SMs x 2048
// threads x 4 bytes is 1 MB in flight, about a DRAM latency's worth at 1.5 TB/s (e98, ncu,
// block-diagonal 262144's 16.8M entries: validation's pass over the rows, 67 MB, 53 us; the copy
// of the columns into sort keys, 134 MB moved, 63 us; copy bandwidth is 4.25 TB/s).
constexpr int kPreprocessBatch = 4;

// The grid of a batched_loop kernel over n entries.
inline int batched_blocks(int64_t n) {
  return preprocess_blocks((n + kPreprocessBatch - 1) / kPreprocessBatch);
}

// Calls kernel(typed indices, blocks for n as batched_blocks) with the caller's index array as int32 or int64.
template <typename Kernel>
void launch_on_index_type(sddmm_index_type_t type, const void* indices, int64_t n, Kernel&& kernel) {
  if (type == SDDMM_INDEX_INT64) {
    kernel(static_cast<const int64_t*>(indices), batched_blocks(n));
  } else {
    kernel(static_cast<const int32_t*>(indices), batched_blocks(n));
  }
}

}  // namespace sddmm::cuda

// for (int64_t i = first index of this thread; i < n; i += threads in the grid)
#define SDDMM_GRID_STRIDE(i, n) \
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < (n); i += int64_t{gridDim.x} * blockDim.x)

namespace sddmm::cuda {

// For every i in [0, n): use(i, load(i)), each thread taking kPreprocessBatch indices a block apart
// per trip (each load instruction stays coalesced) and making every load of a trip before the first
// use, so that the loads are in flight together; load only reads memory, use may write. Launch
// with batched_blocks(n) (any grid is correct).
template <typename Load, typename Use>
__device__ __forceinline__ void batched_loop(int64_t n, Load load, Use use) {
  using Loaded = decltype(load(int64_t{0}));
  const int64_t block = blockDim.x;
  const int64_t stride = int64_t{gridDim.x} * block * kPreprocessBatch;
  for (int64_t base = blockIdx.x * block * kPreprocessBatch + threadIdx.x; base < n; base += stride) {
    Loaded loaded[kPreprocessBatch];
#pragma unroll
    for (int j = 0; j < kPreprocessBatch; ++j) {
      if (base + j * block < n) loaded[j] = load(base + j * block);
    }
#pragma unroll
    for (int j = 0; j < kPreprocessBatch; ++j) {
      if (base + j * block < n) use(base + j * block, loaded[j]);
    }
  }
}

}  // namespace sddmm::cuda
