// Splits the outer indices of a compressed pattern into light and heavy ones by entry count, each list
// in ascending order (neighbouring rows stay neighbours: locality in X and Y is kept).
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "cuda/pattern.cuh"
#include "cuda/preprocess/launch.cuh"

namespace sddmm::cuda {
namespace {

struct LongerThan {
  const int64_t* offsets;
  int64_t threshold;
  bool heavy;
  __device__ bool operator()(int64_t o) const { return (offsets[o + 1] - offsets[o] > threshold) == heavy; }
};

template <typename I>
DeviceArray<I> select(const int64_t* offsets, int64_t outer, int64_t threshold, bool heavy, cudaStream_t stream) {
  DeviceArray<I> all(outer);
  DeviceArray<int64_t> d_count(1);
  const thrust::counting_iterator<int64_t> first(0);
  const LongerThan pred{offsets, threshold, heavy};
  size_t temp_bytes = 0;
  check(cub::DeviceSelect::If(nullptr, temp_bytes, first, all.get(), d_count.get(), outer, pred, stream), "cub::DeviceSelect::If (size)");
  DeviceArray<unsigned char> temp(static_cast<int64_t>(temp_bytes));
  check(cub::DeviceSelect::If(temp.get(), temp_bytes, first, all.get(), d_count.get(), outer, pred, stream), "cub::DeviceSelect::If");
  int64_t count = 0;
  check(cudaMemcpyAsync(&count, d_count.get(), sizeof(count), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  DeviceArray<I> list(count);
  if (count > 0) {
    check(cudaMemcpyAsync(list.get(), all.get(), static_cast<size_t>(count) * sizeof(I), cudaMemcpyDeviceToDevice, stream),
          "cudaMemcpyAsync (outer list)");
  }
  return list;  // `all` is freed by cudaFree, which waits for the copy; creation syncs the stream at its end

}

template <typename I>
__global__ void count_entries_kernel(const int64_t* offsets, const I* list, int64_t count, unsigned long long* total) {
  SDDMM_GRID_STRIDE(i, count) {
    const int64_t o = list[i];
    atomicAdd(total, static_cast<unsigned long long>(offsets[o + 1] - offsets[o]));
  }
}

// Entries held by the outer indices of `list` (an integer sum: the same whatever the order).
template <typename I>
int64_t entries_of(const int64_t* offsets, const DeviceArray<I>& list, cudaStream_t stream) {
  if (list.empty()) return 0;
  DeviceArray<unsigned long long> d_total(1);
  check(cudaMemsetAsync(d_total.get(), 0, sizeof(unsigned long long), stream), "cudaMemsetAsync");
  count_entries_kernel<<<preprocess_blocks(list.size()), kPreprocessThreads, 0, stream>>>(offsets, list.get(), list.size(),
                                                                                      d_total.get());
  check_launch("count_entries_kernel");
  unsigned long long total = 0;
  check(cudaMemcpyAsync(&total, d_total.get(), sizeof(total), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return static_cast<int64_t>(total);
}

}  // namespace

template <typename I>
OuterSplit<I> split_by_length(const DeviceArray<int64_t>& offsets, int64_t outer, int64_t nnz, int64_t threshold,
                              cudaStream_t stream) {
  OuterSplit<I> s;
  if (outer == 0) return s;
  s.light = select<I>(offsets.get(), outer, threshold, false, stream);
  s.heavy = select<I>(offsets.get(), outer, threshold, true, stream);
  s.light_entries = nnz - entries_of(offsets.get(), s.heavy, stream);
  return s;
}

template OuterSplit<int32_t> split_by_length<int32_t>(const DeviceArray<int64_t>&, int64_t, int64_t, int64_t, cudaStream_t);
template OuterSplit<int64_t> split_by_length<int64_t>(const DeviceArray<int64_t>&, int64_t, int64_t, int64_t, cudaStream_t);

}  // namespace sddmm::cuda
