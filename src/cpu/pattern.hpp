// The CPU backend's plan data: the pattern in caller order (for SDDMM) and compressed by row (SpMM)
// and by column (transposed SpMM). Built once at creation; read-only afterwards.
#pragma once

#include <cstdint>
#include <vector>

#include "core/matrix.hpp"

namespace sddmm::cpu {

template <typename T>
struct Compressed {
  std::vector<int64_t> offsets;  // (outer + 1) start of each outer index's entries
  std::vector<int64_t> index;    // (nnz) inner index of each entry, caller order within an outer index
  std::vector<T> value;          // (nnz) or empty when the matrix has no values
};

template <typename T>
struct Pattern {
  int64_t rows = 0;
  int64_t cols = 0;
  std::vector<int64_t> row;  // (nnz) caller order
  std::vector<int64_t> col;  // (nnz) caller order
  std::vector<T> value;      // (nnz) caller order, or empty: every value is 1
  Compressed<T> by_row;
  Compressed<T> by_col;
};

// T: A's value type (float, double, Float16 or BFloat16), stored as given.
// Validates the caller's arrays and builds the pattern. Throws sddmm::Error naming the first bad entry.
template <typename T>
Pattern<T> build_pattern(const MatrixInfo& info, const SparseInput& input);

}  // namespace sddmm::cpu
