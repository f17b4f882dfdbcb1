// Plan creation, tensor-core part: entries grouped by 16 x 64 unit (a radix sort on (chunk, strip)),
// units counted (run-length encoding), the dense ones listed and packed into work items of up to
// kUnitsPerItem units of one chunk, their entries laid out unit by unit; the entries of the other
// units listed in plan order for the CUDA-core kernel; where the dense units cover most of the
// matrix, each cell's first entry (the square kernel's index). Integer work only: deterministic.
// All on the device, in the plan's creation scratch; the plan's tile arrays are one allocation.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/counting_iterator.h>

#include <cmath>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/functional>
#include <limits>
#include <utility>

#include "cuda/preprocess/launch.cuh"
#include "cuda/preprocess/sorted.cuh"
#include "cuda/tiles.cuh"

namespace sddmm::cuda {
namespace {

// The sort key of each entry: its chunk only. The plan's entries are in row order, so a stable sort
// by chunk leaves each chunk's entries in row order, strip after strip: (chunk, strip) order with a
// key of log2(chunks) bits instead of log2(chunks x strips) (blockdiag-262144: 12 bits, not 26; one
// or two radix passes fewer).
template <typename K, typename I>
__global__ void chunk_keys_kernel(const I* entry_col, int64_t nnz, K* keys, I* ids) {
  batched_loop(
      nnz, [&](int64_t e) { return static_cast<int64_t>(entry_col[e]); },
      [&](int64_t e, int64_t col) {
        keys[e] = static_cast<K>(col / kUnitCols);
        ids[e] = static_cast<I>(e);
      });
}

// The unit key (chunk x strips + strip) of each sorted entry, for counting the units.
template <typename K, typename I>
__global__ void unit_keys_kernel(const K* sorted_chunks, const I* sorted_ids, const I* entry_row, int64_t nnz,
                                 int64_t strips, K* keys) {
  struct Entry {
    int64_t chunk, row;
  };
  batched_loop(
      nnz,
      [&](int64_t i) {
        return Entry{static_cast<int64_t>(sorted_chunks[i]), static_cast<int64_t>(entry_row[sorted_ids[i]])};
      },
      [&](int64_t i, Entry x) { keys[i] = static_cast<K>(x.chunk * strips + x.row / kUnitRows); });
}

template <typename C>
struct DenseRun {
  const C* counts;
  int64_t min_entries;
  __device__ bool operator()(int64_t run) const { return static_cast<int64_t>(counts[run]) >= min_entries; }
};

// Key, entry count and first sorted position of each dense run.
template <typename K, typename C>
__global__ void gather_dense_kernel(const int64_t* dense_runs, int64_t dense, const K* run_keys,
                                    const C* run_counts, const int64_t* run_begin, int64_t* key, int64_t* count,
                                    int64_t* begin) {
  SDDMM_GRID_STRIDE(d, dense) {
    const int64_t r = dense_runs[d];
    key[d] = static_cast<int64_t>(run_keys[r]);
    count[d] = static_cast<int64_t>(run_counts[r]);
    begin[d] = run_begin[r];
  }
}

// A block per dense unit: its entries, from the sorted positions, into the unit-ordered arrays.
template <typename V, typename I>
__global__ void fill_units_kernel(int64_t units, const int64_t* unit_source, const int64_t* unit_entries, const I* sorted_ids,
                                  const I* entry_row, const I* entry_col, const V* entry_value, const I* caller_position,
                                  I* out_position, uint16_t* local, V* value, uint8_t* on_tensor_cores) {
  for (int64_t u = blockIdx.x; u < units; u += gridDim.x) {
    const int64_t first = unit_entries[u];
    const int64_t n = unit_entries[u + 1] - first;
    for (int64_t i = threadIdx.x; i < n; i += blockDim.x) {
      const int64_t e = sorted_ids[unit_source[u] + i];
      const int64_t j = first + i;
      out_position[j] = caller_position != nullptr ? caller_position[e] : static_cast<I>(e);
      local[j] = static_cast<uint16_t>((entry_col[e] % kUnitCols) * kUnitRows + entry_row[e] % kUnitRows);
      if (value != nullptr) value[j] = entry_value[e];
      if (on_tensor_cores != nullptr) on_tensor_cores[e] = 1;
    }
  }
}

// cell_entries[x] for every x < count (x = chunk * strips + strip, a unit key, up to the cells and
// the padding past them): the entries of the dense units whose keys are below x (the first dense
// unit at or past x, found by binary search in the ascending keys, and its first entry).
__global__ void index_cells_kernel(const int64_t* unit_key, const int64_t* unit_entries, int64_t units, int64_t count,
                                   int64_t* cell_entries) {
  SDDMM_GRID_STRIDE(x, count) { cell_entries[x] = unit_entries[first_not_below(unit_key, units, x)]; }
}

struct OnCudaCores {
  const uint8_t* on_tensor_cores;
  __device__ bool operator()(int64_t e) const { return on_tensor_cores[e] == 0; }
};

// Whether dense unit d starts a work item: the first unit of each chunk and every kUnitsPerItem-th
// after it; d == dense (one past the last) is listed too, closing the last item. The chunk's first
// unit is found by binary search in the ascending keys.
struct StartsItem {
  const int64_t* key;
  int64_t dense;
  int64_t strips;
  __device__ bool operator()(int64_t d) const {
    if (d == 0 || d == dense) return true;
    const int64_t chunk_key = key[d] / strips * strips;  // key of the chunk's first possible unit
    if (key[d - 1] < chunk_key) return true;
    return (d - first_not_below(key, d, chunk_key)) % kUnitsPerItem == 0;
  }
};

// The listing's temporaries and its CUB calls, in two parts. The entries' part (layout(): keys and
// ids for the sort by unit, a flag per entry, counters, CUB's storage sized for n = nnz items,
// which covers every smaller count) is carved from the creation scratch: 2 sizeof(K) + 2 sizeof(I)
// + 1 bytes per entry. The runs' part (lay_out_runs(): 40 bytes per run of equal unit keys, which
// blockdiag-262144 has 16,384 of for 16.8M entries) is laid out once the runs are counted, in the
// unit keys' buffer (free once they are encoded) where it fits, else in an allocation of its own.
// The encoded runs themselves go to buffers the sort left free: their keys to the sorted chunk
// keys' (read only by unit_keys_kernel, before), their counts (type I: at most nnz) to the ids
// buffer the sort did not end in. (Every array sized by nnz, as before, was 69 bytes per entry:
// blockdiag-262144 freed 1.2 GB at the end of each creation.) Both layouts run twice: to measure
// and to carve (cuda/carved.cuh).
template <typename K, typename V, typename I>
struct UnitListing {
  int64_t nnz = 0, strips = 0, min_entries = 0;
  int end_bit = 0;
  cudaStream_t stream = nullptr;

