// What the 16-bit dtypes promise beyond the differential suite, shared by the CPU and GPU tests: the
// issue's accuracy at K = 256, sums whose partial values leave float16's range, and Inf exactly where
// the true result does.
#pragma once

#include "sddmm.h"

namespace sddmm::test {

// At K = 256 (SDDMM) and 256 terms per output (SpMM), against the float64 reference of the stored
// inputs: at most 2e-3 relative error with float16 features, 1e-2 with bfloat16, elementwise on
// positive data and normwise on data of both signs, in every supported precision with such features.
void check_accuracy_at_k256(sddmm_backend_t backend);

// float16 (and bfloat16) features whose partial sums pass 65504 while the result is small: the
// result is exact (the accumulator is float32 or wider, nothing overflows on the way).
void check_no_intermediate_overflow(sddmm_backend_t backend);

// Results at and past float16's largest finite value 65504: 65504 and 65519 stay 65504, 65520 and
// 125000 become Inf (-65520: -Inf) in a float16 output; the same inputs with float32 values and
// output give the exact values. bfloat16: 2^127 stays, 2^128 becomes Inf.
void check_overflow_to_inf(sddmm_backend_t backend);

}  // namespace sddmm::test
