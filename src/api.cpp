// The ABI boundary: argument checks common to every backend, exceptions turned into statuses and the
// thread's last-error message. Nothing below prints, exits, aborts or lets an exception escape.
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <new>

#include "core/checked.hpp"
#include "core/dense.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/matrix.hpp"
#include "core/support.hpp"
#include "sddmm.h"

namespace sddmm {
namespace {

template <typename Body>
sddmm_status_t guarded(Body&& body) noexcept {
  try {
    body();
    return SDDMM_STATUS_SUCCESS;
  } catch (const Error& e) {
    set_last_error(e.what());
    return e.status();
  } catch (const std::bad_alloc&) {
    set_last_error("host memory allocation failed");
    return SDDMM_STATUS_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    set_last_error(str("internal error: ", e.what()));
    return SDDMM_STATUS_INTERNAL_ERROR;
  } catch (...) {
    set_last_error("internal error: unknown exception");
    return SDDMM_STATUS_INTERNAL_ERROR;
  }
}

constexpr uint32_t kKnownCreateFlags = SDDMM_CREATE_ALLOW_TF32;

// The create functions' enum arguments, as the ints the caller passed (see raw() in dtype.hpp).
struct CreateEnums {
  int index_type;
  int value_dtype;
  int backend;
};

MatrixInfo check_create_args(sddmm_matrix_t* matrix, int64_t rows, int64_t cols, int64_t nnz, const SparseInput& in,
                             const CreateEnums& enums, int32_t device_id, uint32_t flags) {
  if (matrix == nullptr) fail(SDDMM_STATUS_NULL_POINTER, "matrix (the output handle pointer) is NULL");
  if (rows < 0 || cols < 0 || nnz < 0) {
    fail(SDDMM_STATUS_INVALID_ARGUMENT, "negative size: rows = ", rows, ", cols = ", cols, ", nnz = ", nnz);
  }
  if (!is_valid_index_type(enums.index_type)) {
    fail(SDDMM_STATUS_INVALID_ARGUMENT, "index_type = ", enums.index_type, " is not a valid sddmm_index_type_t");
  }
  if (!is_valid_backend(enums.backend)) fail(SDDMM_STATUS_INVALID_ARGUMENT, "backend = ", enums.backend, " is not a valid sddmm_backend_t");
  const auto backend = static_cast<sddmm_backend_t>(enums.backend);
  if ((flags & ~kKnownCreateFlags) != 0) fail(SDDMM_STATUS_INVALID_ARGUMENT, "flags = ", flags, " has unknown bits");
  if (device_id < 0 && backend == SDDMM_BACKEND_CUDA) fail(SDDMM_STATUS_INVALID_ARGUMENT, "device_id = ", device_id, " is negative");
  if (!is_valid_dtype(enums.value_dtype)) {
    fail(SDDMM_STATUS_INVALID_ARGUMENT, "value_dtype = ", enums.value_dtype, " is not a valid sddmm_dtype_t");
  }
  const auto value_dtype = static_cast<sddmm_dtype_t>(enums.value_dtype);
  require_supported_values(value_dtype, backend);

  if (enums.index_type == SDDMM_INDEX_INT32) {
    constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
    if (nnz > kMax) fail(SDDMM_STATUS_SIZE_OVERFLOW, "nnz = ", nnz, " does not fit int32 indices: use SDDMM_INDEX_INT64");
    if (rows > kMax || cols > kMax) {
      fail(SDDMM_STATUS_SIZE_OVERFLOW, "shape ", rows, " x ", cols, " does not fit int32 indices: use SDDMM_INDEX_INT64");
    }
  }
  // A plan holds up to 8 bytes per entry and rows + 1 and cols + 1 offsets of 8 bytes: byte counts
  // that overflow int64 are refused here, before anything is read or allocated.
  int64_t nnz_bytes = 0;
  int64_t rows_plus_one = 0;
  int64_t cols_plus_one = 0;
  int64_t offset_bytes = 0;
  if (!checked_mul(nnz, 8, &nnz_bytes) || !checked_add(rows, 1, &rows_plus_one) || !checked_add(cols, 1, &cols_plus_one) ||
      !checked_mul(rows_plus_one, 8, &offset_bytes) || !checked_mul(cols_plus_one, 8, &offset_bytes)) {
    fail(SDDMM_STATUS_SIZE_OVERFLOW, "sizes rows = ", rows, ", cols = ", cols, ", nnz = ", nnz, " overflow int64 byte counts");
  }

  const bool csr = in.format == SparseInput::Format::kCsr;
  if (csr && rows > 0 && in.rows == nullptr) fail(SDDMM_STATUS_NULL_POINTER, "row_offsets is NULL with rows = ", rows);
  if (nnz > 0) {
    if (!csr && in.rows == nullptr) fail(SDDMM_STATUS_NULL_POINTER, "row_idx is NULL with nnz = ", nnz);
    if (in.cols == nullptr) fail(SDDMM_STATUS_NULL_POINTER, "col_idx is NULL with nnz = ", nnz);
  }
  // Alignment of the arrays that will be read: CSR offsets whenever given, the rest when nnz > 0.
  const int64_t index_bytes = enums.index_type == SDDMM_INDEX_INT64 ? 8 : 4;
  if (csr ? in.rows != nullptr : nnz > 0) require_aligned(in.rows, index_bytes, csr ? "row_offsets" : "row_idx");
  if (nnz > 0) require_aligned(in.cols, index_bytes, "col_idx");
  if (nnz > 0 && in.values != nullptr) require_aligned(in.values, size_of(value_dtype), "values");

  MatrixInfo info;
  info.rows = rows;
  info.cols = cols;
  info.nnz = nnz;
  info.value_dtype = value_dtype;
  info.has_values = in.values != nullptr && nnz > 0;
  info.backend = backend;
  info.device_id = backend == SDDMM_BACKEND_CUDA ? device_id : 0;
  info.flags = flags;
  return info;
}

// `given` carries the caller's arrays; its index_type is set here, once enums.index_type is checked.
sddmm_status_t create(sddmm_matrix_t* matrix, int64_t rows, int64_t cols, int64_t nnz, const SparseInput& given,
                      const CreateEnums& enums, int32_t device_id, uint32_t flags, void* stream) noexcept {
  return guarded([&] {
    const MatrixInfo info = check_create_args(matrix, rows, cols, nnz, given, enums, device_id, flags);
    SparseInput in = given;
    in.index_type = static_cast<sddmm_index_type_t>(enums.index_type);
    auto handle = std::make_unique<sddmm_matrix_s>();
    handle->info = info;
    handle->plan = info.backend == SDDMM_BACKEND_CUDA ? make_cuda_plan(info, in, stream) : make_cpu_plan(info, in);
    *matrix = handle.release();
  });
}

const sddmm_matrix_s& require_matrix(sddmm_matrix_t matrix) {
  if (matrix == nullptr) fail(SDDMM_STATUS_NULL_POINTER, "matrix is NULL");
  if (!matrix->plan) fail(SDDMM_STATUS_INTERNAL_ERROR, "matrix has no plan");
  return *matrix;
}

}  // namespace
}  // namespace sddmm