  // Entries' part.
  K *keys = nullptr, *sorted_keys = nullptr;
  I *ids = nullptr, *sorted_ids = nullptr, *spare_ids = nullptr;
  int64_t* counters = nullptr;
  uint8_t* on_tensor_cores = nullptr;
  void *sort_temp = nullptr, *rle_temp = nullptr, *scan_temp = nullptr, *dense_temp = nullptr;
  void *sum_temp = nullptr, *items_temp = nullptr, *rest_temp = nullptr;
  size_t sort_bytes = 0, rle_bytes = 0, scan_bytes = 0, dense_bytes = 0, sum_bytes = 0, items_bytes = 0, rest_bytes = 0;
  // The encoded runs, in the entries' part (above).
  K* run_keys = nullptr;
  I* run_counts = nullptr;
  // Runs' part. (dense + 1) unit_entries and (items + 1) item_units, copied into the plan once their
  // sizes are known, reuse dense_runs and run_begin, which nothing reads after gather_dense_kernel.
  int64_t *run_begin = nullptr, *dense_runs = nullptr, *key = nullptr, *count = nullptr, *source = nullptr;
  int64_t *unit_entries = nullptr, *item_units = nullptr;

  // Double-buffer mode (CUB's storage holds no third copy): the sorted chunks and ids end in either
  // buffer of their pair; sorted_ids points there after the sort, sorted_keys to the other buffer
  // of keys, free for the unit keys, and spare_ids to the other buffer of ids.
  cudaError_t sort(void* temp, size_t& bytes) {
    cub::DoubleBuffer<K> k(keys, sorted_keys);
    cub::DoubleBuffer<I> i(ids, sorted_ids);
    const cudaError_t status = cub::DeviceRadixSort::SortPairs(temp, bytes, k, i, nnz, 0, end_bit, stream);
    if (temp != nullptr) {
      keys = k.Current(), sorted_keys = k.Alternate(), sorted_ids = i.Current(), spare_ids = i.Alternate();
      run_keys = keys, run_counts = spare_ids;
    }
    return status;
  }
  // CUB 3.0's DeviceRunLengthEncode::Encode counts its items in an int: past 2^31 - 1 entries the
  // count wraps (e101, the huge check's 2^31 + 2^20: its reduce-by-key kernel still spinning after
  // 140 s). DeviceReduce::ReduceByKey of ones counts in 64 bits and gives the same runs; below
  // that, Encode as before (its tuning, the suite's plan times).
  cudaError_t encode(void* temp, size_t& bytes) {
    if constexpr (sizeof(I) > sizeof(int)) {
      if (nnz > std::numeric_limits<int>::max()) {
        return cub::DeviceReduce::ReduceByKey(temp, bytes, sorted_keys, run_keys, thrust::constant_iterator<I>(1),
                                              run_counts, counters, ::cuda::std::plus<>{}, nnz, stream);
      }
    }
    return cub::DeviceRunLengthEncode::Encode(temp, bytes, sorted_keys, run_keys, run_counts, counters,
                                              static_cast<int>(nnz), stream);
  }
  cudaError_t scan(void* temp, size_t& bytes, int64_t runs) {
    return cub::DeviceScan::ExclusiveSum(temp, bytes, run_counts, run_begin, runs, stream);
  }
  cudaError_t select_dense(void* temp, size_t& bytes, int64_t runs) {
    return cub::DeviceSelect::If(temp, bytes, thrust::counting_iterator<int64_t>(0), dense_runs, counters + 1, runs,
                                 DenseRun<I>{run_counts, min_entries}, stream);
  }
  cudaError_t sum_entries(void* temp, size_t& bytes, int64_t dense) {
    return cub::DeviceScan::InclusiveSum(temp, bytes, count, unit_entries + 1, dense, stream);
  }
  cudaError_t select_items(void* temp, size_t& bytes, int64_t dense) {
    return cub::DeviceSelect::If(temp, bytes, thrust::counting_iterator<int64_t>(0), item_units, counters + 2, dense + 1,
                                 StartsItem{key, dense, strips}, stream);
  }
  cudaError_t select_rest(void* temp, size_t& bytes, I* rest) {
    return cub::DeviceSelect::If(temp, bytes, thrust::counting_iterator<I>(0), rest, counters + 3, nnz,
                                 OnCudaCores{on_tensor_cores}, stream);
  }

