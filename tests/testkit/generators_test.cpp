// The matrix generators: shapes, entry counts, index ranges, order, determinism by seed and
// independence of the thread count, and the structure each one promises (R-MAT's skew, the band,
// the blocks). Every case uses fixed seeds, so a failure reproduces as is.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <stdexcept>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "generators.hpp"
#include "random.hpp"
#include "sampling.hpp"

namespace {

using sddmm::testkit::CooMatrix;
namespace tk = sddmm::testkit;

bool same_matrix(const CooMatrix& a, const CooMatrix& b) {
  return a.rows == b.rows && a.cols == b.cols && a.row == b.row && a.col == b.col && a.val == b.val;
}

// Every index inside the shape and every value in [0.5, 1.5); reports the first entry that is not.
void check_in_range(const CooMatrix& m) {
  REQUIRE(m.row.size() == m.col.size());
  REQUIRE(m.val.size() == m.row.size());
  size_t p = 0;
  while (p < m.row.size() && m.row[p] >= 0 && m.row[p] < m.rows && m.col[p] >= 0 && m.col[p] < m.cols &&
         m.val[p] >= 0.5 && m.val[p] < 1.5) {
    ++p;
  }
  if (p < m.row.size()) FAIL_CHECK("entry " << p << " = (" << m.row[p] << ", " << m.col[p] << ") value " << m.val[p]);
}

// Sorted by (row, col) with no position twice.
bool sorted_distinct(const CooMatrix& m) {
  for (size_t p = 1; p < m.row.size(); ++p) {
    if (m.row[p - 1] > m.row[p] || (m.row[p - 1] == m.row[p] && m.col[p - 1] >= m.col[p])) return false;
  }
  return true;
}

std::vector<int64_t> row_lengths(const CooMatrix& m) {
  std::vector<int64_t> lengths(static_cast<size_t>(m.rows), 0);
  for (int64_t r : m.row) ++lengths[static_cast<size_t>(r)];
  return lengths;
}

// Runs make() with one thread and with three; the results must agree.
void check_thread_independent(const std::function<CooMatrix()>& make) {
#ifdef _OPENMP
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  const CooMatrix one = make();
  omp_set_num_threads(3);
  const CooMatrix three = make();
  omp_set_num_threads(saved);
  CHECK(same_matrix(one, three));
#else
  (void)make;
#endif
}

}  // namespace

TEST_CASE("sort_keys: the radix path agrees with std::sort") {
  for (uint64_t max_key : {uint64_t{0}, uint64_t{1}, uint64_t{4095}, uint64_t{1} << 35, (uint64_t{1} << 62) + 5}) {
    CAPTURE(max_key);
    tk::SplitMix64 rng(max_key + 17);
    std::vector<uint64_t> keys(200000);  // above the size where the radix path starts
    for (uint64_t& key : keys) key = max_key == 0 ? 0 : rng.below(max_key + 1);
    std::vector<uint64_t> expected = keys;
    std::sort(expected.begin(), expected.end());
    tk::sort_keys(keys, max_key);
    CHECK(keys == expected);
  }
}

TEST_CASE("sample_distinct_keys: exact count of distinct sorted keys, sparse and dense paths") {
  for (uint64_t count :
       {uint64_t{0}, uint64_t{1}, uint64_t{1000}, uint64_t{30000}, uint64_t{99999}, uint64_t{100000}}) {
    CAPTURE(count);
    const std::vector<uint64_t> keys = tk::sample_distinct_keys(100000, count, 5);
    REQUIRE(keys.size() == count);
    CHECK(std::adjacent_find(keys.begin(), keys.end(), std::greater_equal<uint64_t>()) == keys.end());
    if (!keys.empty()) CHECK(keys.back() < 100000);
  }
  CHECK_THROWS_AS(tk::sample_distinct_keys(10, 11, 5), std::invalid_argument);
}

TEST_CASE("sample_distinct_keys_if: only accepted keys") {
  const auto even = [](uint64_t key) { return key % 2 == 0; };
  const std::vector<uint64_t> keys = tk::sample_distinct_keys_if(1000000, 50000, 9, even);
  REQUIRE(keys.size() == 50000);
  CHECK(std::all_of(keys.begin(), keys.end(), even));
  CHECK(std::adjacent_find(keys.begin(), keys.end(), std::greater_equal<uint64_t>()) == keys.end());
  CHECK_THROWS_AS(tk::sample_distinct_keys_if(100, 10, 9, [](uint64_t) { return false; }), std::runtime_error);
}

