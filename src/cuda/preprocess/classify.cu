// Splits the outer indices of a compressed pattern into light and heavy ones by entry count: one
// partition per dimension into the plan's order array, then a single synchronisation reads the
// counts of rows and columns together. (Two selections per dimension, each with its own
// allocations and read-back, took 0.17 ms of a 1.0 ms plan: 14 cudaMalloc, 12 cudaFree, 6 syncs.)
// At a lower threshold too, kept when it leaves few heavy indices. Then the heavy part of each is
// sorted longest first, queued without another synchronisation.
#include <cub/device/device_partition.cuh>
#include <cub/device/device_radix_sort.cuh>
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

// The heavy-row thresholds of a dimension of `outer` indices holding nnz entries (tuning.hpp): the
// larger of the floor and a multiple of the mean length, and the same with the lower floor that
// applies when few indices are above it (`few` <= `usual`). Computed once per dimension.
struct HeavyThresholds {
  int64_t usual;
  int64_t few;
};
HeavyThresholds heavy_thresholds(int64_t outer, int64_t nnz) {
  const int64_t floor = spmm_heavy_row_entries();
  const int64_t few_floor = spmm_heavy_row_entries_few() < floor ? spmm_heavy_row_entries_few() : floor;
  const int64_t from_mean = outer > 0 ? spmm_heavy_row_mean_factor() * (nnz / outer) : 0;
  return {floor > from_mean ? floor : from_mean, few_floor > from_mean ? few_floor : from_mean};
}

// A dimension's counters in the plan's scratch: the usual partition's light count (CUB's), then
// what one pass over the lengths counts (integer sums: the same whatever the order).
enum Counter : int {
  kLightAtUsual,       // outer indices with at most the usual threshold of entries
  kEntriesAboveUsual,  // entries of the others
  kAboveFew,           // outer indices above the few-heavy threshold
  kEntriesAboveFew,    // their entries
  kCounters
};

