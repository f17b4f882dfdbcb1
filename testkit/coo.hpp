// A host-side COO matrix: the common currency of the readers, generators and references that the
// tests, the demo and the benchmark share. Not part of the library.
#pragma once

#include <cstdint>
#include <vector>

namespace sddmm::testkit {

struct CooMatrix {
  int64_t rows = 0;
  int64_t cols = 0;
  std::vector<int64_t> row;  // (nnz) row index of each entry, caller order
  std::vector<int64_t> col;  // (nnz) column index of each entry
  std::vector<double> val;   // (nnz) value of each entry; empty means "no values" (all ones)

  int64_t nnz() const { return static_cast<int64_t>(row.size()); }
};

}  // namespace sddmm::testkit
