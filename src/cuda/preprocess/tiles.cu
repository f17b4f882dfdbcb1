// Plan creation, tensor-core part: entries grouped by 16 x 64 unit (a radix sort on (chunk, strip)),
// units counted (run-length encoding), the dense ones listed and packed into work items of up to
// kUnitsPerItem units of one chunk, their entries laid out unit by unit; the entries of the other
// units listed in plan order for the CUDA-core kernel. Integer work only: deterministic.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <thrust/iterator/counting_iterator.h>

#include <cmath>
#include <limits>
#include <vector>

#include "cuda/preprocess/launch.cuh"
#include "cuda/preprocess/sorted.cuh"
#include "cuda/tiles.cuh"

namespace sddmm::cuda {
namespace {

template <typename K, typename I>
__global__ void unit_keys_kernel(const I* entry_row, const I* entry_col, int64_t nnz, int64_t strips, K* keys, I* ids) {
  SDDMM_GRID_STRIDE(e, nnz) {
    const int64_t chunk = static_cast<int64_t>(entry_col[e]) / kUnitCols;
    keys[e] = static_cast<K>(chunk * strips + static_cast<int64_t>(entry_row[e]) / kUnitRows);
    ids[e] = static_cast<I>(e);
  }
}

struct DenseRun {
  const int64_t* counts;
  int64_t min_entries;
  __device__ bool operator()(int64_t run) const { return counts[run] >= min_entries; }
};

// Key, entry count and first sorted position of each dense run.
template <typename K>
__global__ void gather_dense_kernel(const int64_t* dense_runs, int64_t dense, const K* run_keys,
                                    const int64_t* run_counts, const int64_t* run_begin, int64_t* key, int64_t* count,
                                    int64_t* begin) {
  SDDMM_GRID_STRIDE(d, dense) {
    const int64_t r = dense_runs[d];
    key[d] = static_cast<int64_t>(run_keys[r]);
    count[d] = run_counts[r];
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
      on_tensor_cores[e] = 1;
    }
  }
}

struct OnCudaCores {
  const uint8_t* on_tensor_cores;
  __device__ bool operator()(int64_t e) const { return on_tensor_cores[e] == 0; }
};

// n values from device memory, after the work queued on `stream` before them.
template <typename T>
std::vector<T> to_host_values(const T* p, int64_t n, cudaStream_t stream) {
  std::vector<T> h(static_cast<size_t>(n));
  if (!h.empty()) {
    check(cudaMemcpyAsync(h.data(), p, h.size() * sizeof(T), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  }
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return h;
}

template <typename T>
DeviceArray<T> to_device(const std::vector<T>& h, cudaStream_t stream) {
  DeviceArray<T> a(static_cast<int64_t>(h.size()));
  if (!h.empty()) {
    check(cudaMemcpyAsync(a.get(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync");
  }
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");  // `h` may go before the copy ran
  return a;
}

// The temporaries of one build, carved from a single allocation: on the H200 a cudaMalloc costs
// 0.06-0.1 ms and a cudaFree 0.05-0.34 ms (1-536 MB, measured with CuPy), more than the kernels
// between them - twenty of each made listing the units of a 16.8M-entry matrix take 3 ms. Pieces are
// 256-byte aligned; sizes are upper bounds known before the first kernel (n = nnz everywhere).
class Workspace {
 public:
  // Adds a piece of `count` Ts to the layout (first pass) or hands it out (second pass).
  template <typename T>
  T* piece(int64_t count) {
    const size_t at = used_;
    used_ += (static_cast<size_t>(count) * sizeof(T) + 255) / 256 * 256;
    if (storage_.empty()) return nullptr;
    if (used_ > static_cast<size_t>(storage_.size())) fail(SDDMM_STATUS_INTERNAL_ERROR, "tensor-core workspace too small");
    return reinterpret_cast<T*>(storage_.get() + at);
  }
  // The CUB temporary storage of `call` (sized for n = nnz in the first pass).
  template <typename Call>
  void* cub_piece(Call&& call, size_t& bytes, const char* what) {
    bytes = 0;
    check(call(nullptr, bytes), what);
    return piece<unsigned char>(static_cast<int64_t>(bytes));
  }
  void allocate() { storage_ = DeviceArray<unsigned char>(static_cast<int64_t>(used_)), used_ = 0; }

 private:
  DeviceArray<unsigned char> storage_;
  size_t used_ = 0;
};

// Keys of K bits (32 whenever chunks x strips fits, which halves the sort's traffic).
template <typename K, typename V, typename I>
TensorTiles<V, I> build_with_keys(TensorTiles<V, I> t, int64_t cols, int64_t nnz, const DeviceArray<I>& entry_row,
                                  const DeviceArray<I>& entry_col, const DeviceArray<V>& entry_value,
                                  const DeviceArray<I>& caller_position, int64_t min_entries, double min_share,
                                  cudaStream_t stream) {
  const int64_t chunks = (cols + kUnitCols - 1) / kUnitCols;
  const int end_bit = significant_bits(chunks * t.strips);
  Workspace w;
  K *keys = nullptr, *sorted_keys = nullptr, *run_keys = nullptr;
  I *ids = nullptr, *sorted_ids = nullptr;
  int64_t *run_counts = nullptr, *run_begin = nullptr, *dense_runs = nullptr, *counters = nullptr;
  int64_t *count = nullptr, *source = nullptr;
  uint8_t* on_tensor_cores = nullptr;
  void *sort_temp = nullptr, *rle_temp = nullptr, *scan_temp = nullptr, *select_temp = nullptr, *rest_temp = nullptr;
  size_t sort_bytes = 0, rle_bytes = 0, scan_bytes = 0, select_bytes = 0, rest_bytes = 0;
  const auto sort = [&](void* temp, size_t& bytes) {
    return cub::DeviceRadixSort::SortPairs(temp, bytes, keys, sorted_keys, ids, sorted_ids, nnz, 0, end_bit, stream);
  };
  const auto encode = [&](void* temp, size_t& bytes) {
    return cub::DeviceRunLengthEncode::Encode(temp, bytes, sorted_keys, run_keys, run_counts, counters, nnz, stream);
  };
  int64_t runs = nnz;  // an upper bound until the encoding has run
  const auto scan = [&](void* temp, size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(temp, bytes, run_counts, run_begin, runs, stream);
  };
  const auto select_dense = [&](void* temp, size_t& bytes) {
    return cub::DeviceSelect::If(temp, bytes, thrust::counting_iterator<int64_t>(0), dense_runs, counters + 1, runs,
                                 DenseRun{run_counts, min_entries}, stream);
  };
  const auto select_rest = [&](void* temp, size_t& bytes) {
    return cub::DeviceSelect::If(temp, bytes, thrust::counting_iterator<I>(0), t.cuda_core_entries.get(), counters + 2,
                                 nnz, OnCudaCores{on_tensor_cores}, stream);
  };
  for (int pass = 0; pass < 2; ++pass) {
    keys = w.piece<K>(nnz), sorted_keys = w.piece<K>(nnz), run_keys = w.piece<K>(nnz);
    ids = w.piece<I>(nnz), sorted_ids = w.piece<I>(nnz);
    run_counts = w.piece<int64_t>(nnz), run_begin = w.piece<int64_t>(nnz), dense_runs = w.piece<int64_t>(nnz);
    count = w.piece<int64_t>(nnz), source = w.piece<int64_t>(nnz), counters = w.piece<int64_t>(3);
    on_tensor_cores = w.piece<uint8_t>(nnz);
    if (pass == 0) {  // CUB's sizes need no memory, only the sizes of the problem
      sort_temp = w.cub_piece(sort, sort_bytes, "cub::DeviceRadixSort::SortPairs (units, size)");
      rle_temp = w.cub_piece(encode, rle_bytes, "cub::DeviceRunLengthEncode::Encode (size)");
      scan_temp = w.cub_piece(scan, scan_bytes, "cub::DeviceScan::ExclusiveSum (size)");
      select_temp = w.cub_piece(select_dense, select_bytes, "cub::DeviceSelect::If (size)");
      rest_temp = w.cub_piece(select_rest, rest_bytes, "cub::DeviceSelect::If (size)");
      w.allocate();
    } else {
      sort_temp = w.piece<unsigned char>(static_cast<int64_t>(sort_bytes));
      rle_temp = w.piece<unsigned char>(static_cast<int64_t>(rle_bytes));
      scan_temp = w.piece<unsigned char>(static_cast<int64_t>(scan_bytes));
      select_temp = w.piece<unsigned char>(static_cast<int64_t>(select_bytes));
      rest_temp = w.piece<unsigned char>(static_cast<int64_t>(rest_bytes));
    }
  }

  // Entries sorted by unit, then the units counted and the dense ones listed in (chunk, strip) order.
  unit_keys_kernel<<<preprocess_blocks(nnz), kPreprocessThreads, 0, stream>>>(entry_row.get(), entry_col.get(), nnz,
                                                                           t.strips, keys, ids);
  check_launch("unit_keys_kernel");
  check(sort(sort_temp, sort_bytes), "cub::DeviceRadixSort::SortPairs (units)");
  check(encode(rle_temp, rle_bytes), "cub::DeviceRunLengthEncode::Encode");
  runs = to_host_values(counters, 1, stream)[0];
  check(scan(scan_temp, scan_bytes), "cub::DeviceScan::ExclusiveSum (units)");
  check(select_dense(select_temp, select_bytes), "cub::DeviceSelect::If (dense units)");
  const int64_t dense = to_host_values(counters + 1, 1, stream)[0];
  if (dense == 0) return t;
  DeviceArray<int64_t> key(dense);
  gather_dense_kernel<<<preprocess_blocks(dense), kPreprocessThreads, 0, stream>>>(dense_runs, dense, run_keys, run_counts,
                                                                                run_begin, key.get(), count, source);
  check_launch("gather_dense_kernel");

  // Work items on the host: a new item at each new chunk and after kUnitsPerItem units.
  const std::vector<int64_t> h_key = to_host_values(key.get(), dense, stream);
  const std::vector<int64_t> h_count = to_host_values(count, dense, stream);
  std::vector<int64_t> unit_entries(static_cast<size_t>(dense) + 1, 0);
  std::vector<int64_t> item_units;
  for (int64_t d = 0; d < dense; ++d) {
    const size_t i = static_cast<size_t>(d);
    unit_entries[i + 1] = unit_entries[i] + h_count[i];
    const bool new_chunk = d == 0 || h_key[i] / t.strips != h_key[i - 1] / t.strips;
    if (new_chunk || d - item_units.back() == kUnitsPerItem) item_units.push_back(d);
  }
  item_units.push_back(dense);
  if (static_cast<double>(unit_entries.back()) < min_share * static_cast<double>(nnz)) return t;
  t.entries = unit_entries.back();
  t.items = static_cast<int64_t>(item_units.size()) - 1;
  t.unit_key = std::move(key);
  t.unit_entries = to_device(unit_entries, stream);
  t.item_units = to_device(item_units, stream);

  // The dense units' entries, unit by unit; the rest in plan order.
  t.out_position = DeviceArray<I>(t.entries);
  t.local = DeviceArray<uint16_t>(t.entries);
  t.value = DeviceArray<V>(entry_value.empty() ? 0 : t.entries);
  check(cudaMemsetAsync(on_tensor_cores, 0, static_cast<size_t>(nnz), stream), "cudaMemsetAsync");
  const int blocks = static_cast<int>(dense < 65535 * 8 ? dense : 65535 * 8);
  fill_units_kernel<<<blocks, kPreprocessThreads, 0, stream>>>(
      dense, source, t.unit_entries.get(), sorted_ids, entry_row.get(), entry_col.get(), entry_value.get(),
      caller_position.get(), t.out_position.get(), t.local.get(), t.value.get(), on_tensor_cores);
  check_launch("fill_units_kernel");
  t.cuda_core_entries = DeviceArray<I>(nnz - t.entries);
  check(select_rest(rest_temp, rest_bytes), "cub::DeviceSelect::If (CUDA-core entries)");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (tensor-core units)");
  return t;  // the workspace is freed after the work on `stream` (synchronised above)
}

}  // namespace

template <typename V, typename I>
TensorTiles<V, I> build_tensor_tiles(int64_t rows, int64_t cols, int64_t nnz, const DeviceArray<I>& entry_row,
                                     const DeviceArray<I>& entry_col, const DeviceArray<V>& entry_value,
                                     const DeviceArray<I>& caller_position, double min_density, double min_share,
                                     cudaStream_t stream) {
  TensorTiles<V, I> t;
  if (nnz == 0 || rows == 0 || cols == 0 || min_density > 1.0) return t;
  t.strips = (rows + kUnitRows - 1) / kUnitRows;
  const int64_t chunks = (cols + kUnitCols - 1) / kUnitCols;
  const double wanted = std::ceil(min_density * kUnitRows * kUnitCols);
  const int64_t min_entries = wanted < 1.0 ? 1 : static_cast<int64_t>(wanted);
  if (chunks * t.strips <= int64_t{std::numeric_limits<uint32_t>::max()}) {
    return build_with_keys<uint32_t>(std::move(t), cols, nnz, entry_row, entry_col, entry_value, caller_position,
                                     min_entries, min_share, stream);
  }
  return build_with_keys<unsigned long long>(std::move(t), cols, nnz, entry_row, entry_col, entry_value,
                                             caller_position, min_entries, min_share, stream);
}

#define SDDMM_INSTANTIATE_TILES(V, I)                                                                                   \
  template TensorTiles<V, I> build_tensor_tiles<V, I>(int64_t, int64_t, int64_t, const DeviceArray<I>&,                 \
                                                      const DeviceArray<I>&, const DeviceArray<V>&, const DeviceArray<I>&, \
                                                      double, double, cudaStream_t);
SDDMM_INSTANTIATE_TILES(float, int32_t)
SDDMM_INSTANTIATE_TILES(float, int64_t)
SDDMM_INSTANTIATE_TILES(__half, int32_t)
SDDMM_INSTANTIATE_TILES(__half, int64_t)
SDDMM_INSTANTIATE_TILES(__nv_bfloat16, int32_t)
SDDMM_INSTANTIATE_TILES(__nv_bfloat16, int64_t)
#undef SDDMM_INSTANTIATE_TILES

}  // namespace sddmm::cuda