TEST_CASE("uniform_random, distinct: shape, count, order, ranges, determinism") {
  struct Shape {
    int64_t rows, cols, nnz;
  };
  // sparse path, dense path (>= 1/4 of the positions), full, empty, one row, rectangular
  for (const Shape s : {Shape{1000, 700, 20000}, Shape{100, 100, 9000}, Shape{30, 40, 1200}, Shape{50, 50, 0},
                        Shape{1, 1000, 300}, Shape{3000, 20, 5000}}) {
    CAPTURE(s.rows);
    CAPTURE(s.cols);
    CAPTURE(s.nnz);
    const CooMatrix m = tk::uniform_random(s.rows, s.cols, s.nnz, 42);
    CHECK(m.rows == s.rows);
    CHECK(m.cols == s.cols);
    CHECK(m.nnz() == s.nnz);
    check_in_range(m);
    CHECK(sorted_distinct(m));
    CHECK(same_matrix(m, tk::uniform_random(s.rows, s.cols, s.nnz, 42)));
    if (s.nnz > 0 && s.nnz < s.rows * s.cols)
      CHECK_FALSE(same_matrix(m, tk::uniform_random(s.rows, s.cols, s.nnz, 43)));
  }
  CHECK_THROWS_AS(tk::uniform_random(10, 10, 101, 1), std::invalid_argument);
  CHECK_THROWS_AS(tk::uniform_random(10, -1, 5, 1), std::invalid_argument);
  CHECK_THROWS_AS(tk::uniform_random(int64_t{1} << 40, int64_t{1} << 40, 5, 1), std::invalid_argument);
}

TEST_CASE("uniform_random: rows evenly filled") {
  // 200 entries a row on average; a binomial row count lies within 6 sigma (~14) of it.
  const CooMatrix m = tk::uniform_random(1000, 2000, 200000, 7);
  const std::vector<int64_t> lengths = row_lengths(m);
  const auto [shortest, longest] = std::minmax_element(lengths.begin(), lengths.end());
  CHECK(*shortest > 200 - 6 * 14);
  CHECK(*longest < 200 + 6 * 14);
}

TEST_CASE("uniform_random, not distinct: independent draws, unsorted, deterministic") {
  const CooMatrix m = tk::uniform_random(50, 60, 10000, 3, false);
  CHECK(m.nnz() == 10000);
  check_in_range(m);
  CHECK_FALSE(sorted_distinct(m));  // 10000 draws over 3000 positions must repeat
  CHECK(same_matrix(m, tk::uniform_random(50, 60, 10000, 3, false)));
}

TEST_CASE("rmat: shape, merged duplicates, power-law skew, relabelling is a permutation") {
  const int scale = 14;
  const int64_t edge_factor = 16;
  const CooMatrix m = tk::rmat(scale, edge_factor, 11);
  const int64_t n = int64_t{1} << scale;
  CHECK(m.rows == n);
  CHECK(m.cols == n);
  check_in_range(m);
  CHECK(sorted_distinct(m));
  // Repeats are merged: fewer than the edges drawn, but most of them survive.
  CHECK(m.nnz() < edge_factor * n);
  CHECK(m.nnz() > edge_factor * n * 8 / 10);
  CHECK(same_matrix(m, tk::rmat(scale, edge_factor, 11)));
  CHECK_FALSE(same_matrix(m, tk::rmat(scale, edge_factor, 12)));

  // Skew: with a = 0.57 a uniform matrix's longest row would be ~2x the mean; R-MAT's is hundreds of
  // times the mean, and a few percent of rows hold a large share of the entries.
  std::vector<int64_t> lengths = row_lengths(m);
  std::sort(lengths.begin(), lengths.end(), std::greater<int64_t>());
  const double mean = static_cast<double>(m.nnz()) / static_cast<double>(n);
  CHECK(static_cast<double>(lengths.front()) > 50 * mean);
  int64_t top_one_percent = 0;
  for (int64_t i = 0; i < n / 100; ++i) top_one_percent += lengths[static_cast<size_t>(i)];
  CHECK(static_cast<double>(top_one_percent) > 0.15 * static_cast<double>(m.nnz()));
  const int64_t empty_rows = std::count(lengths.begin(), lengths.end(), 0);
  CHECK(empty_rows > n / 10);  // R-MAT leaves many vertices isolated

  // The same draws without relabelling: same degree multiset, and the hub is vertex 0.
  tk::RmatParameters plain;
  plain.relabel = false;
  const CooMatrix unlabelled = tk::rmat(scale, edge_factor, 11, plain);
  CHECK(unlabelled.nnz() == m.nnz());
  std::vector<int64_t> plain_lengths = row_lengths(unlabelled);
  CHECK(plain_lengths[0] == *std::max_element(plain_lengths.begin(), plain_lengths.end()));
  std::sort(plain_lengths.begin(), plain_lengths.end(), std::greater<int64_t>());
  CHECK(plain_lengths == lengths);

  CHECK_THROWS_AS(tk::rmat(0, 16, 1), std::invalid_argument);
  tk::RmatParameters bad;
  bad.a = 0.9;
  CHECK_THROWS_AS(tk::rmat(4, 16, 1, bad), std::invalid_argument);
}

