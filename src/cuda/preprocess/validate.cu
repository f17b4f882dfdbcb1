// Pattern validation on the GPU: one pass finds the first bad position with an atomic minimum (the
// result is the same whatever the thread order), then only that entry is copied back for the message.
#include <limits>

#include "cuda/pattern.cuh"
#include "cuda/preprocess/launch.cuh"

namespace sddmm::cuda {
namespace {

constexpr unsigned long long kNone = std::numeric_limits<unsigned long long>::max();

template <typename In>
__global__ void first_out_of_range_kernel(const In* indices, int64_t n, int64_t bound, unsigned long long* first) {
  SDDMM_GRID_STRIDE(p, n) {
    const int64_t v = indices[p];
    if (v < 0 || v >= bound) atomicMin(first, static_cast<unsigned long long>(p));
  }
}

// Position q in [0, rows] is bad when offsets[0] != 0, offsets[q] < offsets[q-1], offsets[q] > nnz,
// or q == rows and offsets[rows] != nnz.
template <typename In>
__global__ void first_bad_offset_kernel(const In* offsets, int64_t rows, int64_t nnz, unsigned long long* first) {
  SDDMM_GRID_STRIDE(q, rows + 1) {
    const int64_t o = offsets[q];
    const bool bad = (q == 0 && o != 0) || (q > 0 && (o < static_cast<int64_t>(offsets[q - 1]) || o > nnz)) ||
                     (q == rows && o != nnz);
    if (bad) atomicMin(first, static_cast<unsigned long long>(q));
  }
}

int64_t read_index(const void* array, sddmm_index_type_t type, int64_t i, cudaStream_t stream) {
  int64_t v64 = 0;
  int32_t v32 = 0;
  const bool wide = type == SDDMM_INDEX_INT64;
  const char* src = static_cast<const char*>(array) + i * (wide ? 8 : 4);
  check(cudaMemcpyAsync(wide ? static_cast<void*>(&v64) : static_cast<void*>(&v32), src, wide ? 8 : 4,
                        cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync (validation)");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (validation)");
  return wide ? v64 : v32;
}

unsigned long long read_first(const DeviceArray<unsigned long long>& d_first, cudaStream_t stream) {
  unsigned long long first = kNone;
  check(cudaMemcpyAsync(&first, d_first.get(), sizeof(first), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync (validation)");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (validation)");
  return first;
}

}  // namespace

void validate_indices(const void* indices, sddmm_index_type_t type, int64_t n, int64_t bound, const char* name,
                      cudaStream_t stream) {
  if (n == 0) return;
  DeviceArray<unsigned long long> d_first(1);
  check(cudaMemsetAsync(d_first.get(), 0xFF, sizeof(unsigned long long), stream), "cudaMemsetAsync");
  if (type == SDDMM_INDEX_INT64) {
    first_out_of_range_kernel<<<preprocess_blocks(n), kPreprocessThreads, 0, stream>>>(static_cast<const int64_t*>(indices), n, bound, d_first.get());
  } else {
    first_out_of_range_kernel<<<preprocess_blocks(n), kPreprocessThreads, 0, stream>>>(static_cast<const int32_t*>(indices), n, bound, d_first.get());
  }
  check_launch("first_out_of_range_kernel");
  const unsigned long long first = read_first(d_first, stream);
  if (first == kNone) return;
  const auto p = static_cast<int64_t>(first);
  fail(SDDMM_STATUS_INDEX_OUT_OF_RANGE, name, "[", p, "] = ", read_index(indices, type, p, stream), " is out of range [0, ", bound, ")");
}

void validate_row_offsets(const void* offsets, sddmm_index_type_t type, int64_t rows, int64_t nnz, cudaStream_t stream) {
  if (rows == 0 && offsets == nullptr) {
    if (nnz != 0) fail(SDDMM_STATUS_INDEX_OUT_OF_RANGE, "row_offsets is empty (rows = 0) but nnz = ", nnz);
    return;
  }
  DeviceArray<unsigned long long> d_first(1);
  check(cudaMemsetAsync(d_first.get(), 0xFF, sizeof(unsigned long long), stream), "cudaMemsetAsync");
  if (type == SDDMM_INDEX_INT64) {
    first_bad_offset_kernel<<<preprocess_blocks(rows + 1), kPreprocessThreads, 0, stream>>>(static_cast<const int64_t*>(offsets), rows, nnz, d_first.get());
  } else {
    first_bad_offset_kernel<<<preprocess_blocks(rows + 1), kPreprocessThreads, 0, stream>>>(static_cast<const int32_t*>(offsets), rows, nnz, d_first.get());
  }
  check_launch("first_bad_offset_kernel");
  const unsigned long long first = read_first(d_first, stream);
  if (first == kNone) return;
  // Same messages, in the same precedence, as the CPU backend.
  const auto q = static_cast<int64_t>(first);
  const int64_t hi = read_index(offsets, type, q, stream);
  if (q == 0) fail(SDDMM_STATUS_INDEX_OUT_OF_RANGE, "row_offsets[0] = ", hi, " must be 0");
  const int64_t lo = read_index(offsets, type, q - 1, stream);
  if (hi < lo) fail(SDDMM_STATUS_INDEX_OUT_OF_RANGE, "row_offsets[", q, "] = ", hi, " is less than row_offsets[", q - 1, "] = ", lo);
  if (hi > nnz) fail(SDDMM_STATUS_INDEX_OUT_OF_RANGE, "row_offsets[", q, "] = ", hi, " exceeds nnz = ", nnz);
  fail(SDDMM_STATUS_INDEX_OUT_OF_RANGE, "row_offsets[", rows, "] = ", hi, " must equal nnz = ", nnz);
}

}  // namespace sddmm::cuda
