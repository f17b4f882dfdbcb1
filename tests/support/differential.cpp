#include "differential.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <vector>

#include <doctest/doctest.h>

#include "memory.hpp"
#include "reference.hpp"
#include "storage.hpp"

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

namespace {

void reorder_entries(std::vector<int32_t>& row, std::vector<int32_t>& col, const std::vector<size_t>& order) {
  std::vector<int32_t> r(order.size()), c(order.size());
  for (size_t i = 0; i < order.size(); ++i) r[i] = row[order[i]], c[i] = col[order[i]];
  row.swap(r);
  col.swap(c);
}

}  // namespace

void shuffle_entries(std::vector<int32_t>& row, std::vector<int32_t>& col, std::mt19937& rng) {
  std::vector<size_t> order(row.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::shuffle(order.begin(), order.end(), rng);
  reorder_entries(row, col, order);
}

void sort_entries_by_row(std::vector<int32_t>& row, std::vector<int32_t>& col) {
  std::vector<size_t> order(row.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return row[x] < row[y]; });
  reorder_entries(row, col, order);
}

namespace {

// The entries of `a` in the stable order that `before` (on entry indices) sorts them into.
template <typename Before>
testkit::CooMatrix sorted_entries(const testkit::CooMatrix& a, Before&& before) {
  std::vector<int64_t> order(static_cast<size_t>(a.nnz()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), before);
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

}  // namespace

testkit::CooMatrix sorted_by_row(const testkit::CooMatrix& a, bool columns_too) {
  return sorted_entries(a, [&](int64_t x, int64_t y) {
    return a.row[x] != a.row[y] ? a.row[x] < a.row[y] : columns_too && a.col[x] < a.col[y];
  });
}

testkit::CooMatrix sorted_by_column(const testkit::CooMatrix& a) {
  return sorted_entries(
      a, [&](int64_t x, int64_t y) { return a.col[x] != a.col[y] ? a.col[x] < a.col[y] : a.row[x] < a.row[y]; });
}

namespace {

// Float64 values in [-1, 1); they are rounded to their storage type when written (testkit::write_dense).
testkit::DenseMatrix random_dense(int64_t rows, int64_t cols, Rng& rng) {
  testkit::DenseMatrix m{rows, cols, std::vector<double>(static_cast<size_t>(rows * cols))};
  for (double& v : m.v) v = rng.uniform(-1.0, 1.0);
  return m;
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

sddmm_dense_t describe(void* data, int64_t rows, int64_t cols, sddmm_layout_t layout, int64_t pad, sddmm_dtype_t t) {
  const int64_t width = layout == SDDMM_LAYOUT_ROW_MAJOR ? cols : rows;
  return sddmm_dense_t{data, rows, cols, std::max<int64_t>(width, 1) + pad, layout, t};
}

// An input operand on the backend, stored in dtype t (padding NaN), and its stored values read back
// for the reference. Members in initialisation order.
struct Operand {
  sddmm_dense_t desc;
  std::vector<unsigned char> bytes;
  testkit::DenseMatrix stored;
  GuardedBuffer buffer;

  Operand(sddmm_backend_t backend, const testkit::DenseMatrix& m, sddmm_dtype_t t, sddmm_layout_t layout, int64_t pad,
          bool offset)
      : desc(describe(nullptr, m.rows, m.cols, layout, pad, t)),
        bytes(testkit::write_dense(m, t, layout, desc.ld, kNaN)),
        stored(testkit::read_dense(bytes.data(), t, m.rows, m.cols, layout, desc.ld)),
        buffer(backend, bytes, offset ? testkit::size_of(t) : 0) {
    desc.data = buffer.get();
  }
};

std::vector<unsigned char> index_bytes(const std::vector<int64_t>& v, sddmm_index_type_t t) {
  const size_t elem = t == SDDMM_INDEX_INT64 ? 8 : 4;
  std::vector<unsigned char> out(std::max<size_t>(v.size(), 1) * elem);
  for (size_t i = 0; i < v.size(); ++i) {
    if (elem == 8) reinterpret_cast<int64_t*>(out.data())[i] = v[i]; else reinterpret_cast<int32_t*>(out.data())[i] = static_cast<int32_t>(v[i]);
  }
  return out;
}

std::string describe_case(const char* op, const std::string& name, const testkit::CooMatrix& a, int64_t k, uint64_t seed,
                          const Precision& p, sddmm_index_type_t it, bool csr) {
  std::ostringstream s;
  s << op << " case '" << name << "': A " << a.rows << " x " << a.cols << ", nnz " << a.nnz() << ", K/N " << k
    << ", seed " << seed << ", " << describe(p) << ", index " << (it == SDDMM_INDEX_INT64 ? "i64" : "i32")
    << (csr ? ", CSR" : ", COO");
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
    for (int64_t j = 0; j < length; ++j) (rows ? m.at(i, j) : m.at(j, i)) = kNaN;
  }
}

}  // namespace

Created::~Created() { sddmm_destroy(handle); }

void create_matrix(sddmm_backend_t backend, const testkit::CooMatrix& given, bool csr, sddmm_index_type_t it, sddmm_dtype_t t,
            Created& out) {
  out.entries = csr ? sorted_by_row(given) : given;
  testkit::round_values(out.entries, t);
  const auto& e = out.entries;
  const std::vector<int64_t> rows = csr ? csr_offsets(e.row, e.rows) : e.row;
  Buffer d_rows = Buffer::from(backend, index_bytes(rows, it));
  Buffer d_cols = Buffer::from(backend, index_bytes(e.col, it));
  Buffer d_vals = Buffer::from(backend, testkit::to_storage(e.val, t));
  const void* vals = e.val.empty() ? nullptr : d_vals.get();
  const sddmm_status_t s =
      csr ? sddmm_create_csr(&out.handle, e.rows, e.cols, e.nnz(), d_rows.get(), d_cols.get(), it, vals, t, backend, 0, 0, nullptr)
          : sddmm_create_coo(&out.handle, e.rows, e.cols, e.nnz(), d_rows.get(), d_cols.get(), it, vals, t, backend, 0, 0, nullptr);
  CHECK_MESSAGE(s == SDDMM_STATUS_SUCCESS, "create: ", std::string(sddmm_status_string(s)), ": ",
                std::string(sddmm_last_error()));
}

// Every element written (no NaN left from the poison), each within the tolerance, which grows with
// the number of terms, and not all zero.
void check_against_reference(const std::vector<unsigned char>& got, sddmm_dtype_t t, const Tolerance& tolerance,
                             const testkit::Reference& ref, int64_t terms, const std::vector<size_t>& positions) {
  const size_t element = testkit::size_of(t);
  int64_t bad = 0;
  bool any_nonzero_ref = false, any_nonzero_got = false;
  for (size_t i = 0; i < ref.value.size(); ++i) {
    const double g = testkit::load(t, got.data() + positions[i] * element);
    const double r = ref.value[i];
    const double tol = tolerance.bound(r, ref.magnitude[i], terms);
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
  INFO(describe_case("SDDMM", c.name, c.a, c.k, c.seed, c.precision, c.index_type, c.csr), ", x1 ",
       c.x1_layout == SDDMM_LAYOUT_ROW_MAJOR ? "row" : "col", "-major, x2 ",
       c.x2_layout == SDDMM_LAYOUT_ROW_MAJOR ? "row" : "col", "-major, ld pad ", c.ld_pad,
       c.offset ? ", one element off 16-byte alignment" : "", c.poison_unreferenced ? ", unused rows NaN" : "");
  const Precision& p = c.precision;
  Created m;
  create_matrix(backend, c.a, c.csr, c.index_type, p.values, m);
  if (m.handle == nullptr) return;
  Rng rng(c.seed);
  testkit::DenseMatrix x1 = random_dense(c.a.rows, c.k, rng);
  testkit::DenseMatrix x2 = random_dense(c.k, c.a.cols, rng);
  if (c.poison_unreferenced) {
    poison_unused(x1, c.a.row, true);
    poison_unused(x2, c.a.col, false);
  }
  const Operand d_x1(backend, x1, p.features, c.x1_layout, c.ld_pad, c.offset);
  const Operand d_x2(backend, x2, p.features, c.x2_layout, c.ld_pad, c.offset);

  const size_t nnz = static_cast<size_t>(c.a.nnz());
  GuardedBuffer d_out(backend, testkit::to_storage(std::vector<double>(nnz, kNaN), p.output),
                      c.offset ? testkit::size_of(p.output) : 0);
  const sddmm_status_t s = sddmm_execute(m.handle, &d_x1.desc, &d_x2.desc, d_out.get(), p.output, nullptr);
  // Not REQUIRE: a combination the backend refuses fails each case loudly, and the others still run.
  CHECK_MESSAGE(s == SDDMM_STATUS_SUCCESS, "execute: ", std::string(sddmm_status_string(s)), ": ",
                std::string(sddmm_last_error()));
  if (s != SDDMM_STATUS_SUCCESS) return;
  synchronize(backend);
  const auto got = d_out.download();
  CHECK_MESSAGE(d_out.guards_intact(), "out was written outside its nnz elements");
  std::vector<size_t> positions(nnz);
  std::iota(positions.begin(), positions.end(), size_t{0});
  check_against_reference(got, p.output, Tolerance(backend, p),
                          testkit::reference_sddmm(m.entries, d_x1.stored, d_x2.stored), c.k, positions);
}

void check_spmm(sddmm_backend_t backend, const SpmmCase& c) {
  INFO(describe_case(c.transpose ? "SpMM^T" : "SpMM", c.name, c.a, c.n, c.seed, c.precision, c.index_type, c.csr),
       ", x ", c.x_layout == SDDMM_LAYOUT_ROW_MAJOR ? "row" : "col", "-major, y ",
       c.y_layout == SDDMM_LAYOUT_ROW_MAJOR ? "row" : "col", "-major, ld pad ", c.ld_pad,
       c.offset ? ", one element off 16-byte alignment" : "", c.poison_unreferenced ? ", unused rows NaN" : "");
  const Precision& p = c.precision;
  Created m;
  create_matrix(backend, c.a, c.csr, c.index_type, p.values, m);
  if (m.handle == nullptr) return;
  const int64_t in_rows = c.transpose ? c.a.rows : c.a.cols;
  const int64_t out_rows = c.transpose ? c.a.cols : c.a.rows;
  Rng rng(c.seed);
  testkit::DenseMatrix x = random_dense(in_rows, c.n, rng);
  if (c.poison_unreferenced) poison_unused(x, c.transpose ? c.a.row : c.a.col, true);
  const Operand d_x(backend, x, p.features, c.x_layout, c.ld_pad, c.offset);
  const testkit::DenseMatrix poison{out_rows, c.n, std::vector<double>(static_cast<size_t>(out_rows * c.n), kNaN)};
  const sddmm_dense_t y_shape = describe(nullptr, out_rows, c.n, c.y_layout, c.ld_pad, p.output);
  const auto y_init = testkit::write_dense(poison, p.output, c.y_layout, y_shape.ld, kNaN);
  GuardedBuffer d_y(backend, y_init, c.offset ? testkit::size_of(p.output) : 0);
  sddmm_dense_t dy = y_shape;
  dy.data = d_y.get();
  const auto op = c.transpose ? SDDMM_OPERATION_TRANSPOSE : SDDMM_OPERATION_NON_TRANSPOSE;
  const sddmm_status_t s = spmm_execute(m.handle, &d_x.desc, &dy, op, nullptr);
  // Not REQUIRE: a combination the backend refuses fails each case loudly, and the others still run.
  CHECK_MESSAGE(s == SDDMM_STATUS_SUCCESS, "execute: ", std::string(sddmm_status_string(s)), ": ",
                std::string(sddmm_last_error()));
  if (s != SDDMM_STATUS_SUCCESS) return;
  synchronize(backend);
  const auto got = d_y.download();
  CHECK_MESSAGE(d_y.guards_intact(), "y was written outside its extent");
  std::vector<size_t> positions;
  for (int64_t i = 0; i < out_rows; ++i) {
    for (int64_t j = 0; j < c.n; ++j) {
      positions.push_back(static_cast<size_t>(c.y_layout == SDDMM_LAYOUT_ROW_MAJOR ? i * dy.ld + j : j * dy.ld + i));
    }
  }
  std::vector<int64_t> terms(static_cast<size_t>(out_rows) + 1, 0);
  for (int64_t e = 0; e < c.a.nnz(); ++e) ++terms[static_cast<size_t>(c.transpose ? c.a.col[e] : c.a.row[e])];
  const int64_t max_terms = *std::max_element(terms.begin(), terms.end());
  check_against_reference(got, p.output, Tolerance(backend, p),
                          testkit::reference_spmm(m.entries, d_x.stored, c.transpose), max_terms, positions);
  // Padding of y must be untouched (still NaN): the library writes only the rows x N window.
  const std::vector<double> y_after = testkit::from_storage(got, p.output);
  std::vector<bool> inside(y_after.size(), false);
  for (size_t q : positions) inside[q] = true;
  int64_t touched = 0;
  for (size_t i = 0; i < inside.size(); ++i) touched += !inside[i] && !std::isnan(y_after[i]);
  CHECK_MESSAGE(touched == 0, touched, " elements outside y's window were written");
}

}  // namespace sddmm::test