  void layout(Carver& c) {
    keys = c.take<K>(nnz), sorted_keys = c.take<K>(nnz);
    ids = c.take<I>(nnz), sorted_ids = c.take<I>(nnz);
    counters = c.take<int64_t>(4);
    on_tensor_cores = c.take<uint8_t>(nnz);
    // CUB's sizes need no memory, only the sizes of the problem.
    const char* size = "cub (sizing the unit listing)";
    sort_temp = take_cub(c, sort_bytes, [&](size_t& b) { return sort(nullptr, b); }, size);
    rle_temp = take_cub(c, rle_bytes, [&](size_t& b) { return encode(nullptr, b); }, size);
    scan_temp = take_cub(c, scan_bytes, [&](size_t& b) { return scan(nullptr, b, nnz); }, size);
    dense_temp = take_cub(c, dense_bytes, [&](size_t& b) { return select_dense(nullptr, b, nnz); }, size);
    sum_temp = take_cub(c, sum_bytes, [&](size_t& b) { return sum_entries(nullptr, b, nnz); }, size);
    items_temp = take_cub(c, items_bytes, [&](size_t& b) { return select_items(nullptr, b, nnz); }, size);
    rest_temp = take_cub(c, rest_bytes, [&](size_t& b) { return select_rest(nullptr, b, nullptr); }, size);
  }

