#include "sparse_input.hpp"

#include <algorithm>
#include <limits>

#include "c_calls.h"

namespace sddmm::fuzz {
namespace {

constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax64 = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin32 = std::numeric_limits<int32_t>::min();
constexpr int64_t kMax32 = std::numeric_limits<int32_t>::max();

// Sizes the library must refuse before it allocates or reads anything: negative, or so large that
// (size + 1) * 8 bytes overflows int64. The harness allocates nothing for them.
constexpr int64_t kRefusedSizes[] = {-1, -7, kMin64, int64_t{1} << 60, (int64_t{1} << 61) + 3, kMax64 - 1, kMax64};
// Refused too with int32 indices: beyond what int32 can index.
constexpr int64_t kRefusedInt32Sizes[] = {-1, kMin64, kMax32 + 1, (int64_t{1} << 32) + 5, int64_t{1} << 40, kMax64};

int64_t draw_size(ByteReader& in, int64_t small_bound, int t, bool& refused) {
  const uint8_t b = in.byte();
  if (b < 236) return small_bound <= 255 ? b % (small_bound + 1) : in.below(small_bound + 1);
  refused = true;
  return t == SDDMM_INDEX_INT32 ? in.pick(kRefusedInt32Sizes) : in.pick(kRefusedSizes);
}

int64_t draw_index(ByteReader& in, int64_t dim) {
  const uint8_t b = in.byte();
  if (b < 250) return dim > 0 ? b % dim : 0;
  const int64_t hostile[] = {-1, dim, dim + 1000, kMax32, kMin32, kMax64, kMin64};
  return in.pick(hostile);
}

double draw_value(ByteReader& in) {
  const uint8_t b = in.byte();
  if (b < 252) return b % 9 - 4;  // small integers: every sum is exact, in any order
  const double special[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                            -std::numeric_limits<double>::infinity(), 0.0};
  return in.pick(special);
}

// An array of `count` elements; NULL now and then, misaligned by 1..7 bytes now and then.
CallerMemory draw_array(ByteReader& in, size_t count, size_t element) {
  const uint8_t b = in.byte();
  if (b >= 250) return CallerMemory();
  return CallerMemory(count, element, b >= 240 ? b % 7 + 1 : 0, 0);
}

void draw_enums(ByteReader& in, SparseInput& a, Verdict& v) {
  a.csr = in.byte() & 1;
  uint8_t b = in.byte();
  a.index_type = b < 240 ? b & 1 : 2 + b % 3;
  v.invalid(b >= 240, "index_type is not a valid enum value");
  b = in.byte();
  a.dtype = b < 230 ? b & 3 : 4 + b % 5;
  v.invalid(b >= 230, "value_dtype is not a dtype");
  b = in.byte();
  a.backend = b < 245 ? 0 : b < 250 ? 1 : 2 + b % 3;
  v.invalid(b >= 245, "the backend is CUDA (this build has none) or not a backend");
  b = in.byte();
  const int32_t devices[] = {-1, 1, std::numeric_limits<int32_t>::max(), std::numeric_limits<int32_t>::min()};
  a.device_id = b < 240 ? 0 : in.pick(devices);  // ignored by the CPU backend
  b = in.byte();
  a.flags = b < 230 ? 0u : b < 245 ? 1u : 1u << (1 + b % 31);
  v.invalid(b >= 245, "flags has an unknown bit");
}

// CSR offsets: sorted draws from [0, nnz] between 0 and nnz, sometimes one entry corrupted.
void fill_offsets(ByteReader& in, SparseInput& a) {
  std::vector<int64_t> o(static_cast<size_t>(a.rows) + 1, 0);
  for (int64_t r = 1; r < a.rows; ++r) o[r] = in.below(a.nnz + 1);
  if (a.rows > 1) std::sort(o.begin() + 1, o.begin() + a.rows);
  o[a.rows] = a.nnz;
  if (in.chance(10)) {
    const size_t q = in.byte() % o.size();
    const int64_t bad[] = {-1, a.nnz + 1, o[q] - 1, o[q] + 1, kMax32, kMin64};
    o[q] = in.pick(bad);
  }
  for (size_t i = 0; i < o.size(); ++i) a.row_arg.set_index(i, a.index_type, o[i]);
}

// Reads the arrays back as the library will see them (int32 truncation included) and notes what
// is out of range; for valid input, records the pattern in entry order.
void check_pattern(SparseInput& a, Verdict& v) {
  const auto t = a.index_type;
  if (a.csr) {
    bool ok = a.row_arg.index(0, t) == 0 && a.row_arg.index(static_cast<size_t>(a.rows), t) == a.nnz;
    for (int64_t r = 0; r < a.rows && ok; ++r) {
      const int64_t lo = a.row_arg.index(r, t), hi = a.row_arg.index(r + 1, t);
      ok = lo <= hi && hi <= a.nnz;
    }
    v.invalid(!ok, "row_offsets do not run monotonically from 0 to nnz");
  }
  for (int64_t p = 0; p < a.nnz && !a.csr; ++p) {
    const int64_t r = a.row_arg.index(p, t);
    v.invalid(r < 0 || r >= a.rows, "a row index is out of range");
  }
  for (int64_t p = 0; p < a.nnz; ++p) {
    const int64_t c = a.col_idx.index(p, t);
    v.invalid(c < 0 || c >= a.cols, "a column index is out of range");
  }
  if (v.must_fail()) return;
  for (int64_t r = 0; r < a.rows && a.csr; ++r) {
    for (int64_t e = a.row_arg.index(r, t); e < a.row_arg.index(r + 1, t); ++e) a.entry_row.push_back(r);
  }
  for (int64_t p = 0; p < a.nnz; ++p) {
    if (!a.csr) a.entry_row.push_back(a.row_arg.index(p, t));
    a.entry_col.push_back(a.col_idx.index(p, t));
    a.entry_value.push_back(a.values.get() == nullptr ? 1.0 : a.values.value(p, a.dtype));
  }
}

}  // namespace

SparseInput draw_sparse_input(ByteReader& in, Verdict& v) {
  SparseInput a;
  draw_enums(in, a, v);
  bool rows_refused = false, cols_refused = false, nnz_refused = false;
  a.rows = draw_size(in, 40, a.index_type, rows_refused);
  a.cols = draw_size(in, 40, a.index_type, cols_refused);
  a.nnz = draw_size(in, 300, a.index_type, nnz_refused);
  const bool refused = rows_refused || cols_refused || nnz_refused;
  v.invalid(refused, "a size is negative or too large for the index type or for int64 byte counts");
  // Arrays as long as the sizes that are not refused say (one element for a refused size: the
  // library must refuse before reading, or ASan sees the over-read).
  const size_t nnz = nnz_refused ? 1 : static_cast<size_t>(a.nnz);
  const size_t offsets = rows_refused ? 1 : static_cast<size_t>(a.rows) + 1;
  a.row_arg = draw_array(in, a.csr ? offsets : nnz, index_size(a.index_type));
  a.col_idx = draw_array(in, nnz, index_size(a.index_type));
  a.values = in.chance(40) ? CallerMemory() : draw_array(in, nnz, dtype_size(a.dtype));
  if (refused) return a;
  // What the library reads: COO indices and values when nnz > 0; CSR offsets whenever given.
  const bool row_read = a.csr ? a.row_arg.get() != nullptr : a.nnz > 0;
  const bool values_read = a.nnz > 0 && a.values.get() != nullptr;
  v.invalid(a.csr && a.row_arg.get() == nullptr && (a.rows > 0 || a.nnz > 0), "row_offsets is NULL");
  v.invalid(!a.csr && a.nnz > 0 && a.row_arg.get() == nullptr, "row_idx is NULL with nnz > 0");
  v.invalid(a.nnz > 0 && a.col_idx.get() == nullptr, "col_idx is NULL with nnz > 0");
  v.invalid(
      (row_read && !a.row_arg.aligned()) || (a.nnz > 0 && !a.col_idx.aligned()) || (values_read && !a.values.aligned()),
      "an array is not aligned to its element size");
  if (v.must_fail()) return a;
  if (a.csr) {
    if (a.row_arg.get() != nullptr) fill_offsets(in, a);
    for (size_t p = 0; p < nnz; ++p) a.col_idx.set_index(p, a.index_type, draw_index(in, a.cols));
  } else {
    for (size_t p = 0; p < nnz; ++p) a.row_arg.set_index(p, a.index_type, draw_index(in, a.rows));
    for (size_t p = 0; p < nnz; ++p) a.col_idx.set_index(p, a.index_type, draw_index(in, a.cols));
  }
  if (a.values.get() != nullptr) {
    for (size_t p = 0; p < nnz; ++p) a.values.set_value(p, a.dtype, draw_value(in));
  }
  if (a.csr && a.row_arg.get() == nullptr) return a;  // rows = nnz = 0: nothing to check
  check_pattern(a, v);
  return a;
}

sddmm_status_t create(const SparseInput& a, sddmm_matrix_t* handle) {
  return fuzz_create(a.csr, handle, a.rows, a.cols, a.nnz, a.row_arg.get(), a.col_idx.get(), a.index_type,
                     a.values.get(), a.dtype, a.backend, a.device_id, a.flags);
}

}  // namespace sddmm::fuzz
