// The host side of a benchmark case: the sparse matrix in the form both libraries are given, and the
// random dense operands.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "coo.hpp"

namespace sddmm::bench {

// Entries sorted by (row, col) with repeats merged (values summed), so that entry p of our COO handle
// is entry p of cuSPARSE's CSR and SDDMM outputs can be compared index by index. 32-bit indices.
struct HostMatrix {
  std::string name;
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t nnz = 0;
  std::vector<int32_t> row;          // (nnz)
  std::vector<int32_t> col;          // (nnz)
  std::vector<int32_t> row_offsets;  // (rows + 1) CSR offsets of the same entries
  std::vector<float> val;            // (nnz)
  int64_t merged_repeats = 0;        // entries of the input folded into an earlier one
  int64_t max_row_length = 0;
};

// Throws std::runtime_error if a dimension or nnz does not fit in int32. `coo` is consumed.
HostMatrix prepare_matrix(const std::string& name, testkit::CooMatrix coo);

// count floats uniform in [0.5, 1.5), from `seed`: never zero, so every output is a sum of positive
// terms and a relative check is well conditioned.
std::vector<float> random_operand(size_t count, uint64_t seed);

}  // namespace sddmm::bench
