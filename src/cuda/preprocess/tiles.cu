// Plan creation, tensor-core part: which 16-row strips are dense enough for mma.sync, and their
// entries regrouped by 8-column tile (a stable radix sort on (strip rank, tile)). Entries of the
// other strips are listed for the CUDA-core kernel. Integer work only: deterministic.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>

#include "cuda/preprocess/launch.cuh"
#include "cuda/preprocess/sorted.cuh"
#include "cuda/tiles.cuh"

namespace sddmm::cuda {
namespace {

// Per strip (and a zero at index `strips`, so that exclusive sums end with the totals): whether it
// goes to the tensor cores, and the entries it sends there.
__global__ void classify_strips_kernel(const int64_t* row_offsets, int64_t rows, int64_t strips, int64_t min_entries,
                                       int64_t* is_dense, int64_t* dense_entries) {
  SDDMM_GRID_STRIDE(s, strips + 1) {
    int64_t count = 0;
    if (s < strips) {
      const int64_t last = (s + 1) * kStripRows < rows ? (s + 1) * kStripRows : rows;
      count = row_offsets[last] - row_offsets[s * kStripRows];
    }
    const bool dense = s < strips && count >= min_entries;
    is_dense[s] = dense ? 1 : 0;
    dense_entries[s] = dense ? count : 0;
  }
}

template <typename I>
__global__ void list_strips_kernel(const int64_t* is_dense, const int64_t* rank, int64_t strips, I* list) {
  SDDMM_GRID_STRIDE(s, strips) {
    if (is_dense[s] != 0) list[rank[s]] = static_cast<I>(s);
  }
}

// A dense strip's entries are contiguous in plan (row) order, so entry e of strip s lands at
// dense_before[s] + (e - first entry of s), keyed by (rank of s, column tile). An entry of any other
// strip goes to the CUDA-core list at e - dense_before[s]: plan order is kept.
template <typename I>
__global__ void place_entries_kernel(const I* entry_row, const I* entry_col, const int64_t* row_offsets, int64_t nnz,
                                     const int64_t* is_dense, const int64_t* rank, const int64_t* dense_before,
                                     int64_t tiles_per_strip, unsigned long long* keys, I* ids, I* cuda_core) {
  SDDMM_GRID_STRIDE(e, nnz) {
    const int64_t s = static_cast<int64_t>(entry_row[e]) / kStripRows;
    if (is_dense[s] != 0) {
      const int64_t j = dense_before[s] + (e - row_offsets[s * kStripRows]);
      keys[j] = static_cast<unsigned long long>(rank[s] * tiles_per_strip + static_cast<int64_t>(entry_col[e]) / kTileCols);
      ids[j] = static_cast<I>(e);
    } else {
      cuda_core[e - dense_before[s]] = static_cast<I>(e);
    }
  }
}

template <typename V, typename I>
__global__ void fill_tiles_kernel(const I* ids, int64_t n, const I* entry_row, const I* entry_col, const V* entry_value,
                                  const I* caller_position, I* out_position, uint8_t* local, V* value) {
  SDDMM_GRID_STRIDE(j, n) {
    const int64_t e = ids[j];
    out_position[j] = caller_position != nullptr ? caller_position[e] : static_cast<I>(e);
    local[j] = static_cast<uint8_t>((entry_row[e] % kStripRows) * kTileCols + entry_col[e] % kTileCols);
    if (value != nullptr) value[j] = entry_value[e];
  }
}

DeviceArray<int64_t> exclusive_sum(const DeviceArray<int64_t>& in, cudaStream_t stream) {
  DeviceArray<int64_t> out(in.size());
  size_t temp_bytes = 0;
  check(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, in.get(), out.get(), in.size(), stream), "cub::DeviceScan (size)");
  DeviceArray<unsigned char> temp(static_cast<int64_t>(temp_bytes));
  check(cub::DeviceScan::ExclusiveSum(temp.get(), temp_bytes, in.get(), out.get(), in.size(), stream), "cub::DeviceScan");
  return out;
}

int64_t last_element(const DeviceArray<int64_t>& a, cudaStream_t stream) {
  int64_t v = 0;
  check(cudaMemcpyAsync(&v, a.get() + a.size() - 1, sizeof v, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return v;
}

int significant_bits(int64_t bound) {
  int bits = 1;
  while (bits < 63 && (int64_t{1} << bits) < bound) ++bits;
  return bits;
}

}  // namespace

template <typename V, typename I>
TensorTiles<V, I> build_tensor_tiles(int64_t rows, int64_t cols, int64_t nnz, const DeviceArray<int64_t>& row_offsets,
                                     const DeviceArray<I>& entry_row, const DeviceArray<I>& entry_col,
                                     const DeviceArray<V>& entry_value, const DeviceArray<I>& caller_position,
                                     double min_density, cudaStream_t stream) {
  TensorTiles<V, I> t;
  if (nnz == 0 || rows == 0 || cols == 0) return t;
  const int64_t strips = (rows + kStripRows - 1) / kStripRows;
  t.tiles_per_strip = (cols + kTileCols - 1) / kTileCols;
  const double cells = static_cast<double>(kStripRows) * static_cast<double>(cols);
  const double wanted = std::ceil(min_density * cells);
  const int64_t min_entries = wanted < 1.0 ? 1 : (wanted > 9.0e18 ? INT64_MAX : static_cast<int64_t>(wanted));

  DeviceArray<int64_t> is_dense(strips + 1);
  DeviceArray<int64_t> dense_entries(strips + 1);
  classify_strips_kernel<<<preprocess_blocks(strips + 1), kPreprocessThreads, 0, stream>>>(
      row_offsets.get(), rows, strips, min_entries, is_dense.get(), dense_entries.get());
  check_launch("classify_strips_kernel");
  const DeviceArray<int64_t> rank = exclusive_sum(is_dense, stream);
  const DeviceArray<int64_t> dense_before = exclusive_sum(dense_entries, stream);
  const int64_t dense_strips = last_element(rank, stream);
  if (dense_strips == 0) return t;
  t.entries = last_element(dense_before, stream);

  t.strips = DeviceArray<I>(dense_strips);
  list_strips_kernel<<<preprocess_blocks(strips), kPreprocessThreads, 0, stream>>>(is_dense.get(), rank.get(), strips, t.strips.get());
  check_launch("list_strips_kernel");

  DeviceArray<unsigned long long> keys(t.entries);
  DeviceArray<I> ids(t.entries);
  t.cuda_core_entries = DeviceArray<I>(nnz - t.entries);
  place_entries_kernel<<<preprocess_blocks(nnz), kPreprocessThreads, 0, stream>>>(
      entry_row.get(), entry_col.get(), row_offsets.get(), nnz, is_dense.get(), rank.get(), dense_before.get(),
      t.tiles_per_strip, keys.get(), ids.get(), t.cuda_core_entries.get());
  check_launch("place_entries_kernel");

  const int64_t tiles = dense_strips * t.tiles_per_strip;
  DeviceArray<unsigned long long> sorted_keys(t.entries);
  DeviceArray<I> sorted_ids(t.entries);
  size_t temp_bytes = 0;
  const int end_bit = significant_bits(tiles);
  check(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys.get(), sorted_keys.get(), ids.get(), sorted_ids.get(),
                                        t.entries, 0, end_bit, stream),
        "cub::DeviceRadixSort::SortPairs (size)");
  {
    DeviceArray<unsigned char> temp(static_cast<int64_t>(temp_bytes));
    check(cub::DeviceRadixSort::SortPairs(temp.get(), temp_bytes, keys.get(), sorted_keys.get(), ids.get(), sorted_ids.get(),
                                          t.entries, 0, end_bit, stream),
          "cub::DeviceRadixSort::SortPairs");
  }

  t.out_position = DeviceArray<I>(t.entries);
  t.local = DeviceArray<uint8_t>(t.entries);
  t.value = DeviceArray<V>(entry_value.empty() ? 0 : t.entries);
  fill_tiles_kernel<<<preprocess_blocks(t.entries), kPreprocessThreads, 0, stream>>>(
      sorted_ids.get(), t.entries, entry_row.get(), entry_col.get(), entry_value.get(), caller_position.get(),
      t.out_position.get(), t.local.get(), t.value.get());
  check_launch("fill_tiles_kernel");
  t.tile_offsets = DeviceArray<int64_t>(tiles + 1);
  offsets_from_sorted_kernel<<<preprocess_blocks(tiles + 1), kPreprocessThreads, 0, stream>>>(sorted_keys.get(), t.entries, tiles,
                                                                                            t.tile_offsets.get());
  check_launch("offsets_from_sorted_kernel (tiles)");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (tensor-core tiles)");
  return t;
}

#define SDDMM_INSTANTIATE_TILES(V, I)                                                                                      \
  template TensorTiles<V, I> build_tensor_tiles<V, I>(int64_t, int64_t, int64_t, const DeviceArray<int64_t>&,             \
                                                      const DeviceArray<I>&, const DeviceArray<I>&, const DeviceArray<V>&, \
                                                      const DeviceArray<I>&, double, cudaStream_t);
SDDMM_INSTANTIATE_TILES(__half, int32_t)
SDDMM_INSTANTIATE_TILES(__half, int64_t)
SDDMM_INSTANTIATE_TILES(__nv_bfloat16, int32_t)
SDDMM_INSTANTIATE_TILES(__nv_bfloat16, int64_t)
#undef SDDMM_INSTANTIATE_TILES

}  // namespace sddmm::cuda
