#include "cuda/spmm/l2_hint_rule.hpp"

#include "cuda/tuning.hpp"

namespace sddmm::cuda {

int l2_hot_class(const RowClasses& classes, int64_t x_rows, int64_t nnz, int64_t l2_bytes, int64_t row_bytes,
                 int forced) {
  if (forced == 0 || row_bytes <= 0 || x_rows <= 0) return -1;
  if (forced < 0 && x_rows * row_bytes <= l2_bytes) return -1;  // X fits: the L2 keeps all of it
  int64_t budget =
      static_cast<int64_t>(kSpmmL2HintsShare * static_cast<double>(l2_bytes) / static_cast<double>(row_bytes));
  if (forced == 1 && budget > x_rows / 2) budget = x_rows / 2;
  int64_t rows = 0, entries = 0;
  int hot = kCountClasses;  // no class
  for (int c = kCountClasses - 1; c >= 0 && rows + classes.rows[c] <= budget; --c) {
    if (classes.rows[c] == 0) continue;
    rows += classes.rows[c];
    entries += classes.entries[c];
    hot = c;
  }
  if (forced == 1) return hot;
  const double entry_share = static_cast<double>(entries) / static_cast<double>(nnz > 0 ? nnz : 1);
  const double row_share = static_cast<double>(rows) / static_cast<double>(x_rows);
  const bool skewed =
      rows > 0 && entry_share >= kSpmmL2HintsMinSkew * row_share && entry_share >= kSpmmL2HintsMinEntries;
  return skewed ? hot : -1;
}

bool l2_hints_may_pay(const RowClasses& classes, int64_t x_rows, int64_t nnz, int64_t l2_bytes, int forced) {
  for (int64_t row_bytes = kSpmmL2HintsMinRowBytes; row_bytes <= kSpmmL2HintsMaxRowBytes; row_bytes *= 2) {
    if (l2_hot_class(classes, x_rows, nnz, l2_bytes, row_bytes, forced) >= 0) return true;
  }
  return false;
}

}  // namespace sddmm::cuda
