// What a handle is: the matrix's description plus a backend plan that owns the preprocessed pattern.
#pragma once

#include <cstdint>
#include <memory>

#include "core/dense.hpp"
#include "core/dtype.hpp"
#include "sddmm.h"

namespace sddmm {

// The caller's sparse arrays, as given to a create function (not yet validated).
struct SparseInput {
  enum class Format { kCoo, kCsr };
  Format format = Format::kCoo;
  const void* rows = nullptr;  // COO: row index per entry; CSR: rows + 1 row offsets
  const void* cols = nullptr;  // column index per entry
  sddmm_index_type_t index_type = SDDMM_INDEX_INT32;
  const void* values = nullptr;  // nullptr: every value is 1
};

struct MatrixInfo {
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t nnz = 0;
  sddmm_dtype_t value_dtype = SDDMM_DTYPE_FLOAT32;
  bool has_values = false;
  sddmm_backend_t backend = SDDMM_BACKEND_CPU;
  int32_t device_id = 0;
  uint32_t flags = 0;
};

// The bytes that the API's checks and a backend's pointer checks agree each array spans. Byte counts
// cannot overflow: creation refused sizes whose 8-byte-per-entry and offset counts overflow int64.
//
// An SDDMM output: one element of out_dtype per stored entry.
inline int64_t sddmm_output_bytes(int64_t nnz, sddmm_dtype_t out_dtype) { return nnz * size_of(out_dtype); }

// The caller's sparse arrays as a create function reads them: row_idx (COO: nnz indices) or
// row_offsets (CSR: rows + 1), col_idx (nnz), values (nnz, or 0 where the matrix has none).
struct SparseInputExtents {
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t values = 0;
};
inline SparseInputExtents sparse_input_extents(const MatrixInfo& info, const SparseInput& in) {
  const int64_t index_bytes = size_of(in.index_type);
  SparseInputExtents e;
  e.rows = (in.format == SparseInput::Format::kCsr ? info.rows + 1 : info.nnz) * index_bytes;
  e.cols = info.nnz * index_bytes;
  e.values = info.has_values ? info.nnz * size_of(info.value_dtype) : 0;
  return e;
}

// A backend's preprocessed pattern. Execute methods are const: a plan is immutable once built, which
// is what makes concurrent execution on one handle safe. Arguments arrive checked for shape, dtype
// support and aliasing; the backend checks where pointers live.
class Plan {
 public:
  virtual ~Plan() = default;
  virtual void sddmm(const DenseView& x1, const DenseView& x2, void* out, sddmm_dtype_t out_dtype,
                     void* stream) const = 0;
  virtual void spmm(const DenseView& x, const DenseView& y, bool transpose, void* stream) const = 0;
  // Entries that an SDDMM with this K and features runs on tensor cores (core/plan_stats.hpp).
  virtual int64_t tensor_core_entries(int64_t /*k*/, sddmm_dtype_t /*features*/) const { return 0; }
  virtual const char* tensor_core_kernel(int64_t /*k*/, sddmm_dtype_t /*features*/) const { return ""; }
  // Which CUDA-core kernel an SDDMM with this K and features runs (core/plan_stats.hpp).
  virtual const char* cuda_core_kernel(int64_t /*k*/, sddmm_dtype_t /*features*/) const { return ""; }
  // Entries that a (not transposed) SpMM with N columns and these features runs on tensor cores.
  virtual int64_t spmm_tensor_core_entries(int64_t /*n*/, sddmm_dtype_t /*features*/) const { return 0; }
};

// Backend factories. Each validates the pattern (indices in range, CSR offsets monotone) and throws
// sddmm::Error on bad input. make_cuda_plan throws NO_DEVICE in builds without CUDA.
std::unique_ptr<Plan> make_cpu_plan(const MatrixInfo& info, const SparseInput& input);
std::unique_ptr<Plan> make_cuda_plan(const MatrixInfo& info, const SparseInput& input, void* stream);

}  // namespace sddmm

struct sddmm_matrix_s {
  sddmm::MatrixInfo info;
  std::unique_ptr<sddmm::Plan> plan;
};
