#include "cpu/pattern.hpp"

#include <algorithm>
#include <limits>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/half.hpp"

namespace sddmm::cpu {
namespace {

constexpr int64_t kNone = std::numeric_limits<int64_t>::max();

// Position of the first index outside [0, bound), or kNone.
int64_t first_out_of_range(const void* array, sddmm_index_type_t type, int64_t n, int64_t bound) {
  int64_t first = kNone;
#pragma omp parallel for reduction(min : first) schedule(static)
  for (int64_t p = 0; p < n; ++p) {
    const int64_t v = load_index(array, type, p);
    if ((v < 0 || v >= bound) && p < first) first = p;
  }
  return first;
}

void check_indices(const void* array, sddmm_index_type_t type, int64_t n, int64_t bound, const char* name) {
  const int64_t p = first_out_of_range(array, type, n, bound);
  if (p != kNone) {
    fail(SDDMM_STATUS_INDEX_OUT_OF_RANGE, name, "[", p, "] = ", load_index(array, type, p), " is out of range [0, ", bound, ")");
  }
}

void check_row_offsets(const void* offsets, sddmm_index_type_t type, int64_t rows, int64_t nnz) {
  if (rows == 0 && offsets == nullptr) {
    if (nnz != 0) fail(SDDMM_STATUS_INDEX_OUT_OF_RANGE, "row_offsets is empty (rows = 0) but nnz = ", nnz);
    return;
  }
  const int64_t first = load_index(offsets, type, 0);
  if (first != 0) fail(SDDMM_STATUS_INDEX_OUT_OF_RANGE, "row_offsets[0] = ", first, " must be 0");
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t lo = load_index(offsets, type, r);
    const int64_t hi = load_index(offsets, type, r + 1);
    if (hi < lo) fail(SDDMM_STATUS_INDEX_OUT_OF_RANGE, "row_offsets[", r + 1, "] = ", hi, " is less than row_offsets[", r, "] = ", lo);
    if (hi > nnz) fail(SDDMM_STATUS_INDEX_OUT_OF_RANGE, "row_offsets[", r + 1, "] = ", hi, " exceeds nnz = ", nnz);
  }
  const int64_t last = load_index(offsets, type, rows);
  if (last != nnz) fail(SDDMM_STATUS_INDEX_OUT_OF_RANGE, "row_offsets[", rows, "] = ", last, " must equal nnz = ", nnz);
}

// Stable counting sort of entries by key: entries keep caller order within one key, which is what
// makes SpMM's sums deterministic.
template <typename T>
Compressed<T> compress(const std::vector<int64_t>& key, const std::vector<int64_t>& other, const std::vector<T>& value,
                       int64_t outer) {
  Compressed<T> c;
  c.offsets.assign(static_cast<size_t>(outer) + 1, 0);
  for (int64_t k : key) ++c.offsets[static_cast<size_t>(k) + 1];
  for (int64_t i = 0; i < outer; ++i) c.offsets[i + 1] += c.offsets[i];
  std::vector<int64_t> next(c.offsets.begin(), c.offsets.end() - 1);
  c.index.resize(key.size());
  if (!value.empty()) c.value.resize(key.size());
  for (size_t p = 0; p < key.size(); ++p) {
    const int64_t dst = next[static_cast<size_t>(key[p])]++;
    c.index[dst] = other[p];
    if (!value.empty()) c.value[dst] = value[p];
  }
  return c;
}

}  // namespace

template <typename T>
Pattern<T> build_pattern(const MatrixInfo& info, const SparseInput& input) {
  const int64_t nnz = info.nnz;
  const bool csr = input.format == SparseInput::Format::kCsr;
  if (csr) {
    check_row_offsets(input.rows, input.index_type, info.rows, nnz);
  } else {
    check_indices(input.rows, input.index_type, nnz, info.rows, "row_idx");
  }
  check_indices(input.cols, input.index_type, nnz, info.cols, "col_idx");

  Pattern<T> p;
  p.rows = info.rows;
  p.cols = info.cols;
  p.row.resize(static_cast<size_t>(nnz));
  p.col.resize(static_cast<size_t>(nnz));
  if (csr) {
#pragma omp parallel for schedule(dynamic, 1024)
    for (int64_t r = 0; r < info.rows; ++r) {
      const int64_t end = load_index(input.rows, input.index_type, r + 1);
      for (int64_t e = load_index(input.rows, input.index_type, r); e < end; ++e) p.row[e] = r;
    }
  } else {
#pragma omp parallel for schedule(static)
    for (int64_t e = 0; e < nnz; ++e) p.row[e] = load_index(input.rows, input.index_type, e);
  }
#pragma omp parallel for schedule(static)
  for (int64_t e = 0; e < nnz; ++e) p.col[e] = load_index(input.cols, input.index_type, e);
  if (info.has_values) {
    const T* v = static_cast<const T*>(input.values);
    p.value.assign(v, v + nnz);
  }
  p.by_row = compress(p.row, p.col, p.value, info.rows);
  p.by_col = compress(p.col, p.row, p.value, info.cols);
  return p;
}

template Pattern<float> build_pattern<float>(const MatrixInfo&, const SparseInput&);
template Pattern<double> build_pattern<double>(const MatrixInfo&, const SparseInput&);
template Pattern<Float16> build_pattern<Float16>(const MatrixInfo&, const SparseInput&);
template Pattern<BFloat16> build_pattern<BFloat16>(const MatrixInfo&, const SparseInput&);

}  // namespace sddmm::cpu