using sddmm::fail;

extern "C" {

int32_t sddmm_version(void) { return SDDMM_VERSION_NUMBER; }

const char* sddmm_status_string(sddmm_status_t status) {
  switch (sddmm::raw(status)) {
    case SDDMM_STATUS_SUCCESS: return "SDDMM_STATUS_SUCCESS";
    case SDDMM_STATUS_NULL_POINTER: return "SDDMM_STATUS_NULL_POINTER";
    case SDDMM_STATUS_INVALID_ARGUMENT: return "SDDMM_STATUS_INVALID_ARGUMENT";
    case SDDMM_STATUS_INDEX_OUT_OF_RANGE: return "SDDMM_STATUS_INDEX_OUT_OF_RANGE";
    case SDDMM_STATUS_SHAPE_MISMATCH: return "SDDMM_STATUS_SHAPE_MISMATCH";
    case SDDMM_STATUS_SIZE_OVERFLOW: return "SDDMM_STATUS_SIZE_OVERFLOW";
    case SDDMM_STATUS_NOT_SUPPORTED: return "SDDMM_STATUS_NOT_SUPPORTED";
    case SDDMM_STATUS_OUT_OF_MEMORY: return "SDDMM_STATUS_OUT_OF_MEMORY";
    case SDDMM_STATUS_NO_DEVICE: return "SDDMM_STATUS_NO_DEVICE";
    case SDDMM_STATUS_INVALID_POINTER: return "SDDMM_STATUS_INVALID_POINTER";
    case SDDMM_STATUS_CUDA_ERROR: return "SDDMM_STATUS_CUDA_ERROR";
    case SDDMM_STATUS_INTERNAL_ERROR: return "SDDMM_STATUS_INTERNAL_ERROR";
  }
  return "unknown status";
}

const char* sddmm_last_error(void) { return sddmm::last_error(); }

sddmm_status_t sddmm_create_coo(sddmm_matrix_t* matrix, int64_t rows, int64_t cols, int64_t nnz, const void* row_idx,
                                const void* col_idx, sddmm_index_type_t index_type, const void* values,
                                sddmm_dtype_t value_dtype, sddmm_backend_t backend, int32_t device_id,
                                uint32_t flags, void* stream) {
  const sddmm::SparseInput in{sddmm::SparseInput::Format::kCoo, row_idx, col_idx, SDDMM_INDEX_INT32, values};
  const sddmm::CreateEnums enums{sddmm::raw(index_type), sddmm::raw(value_dtype), sddmm::raw(backend)};
  return sddmm::create(matrix, rows, cols, nnz, in, enums, device_id, flags, stream);
}

sddmm_status_t sddmm_create_csr(sddmm_matrix_t* matrix, int64_t rows, int64_t cols, int64_t nnz,
                                const void* row_offsets, const void* col_idx, sddmm_index_type_t index_type,
                                const void* values, sddmm_dtype_t value_dtype, sddmm_backend_t backend,
                                int32_t device_id, uint32_t flags, void* stream) {
  const sddmm::SparseInput in{sddmm::SparseInput::Format::kCsr, row_offsets, col_idx, SDDMM_INDEX_INT32, values};
  const sddmm::CreateEnums enums{sddmm::raw(index_type), sddmm::raw(value_dtype), sddmm::raw(backend)};
  return sddmm::create(matrix, rows, cols, nnz, in, enums, device_id, flags, stream);
}

sddmm_status_t sddmm_destroy(sddmm_matrix_t matrix) {
  return sddmm::guarded([&] { delete matrix; });
}

sddmm_status_t sddmm_get_shape(sddmm_matrix_t matrix, int64_t* rows, int64_t* cols, int64_t* nnz) {
  return sddmm::guarded([&] {
    const auto& a = sddmm::require_matrix(matrix);
    if (rows != nullptr) *rows = a.info.rows;
    if (cols != nullptr) *cols = a.info.cols;
    if (nnz != nullptr) *nnz = a.info.nnz;
  });
}

sddmm_status_t sddmm_execute(sddmm_matrix_t matrix, const sddmm_dense_t* x1, const sddmm_dense_t* x2, void* out,
                             sddmm_dtype_t out_dtype, void* stream) {
  return sddmm::guarded([&] {
    const auto& a = sddmm::require_matrix(matrix);
    const sddmm::DenseView v1 = sddmm::make_dense_view(x1, "x1");
    const sddmm::DenseView v2 = sddmm::make_dense_view(x2, "x2");
    const int out_dtype_value = sddmm::raw(out_dtype);
    if (!sddmm::is_valid_dtype(out_dtype_value)) {
      fail(SDDMM_STATUS_INVALID_ARGUMENT, "out_dtype = ", out_dtype_value, " is not a valid sddmm_dtype_t");
    }
    if (v1.rows != a.info.rows) fail(SDDMM_STATUS_SHAPE_MISMATCH, "x1 has ", v1.rows, " rows but A has ", a.info.rows);
    if (v2.cols != a.info.cols) fail(SDDMM_STATUS_SHAPE_MISMATCH, "x2 has ", v2.cols, " columns but A has ", a.info.cols);
    if (v1.cols != v2.rows) {
      fail(SDDMM_STATUS_SHAPE_MISMATCH, "x1 is ", v1.rows, " x ", v1.cols, " but x2 is ", v2.rows, " x ", v2.cols,
           ": x1.cols must equal x2.rows (K)");
    }
    if (a.info.nnz > 0 && out == nullptr) fail(SDDMM_STATUS_NULL_POINTER, "out is NULL with nnz = ", a.info.nnz);
    if (a.info.nnz > 0) sddmm::require_aligned(out, sddmm::size_of(out_dtype), "out");
    sddmm::require_supported_sddmm(a.info, v1, v2, out_dtype);
    const int64_t out_bytes = sddmm::sddmm_output_bytes(a.info.nnz, out_dtype);
    if (sddmm::overlaps(out, out_bytes, v1.data, v1.extent_bytes) || sddmm::overlaps(out, out_bytes, v2.data, v2.extent_bytes)) {
      fail(SDDMM_STATUS_INVALID_ARGUMENT, "out overlaps x1 or x2: outputs must not alias inputs");
    }
    if (a.info.nnz == 0) return;
    a.plan->sddmm(v1, v2, out, out_dtype, stream);
  });
}

sddmm_status_t spmm_execute(sddmm_matrix_t matrix, const sddmm_dense_t* x, const sddmm_dense_t* y,
                            sddmm_operation_t operation, void* stream) {
  return sddmm::guarded([&] {
    const auto& a = sddmm::require_matrix(matrix);
    const int operation_value = sddmm::raw(operation);
    if (!sddmm::is_valid_operation(operation_value)) {
      fail(SDDMM_STATUS_INVALID_ARGUMENT, "operation = ", operation_value, " is not a valid sddmm_operation_t");
    }
    const sddmm::DenseView vx = sddmm::make_dense_view(x, "x");
    const sddmm::DenseView vy = sddmm::make_dense_view(y, "y");
    const bool transpose = operation == SDDMM_OPERATION_TRANSPOSE;
    const int64_t in_dim = transpose ? a.info.rows : a.info.cols;
    const int64_t out_dim = transpose ? a.info.cols : a.info.rows;
    const char* op_name = transpose ? "A^T" : "A";
    if (vx.rows != in_dim) fail(SDDMM_STATUS_SHAPE_MISMATCH, "x has ", vx.rows, " rows but ", op_name, " has ", in_dim, " columns");
    if (vy.rows != out_dim) fail(SDDMM_STATUS_SHAPE_MISMATCH, "y has ", vy.rows, " rows but ", op_name, " has ", out_dim, " rows");
    if (vx.cols != vy.cols) fail(SDDMM_STATUS_SHAPE_MISMATCH, "x has ", vx.cols, " columns but y has ", vy.cols, " (N must agree)");
    sddmm::require_supported_spmm(a.info, vx, vy);
    if (sddmm::overlaps(vy.data, vy.extent_bytes, vx.data, vx.extent_bytes)) {
      fail(SDDMM_STATUS_INVALID_ARGUMENT, "y overlaps x: outputs must not alias inputs");
    }
    if (vy.empty()) return;
    a.plan->spmm(vx, vy, transpose, stream);
  });
}

}  // extern "C"
