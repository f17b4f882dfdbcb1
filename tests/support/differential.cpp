#include "differential.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <vector>

#include <doctest/doctest.h>

#include "memory.hpp"
#include "reference.hpp"

namespace sddmm::test {

uint64_t Rng::next() {
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
double Rng::uniform(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(next() >> 11) * 0x1.0p-53; }
int64_t Rng::below(int64_t n) { return static_cast<int64_t>(next() % static_cast<uint64_t>(n)); }

testkit::CooMatrix random_coo(int64_t rows, int64_t cols, int64_t nnz, uint64_t seed, bool with_values) {
  Rng rng(seed);
  testkit::CooMatrix a;
  a.rows = rows;
  a.cols = cols;
  for (int64_t p = 0; p < nnz; ++p) {
    a.row.push_back(rng.below(rows));
    a.col.push_back(rng.below(cols));
    if (with_values) a.val.push_back(rng.uniform(-2.0, 2.0));
  }
  return a;
}

testkit::CooMatrix sorted_by_row(const testkit::CooMatrix& a) {
  std::vector<int64_t> order(static_cast<size_t>(a.nnz()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t x, int64_t y) { return a.row[x] < a.row[y]; });
  testkit::CooMatrix s;
  s.rows = a.rows;
  s.cols = a.cols;
  for (int64_t p : order) {
    s.row.push_back(a.row[p]);
    s.col.push_back(a.col[p]);
    if (!a.val.empty()) s.val.push_back(a.val[p]);
  }
  return s;
}

namespace {

template <typename T>
double epsilon() { return std::numeric_limits<T>::epsilon(); }

double epsilon_of(sddmm_dtype_t t) { return t == SDDMM_DTYPE_FLOAT64 ? epsilon<double>() : epsilon<float>(); }

// Rounds through the storage type so the reference sees exactly the inputs the library sees.
double round_to(sddmm_dtype_t t, double v) { return t == SDDMM_DTYPE_FLOAT64 ? v : static_cast<double>(static_cast<float>(v)); }

testkit::DenseMatrix random_dense(int64_t rows, int64_t cols, sddmm_dtype_t t, Rng& rng) {
  testkit::DenseMatrix m{rows, cols, std::vector<double>(static_cast<size_t>(rows * cols))};
  for (double& v : m.v) v = round_to(t, rng.uniform(-1.0, 1.0));
  return m;
}

// Packs a matrix into storage of dtype t with the layout and padded leading dimension; padding = NaN.
std::vector<unsigned char> pack(const testkit::DenseMatrix& m, sddmm_dtype_t t, sddmm_layout_t layout, int64_t ld) {
  const bool row_major = layout == SDDMM_LAYOUT_ROW_MAJOR;
  const int64_t height = row_major ? m.rows : m.cols;
  const size_t count = static_cast<size_t>(std::max<int64_t>(height * ld, 1));
  const size_t elem = t == SDDMM_DTYPE_FLOAT64 ? 8 : 4;
  std::vector<unsigned char> bytes(count * elem);
  for (size_t i = 0; i < count; ++i) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (elem == 8) reinterpret_cast<double*>(bytes.data())[i] = nan; else reinterpret_cast<float*>(bytes.data())[i] = static_cast<float>(nan);
  }
  for (int64_t i = 0; i < m.rows; ++i) {
    for (int64_t j = 0; j < m.cols; ++j) {
      const size_t at = static_cast<size_t>(row_major ? i * ld + j : j * ld + i);
      if (elem == 8) reinterpret_cast<double*>(bytes.data())[at] = m.at(i, j); else reinterpret_cast<float*>(bytes.data())[at] = static_cast<float>(m.at(i, j));
    }
  }
  return bytes;
}

double element(const std::vector<unsigned char>& bytes, sddmm_dtype_t t, size_t i) {
  return t == SDDMM_DTYPE_FLOAT64 ? reinterpret_cast<const double*>(bytes.data())[i]
                                  : static_cast<double>(reinterpret_cast<const float*>(bytes.data())[i]);
}

sddmm_dense_t describe(void* data, int64_t rows, int64_t cols, sddmm_layout_t layout, int64_t pad, sddmm_dtype_t t) {
  const int64_t width = layout == SDDMM_LAYOUT_ROW_MAJOR ? cols : rows;
  return sddmm_dense_t{data, rows, cols, std::max<int64_t>(width, 1) + pad, layout, t};
}

std::vector<unsigned char> index_bytes(const std::vector<int64_t>& v, sddmm_index_type_t t) {
  const size_t elem = t == SDDMM_INDEX_INT64 ? 8 : 4;
  std::vector<unsigned char> out(std::max<size_t>(v.size(), 1) * elem);
  for (size_t i = 0; i < v.size(); ++i) {
    if (elem == 8) reinterpret_cast<int64_t*>(out.data())[i] = v[i]; else reinterpret_cast<int32_t*>(out.data())[i] = static_cast<int32_t>(v[i]);
  }
  return out;
}

std::vector<unsigned char> value_bytes(const std::vector<double>& v, sddmm_dtype_t t) {
  const size_t elem = t == SDDMM_DTYPE_FLOAT64 ? 8 : 4;
  std::vector<unsigned char> out(std::max<size_t>(v.size(), 1) * elem);
  for (size_t i = 0; i < v.size(); ++i) {
    if (elem == 8) reinterpret_cast<double*>(out.data())[i] = v[i]; else reinterpret_cast<float*>(out.data())[i] = static_cast<float>(v[i]);
  }
  return out;
}

// The library's handle for a case: from COO as given, or from the row-sorted COO as CSR.
struct Created {
  sddmm_matrix_t handle = nullptr;
  testkit::CooMatrix entries;  // in the order the library reports SDDMM outputs
  ~Created() { sddmm_destroy(handle); }
};

void create(sddmm_backend_t backend, const testkit::CooMatrix& given, bool csr, sddmm_index_type_t it, sddmm_dtype_t t,
            Created& out) {
  out.entries = csr ? sorted_by_row(given) : given;
  for (double& v : out.entries.val) v = round_to(t, v);
  const auto& e = out.entries;
  std::vector<int64_t> rows = e.row;
  if (csr) {
    rows.assign(static_cast<size_t>(e.rows) + 1, 0);
    for (int64_t r : e.row) ++rows[static_cast<size_t>(r) + 1];
    for (size_t i = 1; i < rows.size(); ++i) rows[i] += rows[i - 1];
  }
  Buffer d_rows = Buffer::from(backend, index_bytes(rows, it));
  Buffer d_cols = Buffer::from(backend, index_bytes(e.col, it));
  Buffer d_vals = Buffer::from(backend, value_bytes(e.val, t));
  const void* vals = e.val.empty() ? nullptr : d_vals.get();
  const sddmm_status_t s =
      csr ? sddmm_create_csr(&out.handle, e.rows, e.cols, e.nnz(), d_rows.get(), d_cols.get(), it, vals, t, backend, 0, 0, nullptr)
          : sddmm_create_coo(&out.handle, e.rows, e.cols, e.nnz(), d_rows.get(), d_cols.get(), it, vals, t, backend, 0, 0, nullptr);
  INFO("create: ", sddmm_last_error());
  REQUIRE(s == SDDMM_STATUS_SUCCESS);
}

std::string describe_case(const char* op, const std::string& name, const testkit::CooMatrix& a, int64_t k, uint64_t seed,
                          sddmm_dtype_t t, sddmm_index_type_t it, bool csr) {
  std::ostringstream s;
  s << op << " case '" << name << "': A " << a.rows << " x " << a.cols << ", nnz " << a.nnz() << ", K/N " << k
    << ", seed " << seed << ", dtype " << (t == SDDMM_DTYPE_FLOAT64 ? "f64" : "f32") << ", index "
    << (it == SDDMM_INDEX_INT64 ? "i64" : "i32") << (csr ? ", CSR" : ", COO");
  return s.str();
}

// NaN in every row (or column) of m that no entry reads, `used` listing the ones read: reading an
// unused one brings NaN into the output.
void poison_unused(testkit::DenseMatrix& m, const std::vector<int64_t>& used, bool rows) {
  const int64_t count = rows ? m.rows : m.cols;
  const int64_t length = rows ? m.cols : m.rows;
  std::vector<bool> seen(static_cast<size_t>(count), false);
  for (int64_t i : used) seen[static_cast<size_t>(i)] = true;
  for (int64_t i = 0; i < count; ++i) {
    if (seen[static_cast<size_t>(i)]) continue;
    for (int64_t j = 0; j < length; ++j) (rows ? m.at(i, j) : m.at(j, i)) = std::numeric_limits<double>::quiet_NaN();
  }
}

}  // namespace

// Every element written (no NaN left from the poison), each within gamma * magnitude where gamma
// grows with the number of terms, and not all zero.
void check_against_reference(const std::vector<unsigned char>& got, sddmm_dtype_t t, const testkit::Reference& ref,
                             int64_t terms, const std::vector<size_t>& positions) {
  const double gamma = 2.0 * static_cast<double>(terms + 2) * epsilon_of(t);
  int64_t bad = 0;
  bool any_nonzero_ref = false, any_nonzero_got = false;
  for (size_t i = 0; i < ref.value.size(); ++i) {
    const double g = element(got, t, positions[i]);
    const double r = ref.value[i];
    const double tol = gamma * ref.magnitude[i] + std::numeric_limits<double>::min();
    any_nonzero_ref |= r != 0.0;
    any_nonzero_got |= g != 0.0;
    if (!(std::fabs(g - r) <= tol)) {
      if (bad < 5) FAIL_CHECK("output ", i, " = ", g, ", reference ", r, ", tolerance ", tol);
      ++bad;
    }
  }
  CHECK_MESSAGE(bad == 0, bad, " of ", ref.value.size(), " outputs wrong or unwritten");
  if (any_nonzero_ref) CHECK_MESSAGE(any_nonzero_got, "all outputs are zero");
}

void check_sddmm(sddmm_backend_t backend, const SddmmCase& c) {
  INFO(describe_case("SDDMM", c.name, c.a, c.k, c.seed, c.dtype, c.index_type, c.csr),
       ", x1 ", c.x1_layout == SDDMM_LAYOUT_ROW_MAJOR ? "row" : "col", "-major, x2 ",
       c.x2_layout == SDDMM_LAYOUT_ROW_MAJOR ? "row" : "col", "-major, ld pad ", c.ld_pad, ", offset ", c.offset_bytes,
       " bytes", c.poison_unreferenced ? ", unused rows NaN" : "");
  Created m;
  create(backend, c.a, c.csr, c.index_type, c.dtype, m);
  Rng rng(c.seed);
  testkit::DenseMatrix x1 = random_dense(c.a.rows, c.k, c.dtype, rng);
  testkit::DenseMatrix x2 = random_dense(c.k, c.a.cols, c.dtype, rng);
  if (c.poison_unreferenced) {
    poison_unused(x1, c.a.row, true);
    poison_unused(x2, c.a.col, false);
  }
  const auto offset = static_cast<size_t>(c.offset_bytes);
  GuardedBuffer d_x1(backend, pack(x1, c.dtype, c.x1_layout, (c.x1_layout == SDDMM_LAYOUT_ROW_MAJOR ? std::max<int64_t>(c.k, 1) : std::max<int64_t>(c.a.rows, 1)) + c.ld_pad), offset);
  GuardedBuffer d_x2(backend, pack(x2, c.dtype, c.x2_layout, (c.x2_layout == SDDMM_LAYOUT_ROW_MAJOR ? std::max<int64_t>(c.a.cols, 1) : std::max<int64_t>(c.k, 1)) + c.ld_pad), offset);
  const sddmm_dense_t dx1 = describe(d_x1.get(), c.a.rows, c.k, c.x1_layout, c.ld_pad, c.dtype);
  const sddmm_dense_t dx2 = describe(d_x2.get(), c.k, c.a.cols, c.x2_layout, c.ld_pad, c.dtype);

  const size_t nnz = static_cast<size_t>(c.a.nnz());
  const std::vector<double> poison(nnz, std::numeric_limits<double>::quiet_NaN());
  GuardedBuffer d_out(backend, value_bytes(poison, c.dtype), offset);
  const sddmm_status_t s = sddmm_execute(m.handle, &dx1, &dx2, d_out.get(), c.dtype, nullptr);
  INFO("execute: ", sddmm_last_error());
  REQUIRE(s == SDDMM_STATUS_SUCCESS);
  synchronize(backend);
  const auto got = d_out.download();
  CHECK_MESSAGE(d_out.guards_intact(), "out was written outside its nnz elements");
  std::vector<size_t> positions(nnz);
  std::iota(positions.begin(), positions.end(), size_t{0});
  check_against_reference(got, c.dtype, testkit::reference_sddmm(m.entries, x1, x2), c.k, positions);
}

void check_spmm(sddmm_backend_t backend, const SpmmCase& c) {
  INFO(describe_case(c.transpose ? "SpMM^T" : "SpMM", c.name, c.a, c.n, c.seed, c.dtype, c.index_type, c.csr),
       ", x ", c.x_layout == SDDMM_LAYOUT_ROW_MAJOR ? "row" : "col", "-major, y ",
       c.y_layout == SDDMM_LAYOUT_ROW_MAJOR ? "row" : "col", "-major, ld pad ", c.ld_pad, ", offset ", c.offset_bytes,
       " bytes", c.poison_unreferenced ? ", unused rows NaN" : "");
  Created m;
  create(backend, c.a, c.csr, c.index_type, c.dtype, m);
  const int64_t in_rows = c.transpose ? c.a.rows : c.a.cols;
  const int64_t out_rows = c.transpose ? c.a.cols : c.a.rows;
  Rng rng(c.seed);
  testkit::DenseMatrix x = random_dense(in_rows, c.n, c.dtype, rng);
  if (c.poison_unreferenced) poison_unused(x, c.transpose ? c.a.row : c.a.col, true);
  const testkit::DenseMatrix poison{out_rows, c.n, std::vector<double>(static_cast<size_t>(out_rows * c.n), std::numeric_limits<double>::quiet_NaN())};
  const int64_t x_ld = (c.x_layout == SDDMM_LAYOUT_ROW_MAJOR ? std::max<int64_t>(c.n, 1) : std::max<int64_t>(in_rows, 1)) + c.ld_pad;
  const int64_t y_ld = (c.y_layout == SDDMM_LAYOUT_ROW_MAJOR ? std::max<int64_t>(c.n, 1) : std::max<int64_t>(out_rows, 1)) + c.ld_pad;
  const auto offset = static_cast<size_t>(c.offset_bytes);
  GuardedBuffer d_x(backend, pack(x, c.dtype, c.x_layout, x_ld), offset);
  const auto y_init = pack(poison, c.dtype, c.y_layout, y_ld);
  GuardedBuffer d_y(backend, y_init, offset);
  const sddmm_dense_t dx = describe(d_x.get(), in_rows, c.n, c.x_layout, c.ld_pad, c.dtype);
  const sddmm_dense_t dy = describe(d_y.get(), out_rows, c.n, c.y_layout, c.ld_pad, c.dtype);
  const sddmm_status_t s = spmm_execute(m.handle, &dx, &dy, c.transpose ? SDDMM_OPERATION_TRANSPOSE : SDDMM_OPERATION_NON_TRANSPOSE, nullptr);
  INFO("execute: ", sddmm_last_error());
  REQUIRE(s == SDDMM_STATUS_SUCCESS);
  synchronize(backend);
  const auto got = d_y.download();
  CHECK_MESSAGE(d_y.guards_intact(), "y was written outside its extent");
  std::vector<size_t> positions;
  for (int64_t i = 0; i < out_rows; ++i) {
    for (int64_t j = 0; j < c.n; ++j) positions.push_back(static_cast<size_t>(c.y_layout == SDDMM_LAYOUT_ROW_MAJOR ? i * y_ld + j : j * y_ld + i));
  }
  std::vector<int64_t> terms(static_cast<size_t>(out_rows) + 1, 0);
  for (int64_t p = 0; p < c.a.nnz(); ++p) ++terms[static_cast<size_t>(c.transpose ? c.a.col[p] : c.a.row[p])];
  const int64_t max_terms = *std::max_element(terms.begin(), terms.end());
  check_against_reference(got, c.dtype, testkit::reference_spmm(m.entries, x, c.transpose), max_terms, positions);
  // Padding of y must be untouched (still NaN): the library writes only the rows x N window.
  std::vector<bool> inside(y_init.size() / (c.dtype == SDDMM_DTYPE_FLOAT64 ? 8 : 4), false);
  for (size_t p : positions) inside[p] = true;
  int64_t touched = 0;
  for (size_t i = 0; i < inside.size(); ++i) touched += !inside[i] && !std::isnan(element(got, c.dtype, i));
  CHECK_MESSAGE(touched == 0, touched, " elements outside y's window were written");
}

}  // namespace sddmm::test
