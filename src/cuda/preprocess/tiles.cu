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
#include <vector>

#include "cuda/preprocess/launch.cuh"
#include "cuda/tiles.cuh"

namespace sddmm::cuda {
namespace {

template <typename I>
__global__ void unit_keys_kernel(const I* entry_row, const I* entry_col, int64_t nnz, int64_t strips,
                                 unsigned long long* keys, I* ids) {
  SDDMM_GRID_STRIDE(e, nnz) {
    const int64_t chunk = static_cast<int64_t>(entry_col[e]) / kUnitCols;
    keys[e] = static_cast<unsigned long long>(chunk * strips + static_cast<int64_t>(entry_row[e]) / kUnitRows);
    ids[e] = static_cast<I>(e);
  }
}

struct DenseRun {
  const int64_t* counts;
  int64_t min_entries;
  __device__ bool operator()(int64_t run) const { return counts[run] >= min_entries; }
};

// Key, entry count and first sorted position of each dense run.
__global__ void gather_dense_kernel(const int64_t* dense_runs, int64_t dense, const unsigned long long* run_keys,
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

// Runs a CUB two-phase call (size query, then the work) with a temporary allocation.
template <typename Call>
void cub_call(Call&& call, const char* what) {
  size_t bytes = 0;
  check(call(nullptr, bytes), what);
  DeviceArray<unsigned char> temp(static_cast<int64_t>(bytes));
  check(call(temp.get(), bytes), what);
}

template <typename T>
std::vector<T> to_host(const DeviceArray<T>& a, cudaStream_t stream) {
  std::vector<T> h(static_cast<size_t>(a.size()));
  if (!h.empty()) {
    check(cudaMemcpyAsync(h.data(), a.get(), h.size() * sizeof(T), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
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

int significant_bits(int64_t bound) {
  int bits = 1;
  while (bits < 63 && (int64_t{1} << bits) < bound) ++bits;
  return bits;
}

}  // namespace

template <typename V, typename I>
TensorTiles<V, I> build_tensor_tiles(int64_t rows, int64_t cols, int64_t nnz, const DeviceArray<I>& entry_row,
                                     const DeviceArray<I>& entry_col, const DeviceArray<V>& entry_value,
                                     const DeviceArray<I>& caller_position, double min_density, cudaStream_t stream) {
  TensorTiles<V, I> t;
  if (nnz == 0 || rows == 0 || cols == 0 || min_density > 1.0) return t;
  t.strips = (rows + kUnitRows - 1) / kUnitRows;
  const int64_t chunks = (cols + kUnitCols - 1) / kUnitCols;
  const double wanted = std::ceil(min_density * kUnitRows * kUnitCols);
  const int64_t min_entries = wanted < 1.0 ? 1 : static_cast<int64_t>(wanted);

  // Entries sorted by unit, then the units counted.
  DeviceArray<unsigned long long> sorted_keys(nnz);
  DeviceArray<I> sorted_ids(nnz);
  {
    DeviceArray<unsigned long long> keys(nnz);
    DeviceArray<I> ids(nnz);
    unit_keys_kernel<<<preprocess_blocks(nnz), kPreprocessThreads, 0, stream>>>(entry_row.get(), entry_col.get(), nnz, t.strips,
                                                                             keys.get(), ids.get());
    check_launch("unit_keys_kernel");
    const int end_bit = significant_bits(chunks * t.strips);
    cub_call([&](void* temp, size_t& bytes) {
      return cub::DeviceRadixSort::SortPairs(temp, bytes, keys.get(), sorted_keys.get(), ids.get(), sorted_ids.get(), nnz, 0,
                                             end_bit, stream);
    }, "cub::DeviceRadixSort::SortPairs (units)");
  }
  DeviceArray<unsigned long long> run_keys(nnz);
  DeviceArray<int64_t> run_counts(nnz);
  DeviceArray<int64_t> d_runs(1);
  cub_call([&](void* temp, size_t& bytes) {
    return cub::DeviceRunLengthEncode::Encode(temp, bytes, sorted_keys.get(), run_keys.get(), run_counts.get(), d_runs.get(),
                                              nnz, stream);
  }, "cub::DeviceRunLengthEncode::Encode");
  sorted_keys = DeviceArray<unsigned long long>();
  const int64_t runs = to_host(d_runs, stream)[0];
  DeviceArray<int64_t> run_begin(runs);
  cub_call([&](void* temp, size_t& bytes) {
    return cub::DeviceScan::ExclusiveSum(temp, bytes, run_counts.get(), run_begin.get(), runs, stream);
  }, "cub::DeviceScan::ExclusiveSum (units)");

  // The dense units, in (chunk, strip) order.
  DeviceArray<int64_t> dense_runs(runs);
  DeviceArray<int64_t> d_dense(1);
  cub_call([&](void* temp, size_t& bytes) {
    return cub::DeviceSelect::If(temp, bytes, thrust::counting_iterator<int64_t>(0), dense_runs.get(), d_dense.get(), runs,
                                 DenseRun{run_counts.get(), min_entries}, stream);
  }, "cub::DeviceSelect::If (dense units)");
  const int64_t dense = to_host(d_dense, stream)[0];
  if (dense == 0) return t;
  DeviceArray<int64_t> key(dense), count(dense), source(dense);
  gather_dense_kernel<<<preprocess_blocks(dense), kPreprocessThreads, 0, stream>>>(
      dense_runs.get(), dense, run_keys.get(), run_counts.get(), run_begin.get(), key.get(), count.get(), source.get());
  check_launch("gather_dense_kernel");

  // Work items on the host: a new item at each new chunk and after kUnitsPerItem units.
  const std::vector<int64_t> h_key = to_host(key, stream);
  const std::vector<int64_t> h_count = to_host(count, stream);
  std::vector<int64_t> unit_entries(static_cast<size_t>(dense) + 1, 0);
  std::vector<int64_t> item_units;
  for (int64_t d = 0; d < dense; ++d) {
    const size_t i = static_cast<size_t>(d);
    unit_entries[i + 1] = unit_entries[i] + h_count[i];
    const bool new_chunk = d == 0 || h_key[i] / t.strips != h_key[i - 1] / t.strips;
    if (new_chunk || d - item_units.back() == kUnitsPerItem) item_units.push_back(d);
  }
  item_units.push_back(dense);
  t.entries = unit_entries.back();
  t.items = static_cast<int64_t>(item_units.size()) - 1;
  t.unit_key = std::move(key);
  t.unit_entries = to_device(unit_entries, stream);
  t.item_units = to_device(item_units, stream);

  // The dense units' entries, unit by unit; the rest in plan order.
  t.out_position = DeviceArray<I>(t.entries);
  t.local = DeviceArray<uint16_t>(t.entries);
  t.value = DeviceArray<V>(entry_value.empty() ? 0 : t.entries);
  DeviceArray<uint8_t> on_tensor_cores(nnz);
  check(cudaMemsetAsync(on_tensor_cores.get(), 0, static_cast<size_t>(nnz), stream), "cudaMemsetAsync");
  const int blocks = static_cast<int>(dense < 65535 * 8 ? dense : 65535 * 8);
  fill_units_kernel<<<blocks, kPreprocessThreads, 0, stream>>>(
      dense, source.get(), t.unit_entries.get(), sorted_ids.get(), entry_row.get(), entry_col.get(), entry_value.get(),
      caller_position.get(), t.out_position.get(), t.local.get(), t.value.get(), on_tensor_cores.get());
  check_launch("fill_units_kernel");
  t.cuda_core_entries = DeviceArray<I>(nnz - t.entries);
  DeviceArray<int64_t> d_rest(1);
  cub_call([&](void* temp, size_t& bytes) {
    return cub::DeviceSelect::If(temp, bytes, thrust::counting_iterator<I>(0), t.cuda_core_entries.get(), d_rest.get(), nnz,
                                 OnCudaCores{on_tensor_cores.get()}, stream);
  }, "cub::DeviceSelect::If (CUDA-core entries)");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (tensor-core units)");
  return t;
}

#define SDDMM_INSTANTIATE_TILES(V, I)                                                                                   \
  template TensorTiles<V, I> build_tensor_tiles<V, I>(int64_t, int64_t, int64_t, const DeviceArray<I>&,                 \
                                                      const DeviceArray<I>&, const DeviceArray<V>&, const DeviceArray<I>&, \
                                                      double, cudaStream_t);
SDDMM_INSTANTIATE_TILES(float, int32_t)
SDDMM_INSTANTIATE_TILES(float, int64_t)
SDDMM_INSTANTIATE_TILES(__half, int32_t)
SDDMM_INSTANTIATE_TILES(__half, int64_t)
SDDMM_INSTANTIATE_TILES(__nv_bfloat16, int32_t)
SDDMM_INSTANTIATE_TILES(__nv_bfloat16, int64_t)
#undef SDDMM_INSTANTIATE_TILES

}  // namespace sddmm::cuda
