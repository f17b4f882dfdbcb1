// Hostile but valid input, shared by the CPU and the GPU hardening tests: operands off the vector
// alignment, NaN where no entry looks, IEEE specials meeting stored zeros, NULL arrays of size zero.
// (Invalid input, which must be rejected, is in rejections.hpp.)
#pragma once

#include <vector>

#include "differential.hpp"

namespace sddmm::test {

// Operand and output pointers one element (2 bytes for float16 and bfloat16, 4 for float32, 8 for
// float64) past a 16-byte boundary, with odd K or N, in every supported precision: correct results
// must come from a path without 16-byte vector loads.
std::vector<SddmmCase> offset_sddmm_cases();
std::vector<SpmmCase> offset_spmm_cases();

// Dense rows and columns that no stored entry references hold NaN, in every supported precision: any
// over-read reaches the output.
std::vector<SddmmCase> unreferenced_nan_sddmm_cases();
std::vector<SpmmCase> unreferenced_nan_spmm_cases();

// A stored 0 times Inf (or NaN) gives NaN, as IEEE arithmetic does: stored entries are always
// computed, whatever their value; absent entries contribute nothing.
void check_inf_times_stored_zero(sddmm_backend_t backend);

// NULL arrays with zero sizes succeed in every function, and outputs that have elements are written.
void check_null_arrays_with_zero_sizes(sddmm_backend_t backend);

}  // namespace sddmm::test
