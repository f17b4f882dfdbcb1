// float16 and bfloat16 on the CPU backend: the accuracy at K = 256, no overflow of partial
// sums, Inf only past the format's range (half_precision.hpp, which the GPU runs too), and the CPU's
// own promise as the oracle: a float64 sum rounded once to the output.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "half_precision.hpp"
#include "memory.hpp"
#include "sddmm.h"

namespace sddmm::test {

TEST_CASE("cpu: relative error at K = 256 is within 2e-3 (float16) and 1e-2 (bfloat16)") {
  check_accuracy_at_k256(SDDMM_BACKEND_CPU);
}

TEST_CASE("cpu: partial sums past 65504 do not overflow a small float16 result") {
  check_no_intermediate_overflow(SDDMM_BACKEND_CPU);
}

TEST_CASE("cpu: Inf exactly where the result is past float16's (or bfloat16's) range") {
  check_overflow_to_inf(SDDMM_BACKEND_CPU);
}

TEST_CASE("cpu: a float16 output is the float64 sum rounded once, not through float32") {
  // x1 . x2 = 1 + 2^-11 + 2^-30, with every term a float16: nearer to 1 + 2^-10 (pattern 0x3C01) than
  // to 1, but as a float32 it is the tie 1 + 2^-11, which a second rounding sends to the even 1.
  // With a float32 output the same sum is 1 + 2^-11 exactly.
  const uint16_t one = 0x3C00, two_to_minus_11 = 0x1000, two_to_minus_15 = 0x0200, zero = 0;
  const std::vector<uint16_t> x1{one, two_to_minus_11, two_to_minus_15, zero};
  const std::vector<uint16_t> x2{one, one, two_to_minus_15, zero};
  const int32_t rows[] = {0}, cols[] = {0};
  const uint16_t value16[] = {one};
  const float value32[] = {1.0f};
  const sddmm_dense_t d1{const_cast<uint16_t*>(x1.data()), 1, 4, 4, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT16};
  const sddmm_dense_t d2{const_cast<uint16_t*>(x2.data()), 4, 1, 4, SDDMM_LAYOUT_COL_MAJOR, SDDMM_DTYPE_FLOAT16};
  sddmm_matrix_t a = nullptr;
  REQUIRE(sddmm_create_coo(&a, 1, 1, 1, rows, cols, SDDMM_INDEX_INT32, value16, SDDMM_DTYPE_FLOAT16, SDDMM_BACKEND_CPU,
                           0, 0, nullptr) == SDDMM_STATUS_SUCCESS);
  uint16_t out16 = 0;
  REQUIRE(sddmm_execute(a, &d1, &d2, &out16, SDDMM_DTYPE_FLOAT16, nullptr) == SDDMM_STATUS_SUCCESS);
  CHECK(out16 == 0x3C01);
  sddmm_destroy(a);
  REQUIRE(sddmm_create_coo(&a, 1, 1, 1, rows, cols, SDDMM_INDEX_INT32, value32, SDDMM_DTYPE_FLOAT32, SDDMM_BACKEND_CPU,
                           0, 0, nullptr) == SDDMM_STATUS_SUCCESS);
  float out32 = 0;
  REQUIRE(sddmm_execute(a, &d1, &d2, &out32, SDDMM_DTYPE_FLOAT32, nullptr) == SDDMM_STATUS_SUCCESS);
  CHECK(out32 == 1.0f + 0x1p-11f);
  sddmm_destroy(a);
}

}  // namespace sddmm::test
