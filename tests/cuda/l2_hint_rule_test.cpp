// The SpMM L2 hints' rule (src/cuda/spmm/l2_hint_rule.hpp): host code, in the CPU suite. Which
// rows of X a call loads evict_last, from the histogram plan creation makes; the hinted kernels
// themselves are in the GPU suite (differential_test.cpp).
#if SDDMM_TESTS_HAVE_CUDA

#include "cuda/spmm/l2_hint_rule.hpp"

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sddmm::cuda {
namespace {

// The histogram of a pattern whose X rows have the given entry counts.
RowClasses classes_of(const std::vector<int64_t>& counts) {
  RowClasses c;
  for (int64_t n : counts) {
    if (n == 0) continue;
    c.rows[count_class(n)] += 1;
    c.entries[count_class(n)] += n;
  }
  return c;
}

int64_t sum(const std::vector<int64_t>& v) {
  int64_t s = 0;
  for (int64_t x : v) s += x;
  return s;
}

constexpr int64_t kL2 = 60 << 20;  // the H200's

}  // namespace

TEST_CASE("count classes: 8 an octave, ascending with the count") {
  CHECK(count_class(0) == 0);
  CHECK(count_class(1) == 0);
  CHECK(count_class(2) == 8);
  CHECK(count_class(3) == 12);
  CHECK(count_class(8) == 24);
  CHECK(count_class(15) == 31);
  CHECK(count_class(16) == 32);
  CHECK(count_class(int64_t{1} << 31) == 248);
  CHECK(count_class((int64_t{15} << 28) - 1) == 254);
  CHECK(count_class(int64_t{15} << 28) == 255);
  CHECK(count_class(int64_t{1} << 40) == 255);
  for (int64_t n = 1; n < 100000; ++n) REQUIRE(count_class(n + 1) >= count_class(n));
}

TEST_CASE("L2 hints: a power-law pattern past the L2 gets them, the busiest rows within half the L2") {
  // 1M rows of X: 20,000 used 400 times each, the rest twice: the busy ones hold 80 % of 10M entries.
  std::vector<int64_t> counts(1000000, 2);
  for (int i = 0; i < 20000; ++i) counts[i] = 400;
  const RowClasses c = classes_of(counts);
  const int64_t nnz = sum(counts);
  const int hot = l2_hot_class(c, 1000000, nnz, kL2, 1024, -1);  // N = 256 in float32: 1-GB X
  CHECK(hot == count_class(400));
  CHECK(l2_hints_may_pay(c, 1000000, nnz, kL2, -1));
  // 8-KB rows: half the L2 holds 3840 rows, fewer than the busy class: no class fits, no hints.
  CHECK(l2_hot_class(c, 1000000, nnz, kL2, 8192, -1) == -1);
  // X within the L2 (a 32-byte row: 32 MB): nothing to keep.
  CHECK(l2_hot_class(c, 1000000, nnz, kL2, 32, -1) == -1);
  // Forced off.
  CHECK(l2_hot_class(c, 1000000, nnz, kL2, 1024, 0) == -1);
  CHECK_FALSE(l2_hints_may_pay(c, 1000000, nnz, kL2, 0));
}

TEST_CASE("L2 hints: uniform patterns do not get them, a long Poisson-like tail included") {
  // Every row used 11 or 12 times: one or two classes, none under half the L2 at 1-KB rows.
  std::vector<int64_t> flat(685000);
  for (std::size_t i = 0; i < flat.size(); ++i) flat[i] = 11 + static_cast<int64_t>(i % 2);
  CHECK(l2_hot_class(classes_of(flat), 685000, sum(flat), kL2, 1024, -1) == -1);
  CHECK_FALSE(l2_hints_may_pay(classes_of(flat), 685000, sum(flat), kL2, -1));
  // Mean 5.5 with 3 % of the rows at 13: those hold 7 % of the entries, 2.3x their share (a bound of
  // 2 let uniform-916000-5M through, and it lost).
  std::vector<int64_t> tail(916000, 5);
  for (std::size_t i = 0; i < tail.size() * 3 / 100; ++i) tail[i] = 13;
  CHECK(l2_hot_class(classes_of(tail), 916000, sum(tail), kL2, 1024, -1) == -1);
}

TEST_CASE("L2 hints forced on: whole classes from the top, at most half of X's rows, whatever the sizes") {
  // 100 rows: 10 used 50 times, 40 used 5 times, 50 once. Half is 50 rows: the 10 and the 40.
  std::vector<int64_t> counts(100, 1);
  for (int i = 0; i < 10; ++i) counts[i] = 50;
  for (int i = 10; i < 50; ++i) counts[i] = 5;
  const RowClasses c = classes_of(counts);
  CHECK(l2_hot_class(c, 100, sum(counts), kL2, 1024, 1) == count_class(5));
  CHECK(l2_hints_may_pay(c, 100, sum(counts), kL2, 1));
  // 30 of 35 rows used 50 times: more than half, so no class is hot (every row evict_first).
  std::vector<int64_t> busy(30, 50);
  busy.resize(35, 1);
  CHECK(l2_hot_class(classes_of(busy), 35, sum(busy), kL2, 1024, 1) == kCountClasses);
}

}  // namespace sddmm::cuda

#endif  // SDDMM_TESTS_HAVE_CUDA
