// Differential checks: run the library on a case, compare every output with the float64 reference
// (testkit) under a rounding tolerance, after poisoning the outputs with NaN. Failures print the case
// (name, seed, shape, layouts) so it can be reproduced.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "coo.hpp"
#include "precisions.hpp"
#include "reference.hpp"
#include "sddmm.h"

namespace sddmm::test {

struct SddmmCase {
  std::string name;
  testkit::CooMatrix a;
  int64_t k = 32;
  Precision precision = {};
  sddmm_index_type_t index_type = SDDMM_INDEX_INT32;
  bool csr = false;  // create from CSR (the COO is sorted by row first; outputs in CSR order)
  sddmm_layout_t x1_layout = SDDMM_LAYOUT_ROW_MAJOR;
  sddmm_layout_t x2_layout = SDDMM_LAYOUT_COL_MAJOR;
  int64_t ld_pad = 0;  // leading dimension = width + ld_pad (the padding holds NaN)
  uint64_t seed = 1;
  bool offset = false;               // x1, x2 and out start one element (of their dtype) past a 16-byte boundary
  bool poison_unreferenced = false;  // rows of x1 and columns of x2 that no entry uses hold NaN
};

struct SpmmCase {
  std::string name;
  testkit::CooMatrix a;
  int64_t n = 32;
  bool transpose = false;
  Precision precision = {};
  sddmm_index_type_t index_type = SDDMM_INDEX_INT32;
  bool csr = false;
  sddmm_layout_t x_layout = SDDMM_LAYOUT_ROW_MAJOR;
  sddmm_layout_t y_layout = SDDMM_LAYOUT_ROW_MAJOR;
  int64_t ld_pad = 0;
  uint64_t seed = 1;
  bool offset = false;               // x and y start one element (of their dtype) past a 16-byte boundary
  bool poison_unreferenced = false;  // rows of x that no entry uses hold NaN
};

// The library's handle for a matrix: from COO as given, or from the row-sorted COO as CSR, with the
// values stored in value_dtype (entries holds them as stored, in SDDMM's output order). A failed
// creation is a failed check that leaves handle NULL.
struct Created {
  sddmm_matrix_t handle = nullptr;
  testkit::CooMatrix entries;
  Created() = default;
  Created(const Created&) = delete;
  Created& operator=(const Created&) = delete;
  ~Created();
};
void create_matrix(sddmm_backend_t backend, const testkit::CooMatrix& given, bool csr, sddmm_index_type_t it,
                   sddmm_dtype_t value_dtype, Created& out);

// Each runs the case on the backend and asserts (doctest CHECK/REQUIRE) full coverage and accuracy.
void check_sddmm(sddmm_backend_t backend, const SddmmCase& c);
void check_spmm(sddmm_backend_t backend, const SpmmCase& c);

// Asserts that element positions[i] of `got` (storage of dtype t) is within `tolerance` of ref.value[i]
// (sums of `terms` products), that nothing was left unwritten, and that not all outputs are zero.
void check_against_reference(const std::vector<unsigned char>& got, sddmm_dtype_t t, const Tolerance& tolerance,
                             const testkit::Reference& ref, int64_t terms, const std::vector<size_t>& positions);

// Deterministic pseudo-random numbers for test data (splitmix64).
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next();
  double uniform(double lo, double hi);  // [lo, hi)
  int64_t below(int64_t n);              // [0, n)

 private:
  uint64_t state_;
};

// Small pattern builders for the cases.
testkit::CooMatrix random_coo(int64_t rows, int64_t cols, int64_t nnz, uint64_t seed, bool with_values = true);
testkit::CooMatrix sorted_by_row(const testkit::CooMatrix& a, bool columns_too = false);  // stable
testkit::CooMatrix sorted_by_column(const testkit::CooMatrix& a);                         // by (column, row)

// Pattern-only entries (row[i], col[i]) of the tensor-core tests, reordered in place: at random
// (a caller order the outputs must come back in), or stably by row (CSR's order).
void shuffle_entries(std::vector<int32_t>& row, std::vector<int32_t>& col, std::mt19937& rng);
void sort_entries_by_row(std::vector<int32_t>& row, std::vector<int32_t>& col);

// The rows + 1 CSR offsets of entries given their rows in ascending order.
template <typename Index>
std::vector<Index> csr_offsets(const std::vector<Index>& sorted_rows, int64_t rows) {
  std::vector<Index> offsets(static_cast<size_t>(rows) + 1, 0);
  for (const Index r : sorted_rows) ++offsets[static_cast<size_t>(r) + 1];
  for (size_t i = 1; i < offsets.size(); ++i) offsets[i] += offsets[i - 1];
  return offsets;
}

}  // namespace sddmm::test
