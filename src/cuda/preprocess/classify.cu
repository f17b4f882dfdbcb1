// Splits the outer indices of a compressed pattern into light and heavy ones by entry count: one
// partition per dimension into the plan's order array, then a single synchronisation reads the
// counts of rows and columns together. (Two selections per dimension, each with its own
// allocations and read-back, took 0.17 ms of a 1.0 ms plan: 14 cudaMalloc, 12 cudaFree, 6 syncs.)
#include <cub/device/device_partition.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "cuda/pattern.cuh"
#include "cuda/preprocess/launch.cuh"
#include "cuda/tuning.hpp"

namespace sddmm::cuda {
namespace {

struct AtMost {
  const int64_t* offsets;
  int64_t threshold;
  __device__ bool operator()(int64_t o) const { return offsets[o + 1] - offsets[o] <= threshold; }
};

// Entries of the heavy outer indices (an integer sum: the same whatever the order).
__global__ void heavy_entries_kernel(const int64_t* offsets, int64_t outer, int64_t threshold, int64_t* total) {
  SDDMM_GRID_STRIDE(o, outer) {
    const int64_t n = offsets[o + 1] - offsets[o];
    if (n > threshold) atomicAdd(reinterpret_cast<unsigned long long*>(total), static_cast<unsigned long long>(n));
  }
}

template <typename I>
cudaError_t partition(void* temp, size_t& bytes, const int64_t* offsets, int64_t outer, int64_t threshold, I* order,
                      int64_t* light_count, cudaStream_t stream) {
  return cub::DevicePartition::If(temp, bytes, thrust::counting_iterator<int64_t>(0), order, light_count, outer,
                                  AtMost{offsets, threshold}, stream);
}

// counters: light rows, heavy-row entries, light columns, heavy-column entries; then CUB's storage,
// one piece for both partitions (they run one after the other).
template <typename I>
struct SplitScratch {
  int64_t* counters = nullptr;
  void* temp = nullptr;
  size_t temp_bytes = 0;

  SplitScratch(Carver& c, int64_t rows, int64_t cols, cudaStream_t stream) {
    counters = c.take<int64_t>(4);
    size_t row_bytes = 0, col_bytes = 0;
    check(partition<I>(nullptr, row_bytes, nullptr, rows, 0, nullptr, nullptr, stream), "cub::DevicePartition::If (size)");
    check(partition<I>(nullptr, col_bytes, nullptr, cols, 0, nullptr, nullptr, stream), "cub::DevicePartition::If (size)");
    temp_bytes = row_bytes > col_bytes ? row_bytes : col_bytes;
    temp = c.take<unsigned char>(static_cast<int64_t>(temp_bytes));
  }
};

template <typename I>
void queue_split(OuterSplit<I>& s, const int64_t* offsets, int64_t nnz, const SplitScratch<I>& w, int64_t* counters,
                 cudaStream_t stream) {
  const int64_t outer = s.order.size();
  if (outer == 0) return;
  const int64_t floor = spmm_heavy_row_entries();
  const int64_t from_mean = spmm_heavy_row_mean_factor() * (nnz / outer);
  const int64_t threshold = floor > from_mean ? floor : from_mean;
  size_t bytes = w.temp_bytes;
  check(partition<I>(w.temp, bytes, offsets, outer, threshold, s.order.get(), counters, stream), "cub::DevicePartition::If");
  heavy_entries_kernel<<<preprocess_blocks(outer), kPreprocessThreads, 0, stream>>>(offsets, outer, threshold, counters + 1);
  check_launch("heavy_entries_kernel");
}

}  // namespace

template <typename I>
size_t split_scratch_bytes(int64_t rows, int64_t cols, cudaStream_t stream) {
  Carver c;
  (void)SplitScratch<I>(c, rows, cols, stream);
  return c.used();
}

template <typename I>
void split_by_length(OuterSplit<I>& rows, const int64_t* row_offsets, OuterSplit<I>& cols, const int64_t* col_offsets,
                     int64_t nnz, void* scratch, size_t scratch_bytes, cudaStream_t stream) {
  Carver c(scratch, scratch_bytes);
  const SplitScratch<I> w(c, rows.order.size(), cols.order.size(), stream);
  check(cudaMemsetAsync(w.counters, 0, 4 * sizeof(int64_t), stream), "cudaMemsetAsync");
  queue_split(rows, row_offsets, nnz, w, w.counters, stream);
  queue_split(cols, col_offsets, nnz, w, w.counters + 2, stream);
  int64_t counts[4] = {0, 0, 0, 0};
  check(cudaMemcpyAsync(counts, w.counters, sizeof(counts), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (light/heavy split)");
  rows.light_count = counts[0];
  rows.light_entries = nnz - counts[1];
  cols.light_count = counts[2];
  cols.light_entries = nnz - counts[3];
}

#define SDDMM_INSTANTIATE_SPLIT(I)                                                                                     \
  template size_t split_scratch_bytes<I>(int64_t, int64_t, cudaStream_t);                                              \
  template void split_by_length<I>(OuterSplit<I>&, const int64_t*, OuterSplit<I>&, const int64_t*, int64_t, void*,     \
                                   size_t, cudaStream_t);
SDDMM_INSTANTIATE_SPLIT(int32_t)
SDDMM_INSTANTIATE_SPLIT(int64_t)
#undef SDDMM_INSTANTIATE_SPLIT

}  // namespace sddmm::cuda
