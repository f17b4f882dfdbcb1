// Our outputs against cuSPARSE's, element by element, with a rounding tolerance.
//
// Both libraries sum positive dense terms in fp32 (the operands are in [0.5, 1.5)), each in its own
// order. A sum of L terms in fp32 is off from the exact one by at most ~L * eps/2 times the sum of
// |terms| (Higham, Accuracy and Stability, 4.2), so two such sums differ by at most L * eps times it;
// the check allows twice that: 2 (L + 2) eps |terms|, L = K for SDDMM, L = row length for SpMM.
// Outputs are poisoned with NaN before our run, so an element ours did not write fails.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "host_matrix.hpp"

namespace sddmm::bench {

struct CheckResult {
  bool pass = false;
  int64_t bad = 0;           // elements outside the tolerance (NaN included)
  double worst_ratio = 0;    // max over elements of error / tolerance: <= 1 passes
  double max_rel_error = 0;  // max over elements of error / magnitude of their terms
  std::string first_bad;     // "entry 17 (row 3, col 9): ours 1.5, expected 2.25 (tolerance ...)", or empty
};

// SDDMM: ours[p] against theirs[p] * A.val[p] (cuSPARSE does not apply A's values).
CheckResult check_sddmm(const HostMatrix& m, int64_t k, const std::vector<float>& ours,
                        const std::vector<float>& theirs);

// SpMM: Y (rows x n, row-major), ours against theirs. A's values may have any sign, so a row's
// magnitude is bounded by 1.5 * sum |A(r, :)| (1.5 bounds |X|).
CheckResult check_spmm(const HostMatrix& m, int64_t n, const std::vector<float>& ours,
                       const std::vector<float>& theirs);

}  // namespace sddmm::bench
