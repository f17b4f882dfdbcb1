// The plan's stable radix sort (CUB, double-buffer mode), shared by the sorts of plan creation:
// by row and by column (preprocess/compress.cu; the sort by panel, preprocess/panels.cu, reuses the
// buffers of the sort by column and sizes CUB's storage with radix_sort_storage_bytes).
#pragma once

#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <type_traits>

#include "cuda/carved.cuh"
#include "cuda/preprocess/launch.cuh"
#include "cuda/preprocess/sorted.cuh"
#include "cuda/runtime.cuh"

namespace sddmm::cuda {

template <typename I>
__global__ void iota_kernel(I* out, int64_t n) {
  batched_loop(
      n, [](int64_t i) { return i; }, [&](int64_t i, int64_t v) { out[i] = static_cast<I>(v); });
}

// CUB's own storage, in bytes, for a double-buffer sort of n (key, value) pairs on bits [0, end_bit).
template <typename K, typename V>
size_t radix_sort_storage_bytes(int64_t n, int end_bit, cudaStream_t stream) {
  size_t bytes = 0;
  cub::DoubleBuffer<K> keys(nullptr, nullptr);
  cub::DoubleBuffer<V> values(nullptr, nullptr);
  check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys, values, n, 0, end_bit, stream),
        "cub::DeviceRadixSort::SortPairs (size)");
  return bytes;
}

// A stable radix sort of n keys in [0, outer) with their positions, in CUB's double-buffer mode:
// the caller fills keys[0], the sort fills positions[0] with 0..n-1, and the result may end in either
// buffer of each pair (CUB's own storage then holds no third copy). Laid out on a Carver: measured
// by constructing it on a measuring one.
template <typename K, typename I>
struct RadixSort {
  using U = std::make_unsigned_t<K>;
  int64_t n;
  int end_bit;
  cudaStream_t stream;
  K* keys[2];
  I* positions[2];
  void* temp = nullptr;
  size_t temp_bytes = 0;

  RadixSort(Carver& c, int64_t n_, int64_t outer, cudaStream_t stream_)
      : n(n_), end_bit(significant_bits(outer)), stream(stream_) {
    keys[0] = c.take<K>(n), keys[1] = c.take<K>(n);
    positions[0] = c.take<I>(n), positions[1] = c.take<I>(n);
    temp_bytes = radix_sort_storage_bytes<U, I>(n, end_bit, stream);
    temp = c.take<unsigned char>(static_cast<int64_t>(temp_bytes));
  }

  struct Sorted {
    const K* keys;
    const I* positions;
  };
  Sorted run() {
    iota_kernel<<<batched_blocks(n), kPreprocessThreads, 0, stream>>>(positions[0], n);
    check_launch("iota_kernel");
    cub::DoubleBuffer<U> k(as_unsigned(keys[0]), as_unsigned(keys[1]));
    cub::DoubleBuffer<I> p(positions[0], positions[1]);
    size_t bytes = temp_bytes;
    check(cub::DeviceRadixSort::SortPairs(temp, bytes, k, p, n, 0, end_bit, stream), "cub::DeviceRadixSort::SortPairs");
    return {reinterpret_cast<const K*>(k.Current()), p.Current()};
  }

 private:
  static U* as_unsigned(K* p) { return reinterpret_cast<U*>(p); }
};

}  // namespace sddmm::cuda
