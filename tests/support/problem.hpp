// A small valid problem on one backend, for the tests of what is rejected and of what still works
// after a failure: A is 4 x 10 with 5 entries, K = 3, N = 2, operands of ones, outputs holding a
// sentinel. Buffers live on the backend; for CUDA on `device`, which is also the handle's device.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "memory.hpp"
#include "sddmm.h"

namespace sddmm::test {

struct Problem {
  sddmm_backend_t backend;
  int device;
  std::vector<int32_t> rows{0, 1, 1, 3, 2};
  std::vector<int32_t> cols{2, 0, 9, 4, 4};
  std::vector<int32_t> offsets{0, 1, 3, 4, 5};  // CSR of the row-sorted entries
  std::vector<float> vals{1, 2, 3, 4, 5};
  Buffer d_rows, d_cols, d_offsets, d_vals, d_x1, d_x2, d_out, d_x, d_y;
  sddmm_matrix_t handle = nullptr;

  // Allocates on `device` (CUDA) and creates the handle there (doctest REQUIREs success).
  explicit Problem(sddmm_backend_t b, int device = 0);
  ~Problem();
  Problem(const Problem&) = delete;
  Problem& operator=(const Problem&) = delete;

  static std::vector<float> sentinel(size_t n) { return std::vector<float>(n, -12345.0f); }

  sddmm_status_t create_coo(sddmm_matrix_t* out);
  sddmm_dense_t x1() { return {d_x1.get(), 4, 3, 3, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32}; }
  sddmm_dense_t x2() { return {d_x2.get(), 3, 10, 3, SDDMM_LAYOUT_COL_MAJOR, SDDMM_DTYPE_FLOAT32}; }
  sddmm_dense_t x() { return {d_x.get(), 10, 2, 2, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32}; }
  sddmm_dense_t y() { return {d_y.get(), 4, 2, 2, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32}; }

  // out and y still hold the sentinel, byte for byte (after the device's work is done).
  bool outputs_untouched();
  // SDDMM and SpMM on the handle succeed and compute; the sentinel is written back after.
  void valid_calls_still_work();
};

// `call` must return `expected` with a message holding `fragment` and leave p's outputs untouched;
// p's valid calls must work after it.
void expect_rejected(Problem& p, const char* what, sddmm_status_t expected, const std::string& fragment,
                     const std::function<sddmm_status_t()>& call);

}  // namespace sddmm::test