__device__ __forceinline__ int64_t warp_sum(int64_t v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Adds a dimension's lengths into counters[kEntriesAboveUsual ..]: each thread sums its indices,
// each warp adds its threads' sums and its first lane makes one atomic per counter (one atomic per
// heavy index, on a dimension with 1e8 of them, would take milliseconds). Every lane reaches the
// shuffles: the grid-stride loop ends before them and blocks are whole warps.
__global__ void length_counts_kernel(const int64_t* offsets, int64_t outer, HeavyThresholds t, int64_t* counters) {
  int64_t sums[kCounters] = {};
  SDDMM_GRID_STRIDE(o, outer) {
    const int64_t n = offsets[o + 1] - offsets[o];
    sums[kEntriesAboveUsual] += n > t.usual ? n : 0;
    sums[kAboveFew] += n > t.few ? 1 : 0;
    sums[kEntriesAboveFew] += n > t.few ? n : 0;
  }
#pragma unroll
  for (int c = kEntriesAboveUsual; c < kCounters; ++c) {
    const int64_t v = warp_sum(sums[c]);
    if ((threadIdx.x & 31) == 0 && v != 0)
      atomicAdd(reinterpret_cast<unsigned long long*>(counters + c), static_cast<unsigned long long>(v));
  }
}

// Heavy outer indices with the sort's key: the bit width of their length, 5..63 (a heavy index has
// more than 16 entries unless the thresholds were overridden lower). Lengths within a factor of two
// of each other are equal to the sort, which then takes one 8-bit pass over one-byte keys: the
// order only has to start the few longest rows first. The partition left the indices in descending
// order; the stable sort keeps that order among equal keys.
template <typename I>
__global__ void heavy_lengths_kernel(const int64_t* offsets, const I* heavy, int64_t count, uint8_t* length_bits,
                                     I* index) {
  SDDMM_GRID_STRIDE(i, count) {
    const int64_t o = static_cast<int64_t>(heavy[i]);
    index[i] = heavy[i];
    length_bits[i] = static_cast<uint8_t>(64 - __clzll(static_cast<long long>(offsets[o + 1] - offsets[o])));
  }
}

// At most this many of a dimension's outer indices can be heavy: each holds more than a threshold.
int64_t heavy_bound(int64_t outer, int64_t nnz, const HeavyThresholds& t) {
  const int64_t by_entries = nnz / (t.few + 1);
  return outer < by_entries ? outer : by_entries;
}

template <typename I>
cudaError_t sort_longest_first(void* temp, size_t& bytes, const uint8_t* length_bits, uint8_t* length_bits_sorted,
                               const I* index, I* index_sorted, int64_t count, cudaStream_t stream) {
  return cub::DeviceRadixSort::SortPairsDescending(temp, bytes, length_bits, length_bits_sorted, index, index_sorted,
                                                   count, 0, 8, stream);
}

template <typename I>
cudaError_t partition(void* temp, size_t& bytes, const int64_t* offsets, int64_t outer, int64_t threshold, I* order,
                      int64_t* light_count, cudaStream_t stream) {
  return cub::DevicePartition::If(temp, bytes, thrust::counting_iterator<int64_t>(0), order, light_count, outer,
                                  AtMost{offsets, threshold}, stream);
}

// counters: for rows, then columns (kCounters each); the sort's lengths and indices, for as many
// heavy indices as either dimension can have; then CUB's storage, one piece for every partition and
// sort (they run one after the other).
template <typename I>
struct SplitScratch {
  int64_t* counters = nullptr;
  uint8_t* length_bits[2] = {nullptr, nullptr};
  I* index = nullptr;
  void* temp = nullptr;
  size_t temp_bytes = 0;

  SplitScratch(Carver& c, int64_t rows, int64_t cols, int64_t nnz, const HeavyThresholds& row_t,
               const HeavyThresholds& col_t, cudaStream_t stream) {
    counters = c.take<int64_t>(2 * kCounters);
    const int64_t row_bound = heavy_bound(rows, nnz, row_t), col_bound = heavy_bound(cols, nnz, col_t);
    const int64_t most = row_bound > col_bound ? row_bound : col_bound;
    length_bits[0] = c.take<uint8_t>(most), length_bits[1] = c.take<uint8_t>(most);
    index = c.take<I>(most);
    size_t bytes[4] = {0, 0, 0, 0};
    check(partition<I>(nullptr, bytes[0], nullptr, rows, 0, nullptr, nullptr, stream), "cub::DevicePartition::If (size)");
    check(partition<I>(nullptr, bytes[1], nullptr, cols, 0, nullptr, nullptr, stream), "cub::DevicePartition::If (size)");
    check(sort_longest_first<I>(nullptr, bytes[2], nullptr, nullptr, nullptr, nullptr, row_bound, stream),
          "cub::DeviceRadixSort::SortPairsDescending (size)");
    check(sort_longest_first<I>(nullptr, bytes[3], nullptr, nullptr, nullptr, nullptr, col_bound, stream),
          "cub::DeviceRadixSort::SortPairsDescending (size)");
    for (const size_t b : bytes) temp_bytes = b > temp_bytes ? b : temp_bytes;
    temp = c.take<unsigned char>(static_cast<int64_t>(temp_bytes));
  }
};

// The usual split of a dimension into its order and its counters (Counter); which threshold the
// plan keeps is decided once they are read.
template <typename I>
void queue_split(OuterSplit<I>& s, const int64_t* offsets, const HeavyThresholds& t, int64_t* counters,
                 const SplitScratch<I>& w, cudaStream_t stream) {
  const int64_t outer = s.order.size();
  if (outer == 0) return;
  size_t bytes = w.temp_bytes;
  check(partition<I>(w.temp, bytes, offsets, outer, t.usual, s.order.get(), counters + kLightAtUsual, stream),
        "cub::DevicePartition::If");
  length_counts_kernel<<<preprocess_blocks(outer), kPreprocessThreads, 0, stream>>>(offsets, outer, t, counters);
  check_launch("length_counts_kernel");
}

// Takes the few-heavy threshold when it leaves at most one wave of heavy blocks (resident_blocks of
// 256 threads, at one column tile each): those run beside the light rows, and the longest light
// row, which a small graph's kernel waits for, gets shorter (tuning.hpp has the measurements). The
// order is then partitioned again at that threshold (queued: its counts are known).
template <typename I>
void keep_split(OuterSplit<I>& s, const int64_t* offsets, int64_t nnz, const HeavyThresholds& t,
                int64_t* device_counters, const int64_t* counts, int64_t resident_blocks, const SplitScratch<I>& w,
                cudaStream_t stream) {
  const int64_t outer = s.order.size();
  if (outer == 0) return;
  const bool few = t.few < t.usual && counts[kAboveFew] <= resident_blocks;
  s.light_count = few ? outer - counts[kAboveFew] : counts[kLightAtUsual];
  s.light_entries = nnz - (few ? counts[kEntriesAboveFew] : counts[kEntriesAboveUsual]);
  if (few) {
    size_t bytes = w.temp_bytes;
    check(partition<I>(w.temp, bytes, offsets, outer, t.few, s.order.get(), device_counters + kLightAtUsual, stream),
          "cub::DevicePartition::If");
  }
}

// The heavy part of the order, longest first (by the bit width of their lengths). The SpMM kernel
// gives each heavy index a block per column tile in this order, and the block scheduler starts
// them in about that order: the longest row, the kernel's critical path, then starts first instead
// of wherever its index falls (R-MAT scale 20, relabelled: its longest row, 39336 entries, is ~1200
// round trips of one block at N = 128). Measured (H200, 2026-11-21, side by side against the
// order by index, two rounds): R-MAT SpMM N = 32 / 128 / 256 0.523 -> 0.487, 1.587 -> 1.467, 2.757
// -> 2.621 ms; the small graphs within 1 %; plan creation R-MAT 2.88 -> 2.86 ms, the small graphs
// +0.013-0.021 ms (a few launches). Queued after the counts are read; nothing waits for it but the
// plan's last synchronisation.
template <typename I>
void queue_longest_first(OuterSplit<I>& s, const int64_t* offsets, const SplitScratch<I>& w, cudaStream_t stream) {
  const int64_t count = s.heavy().size();
  if (count < 2) return;
  heavy_lengths_kernel<I><<<preprocess_blocks(count), kPreprocessThreads, 0, stream>>>(offsets, s.heavy().get(), count,
                                                                                       w.length_bits[0], w.index);
  check_launch("heavy_lengths_kernel");
  size_t bytes = w.temp_bytes;
  check(sort_longest_first<I>(w.temp, bytes, w.length_bits[0], w.length_bits[1], w.index, s.heavy().get(), count, stream),
        "cub::DeviceRadixSort::SortPairsDescending");
}

}  // namespace

