// Our outputs against cuSPARSE's, element by element, with a rounding tolerance.
//
// Both libraries sum positive dense terms in fp32 (the operands are in [0.5, 1.5)), each in its own
// order. A sum of L terms in fp32 is off from the exact one by at most ~L * eps/2 times the sum of
// |terms| (Higham, Accuracy and Stability, 4.2), so two such sums differ by at most L * eps times it;
// the check allows twice that: 2 (L + 2) eps |terms|, L = K for SDDMM, L = row length for SpMM.
//
// Other precisions are checked against cuSPARSE fed the SAME rounded operands and values (widened
// back to fp32), so input rounding is no error; what remains is the fp32 sum above and rounding the
// result to the output format. A narrower output gets 2 u of it on top (u = 2^-11 for fp16, 2^-8 for
// bf16: one rounding of the result, one of an intermediate), plus its smallest subnormal near zero,
// and infinity where the result is beyond its range. fp32 outputs keep the fp32 tolerance. With TF32
// allowed (fp32 data, `tf32`), each product may carry 2^-10 more relative error: both factors rounded.
// Outputs are poisoned with NaN before our run, so an element ours did not write fails.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host_matrix.hpp"
#include "sddmm.h"

namespace sddmm::bench {

struct CheckResult {
  bool pass = false;
  int64_t bad = 0;           // elements outside the tolerance (NaN included)
  double worst_ratio = 0;    // max over elements of error / tolerance: <= 1 passes
  double max_rel_error = 0;  // max over elements of error / magnitude of their terms
  std::string first_bad;     // "entry 17 (row 3, col 9): ours 1.5, expected 2.25 (tolerance ...)", or empty
};

// SDDMM: ours[p] (of type output) against theirs[p] * values[p] (cuSPARSE does not apply A's values;
// `values` are A's values as our handle holds them, rounded as it stores them). product_error: what
// our arithmetic may add to each product's relative error (precision.hpp; TF32 allowed), on top.
CheckResult check_sddmm(const HostMatrix& m, const std::vector<float>& values, int64_t k, sddmm_dtype_t output,
                        double product_error, const std::vector<float>& ours, const std::vector<float>& theirs);

// SpMM: Y (rows x n, row-major), ours against theirs. A's values may have any sign, so a row's
// magnitude is bounded by 1.5 * sum |A(r, :)| (1.5 bounds |X|).
CheckResult check_spmm(const HostMatrix& m, const std::vector<float>& values, int64_t n, sddmm_dtype_t output,
                       const std::vector<float>& ours, const std::vector<float>& theirs);

// The dense product X1 X2 (of type output) at some entries: sampled[i] is its element at entry
// entries[i]'s row and column; theirs is cuSPARSE's SDDMM output, which is X1 X2 at every entry.
CheckResult check_product_samples(const HostMatrix& m, int64_t k, sddmm_dtype_t output, double product_error,
                                  const std::vector<int64_t>& entries, const std::vector<float>& sampled,
                                  const std::vector<float>& theirs);

}  // namespace sddmm::bench
