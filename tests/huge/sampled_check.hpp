// Sampled checks of the huge results: the host recomputes chosen outputs in float64 from the
// formulas (pattern.hpp) and compares them for equality with what the library wrote, reading back
// only those outputs. Outputs are poisoned (NaN) before each run, so an unwritten one mismatches.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pattern.hpp"
#include "sddmm.h"

namespace sddmm::huge {

// A dense float32 operand whose buffer fill_dense(seed) generated; desc says how the library reads it.
struct Generated {
  sddmm_dense_t desc;
  uint64_t seed;
  double at(int64_t i, int64_t j) const;  // element (i, j) as the library sees it
};

// `count` positions drawn uniformly from [0, n) (seeded), plus those of `always` below n; sorted, distinct.
std::vector<int64_t> sample_positions(int64_t n, int64_t count, uint64_t seed, std::vector<int64_t> always);

// Each compares the sampled outputs, prints the first mismatches and a line for the check, and
// returns the number of mismatches. SDDMM: entries of out (device, nnz floats, CSR order); SpMM:
// rows of y = op(A) x.
int64_t check_sddmm(const std::string& what, const LaidOut& a, const Generated& x1, const Generated& x2,
                    const float* d_out, const std::vector<int64_t>& entries);
int64_t check_spmm(const std::string& what, const LaidOut& a, bool transpose, const Generated& x,
                   const sddmm_dense_t& y, const std::vector<int64_t>& rows);

}  // namespace sddmm::huge
