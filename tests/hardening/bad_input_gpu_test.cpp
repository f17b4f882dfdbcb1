// Hostile but valid input on the CUDA backend, with device buffers: the list of bad_input_test.cpp.
// Runs only in the "gpu" suite (ctest: sddmm_tests_gpu), which reports itself skipped without a GPU.
#include <doctest/doctest.h>

#include "bad_input.hpp"

namespace sddmm::test {

TEST_SUITE("gpu") {
  TEST_CASE("gpu: operands one element (2, 4 or 8 bytes) off alignment with K and N in {1,3,5,7,127,129,...} match the reference") {
    for (const auto& c : offset_sddmm_cases()) check_sddmm(SDDMM_BACKEND_CUDA, c);
    for (const auto& c : offset_spmm_cases()) check_spmm(SDDMM_BACKEND_CUDA, c);
  }

  TEST_CASE("gpu: NaN in dense rows and columns that no entry references never reaches the output") {
    for (const auto& c : unreferenced_nan_sddmm_cases()) check_sddmm(SDDMM_BACKEND_CUDA, c);
    for (const auto& c : unreferenced_nan_spmm_cases()) check_spmm(SDDMM_BACKEND_CUDA, c);
  }

  TEST_CASE("gpu: Inf times a stored 0 gives NaN in SDDMM, SpMM and SpMM^T") {
    check_inf_times_stored_zero(SDDMM_BACKEND_CUDA);
  }

  TEST_CASE("gpu: NULL arrays with zero sizes succeed in every function") {
    check_null_arrays_with_zero_sizes(SDDMM_BACKEND_CUDA);
  }
}

}  // namespace sddmm::test
