// The classes of X's rows for the SpMM's L2 hints (cuda/l2_hints.cuh, pattern.cuh): each column's
// entry count from the CSC offsets, its class, a histogram of columns and of entries by class (one
// block-local histogram per block, added to the plan's counters), and each row-ordered entry's
// column class.
#include "cuda/pattern.cuh"
#include "cuda/preprocess/launch.cuh"
#include "cuda/spmm/l2_hint_rule.hpp"

namespace sddmm::cuda {
namespace {

__global__ void column_class_counts_kernel(const int64_t* col_offsets, int64_t cols, unsigned long long* columns,
                                           unsigned long long* entries) {
  __shared__ unsigned long long block_columns[kCountClasses];
  __shared__ unsigned long long block_entries[kCountClasses];
  for (int c = threadIdx.x; c < kCountClasses; c += blockDim.x) block_columns[c] = 0, block_entries[c] = 0;
  __syncthreads();
  SDDMM_GRID_STRIDE(col, cols) {
    const int64_t count = col_offsets[col + 1] - col_offsets[col];
    if (count > 0) {
      const int c = count_class(count);
      atomicAdd(&block_columns[c], 1ull);
      atomicAdd(&block_entries[c], static_cast<unsigned long long>(count));
    }
  }
  __syncthreads();
  for (int c = threadIdx.x; c < kCountClasses; c += blockDim.x) {
    if (block_columns[c] != 0) {
      atomicAdd(&columns[c], block_columns[c]);
      atomicAdd(&entries[c], block_entries[c]);
    }
  }
}

template <typename I>
__global__ void entry_classes_kernel(const I* entry_col, int64_t nnz, const int64_t* col_offsets, uint8_t* classes) {
  batched_loop(
      nnz,
      [&](int64_t e) {
        const int64_t col = static_cast<int64_t>(entry_col[e]);
        return col_offsets[col + 1] - col_offsets[col];
      },
      [&](int64_t e, int64_t count) { classes[e] = static_cast<uint8_t>(count_class(count)); });
}

}  // namespace

void queue_x_class_counts(const int64_t* col_offsets, int64_t cols, unsigned long long* counts, cudaStream_t stream) {
  check(cudaMemsetAsync(counts, 0, kXClassCounts * sizeof(unsigned long long), stream), "cudaMemsetAsync");
  if (cols == 0) return;
  // At most 512 blocks, looping: each adds its histogram to the plan's counters once.
  const int blocks = preprocess_blocks(cols) < 512 ? preprocess_blocks(cols) : 512;
  column_class_counts_kernel<<<blocks, kPreprocessThreads, 0, stream>>>(col_offsets, cols, counts,
                                                                        counts + kCountClasses);
  check_launch("column_class_counts_kernel");
}

RowClasses row_classes(const unsigned long long (&counts)[kXClassCounts]) {
  RowClasses classes;
  for (int c = 0; c < kCountClasses; ++c) {
    classes.rows[c] = static_cast<int64_t>(counts[c]);
    classes.entries[c] = static_cast<int64_t>(counts[kCountClasses + c]);
  }
  return classes;
}

template <typename I>
void queue_entry_x_classes(const int64_t* col_offsets, const I* entry_col, int64_t nnz, uint8_t* classes,
                           cudaStream_t stream) {
  if (nnz == 0) return;
  entry_classes_kernel<<<batched_blocks(nnz), kPreprocessThreads, 0, stream>>>(entry_col, nnz, col_offsets, classes);
  check_launch("entry_classes_kernel");
}

template void queue_entry_x_classes<int32_t>(const int64_t*, const int32_t*, int64_t, uint8_t*, cudaStream_t);
template void queue_entry_x_classes<int64_t>(const int64_t*, const int64_t*, int64_t, uint8_t*, cudaStream_t);

}  // namespace sddmm::cuda
