// Plan creation on the GPU: validate, convert indices to the plan's index type, stable radix sort by
// row (skipped when the caller's entries are already in row order) and by column, offsets from the
// sorted keys, and the permutation that returns SDDMM results in the caller's entry order.
//
// Device memory at the peak of creation, per entry, besides the caller's arrays (i: bytes of a plan
// index, 4 or 8; k: bytes of a sort key; v: bytes of a value, 0 without values). The peak is the
// column sort: the row-ordered entries (2i + v; + i for caller_position when the caller's entries
// were not in row order), a copy of the column keys when they are narrower than plan indices (k),
// and the sort: keys out and CUB's third copy of them (2k), positions in, out and CUB's copy (3i).
// Sort keys are 32-bit whenever the dimension sorted by fits int32, also in int64 plans: nnz >= 2^31
// needs 64-bit positions, not 64-bit keys. And the CSC arrays are allocated only once the sort's
// keys are freed. So:
//   int32 plan (i = k = 4):                  2i + v + 2k + 3i = 28 + v bytes per entry
//   int64 plan, dimension < 2^31 (k = 4):    2i + v + k + 2k + 3i = 52 + v
//   int64 plan, dimension >= 2^31 (k = 8):   2i + v + 2k + 3i = 56 + v
// (It was 8i + 2v, with 64-bit keys in int64 plans and the CSC arrays allocated before the sort: for
// the 2^31 + 2^20 entries of tests/huge, CSR without values, plus the caller's 8-byte col_idx, that
// was 72 x 2.15e9 = 155 GB, more than an H200 holds; it is now 60 x 2.15e9 = 129 GB.)
#include <cub/device/device_radix_sort.cuh>

#include <limits>
#include <type_traits>
#include <utility>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "cuda/pattern.cuh"
#include "cuda/preprocess/launch.cuh"
#include "cuda/preprocess/sorted.cuh"
#include "cuda/tuning.hpp"

