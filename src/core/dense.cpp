#include "core/dense.hpp"

#include "core/checked.hpp"
#include "core/dtype.hpp"
#include "core/error.hpp"

namespace sddmm {

DenseView make_dense_view(const sddmm_dense_t* desc, const char* name) {
  if (desc == nullptr) fail(SDDMM_STATUS_NULL_POINTER, name, " is NULL");
  const int dtype = raw(desc->dtype);
  const int layout = raw(desc->layout);
  if (!is_valid_dtype(dtype)) fail(SDDMM_STATUS_INVALID_ARGUMENT, name, ".dtype = ", dtype, " is not a valid sddmm_dtype_t");
  if (!is_valid_layout(layout)) fail(SDDMM_STATUS_INVALID_ARGUMENT, name, ".layout = ", layout, " is not a valid sddmm_layout_t");
  if (desc->rows < 0 || desc->cols < 0) {
    fail(SDDMM_STATUS_INVALID_ARGUMENT, name, " has a negative shape ", desc->rows, " x ", desc->cols);
  }
  DenseView v;
  v.data = desc->data;
  v.rows = desc->rows;
  v.cols = desc->cols;
  v.ld = desc->ld;
  v.layout = static_cast<sddmm_layout_t>(layout);
  v.dtype = static_cast<sddmm_dtype_t>(dtype);

  const int64_t width = v.layout == SDDMM_LAYOUT_ROW_MAJOR ? v.cols : v.rows;
  const int64_t height = v.layout == SDDMM_LAYOUT_ROW_MAJOR ? v.rows : v.cols;
  const int64_t min_ld = width > 1 ? width : 1;
  if (v.ld < min_ld) {
    fail(SDDMM_STATUS_INVALID_ARGUMENT, name, ".ld = ", v.ld, " is smaller than ",
         v.layout == SDDMM_LAYOUT_ROW_MAJOR ? "its row length " : "its column length ", min_ld);
  }
  if (v.empty()) return v;
  if (v.data == nullptr) fail(SDDMM_STATUS_NULL_POINTER, name, ".data is NULL for a ", v.rows, " x ", v.cols, " operand");
  require_aligned(v.data, size_of(v.dtype), name, ".data");

  // Elements spanned: (height - 1) * ld + width; bytes: that times the element size.
  int64_t span = 0;
  int64_t bytes = 0;
  if (!checked_mul(height - 1, v.ld, &span) || !checked_add(span, width, &span) ||
      !checked_mul(span, size_of(v.dtype), &bytes)) {
    fail(SDDMM_STATUS_SIZE_OVERFLOW, name, " (", v.rows, " x ", v.cols, ", ld ", v.ld, ") spans more bytes than int64 holds");
  }
  v.extent_bytes = bytes;
  return v;
}

void require_aligned(const void* ptr, int64_t element_bytes, const char* name, const char* field) {
  if (reinterpret_cast<uintptr_t>(ptr) % static_cast<uintptr_t>(element_bytes) != 0) {
    fail(SDDMM_STATUS_INVALID_ARGUMENT, name, field, " is not aligned to its ", element_bytes, "-byte elements (", ptr, ")");
  }
}

bool overlaps(const void* a, int64_t a_bytes, const void* b, int64_t b_bytes) {
  if (a == nullptr || b == nullptr || a_bytes <= 0 || b_bytes <= 0) return false;
  const auto pa = reinterpret_cast<uintptr_t>(a);
  const auto pb = reinterpret_cast<uintptr_t>(b);
  return pa < pb + static_cast<uintptr_t>(b_bytes) && pb < pa + static_cast<uintptr_t>(a_bytes);
}

}  // namespace sddmm
