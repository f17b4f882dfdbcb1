// float16 and bfloat16 on the CUDA backend, the same checks as tests/cpu/precision_test.cpp: the
// issue's accuracy at K = 256 (the measured errors are printed, for the README), no overflow of
// partial sums (float32 accumulation), Inf only past the format's range.
#include <doctest/doctest.h>

#include "half_precision.hpp"

namespace sddmm::test {

TEST_SUITE("gpu") {
  TEST_CASE("gpu: relative error at K = 256 is within 2e-3 (float16) and 1e-2 (bfloat16)") {
    check_accuracy_at_k256(SDDMM_BACKEND_CUDA);
  }

  TEST_CASE("gpu: partial sums past 65504 do not overflow a small float16 result") {
    check_no_intermediate_overflow(SDDMM_BACKEND_CUDA);
  }

  TEST_CASE("gpu: Inf exactly where the result is past float16's (or bfloat16's) range") {
    check_overflow_to_inf(SDDMM_BACKEND_CUDA);
  }
}

}  // namespace sddmm::test