namespace sddmm::cuda {
namespace {


template <typename In, typename I>
__global__ void convert_kernel(const In* in, I* out, int64_t n) {
  SDDMM_GRID_STRIDE(i, n) out[i] = static_cast<I>(in[i]);
}

template <typename I>
__global__ void iota_kernel(I* out, int64_t n) {
  SDDMM_GRID_STRIDE(i, n) out[i] = static_cast<I>(i);
}

template <typename I>
__global__ void flag_descent_kernel(const I* keys, int64_t n, int* descended) {
  SDDMM_GRID_STRIDE(i, n) {
    if (i > 0 && keys[i] < keys[i - 1]) *descended = 1;
  }
}

// dst_index[i] = src_index[perm[i]], dst_value[i] = src_value[perm[i]] (value optional).
template <typename T, typename I>
__global__ void gather_kernel(const I* perm, const I* src_index, I* dst_index, const T* src_value, T* dst_value, int64_t n) {
  SDDMM_GRID_STRIDE(i, n) {
    const I from = perm[i];
    dst_index[i] = src_index[from];
    if (dst_value != nullptr) dst_value[i] = src_value[from];
  }
}

// Row of every entry of a CSR matrix, by binary search in the offsets.
template <typename I>
__global__ void rows_from_offsets_kernel(const int64_t* offsets, int64_t rows, int64_t nnz, I* entry_row) {
  SDDMM_GRID_STRIDE(e, nnz) {
    int64_t lo = 0, hi = rows;  // find the last r with offsets[r] <= e
    while (hi - lo > 1) {
      const int64_t mid = (lo + hi) / 2;
      if (offsets[mid] <= e) lo = mid; else hi = mid;
    }
    entry_row[e] = static_cast<I>(lo);
  }
}

template <typename In, typename I>
DeviceArray<I> converted(const void* in, int64_t n, cudaStream_t stream) {
  DeviceArray<I> out(n);
  if (n > 0) {
    convert_kernel<<<preprocess_blocks(n), kPreprocessThreads, 0, stream>>>(static_cast<const In*>(in), out.get(), n);
    check_launch("convert_kernel");
  }
  return out;
}

// The caller's indices (int32 or int64) as an array of J: a plan index type or a sort key type.
template <typename J>
DeviceArray<J> to_index(const void* in, sddmm_index_type_t type, int64_t n, cudaStream_t stream) {
  return type == SDDMM_INDEX_INT64 ? converted<int64_t, J>(in, n, stream) : converted<int32_t, J>(in, n, stream);
}

// Sorted keys as an array of the plan's index type I: the same array when K is I; else a converted
// copy, and the keys are freed on return.
template <typename I, typename K>
DeviceArray<I> widened(DeviceArray<K> keys, cudaStream_t stream) {
  if constexpr (std::is_same_v<K, I>) {
    return keys;
  } else {
    return converted<K, I>(keys.get(), keys.size(), stream);
  }
}

template <typename T>
DeviceArray<T> copy_values(const void* values, int64_t n, cudaStream_t stream) {
  DeviceArray<T> out(values != nullptr ? n : 0);
  if (!out.empty()) {
    check(cudaMemcpyAsync(out.get(), values, static_cast<size_t>(n) * sizeof(T), cudaMemcpyDeviceToDevice, stream), "cudaMemcpyAsync (values)");
  }
  return out;
}

// Keys in ascending order with the position each stood at before the sort.
template <typename K, typename I>
struct SortedByKey {
  DeviceArray<K> keys;       // (n)
  DeviceArray<I> positions;  // (n)
};

// Stable radix sort of n keys in [0, outer) with their positions. CUB's copying mode leaves keys_in
// as it is (it may be a plan array) and holds a third copy of keys and positions in its temporary
// storage; the input positions and that storage are freed on return.
template <typename K, typename I>
SortedByKey<K, I> sort_by_key(const K* keys_in, int64_t n, int64_t outer, cudaStream_t stream) {
  using U = std::make_unsigned_t<K>;
  SortedByKey<K, I> sorted{DeviceArray<K>(n), DeviceArray<I>(n)};
  DeviceArray<I> positions(n);
  iota_kernel<<<preprocess_blocks(n), kPreprocessThreads, 0, stream>>>(positions.get(), n);
  check_launch("iota_kernel");
  const auto* k_in = reinterpret_cast<const U*>(keys_in);
  auto* k_out = reinterpret_cast<U*>(sorted.keys.get());
  I* p_out = sorted.positions.get();
  const int end_bit = significant_bits(outer);
  size_t temp_bytes = 0;
  check(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, k_in, k_out, positions.get(), p_out, n, 0, end_bit, stream),
        "cub::DeviceRadixSort::SortPairs (size)");
  DeviceArray<unsigned char> temp(static_cast<int64_t>(temp_bytes));
  check(cub::DeviceRadixSort::SortPairs(temp.get(), temp_bytes, k_in, k_out, positions.get(), p_out, n, 0, end_bit, stream),
        "cub::DeviceRadixSort::SortPairs");
  return sorted;  // cudaFree of `positions` and `temp` waits for the sort
}

// Sort keys are int32 when the dimension sorted by fits, whatever the plan's index type (see the
// memory note at the top); an int32 plan's keys are int32 anyway.
bool fits_int32(int64_t outer) { return outer <= std::numeric_limits<int32_t>::max(); }

template <typename K>
DeviceArray<int64_t> offsets_from_sorted(const K* keys, int64_t n, int64_t outer, cudaStream_t stream) {
  DeviceArray<int64_t> offsets(outer + 1);
  offsets_from_sorted_kernel<<<preprocess_blocks(outer + 1), kPreprocessThreads, 0, stream>>>(keys, n, outer, offsets.get());
  check_launch("offsets_from_sorted_kernel");
  return offsets;
}

bool is_sorted(const void* keys, bool wide, int64_t n, cudaStream_t stream) {
  DeviceArray<int> d_flag(1);
  check(cudaMemsetAsync(d_flag.get(), 0, sizeof(int), stream), "cudaMemsetAsync");
  if (wide) {
    flag_descent_kernel<<<preprocess_blocks(n), kPreprocessThreads, 0, stream>>>(static_cast<const int64_t*>(keys), n, d_flag.get());
  } else {
    flag_descent_kernel<<<preprocess_blocks(n), kPreprocessThreads, 0, stream>>>(static_cast<const int32_t*>(keys), n, d_flag.get());
  }
  check_launch("flag_descent_kernel");
  int flag = 0;
  check(cudaMemcpyAsync(&flag, d_flag.get(), sizeof(int), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return flag == 0;
}

// Blocks of 256 threads that the device runs at once: multiprocessors x (threads per SM / 256).
int resident_blocks(int device) {
  int sms = 0, threads = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  check(cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, device), "cudaDeviceGetAttribute");
  return sms * (threads / 256 > 0 ? threads / 256 : 1);
}

// Row-ordered entries from COO entries that are not in row order: a stable sort by row, then
// columns and values gathered into that order; the sort's positions are kept to return SDDMM
// results in the caller's order.
template <typename K, typename T, typename I>
void sort_rows(DevicePattern<T, I>& p, const SparseInput& input, const T* values, cudaStream_t stream) {
  const int64_t nnz = p.nnz;
  SortedByKey<K, I> by_row;
  {
    const DeviceArray<K> caller_row = to_index<K>(input.rows, input.index_type, nnz, stream);
    by_row = sort_by_key<K, I>(caller_row.get(), nnz, p.rows, stream);
  }
  p.row_offsets = offsets_from_sorted(by_row.keys.get(), nnz, p.rows, stream);
  p.entry_row = widened<I>(std::move(by_row.keys), stream);
  p.caller_position = std::move(by_row.positions);
  const DeviceArray<I> caller_col = to_index<I>(input.cols, input.index_type, nnz, stream);
  p.entry_col = DeviceArray<I>(nnz);
  p.entry_value = DeviceArray<T>(values != nullptr ? nnz : 0);
  gather_kernel<<<preprocess_blocks(nnz), kPreprocessThreads, 0, stream>>>(
      p.caller_position.get(), caller_col.get(), p.entry_col.get(), values, p.entry_value.get(), nnz);
  check_launch("gather_kernel");
}

// Column-ordered entries (CSC), from the row-ordered ones: a stable sort by column keeps row order
// within a column, so transposed SpMM sums in a fixed order. The sorted keys are freed, once the
// offsets are read from them, before the CSC arrays are allocated.
template <typename K, typename T, typename I>
void build_csc(DevicePattern<T, I>& p, cudaStream_t stream) {
  const int64_t nnz = p.nnz;
  SortedByKey<K, I> by_col;
  if (nnz > 0) {
    DeviceArray<K> narrowed;  // the column keys, when narrower than the plan's indices
    const K* keys = nullptr;
    if constexpr (std::is_same_v<K, I>) {
      keys = p.entry_col.get();
    } else {
      narrowed = converted<I, K>(p.entry_col.get(), nnz, stream);
      keys = narrowed.get();
    }
    by_col = sort_by_key<K, I>(keys, nnz, p.cols, stream);
  }
  p.col_offsets = offsets_from_sorted(by_col.keys.get(), nnz, p.cols, stream);
  by_col.keys = DeviceArray<K>();
  p.csc_row = DeviceArray<I>(nnz);
  p.csc_value = DeviceArray<T>(p.entry_value.empty() ? 0 : nnz);
  if (nnz > 0) {
    gather_kernel<<<preprocess_blocks(nnz), kPreprocessThreads, 0, stream>>>(
        by_col.positions.get(), p.entry_row.get(), p.csc_row.get(), p.entry_value.get(), p.csc_value.get(), nnz);
    check_launch("gather_kernel (csc)");
  }
}

// Which plans list dense units for the tensor-core SDDMM: float16/bfloat16 ones, and float32 ones
// (TF32 arithmetic when allowed, else the float32-accurate split: sddmm_config.cuh) unless
// float32_tensor_cores() is off. float64 has no tensor-core path.
template <typename T>
bool lists_tensor_core_units(bool allow_tf32) {
  if constexpr (std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>) return true;
  if constexpr (std::is_same_v<T, float>) return allow_tf32 || float32_tensor_cores();
  return false;
}

// mma.sync with float16/bfloat16/TF32 inputs and float32 sums needs compute capability 8.0.
bool has_tensor_cores(int device) {
  int major = 0;
  check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "cudaDeviceGetAttribute");
  return major >= 8;
}

}  // namespace

