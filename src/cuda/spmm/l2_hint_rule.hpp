// The SpMM L2 hints' rule (cuda/l2_hints.cuh has the hints; tuning.hpp the measurements): from a
// histogram of X's rows by how many entries use them, made at plan creation, which rows a call
// loads evict_last. Host code, shared by plan creation (whether to keep the classes at all) and
// the SpMM launch (the class for the call's rows of X).
#pragma once

#include <array>
#include <cstdint>

namespace sddmm::cuda {

// Classes of a count (how many entries use a row of X): 8 per octave, from the count's top bit and
// the three below it, so that a class is at most 1/8 octave wide and classes ascend with the
// count. 0 for counts below 2; 8 x 31 + 7 = 255 from 15 x 2^28 on. Plan creation computes them on
// the device (with --expt-relaxed-constexpr), the tests on the host.
constexpr int kCountClasses = 256;

constexpr int count_class(int64_t count) {
  if (count < 2) return 0;
  int top = 0;  // floor(log2(count))
  while ((count >> (top + 1)) != 0) ++top;
  const int64_t mantissa = top >= 3 ? (count >> (top - 3)) & 7 : (count << (3 - top)) & 7;
  const int64_t c = 8 * int64_t{top} + mantissa;
  return c < kCountClasses - 1 ? static_cast<int>(c) : kCountClasses - 1;
}

// X's rows (A's columns) by class of their entry counts: rows and entries of each class.
struct RowClasses {
  std::array<int64_t, kCountClasses> rows{};
  std::array<int64_t, kCountClasses> entries{};
};

// The class from which rows of X row_bytes long are loaded evict_last, or -1 for no hints: where
// X (x_rows of row_bytes) exceeds the L2 and its busiest rows that fill kSpmmL2HintsShare of it,
// whole classes from the top, hold at least kSpmmL2HintsMinSkew times their share of X's rows and
// at least kSpmmL2HintsMinEntries of the nnz entries; the class returned is the lowest non-empty
// one taken (kCountClasses where none fits: every row evict_first). forced (SDDMM_SPMM_L2_HINTS):
// 1 hints whatever the sizes, the hot rows at most half of X's; 0 never; -1 the rule.
int l2_hot_class(const RowClasses& classes, int64_t x_rows, int64_t nnz, int64_t l2_bytes, int64_t row_bytes,
                 int forced);

// Whether any call the hinted kernels take (float32 rows of 256 to 8192 bytes) would get hints.
bool l2_hints_may_pay(const RowClasses& classes, int64_t x_rows, int64_t nnz, int64_t l2_bytes, int forced);

}  // namespace sddmm::cuda