  void lay_out_runs(Carver& c, int64_t runs) {
    run_begin = c.take<int64_t>(runs + 1), dense_runs = c.take<int64_t>(runs + 1);
    key = c.take<int64_t>(runs), count = c.take<int64_t>(runs), source = c.take<int64_t>(runs);
    unit_entries = dense_runs, item_units = run_begin;
  }

 private:
  // Sizes a CUB call (size(bytes) sets bytes) and takes a piece that large.
  template <typename Size>
  static void* take_cub(Carver& c, size_t& bytes, Size&& size, const char* what) {
    bytes = 0;
    check(size(bytes), what);
    return c.take<unsigned char>(static_cast<int64_t>(bytes));
  }
};

template <typename K, typename V, typename I>
UnitListing<K, V, I> listing(int64_t strips, int64_t cols, int64_t nnz, int64_t min_entries, cudaStream_t stream) {
  UnitListing<K, V, I> w;
  w.nnz = nnz;
  w.strips = strips;
  w.min_entries = min_entries;
  w.end_bit = significant_bits(unit_chunks(cols));  // chunk keys
  w.stream = stream;
  return w;
}

// Two device values read back after the work queued on `stream` before them (one synchronisation).
std::pair<int64_t, int64_t> read_two(const int64_t* a, const int64_t* b, cudaStream_t stream) {
  int64_t h[2] = {0, 0};
  check(cudaMemcpyAsync(&h[0], a, sizeof(int64_t), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  if (b != nullptr) check(cudaMemcpyAsync(&h[1], b, sizeof(int64_t), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (tensor-core units)");
  return {h[0], h[1]};
}

void copy_on_device(void* to, const void* from, size_t bytes, cudaStream_t stream) {
  if (bytes > 0) check(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, stream), "cudaMemcpyAsync (units)");
}

// Keys of K bits (32 whenever chunks x strips fits, which halves the sort's traffic). Three
// synchronisations read the counts the next steps are sized by: runs, dense units, then work items
// and entries together; the work items are found on the device (StartsItem), not on the host.
template <typename K, typename V, typename I>
TensorTiles<V, I> build_with_keys(TensorTiles<V, I> t, int64_t cols, int64_t nnz, const DeviceSpan<I>& entry_row,
                                  const DeviceSpan<I>& entry_col, const DeviceSpan<V>& entry_value,
                                  const DeviceSpan<I>& caller_position, int64_t min_entries, double min_share,
                                  double min_cover, void* scratch, size_t scratch_bytes, cudaStream_t stream) {
  UnitListing<K, V, I> w = listing<K, V, I>(t.strips, cols, nnz, min_entries, stream);
  Carver carver(scratch, scratch_bytes);
  w.layout(carver);

  // Entries sorted by unit, then the units counted and the dense ones listed in (chunk, strip) order.
  chunk_keys_kernel<<<batched_blocks(nnz), kPreprocessThreads, 0, stream>>>(entry_col.get(), nnz, w.keys, w.ids);
  check_launch("chunk_keys_kernel");
  check(w.sort(w.sort_temp, w.sort_bytes), "cub::DeviceRadixSort::SortPairs (units)");
  unit_keys_kernel<<<batched_blocks(nnz), kPreprocessThreads, 0, stream>>>(w.keys, w.sorted_ids, entry_row.get(), nnz,
                                                                           t.strips, w.sorted_keys);
  check_launch("unit_keys_kernel");
  check(w.encode(w.rle_temp, w.rle_bytes), "cub::DeviceRunLengthEncode::Encode");
  const int64_t runs = read_two(w.counters, nullptr, stream).first;
  // Each run that is not dense holds at least one entry and each dense one at least min_entries, so
  // the dense runs hold at most (nnz - runs) / (1 - 1 / min_entries) entries. Where that is below the
  // minimum share no listing keeps its units: stop before the runs' arrays (R-MAT scale 20, whose
  // 16M entries make too many units for the census, would give them an allocation of their own).
  if (min_entries > 1) {
    const double most = static_cast<double>(nnz - runs) / (1.0 - 1.0 / static_cast<double>(min_entries));
    if (!dense_units_hold_enough(static_cast<int64_t>(most), nnz, min_share)) return t;
  }
  Carver runs_size;  // measuring
  w.lay_out_runs(runs_size, runs);
  const bool runs_fit = runs_size.used() <= static_cast<size_t>(nnz) * sizeof(K);
  const DeviceArray<unsigned char> runs_storage(runs_fit ? 0 : static_cast<int64_t>(runs_size.used()));
  Carver runs_carver(runs_fit ? static_cast<void*>(w.sorted_keys) : runs_storage.get(), runs_size.used());
  w.lay_out_runs(runs_carver, runs);
  check(w.scan(w.scan_temp, w.scan_bytes, runs), "cub::DeviceScan::ExclusiveSum (units)");
  check(w.select_dense(w.dense_temp, w.dense_bytes, runs), "cub::DeviceSelect::If (dense units)");
  const int64_t dense = read_two(w.counters + 1, nullptr, stream).first;
  if (dense == 0) return t;
  gather_dense_kernel<<<preprocess_blocks(dense), kPreprocessThreads, 0, stream>>>(w.dense_runs, dense, w.run_keys, w.run_counts,
                                                                                w.run_begin, w.key, w.count, w.source);
  check_launch("gather_dense_kernel");

  // Entry offsets of the units (a prefix sum of their counts) and the first unit of each work item.
  check(cudaMemsetAsync(w.unit_entries, 0, sizeof(int64_t), stream), "cudaMemsetAsync");
  check(w.sum_entries(w.sum_temp, w.sum_bytes, dense), "cub::DeviceScan::InclusiveSum (unit entries)");
  check(w.select_items(w.items_temp, w.items_bytes, dense), "cub::DeviceSelect::If (work items)");
  const std::pair<int64_t, int64_t> items_and_entries = read_two(w.counters + 2, w.unit_entries + dense, stream);
  const int64_t item_bounds = items_and_entries.first, entries = items_and_entries.second;
  if (!dense_units_hold_enough(entries, nnz, min_share)) return t;
  t.entries = entries;
  t.items = item_bounds - 1;
  t.chunks = unit_chunks(cols);
  const int64_t cells = t.strips * t.chunks;
  const bool index_cells = static_cast<double>(dense) >= min_cover * static_cast<double>(cells);
  t.storage = carve([&](Carver& c) {
    t.unit_key = c.span<int64_t>(dense);
    t.unit_entries = c.span<int64_t>(dense + 1);
    t.item_units = c.span<int64_t>(item_bounds);
    t.out_position = c.span<I>(t.entries);
    t.local = c.span<uint16_t>(t.entries);
    t.value = c.span<V>(entry_value.empty() ? 0 : t.entries);
    t.cuda_core_entries = c.span<I>(nnz - t.entries);
    t.cell_entries = c.span<int64_t>(index_cells ? cells + 1 + TensorTiles<V, I>::kCellPad : 0);
  });
  copy_on_device(t.unit_key.get(), w.key, static_cast<size_t>(dense) * sizeof(int64_t), stream);
  copy_on_device(t.unit_entries.get(), w.unit_entries, static_cast<size_t>(dense + 1) * sizeof(int64_t), stream);
  copy_on_device(t.item_units.get(), w.item_units, static_cast<size_t>(item_bounds) * sizeof(int64_t), stream);
  if (index_cells) {
    index_cells_kernel<<<preprocess_blocks(t.cell_entries.size()), kPreprocessThreads, 0, stream>>>(
        t.unit_key.get(), t.unit_entries.get(), dense, t.cell_entries.size(), t.cell_entries.get());
    check_launch("index_cells_kernel");
  }

  // The dense units' entries, unit by unit; the rest (if any) in plan order.
  const bool rest = t.entries < nnz;
  if (rest) check(cudaMemsetAsync(w.on_tensor_cores, 0, static_cast<size_t>(nnz), stream), "cudaMemsetAsync");
  const int blocks = static_cast<int>(dense < 65535 * 8 ? dense : 65535 * 8);
  fill_units_kernel<<<blocks, kPreprocessThreads, 0, stream>>>(
      dense, w.source, t.unit_entries.get(), w.sorted_ids, entry_row.get(), entry_col.get(), entry_value.get(),
      caller_position.get(), t.out_position.get(), t.local.get(), t.value.get(), rest ? w.on_tensor_cores : nullptr);
  check_launch("fill_units_kernel");
  if (rest) {
    check(w.select_rest(w.rest_temp, w.rest_bytes, t.cuda_core_entries.get()), "cub::DeviceSelect::If (CUDA-core entries)");
  }
  // The runs' own allocation is freed on return: fill_units_kernel must have read it.
  if (!runs_storage.empty()) check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (tensor-core units)");
  return t;  // still running on `stream`: the caller keeps the scratch until it synchronises
}

// Keys of 32 bits whenever chunks x strips fits.
bool narrow_unit_keys(int64_t rows, int64_t cols) {
  const int64_t strips = unit_strips(rows);
  const int64_t chunks = unit_chunks(cols);
  return chunks * strips <= int64_t{std::numeric_limits<uint32_t>::max()};
}

}  // namespace

template <typename V, typename I>
size_t tensor_tile_scratch_bytes(int64_t rows, int64_t cols, int64_t nnz, cudaStream_t stream) {
  if (nnz == 0 || rows == 0 || cols == 0) return 0;
  const int64_t strips = unit_strips(rows);
  Carver c;
  if (narrow_unit_keys(rows, cols)) {
    listing<uint32_t, V, I>(strips, cols, nnz, 1, stream).layout(c);
  } else {
    listing<unsigned long long, V, I>(strips, cols, nnz, 1, stream).layout(c);
  }
  return c.used();
}

template <typename V, typename I>
TensorTiles<V, I> build_tensor_tiles(int64_t rows, int64_t cols, int64_t nnz, const DeviceSpan<I>& entry_row,
                                     const DeviceSpan<I>& entry_col, const DeviceSpan<V>& entry_value,
                                     const DeviceSpan<I>& caller_position, double min_density, double min_share,
                                     double min_cover, void* scratch, size_t scratch_bytes, cudaStream_t stream) {
  TensorTiles<V, I> t;
  if (nnz == 0 || rows == 0 || cols == 0 || min_density > 1.0) return t;
  t.strips = unit_strips(rows);
  const int64_t min_entries = unit_min_entries(min_density);
  if (narrow_unit_keys(rows, cols)) {
    return build_with_keys<uint32_t>(std::move(t), cols, nnz, entry_row, entry_col, entry_value, caller_position,
                                     min_entries, min_share, min_cover, scratch, scratch_bytes, stream);
  }
  return build_with_keys<unsigned long long>(std::move(t), cols, nnz, entry_row, entry_col, entry_value,
                                             caller_position, min_entries, min_share, min_cover, scratch, scratch_bytes,
                                             stream);
}

#define SDDMM_INSTANTIATE_TILES(V, I)                                                                                  \
  template TensorTiles<V, I> build_tensor_tiles<V, I>(int64_t, int64_t, int64_t, const DeviceSpan<I>&,                \
                                                      const DeviceSpan<I>&, const DeviceSpan<V>&, const DeviceSpan<I>&, \
                                                      double, double, double, void*, size_t, cudaStream_t);            \
  template size_t tensor_tile_scratch_bytes<V, I>(int64_t, int64_t, int64_t, cudaStream_t);
SDDMM_INSTANTIATE_TILES(float, int32_t)
SDDMM_INSTANTIATE_TILES(float, int64_t)
SDDMM_INSTANTIATE_TILES(__half, int32_t)
SDDMM_INSTANTIATE_TILES(__half, int64_t)
SDDMM_INSTANTIATE_TILES(__nv_bfloat16, int32_t)
SDDMM_INSTANTIATE_TILES(__nv_bfloat16, int64_t)
#undef SDDMM_INSTANTIATE_TILES

}  // namespace sddmm::cuda