template <typename T, typename I>
DevicePattern<T, I> build_device_pattern(const MatrixInfo& info, const SparseInput& input, cudaStream_t stream) {
  const int64_t nnz = info.nnz;
  const bool csr = input.format == SparseInput::Format::kCsr;
  if (csr) {
    validate_row_offsets(input.rows, input.index_type, info.rows, nnz, stream);
  } else {
    validate_indices(input.rows, input.index_type, nnz, info.rows, "row_idx", stream);
  }
  validate_indices(input.cols, input.index_type, nnz, info.cols, "col_idx", stream);

  DevicePattern<T, I> p;
  p.rows = info.rows;
  p.cols = info.cols;
  p.nnz = nnz;
  const T* values = info.has_values ? static_cast<const T*>(input.values) : nullptr;

  // Row-ordered entries.
  if (csr) {
    p.row_offsets = info.rows > 0 ? to_index<int64_t>(input.rows, input.index_type, info.rows + 1, stream)
                                  : DeviceArray<int64_t>(1);
    if (info.rows == 0) check(cudaMemsetAsync(p.row_offsets.get(), 0, sizeof(int64_t), stream), "cudaMemsetAsync");
    p.entry_row = DeviceArray<I>(nnz);
    if (nnz > 0) {
      rows_from_offsets_kernel<<<preprocess_blocks(nnz), kPreprocessThreads, 0, stream>>>(p.row_offsets.get(), info.rows, nnz, p.entry_row.get());
      check_launch("rows_from_offsets_kernel");
    }
    p.entry_col = to_index<I>(input.cols, input.index_type, nnz, stream);
    p.entry_value = copy_values<T>(values, nnz, stream);
  } else if (is_sorted(input.rows, input.index_type == SDDMM_INDEX_INT64, nnz, stream)) {
    p.entry_row = to_index<I>(input.rows, input.index_type, nnz, stream);
    p.entry_col = to_index<I>(input.cols, input.index_type, nnz, stream);
    p.entry_value = copy_values<T>(values, nnz, stream);
    p.row_offsets = offsets_from_sorted(p.entry_row.get(), nnz, info.rows, stream);
  } else if (fits_int32(info.rows)) {
    sort_rows<int32_t>(p, input, values, stream);
  } else {
    sort_rows<I>(p, input, values, stream);
  }

  if (fits_int32(info.cols)) {
    build_csc<int32_t>(p, stream);
  } else {
    build_csc<I>(p, stream);
  }

  p.heavy_threshold = spmm_heavy_row_entries();
  p.entries_per_slice = spmm_entries_per_slice();
  p.resident_blocks = resident_blocks(info.device_id);
  p.row_split = split_by_length<I>(p.row_offsets, info.rows, nnz, p.heavy_threshold, stream);
  p.col_split = split_by_length<I>(p.col_offsets, info.cols, nnz, p.heavy_threshold, stream);
  p.allow_tf32 = (info.flags & SDDMM_CREATE_ALLOW_TF32) != 0;
  if (lists_tensor_core_units<T>(p.allow_tf32) && has_tensor_cores(info.device_id)) {
    const double min_density = std::is_same_v<T, float> ? tensor_core_min_density_float32() : tensor_core_min_density();
    // The units are an optimisation: when listing them finds no memory (their temporaries take
    // about 60 bytes per entry), the plan goes without and every entry stays on the CUDA cores.
    try {
      p.tiles = build_tensor_tiles<T, I>(info.rows, info.cols, nnz, p.entry_row, p.entry_col, p.entry_value,
                                         p.caller_position, min_density, tensor_core_min_share(), stream);
    } catch (const Error& e) {
      if (e.status() != SDDMM_STATUS_OUT_OF_MEMORY) throw;
      p.tiles = TensorTiles<T, I>();
    }
  }
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (plan creation)");
  return p;
}

