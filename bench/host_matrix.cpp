#include "host_matrix.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "random.hpp"

namespace sddmm::bench {
namespace {

bool sorted_by_row_then_col(const testkit::CooMatrix& m) {
  for (size_t p = 1; p < m.row.size(); ++p) {
    if (m.row[p - 1] > m.row[p] || (m.row[p - 1] == m.row[p] && m.col[p - 1] > m.col[p])) return false;
  }
  return true;
}

// Reorders the entries by (row, col); stable, so repeats keep their file order.
void sort_entries(testkit::CooMatrix& m) {
  std::vector<size_t> order(m.row.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return m.row[x] != m.row[y] ? m.row[x] < m.row[y] : m.col[x] < m.col[y];
  });
  testkit::CooMatrix sorted;
  sorted.rows = m.rows;
  sorted.cols = m.cols;
  sorted.row.reserve(order.size());
  sorted.col.reserve(order.size());
  sorted.val.reserve(order.size());
  for (size_t p : order) {
    sorted.row.push_back(m.row[p]);
    sorted.col.push_back(m.col[p]);
    sorted.val.push_back(m.val[p]);
  }
  m = std::move(sorted);
}

void require_int32(int64_t value, const std::string& what, const std::string& name) {
  if (value < 0 || value > INT32_MAX) {
    throw std::runtime_error(name + ": " + what + " = " + std::to_string(value) + " does not fit the 32-bit indices");
  }
}

}  // namespace

HostMatrix prepare_matrix(const std::string& name, testkit::CooMatrix coo) {
  require_int32(coo.rows, "rows", name);
  require_int32(coo.cols, "cols", name);
  if (coo.val.empty()) coo.val.assign(coo.row.size(), 1.0);  // a pattern matrix: every value 1
  if (!sorted_by_row_then_col(coo)) sort_entries(coo);

  HostMatrix m;
  m.name = name;
  m.rows = coo.rows;
  m.cols = coo.cols;
  m.row.reserve(coo.row.size());
  m.col.reserve(coo.row.size());
  m.val.reserve(coo.row.size());
  for (size_t p = 0; p < coo.row.size(); ++p) {
    if (coo.row[p] < 0 || coo.row[p] >= coo.rows || coo.col[p] < 0 || coo.col[p] >= coo.cols) {
      throw std::runtime_error(name + ": entry " + std::to_string(p) + " lies outside the matrix");
    }
    if (!m.row.empty() && m.row.back() == coo.row[p] && m.col.back() == coo.col[p]) {
      m.val.back() += static_cast<float>(coo.val[p]);  // SpMM's meaning of a repeat: the values add
      ++m.merged_repeats;
      continue;
    }
    m.row.push_back(static_cast<int32_t>(coo.row[p]));
    m.col.push_back(static_cast<int32_t>(coo.col[p]));
    m.val.push_back(static_cast<float>(coo.val[p]));
  }
  m.nnz = static_cast<int64_t>(m.row.size());
  require_int32(m.nnz, "nnz", name);

  m.row_offsets.assign(static_cast<size_t>(m.rows) + 1, 0);
  for (int32_t r : m.row) ++m.row_offsets[static_cast<size_t>(r) + 1];
  for (int64_t r = 0; r < m.rows; ++r) {
    m.max_row_length = std::max<int64_t>(m.max_row_length, m.row_offsets[static_cast<size_t>(r) + 1]);
    m.row_offsets[static_cast<size_t>(r) + 1] += m.row_offsets[static_cast<size_t>(r)];
  }
  return m;
}

std::vector<float> random_operand(size_t count, uint64_t seed) {
  std::vector<float> values(count);
  testkit::SplitMix64 rng(seed);
  for (float& v : values) v = static_cast<float>(0.5 + rng.uniform());
  return values;
}

}  // namespace sddmm::bench
