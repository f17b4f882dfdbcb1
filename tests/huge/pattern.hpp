// The huge check's inputs as formulas: the device generates the big arrays from them and the host
// recomputes, from the same formulas, exactly the inputs that a sampled output needs. No big array
// crosses to the host.
#pragma once

#include <cstdint>
#include <vector>

#include "random.hpp"

#ifdef __CUDACC__
#define SDDMM_HUGE_HD __host__ __device__
#else
#define SDDMM_HUGE_HD
#endif

namespace sddmm::huge {

// Element i (linear index into its buffer) of a generated dense operand: a multiple of 1/8 in
// [-1, 1]. Every result here is a sum of at most 2^16 such values, or of 1024 products of two of
// them, so it is exact in float32 whatever the order of summation: results are compared for
// equality, and a difference is an indexing error, never rounding.
SDDMM_HUGE_HD inline float dense_value(uint64_t seed, int64_t i) {
  return static_cast<float>(static_cast<int>(testkit::mix64(seed ^ static_cast<uint64_t>(i)) % 17) - 8) * 0.125f;
}

// Entry j of row r lies in column base + (a * j + b * r) mod m; a and b are invertible mod m, so a
// row's entries are distinct columns and the rows holding a column can be solved for.
struct Band {
  int64_t base, m, a, b;
  SDDMM_HUGE_HD int64_t column(int64_t r, int64_t j) const { return base + (a * (j % m) + b * (r % m)) % m; }
};

// Rows of one kind: min_length + (a hash of r) mod length_spread entries, in `band`.
struct RowKind {
  Band band;
  int64_t min_length, length_spread;
};

// Row r is of the `light` kind when r % 4 == 3, else of the `heavy` one.
struct Pattern {
  int64_t rows, cols;
  RowKind heavy, light;
  uint64_t seed;

  SDDMM_HUGE_HD const RowKind& kind(int64_t r) const { return r % 4 == 3 ? light : heavy; }
  SDDMM_HUGE_HD int64_t length(int64_t r) const {
    const RowKind& k = kind(r);
    return k.min_length + static_cast<int64_t>(testkit::mix64(seed ^ static_cast<uint64_t>(r)) % k.length_spread);
  }
  SDDMM_HUGE_HD int64_t column(int64_t r, int64_t j) const { return kind(r).band.column(r, j); }
};

// A pattern laid out as CSR (host side): rows in order, each of its formula's length, until `nnz`
// entries (the last row cut short) or the pattern's rows run out; `pattern.rows` becomes the rows used.
struct LaidOut {
  Pattern pattern;
  std::vector<int64_t> offsets;  // (rows + 1)

  LaidOut(Pattern p, int64_t max_nnz);
  int64_t nnz() const { return offsets.back(); }
  int64_t row_of(int64_t entry) const;
  std::vector<int64_t> columns_of_row(int64_t r) const;
  std::vector<int64_t> rows_of_column(int64_t c) const;  // one per entry in column c
};

}  // namespace sddmm::huge