TEST_CASE("banded: every entry within the band, and all of the band") {
  const int64_t n = 1000, w = 7;
  const CooMatrix m = tk::banded(n, w, 1);
  CHECK(m.nnz() == n * (2 * w + 1) - w * (w + 1));
  check_in_range(m);
  CHECK(sorted_distinct(m));
  int64_t outside = 0;
  for (size_t p = 0; p < m.row.size(); ++p) outside += std::abs(m.row[p] - m.col[p]) > w;
  CHECK(outside == 0);
  CHECK(tk::banded(5, 100, 1).nnz() == 25);  // band wider than the matrix: dense
  CHECK(tk::banded(0, 3, 1).nnz() == 0);
}

TEST_CASE("block_diagonal: entries only in the diagonal blocks, exact count per block") {
  const int64_t n = 1000, b = 64;  // 15 blocks of 64 and one of 40
  const CooMatrix full = tk::block_diagonal(n, b, 1.0, 1);
  CHECK(full.nnz() == 15 * 64 * 64 + 40 * 40);
  const CooMatrix half = tk::block_diagonal(n, b, 0.5, 1);
  CHECK(half.nnz() == 15 * 2048 + 800);
  for (const CooMatrix* m : {&full, &half}) {
    check_in_range(*m);
    CHECK(sorted_distinct(*m));
    int64_t outside = 0;
    for (size_t p = 0; p < m->row.size(); ++p) outside += m->row[p] / b != m->col[p] / b;
    CHECK(outside == 0);
  }
  CHECK_THROWS_AS(tk::block_diagonal(10, 0, 1.0, 1), std::invalid_argument);
  CHECK_THROWS_AS(tk::block_diagonal(10, 2, 1.5, 1), std::invalid_argument);
}

TEST_CASE("stochastic_block_model: dense clusters, sparse between, exact counts") {
  const int64_t n = 1003, clusters = 10;  // sizes 101 x 3 and 100 x 7
  const double p_in = 0.2, p_out = 0.01;
  const CooMatrix m = tk::stochastic_block_model(n, clusters, p_in, p_out, 5);
  check_in_range(m);
  CHECK(sorted_distinct(m));
  const auto cluster_of = [](int64_t i) { return i < 303 ? i / 101 : 3 + (i - 303) / 100; };
  std::map<int64_t, int64_t> inside;  // cluster -> entries in its diagonal block
  int64_t between = 0;
  for (size_t p = 0; p < m.row.size(); ++p) {
    if (cluster_of(m.row[p]) == cluster_of(m.col[p])) {
      ++inside[cluster_of(m.row[p])];
    } else {
      ++between;
    }
  }
  int64_t inside_area = 0;
  for (int64_t c = 0; c < clusters; ++c) {
    const int64_t size = c < 3 ? 101 : 100;
    inside_area += size * size;
    CHECK(inside[c] == std::llround(p_in * static_cast<double>(size * size)));
  }
  CHECK(between == std::llround(p_out * static_cast<double>(n * n - inside_area)));
  CHECK(same_matrix(m, tk::stochastic_block_model(n, clusters, p_in, p_out, 5)));
  CHECK_THROWS_AS(tk::stochastic_block_model(100, 0, 0.1, 0.01, 1), std::invalid_argument);
  CHECK_THROWS_AS(tk::stochastic_block_model(100, 4, 0.1, 0.6, 1), std::invalid_argument);
}

TEST_CASE("generators do not depend on the number of threads") {
  check_thread_independent([] { return tk::uniform_random(3000, 5000, 400000, 2); });
  check_thread_independent([] { return tk::rmat(15, 8, 2); });
  check_thread_independent([] { return tk::stochastic_block_model(20000, 20, 0.05, 0.0005, 2); });
}
