#include <cuda_runtime.h>

#include "device_fill.hpp"
#include "run.hpp"

namespace sddmm::huge {
namespace {

constexpr int kThreads = 256;
constexpr int kBlocks = 65535;  // a grid-stride loop covers the rest

__global__ void fill_dense_kernel(float* x, int64_t count, uint64_t seed) {
  for (int64_t i = blockIdx.x * int64_t{blockDim.x} + threadIdx.x; i < count; i += int64_t{gridDim.x} * blockDim.x) {
    x[i] = dense_value(seed, i);
  }
}

// A block per row (grid-stride over rows), its threads over the row's entries.
template <typename Index>
__global__ void fill_columns_kernel(const Pattern pattern, const Index* offsets, Index* col) {
  for (int64_t r = blockIdx.x; r < pattern.rows; r += gridDim.x) {
    const int64_t begin = offsets[r];
    const int64_t length = static_cast<int64_t>(offsets[r + 1]) - begin;
    for (int64_t j = threadIdx.x; j < length; j += blockDim.x)
      col[begin + j] = static_cast<Index>(pattern.column(r, j));
  }
}

}  // namespace

void fill_dense(float* d_x, int64_t count, uint64_t seed) {
  fill_dense_kernel<<<kBlocks, kThreads>>>(d_x, count, seed);
  check_cuda(cudaGetLastError(), "fill_dense_kernel");
  check_cuda(cudaDeviceSynchronize(), "fill_dense_kernel (run)");
}

void fill_columns(const Pattern& pattern, const void* d_offsets, void* d_col, sddmm_index_type_t type) {
  if (type == SDDMM_INDEX_INT64) {
    fill_columns_kernel<<<kBlocks, kThreads>>>(pattern, static_cast<const int64_t*>(d_offsets),
                                               static_cast<int64_t*>(d_col));
  } else {
    fill_columns_kernel<<<kBlocks, kThreads>>>(pattern, static_cast<const int32_t*>(d_offsets),
                                               static_cast<int32_t*>(d_col));
  }
  check_cuda(cudaGetLastError(), "fill_columns_kernel");
  check_cuda(cudaDeviceSynchronize(), "fill_columns_kernel (run)");
}

}  // namespace sddmm::huge
