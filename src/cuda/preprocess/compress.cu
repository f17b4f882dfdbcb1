// Plan creation on the GPU: validate, convert indices to the plan's index type, stable radix sort by
// row (skipped when the caller's entries are already in row order) and by column, offsets from the
// sorted keys, and the permutation that returns SDDMM results in the caller's entry order.
#include <cub/device/device_radix_sort.cuh>

#include <type_traits>

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

template <typename I>
DeviceArray<I> to_plan_index(const void* in, sddmm_index_type_t type, int64_t n, cudaStream_t stream) {
  return type == SDDMM_INDEX_INT64 ? converted<int64_t, I>(in, n, stream) : converted<int32_t, I>(in, n, stream);
}

template <typename T>
DeviceArray<T> copy_values(const void* values, int64_t n, cudaStream_t stream) {
  DeviceArray<T> out(values != nullptr ? n : 0);
  if (!out.empty()) {
    check(cudaMemcpyAsync(out.get(), values, static_cast<size_t>(n) * sizeof(T), cudaMemcpyDeviceToDevice, stream), "cudaMemcpyAsync (values)");
  }
  return out;
}

int end_bit_for(int64_t outer) {
  int bits = 1;
  while (bits < 63 && (int64_t{1} << bits) < outer) ++bits;
  return bits;
}

// Stable radix sort of (key, position) pairs; keys are non-negative and < outer.
template <typename I>
void sort_by_key(const I* keys_in, I* keys_out, I* positions_out, int64_t n, int64_t outer, cudaStream_t stream) {
  using U = std::make_unsigned_t<I>;
  DeviceArray<I> positions(n);
  iota_kernel<<<preprocess_blocks(n), kPreprocessThreads, 0, stream>>>(positions.get(), n);
  check_launch("iota_kernel");
  const auto* k_in = reinterpret_cast<const U*>(keys_in);
  auto* k_out = reinterpret_cast<U*>(keys_out);
  size_t temp_bytes = 0;
  check(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, k_in, k_out, positions.get(), positions_out, n, 0, end_bit_for(outer), stream),
        "cub::DeviceRadixSort::SortPairs (size)");
  DeviceArray<unsigned char> temp(static_cast<int64_t>(temp_bytes));
  check(cub::DeviceRadixSort::SortPairs(temp.get(), temp_bytes, k_in, k_out, positions.get(), positions_out, n, 0, end_bit_for(outer), stream),
        "cub::DeviceRadixSort::SortPairs");
}

template <typename I>
DeviceArray<int64_t> offsets_from_sorted(const I* keys, int64_t n, int64_t outer, cudaStream_t stream) {
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

// mma.sync with float16/bfloat16 inputs and float32 sums needs compute capability 8.0.
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
    p.row_offsets = info.rows > 0 ? to_plan_index<int64_t>(input.rows, input.index_type, info.rows + 1, stream)
                                  : DeviceArray<int64_t>(1);
    if (info.rows == 0) check(cudaMemsetAsync(p.row_offsets.get(), 0, sizeof(int64_t), stream), "cudaMemsetAsync");
    p.entry_row = DeviceArray<I>(nnz);
    if (nnz > 0) {
      rows_from_offsets_kernel<<<preprocess_blocks(nnz), kPreprocessThreads, 0, stream>>>(p.row_offsets.get(), info.rows, nnz, p.entry_row.get());
      check_launch("rows_from_offsets_kernel");
    }
    p.entry_col = to_plan_index<I>(input.cols, input.index_type, nnz, stream);
    p.entry_value = copy_values<T>(values, nnz, stream);
  } else if (is_sorted(input.rows, input.index_type == SDDMM_INDEX_INT64, nnz, stream)) {
    p.entry_row = to_plan_index<I>(input.rows, input.index_type, nnz, stream);
    p.entry_col = to_plan_index<I>(input.cols, input.index_type, nnz, stream);
    p.entry_value = copy_values<T>(values, nnz, stream);
    p.row_offsets = offsets_from_sorted(p.entry_row.get(), nnz, info.rows, stream);
  } else {
    const DeviceArray<I> caller_row = to_plan_index<I>(input.rows, input.index_type, nnz, stream);
    const DeviceArray<I> caller_col = to_plan_index<I>(input.cols, input.index_type, nnz, stream);
    p.entry_row = DeviceArray<I>(nnz);
    p.caller_position = DeviceArray<I>(nnz);
    sort_by_key(caller_row.get(), p.entry_row.get(), p.caller_position.get(), nnz, info.rows, stream);
    p.entry_col = DeviceArray<I>(nnz);
    p.entry_value = DeviceArray<T>(values != nullptr ? nnz : 0);
    gather_kernel<<<preprocess_blocks(nnz), kPreprocessThreads, 0, stream>>>(p.caller_position.get(), caller_col.get(), p.entry_col.get(),
                                                           values, p.entry_value.get(), nnz);
    check_launch("gather_kernel");
    p.row_offsets = offsets_from_sorted(p.entry_row.get(), nnz, info.rows, stream);
  }

  // Column-ordered entries (CSC), from the row-ordered ones: a stable sort by column keeps row
  // order within a column, so transposed SpMM sums in a fixed order.
  DeviceArray<I> csc_col(nnz);
  DeviceArray<I> csc_position(nnz);
  p.csc_row = DeviceArray<I>(nnz);
  p.csc_value = DeviceArray<T>(p.entry_value.empty() ? 0 : nnz);
  if (nnz > 0) {
    sort_by_key(p.entry_col.get(), csc_col.get(), csc_position.get(), nnz, info.cols, stream);
    gather_kernel<<<preprocess_blocks(nnz), kPreprocessThreads, 0, stream>>>(csc_position.get(), p.entry_row.get(), p.csc_row.get(),
                                                           p.entry_value.get(), p.csc_value.get(), nnz);
    check_launch("gather_kernel (csc)");
  }
  p.col_offsets = offsets_from_sorted(csc_col.get(), nnz, info.cols, stream);

  p.heavy_threshold = spmm_heavy_row_entries();
  p.entries_per_slice = spmm_entries_per_slice();
  p.resident_blocks = resident_blocks(info.device_id);
  p.row_split = split_by_length<I>(p.row_offsets, info.rows, nnz, p.heavy_threshold, stream);
  p.col_split = split_by_length<I>(p.col_offsets, info.cols, nnz, p.heavy_threshold, stream);
  if constexpr (std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>) {
    if (has_tensor_cores(info.device_id)) {
      p.tiles = build_tensor_tiles<T, I>(info.rows, info.cols, nnz, p.row_offsets, p.entry_row, p.entry_col, p.entry_value,
                                         p.caller_position, tensor_core_min_density(), stream);
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