template DevicePattern<float, int32_t> build_device_pattern<float, int32_t>(const MatrixInfo&, const SparseInput&, cudaStream_t);
template DevicePattern<float, int64_t> build_device_pattern<float, int64_t>(const MatrixInfo&, const SparseInput&, cudaStream_t);
template DevicePattern<double, int32_t> build_device_pattern<double, int32_t>(const MatrixInfo&, const SparseInput&, cudaStream_t);
template DevicePattern<double, int64_t> build_device_pattern<double, int64_t>(const MatrixInfo&, const SparseInput&, cudaStream_t);
template DevicePattern<__half, int32_t> build_device_pattern<__half, int32_t>(const MatrixInfo&, const SparseInput&, cudaStream_t);
template DevicePattern<__half, int64_t> build_device_pattern<__half, int64_t>(const MatrixInfo&, const SparseInput&, cudaStream_t);
template DevicePattern<__nv_bfloat16, int32_t> build_device_pattern<__nv_bfloat16, int32_t>(const MatrixInfo&, const SparseInput&,
                                                                                         cudaStream_t);
template DevicePattern<__nv_bfloat16, int64_t> build_device_pattern<__nv_bfloat16, int64_t>(const MatrixInfo&, const SparseInput&,
                                                                                         cudaStream_t);

}  // namespace sddmm::cuda
