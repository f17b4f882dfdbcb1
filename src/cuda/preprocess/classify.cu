// Splits the outer indices of a compressed pattern into light and heavy ones by entry count, each list
// in ascending order (neighbouring rows stay neighbours: locality in X and Y is kept).
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "cuda/pattern.cuh"

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
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return list;
}

}  // namespace

template <typename I>
OuterSplit<I> split_by_length(const DeviceArray<int64_t>& offsets, int64_t outer, int64_t threshold, cudaStream_t stream) {
  OuterSplit<I> s;
  if (outer == 0) return s;
  s.light = select<I>(offsets.get(), outer, threshold, false, stream);
  s.heavy = select<I>(offsets.get(), outer, threshold, true, stream);
  return s;
}

template OuterSplit<int32_t> split_by_length<int32_t>(const DeviceArray<int64_t>&, int64_t, int64_t, cudaStream_t);
template OuterSplit<int64_t> split_by_length<int64_t>(const DeviceArray<int64_t>&, int64_t, int64_t, cudaStream_t);

}  // namespace sddmm::cuda