template <typename I>
size_t split_scratch_bytes(int64_t rows, int64_t cols, int64_t nnz, cudaStream_t stream) {
  Carver c;
  (void)SplitScratch<I>(c, rows, cols, nnz, heavy_thresholds(rows, nnz), heavy_thresholds(cols, nnz), stream);
  return c.used();
}

template <typename I>
void split_by_length(OuterSplit<I>& rows, const int64_t* row_offsets, OuterSplit<I>& cols, const int64_t* col_offsets,
                     int64_t nnz, int64_t resident_blocks, void* scratch, size_t scratch_bytes, cudaStream_t stream,
                     std::initializer_list<ReadBack> also) {
  const HeavyThresholds row_t = heavy_thresholds(rows.order.size(), nnz);
  const HeavyThresholds col_t = heavy_thresholds(cols.order.size(), nnz);
  Carver c(scratch, scratch_bytes);
  const SplitScratch<I> w(c, rows.order.size(), cols.order.size(), nnz, row_t, col_t, stream);
  int64_t* const row_counters = w.counters;
  int64_t* const col_counters = w.counters + kCounters;
  check(cudaMemsetAsync(w.counters, 0, 2 * kCounters * sizeof(int64_t), stream), "cudaMemsetAsync");
  queue_split(rows, row_offsets, row_t, row_counters, w, stream);
  queue_split(cols, col_offsets, col_t, col_counters, w, stream);
  int64_t counts[2 * kCounters] = {};
  check(cudaMemcpyAsync(counts, w.counters, sizeof(counts), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  for (const ReadBack& r : also) {
    if (r.bytes > 0)
      check(cudaMemcpyAsync(r.host, r.device, r.bytes, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  }
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (light/heavy split)");
  keep_split(rows, row_offsets, nnz, row_t, row_counters, counts, resident_blocks, w, stream);
  keep_split(cols, col_offsets, nnz, col_t, col_counters, counts + kCounters, resident_blocks, w, stream);
  queue_longest_first(rows, row_offsets, w, stream);
  queue_longest_first(cols, col_offsets, w, stream);
}

#define SDDMM_INSTANTIATE_SPLIT(I)                                                                                   \
  template size_t split_scratch_bytes<I>(int64_t, int64_t, int64_t, cudaStream_t);                                   \
  template void split_by_length<I>(OuterSplit<I>&, const int64_t*, OuterSplit<I>&, const int64_t*, int64_t, int64_t, \
                                   void*, size_t, cudaStream_t, std::initializer_list<ReadBack>);
SDDMM_INSTANTIATE_SPLIT(int32_t)
SDDMM_INSTANTIATE_SPLIT(int64_t)
#undef SDDMM_INSTANTIATE_SPLIT

}  // namespace sddmm::cuda
