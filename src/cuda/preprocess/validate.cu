// Pattern validation on the GPU: one pass per array finds the first bad position with an atomic
// minimum (the result is the same whatever the thread order), and whether COO rows are already in
// order, into three flags in a block of the creation pool; one read-back takes all three, then only
// a bad entry is copied back for the message.
#include <limits>

#include "cuda/pattern.cuh"
#include "cuda/preprocess/launch.cuh"

namespace sddmm::cuda {
namespace {

constexpr unsigned long long kNone = std::numeric_limits<unsigned long long>::max();

template <typename In>
__global__ void first_out_of_range_kernel(const In* indices, int64_t n, int64_t bound, unsigned long long* first) {
  batched_loop(
      n, [&](int64_t p) { return static_cast<int64_t>(indices[p]); },
      [&](int64_t p, int64_t v) {
        if (v < 0 || v >= bound) atomicMin(first, static_cast<unsigned long long>(p));
      });
}

// Position q in [0, rows] is bad when offsets[0] != 0, offsets[q] < offsets[q-1], offsets[q] > nnz,
// or q == rows and offsets[rows] != nnz.
template <typename In>
__global__ void first_bad_offset_kernel(const In* offsets, int64_t rows, int64_t nnz, unsigned long long* first) {
  struct Pair {
    int64_t before, at;  // offsets[q - 1] (0 at q = 0) and offsets[q]
  };
  batched_loop(
      rows + 1,
      [&](int64_t q) {
        return Pair{q > 0 ? static_cast<int64_t>(offsets[q - 1]) : 0, static_cast<int64_t>(offsets[q])};
      },
      [&](int64_t q, Pair o) {
        const bool bad =
            (q == 0 && o.at != 0) || (q > 0 && (o.at < o.before || o.at > nnz)) || (q == rows && o.at != nnz);
        if (bad) atomicMin(first, static_cast<unsigned long long>(q));
      });
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

// COO rows: the first out of range, as first_out_of_range_kernel, and in the same pass *in_order
// cleared when some row index is below the one before it (a plain store, not an atomic: a caller's
// reversed array would otherwise queue nnz atomics on one address).
template <typename In>
__global__ void check_rows_kernel(const In* rows, int64_t n, int64_t bound, unsigned long long* first,
                                  unsigned long long* in_order) {
  struct Pair {
    int64_t before, at;  // rows[p - 1] (rows[0] at p = 0) and rows[p]
  };
  batched_loop(
      n,
      [&](int64_t p) {
        return Pair{static_cast<int64_t>(rows[p > 0 ? p - 1 : 0]), static_cast<int64_t>(rows[p])};
      },
      [&](int64_t p, Pair v) {
        if (v.at < 0 || v.at >= bound) atomicMin(first, static_cast<unsigned long long>(p));
        if (v.at < v.before) *in_order = 0;
      });
}

[[noreturn]] void fail_index(const char* name, const void* indices, sddmm_index_type_t type, int64_t p, int64_t bound,
                             cudaStream_t stream) {
  fail(SDDMM_STATUS_INDEX_OUT_OF_RANGE, name, "[", p, "] = ", read_index(indices, type, p, stream), " is out of range [0, ", bound, ")");
}

// Same messages, in the same precedence, as the CPU backend.
[[noreturn]] void fail_offset(const void* offsets, sddmm_index_type_t type, int64_t q, int64_t rows, int64_t nnz,
                              cudaStream_t stream) {
  const int64_t hi = read_index(offsets, type, q, stream);
  if (q == 0) fail(SDDMM_STATUS_INDEX_OUT_OF_RANGE, "row_offsets[0] = ", hi, " must be 0");
  const int64_t lo = read_index(offsets, type, q - 1, stream);
  if (hi < lo) fail(SDDMM_STATUS_INDEX_OUT_OF_RANGE, "row_offsets[", q, "] = ", hi, " is less than row_offsets[", q - 1, "] = ", lo);
  if (hi > nnz) fail(SDDMM_STATUS_INDEX_OUT_OF_RANGE, "row_offsets[", q, "] = ", hi, " exceeds nnz = ", nnz);
  fail(SDDMM_STATUS_INDEX_OUT_OF_RANGE, "row_offsets[", rows, "] = ", hi, " must equal nnz = ", nnz);
}

// Whether there is anything to validate: not an empty CSR pattern given without offsets, nor an
// empty COO one.
bool needs_validation(const MatrixInfo& info, const SparseInput& input) {
  const bool csr = input.format == SparseInput::Format::kCsr;
  if (csr && info.rows == 0 && input.rows == nullptr) {
    if (info.nnz != 0) fail(SDDMM_STATUS_INDEX_OUT_OF_RANGE, "row_offsets is empty (rows = 0) but nnz = ", info.nnz);
    return false;
  }
  return csr || info.nnz != 0;
}

}  // namespace

void queue_validation(const MatrixInfo& info, const SparseInput& input, unsigned long long* flags, cudaStream_t stream) {
  if (!needs_validation(info, input)) return;
  const bool csr = input.format == SparseInput::Format::kCsr;
  const int64_t rows = info.rows, cols = info.cols, nnz = info.nnz;
  // flags[0]: first bad row index or offset; flags[1]: first bad column; flags[2]: kNone while the
  // COO rows are in order. All kNone on entry (the caller's memset, in stream order).
  if (csr) {
    launch_on_index_type(input.index_type, input.rows, rows + 1, [&](const auto* offsets, int blocks) {
      first_bad_offset_kernel<<<blocks, kPreprocessThreads, 0, stream>>>(offsets, rows, nnz, flags);
    });
    check_launch("first_bad_offset_kernel");
  } else {
    launch_on_index_type(input.index_type, input.rows, nnz, [&](const auto* row, int blocks) {
      check_rows_kernel<<<blocks, kPreprocessThreads, 0, stream>>>(row, nnz, rows, flags, flags + 2);
    });
    check_launch("check_rows_kernel");
  }
  if (nnz > 0) {
    launch_on_index_type(input.index_type, input.cols, nnz, [&](const auto* col, int blocks) {
      first_out_of_range_kernel<<<blocks, kPreprocessThreads, 0, stream>>>(col, nnz, cols, flags + 1);
    });
    check_launch("first_out_of_range_kernel");
  }
}

bool finish_validation(const MatrixInfo& info, const SparseInput& input, const unsigned long long* flags,
                       cudaStream_t stream) {
  if (!needs_validation(info, input)) return true;
  const bool csr = input.format == SparseInput::Format::kCsr;
  unsigned long long h[kValidationFlags] = {kNone, kNone, kNone};
  check(cudaMemcpyAsync(h, flags, sizeof(h), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync (validation)");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (validation)");
  if (h[0] != kNone) {
    if (csr) fail_offset(input.rows, input.index_type, static_cast<int64_t>(h[0]), info.rows, info.nnz, stream);
    fail_index("row_idx", input.rows, input.index_type, static_cast<int64_t>(h[0]), info.rows, stream);
  }
  if (h[1] != kNone) fail_index("col_idx", input.cols, input.index_type, static_cast<int64_t>(h[1]), info.cols, stream);
  return csr || h[2] == kNone;
}

}  // namespace sddmm::cuda
