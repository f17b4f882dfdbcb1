// A validated view of a caller's dense operand (sddmm_dense_t): shape, strides and byte extent.
#pragma once

#include <cstdint>

#include "sddmm.h"

namespace sddmm {

struct DenseView {
  void* data = nullptr;
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t ld = 0;
  sddmm_layout_t layout = SDDMM_LAYOUT_ROW_MAJOR;
  sddmm_dtype_t dtype = SDDMM_DTYPE_FLOAT32;
  int64_t extent_bytes = 0;  // bytes from data to one past the last element (0 when empty)

  // Element (i, j) is at data[i * row_stride() + j * col_stride()].
  int64_t row_stride() const { return layout == SDDMM_LAYOUT_ROW_MAJOR ? ld : 1; }
  int64_t col_stride() const { return layout == SDDMM_LAYOUT_ROW_MAJOR ? 1 : ld; }
  bool empty() const { return rows == 0 || cols == 0; }
};

// Checks a descriptor (pointer, enums, sizes, leading dimension, overflow) and returns its view.
// `name` names the argument in error messages ("x1", "y", ...). Throws sddmm::Error.
DenseView make_dense_view(const sddmm_dense_t* desc, const char* name);

// Throws INVALID_ARGUMENT unless `ptr` is aligned to its elements of `element_bytes`: every load of
// them assumes it (UB on the CPU, a misaligned-address error on the GPU that poisons the context).
// The message names `name` followed by `field` ("x1", ".data").
void require_aligned(const void* ptr, int64_t element_bytes, const char* name, const char* field = "");

// True when the byte ranges of two views overlap (used to reject an output aliasing an input).
bool overlaps(const void* a, int64_t a_bytes, const void* b, int64_t b_bytes);

}  // namespace sddmm
