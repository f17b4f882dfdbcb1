// Hostile but valid input on the CPU backend (the GPU runs the same list in bad_input_gpu_test.cpp):
// offset operands with odd widths, NaN where no entry reads, Inf times stored 0, NULL arrays of
// size zero. Each check compares with the float64 reference or with exact expected values.
#include "bad_input.hpp"

#include <doctest/doctest.h>

namespace sddmm::test {

TEST_CASE("cpu: operands one element (2, 4 or 8 bytes) off alignment with K and N in {1,3,5,7,127,129,...} match the reference") {
  for (const auto& c : offset_sddmm_cases()) check_sddmm(SDDMM_BACKEND_CPU, c);
  for (const auto& c : offset_spmm_cases()) check_spmm(SDDMM_BACKEND_CPU, c);
}

TEST_CASE("cpu: NaN in dense rows and columns that no entry references never reaches the output") {
  for (const auto& c : unreferenced_nan_sddmm_cases()) check_sddmm(SDDMM_BACKEND_CPU, c);
  for (const auto& c : unreferenced_nan_spmm_cases()) check_spmm(SDDMM_BACKEND_CPU, c);
}

TEST_CASE("cpu: Inf times a stored 0 gives NaN in SDDMM, SpMM and SpMM^T") {
  check_inf_times_stored_zero(SDDMM_BACKEND_CPU);
}

TEST_CASE("cpu: NULL arrays with zero sizes succeed in every function") {
  check_null_arrays_with_zero_sizes(SDDMM_BACKEND_CPU);
}

}  // namespace sddmm::test
