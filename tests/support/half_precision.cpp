#include "half_precision.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "differential.hpp"
#include "memory.hpp"
#include "precisions.hpp"
#include "reference.hpp"
#include "storage.hpp"

namespace sddmm::test {
namespace {

using testkit::CooMatrix;
using testkit::DenseMatrix;

constexpr double kInf = std::numeric_limits<double>::infinity();

bool has_16_bit_features(const Precision& p) {
  return p.features == SDDMM_DTYPE_FLOAT16 || p.features == SDDMM_DTYPE_BFLOAT16;
}

// An operand on the backend in dtype t and its descriptor (ld = the row or column length).
struct Dense {
  Buffer buffer;
  sddmm_dense_t desc;
  Dense(sddmm_backend_t backend, const DenseMatrix& m, sddmm_dtype_t t, sddmm_layout_t layout)
      : buffer(Buffer::from(backend, testkit::write_dense(m, t, layout, ld_of(m, layout), 0.0))),
        desc{buffer.get(), m.rows, m.cols, ld_of(m, layout), layout, t} {}
  static int64_t ld_of(const DenseMatrix& m, sddmm_layout_t layout) {
    return std::max<int64_t>(layout == SDDMM_LAYOUT_ROW_MAJOR ? m.cols : m.rows, 1);
  }
};

// SDDMM's output for x1 and x2 stored in p.features (x1 row-major, x2 column-major: the layouts the
// fast kernels take), out in p.output, read back as float64.
std::vector<double> run_sddmm(sddmm_backend_t backend, const Created& a, const DenseMatrix& x1, const DenseMatrix& x2,
                              const Precision& p) {
  const Dense d1(backend, x1, p.features, SDDMM_LAYOUT_ROW_MAJOR);
  const Dense d2(backend, x2, p.features, SDDMM_LAYOUT_COL_MAJOR);
  const size_t nnz = static_cast<size_t>(a.entries.nnz());
  Buffer out = Buffer::from(backend, testkit::to_storage(std::vector<double>(nnz, std::nan("")), p.output));
  const sddmm_status_t s = sddmm_execute(a.handle, &d1.desc, &d2.desc, out.get(), p.output, nullptr);
  INFO("SDDMM: ", std::string(sddmm_status_string(s)), ": ", std::string(sddmm_last_error()));
  REQUIRE(s == SDDMM_STATUS_SUCCESS);
  synchronize(backend);
  return testkit::from_storage(out.to_host<unsigned char>(nnz * testkit::size_of(p.output)), p.output);
}

// op(A) @ x with x and y row-major, x stored in p.features, y in p.output; y read back as float64.
std::vector<double> run_spmm(sddmm_backend_t backend, const Created& a, const DenseMatrix& x, const Precision& p,
                             bool transpose) {
  const int64_t out_rows = transpose ? a.entries.cols : a.entries.rows;
  const Dense dx(backend, x, p.features, SDDMM_LAYOUT_ROW_MAJOR);
  const DenseMatrix poison{out_rows, x.cols, std::vector<double>(static_cast<size_t>(out_rows * x.cols), std::nan(""))};
  const Dense dy(backend, poison, p.output, SDDMM_LAYOUT_ROW_MAJOR);
  const auto op = transpose ? SDDMM_OPERATION_TRANSPOSE : SDDMM_OPERATION_NON_TRANSPOSE;
  const sddmm_status_t s = spmm_execute(a.handle, &dx.desc, &dy.desc, op, nullptr);
  INFO(std::string(transpose ? "SpMM^T: " : "SpMM: "), std::string(sddmm_status_string(s)), ": ",
       std::string(sddmm_last_error()));
  REQUIRE(s == SDDMM_STATUS_SUCCESS);
  synchronize(backend);
  const size_t count = static_cast<size_t>(out_rows * x.cols);
  return testkit::from_storage(dy.buffer.to_host<unsigned char>(count * testkit::size_of(p.output)), p.output);
}

DenseMatrix filled(int64_t rows, int64_t cols, Rng& rng, double lo, double hi, sddmm_dtype_t t) {
  DenseMatrix m{rows, cols, std::vector<double>(static_cast<size_t>(rows * cols))};
  for (double& v : m.v) v = testkit::round_to(t, rng.uniform(lo, hi));
  return m;
}

// outer x inner matrix whose outer index o holds 256 entries, at inner indices (7 o + 2 j) mod inner
// (distinct for inner = 512); as rows of A, or (transposed) as its columns.
CooMatrix with_256_per_outer(int64_t outer, bool transposed, Rng& rng, double lo, double hi) {
  constexpr int64_t kInner = 512;
  CooMatrix a;
  a.rows = transposed ? kInner : outer;
  a.cols = transposed ? outer : kInner;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t j = 0; j < 256; ++j) {
      const int64_t inner = (7 * o + 2 * j) % kInner;
      a.row.push_back(transposed ? inner : o);
      a.col.push_back(transposed ? o : inner);
      a.val.push_back(rng.uniform(lo, hi));
    }
  }
  return a;
}

// Largest elementwise relative error (positive data: no cancellation), or normwise ||got - ref|| / ||ref||.
double relative_error(const std::vector<double>& got, const std::vector<double>& ref, bool elementwise) {
  double worst = 0.0, diff2 = 0.0, ref2 = 0.0;
  for (size_t i = 0; i < ref.size(); ++i) {
    const double d = std::fabs(got[i] - ref[i]);
    worst = std::max(worst, std::isnan(d) ? kInf : d / std::fabs(ref[i]));
    diff2 += d * d;
    ref2 += ref[i] * ref[i];
  }
  return elementwise ? worst : std::sqrt(diff2 / ref2);
}

// Outputs equal to `want` exactly (Inf with its sign included).
void check_exact(const std::vector<double>& got, const std::vector<double>& want, const char* what) {
  REQUIRE(got.size() == want.size());
  std::ostringstream text;
  bool same = true;
  for (size_t i = 0; i < got.size(); ++i) {
    same = same && got[i] == want[i];
    text << got[i] << (got[i] == want[i] ? "" : " (want " + std::to_string(want[i]) + ")") << " ";
  }
  CHECK_MESSAGE(same, std::string(what), ": ", text.str());
}

}  // namespace

void check_accuracy_at_k256(sddmm_backend_t backend) {
  std::ostringstream report;
  uint64_t seed = 8000;
  for (const Precision& p : supported_precisions()) {
    if (!has_16_bit_features(p)) continue;
    const double limit = p.features == SDDMM_DTYPE_FLOAT16 ? 2e-3 : 1e-2;
    for (const bool positive : {true, false}) {
      const double lo = positive ? 0.5 : -1.0, hi = positive ? 1.5 : 1.0;
      INFO(describe(p), positive ? ", data in [0.5, 1.5): elementwise" : ", data in [-1, 1): normwise", " limit ",
           limit, ", seed ", seed);
      Rng rng(seed++);
      CooMatrix a = random_coo(300, 200, 3000, rng.next());
      for (double& v : a.val) v = rng.uniform(lo, hi);
      Created m;
      create_matrix(backend, a, false, SDDMM_INDEX_INT32, p.values, m);
      const DenseMatrix x1 = filled(300, 256, rng, lo, hi, p.features);
      const DenseMatrix x2 = filled(256, 200, rng, lo, hi, p.features);
      const double sddmm_error =
          relative_error(run_sddmm(backend, m, x1, x2, p), testkit::reference_sddmm(m.entries, x1, x2).value, positive);
      CHECK(sddmm_error <= limit);

      double spmm_error[2] = {};
      for (const bool transpose : {false, true}) {
        Created s;
        create_matrix(backend, with_256_per_outer(64, transpose, rng, lo, hi), false, SDDMM_INDEX_INT32, p.values, s);
        const DenseMatrix x = filled(512, 64, rng, lo, hi, p.features);
        spmm_error[transpose] = relative_error(run_spmm(backend, s, x, p, transpose),
                                               testkit::reference_spmm(s.entries, x, transpose).value, positive);
        CHECK(spmm_error[transpose] <= limit);
      }
      report << "\n  " << describe(p) << (positive ? ", elementwise: " : ", normwise:    ") << "SDDMM " << sddmm_error
             << ", SpMM " << spmm_error[0] << ", SpMM^T " << spmm_error[1] << " (limit " << limit << ")";
    }
  }
  MESSAGE("relative error against the float64 reference at K = 256:", report.str());
}

void check_no_intermediate_overflow(sddmm_backend_t backend) {
  // x2's columns: +250, +250, -250, -250, ... with the last -249 (or all negated): the partial sums
  // reach 125000, the sum is +-1.
  constexpr int64_t kK = 64;
  DenseMatrix x1{2, kK, std::vector<double>(2 * kK, 250.0)};
  DenseMatrix x2{kK, 2, std::vector<double>(2 * kK)};
  for (int64_t k = 0; k < kK; ++k) {
    const double v = k == kK - 1 ? -249.0 : k % 4 < 2 ? 250.0 : -250.0;
    x2.at(k, 0) = v;
    x2.at(k, 1) = -v;
  }
  const CooMatrix diagonal{2, 2, {0, 1}, {0, 1}, {1.0, 0.5}};
  CooMatrix row{1, kK, std::vector<int64_t>(kK, 0), {}, std::vector<double>(kK, 250.0)};
  for (int64_t e = 0; e < kK; ++e) row.col.push_back(e);
  const CooMatrix column{kK, 1, row.col, row.row, row.val};
  for (const Precision& p : supported_precisions()) {
    if (!has_16_bit_features(p)) continue;
    INFO(describe(p));
    Created a, r, c;
    create_matrix(backend, diagonal, false, SDDMM_INDEX_INT32, p.values, a);
    create_matrix(backend, row, false, SDDMM_INDEX_INT32, p.values, r);
    create_matrix(backend, column, false, SDDMM_INDEX_INT32, p.values, c);
    check_exact(run_sddmm(backend, a, x1, x2, p), {250.0, -125.0}, "SDDMM");
    check_exact(run_spmm(backend, r, x2, p, false), {250.0 * 1, 250.0 * -1}, "SpMM");
    check_exact(run_spmm(backend, c, x2, p, true), {250.0, -250.0}, "SpMM^T");
  }
}

void check_overflow_to_inf(sddmm_backend_t backend) {
  struct Dot {
    double a0, a1, b0, b1;  // (a0, a1) . (b0, b1)
  };
  struct Table {
    Precision precision;
    std::vector<Dot> dots;
    std::vector<double> want;
  };
  const auto f32 = SDDMM_DTYPE_FLOAT32, f16 = SDDMM_DTYPE_FLOAT16, bf16 = SDDMM_DTYPE_BFLOAT16;
  const std::vector<Dot> near_65504 = {{32, 1, 2047, 0},    {32, 1, 2047, 15},    {32, 1, 2047, 16},
                                       {-32, -1, 2047, 16}, {250, 250, 250, 250}, {1, 0, 1, 0}};
  const std::vector<Dot> near_2_128 = {{0x1p100, 0, 0x1p27, 0}, {0x1p100, 0, 0x1p28, 0}, {-0x1p100, 0, 0x1p28, 0}};
  const std::vector<Table> tables = {
      {uniform(f16), near_65504, {65504, 65504, kInf, -kInf, kInf, 1}},
      {Precision{f32, f16, f32}, near_65504, {65504, 65519, 65520, -65520, 125000, 1}},
      {uniform(bf16), near_2_128, {0x1p127, kInf, -kInf}},
      {Precision{f32, bf16, f32}, near_2_128, {0x1p127, kInf, -kInf}},  // 2^128 is past float32 too
  };
  for (const Table& t : tables) {
    INFO(describe(t.precision));
    const auto n = static_cast<int64_t>(t.dots.size());
    // SDDMM: entry (i, i) of a diagonal A takes row i of x1 and column i of x2. SpMM: row i of A
    // holds a0, a1 at columns 2i, 2i + 1, where x holds b0, b1 (and A's transpose does the same).
    CooMatrix diagonal{n, n, {}, {}, std::vector<double>(static_cast<size_t>(n), 1.0)};
    CooMatrix pairs{n, 2 * n, {}, {}, {}};
    DenseMatrix x1{n, 2, {}}, x2{2, n, std::vector<double>(static_cast<size_t>(2 * n))}, x{2 * n, 1, {}};
    for (int64_t i = 0; i < n; ++i) {
      const Dot& d = t.dots[static_cast<size_t>(i)];
      diagonal.row.push_back(i), diagonal.col.push_back(i);
      pairs.row.insert(pairs.row.end(), {i, i});
      pairs.col.insert(pairs.col.end(), {2 * i, 2 * i + 1});
      pairs.val.insert(pairs.val.end(), {d.a0, d.a1});
      x1.v.insert(x1.v.end(), {d.a0, d.a1});
      x2.at(0, i) = d.b0, x2.at(1, i) = d.b1;
      x.v.insert(x.v.end(), {d.b0, d.b1});
    }
    const CooMatrix transposed{2 * n, n, pairs.col, pairs.row, pairs.val};
    Created a, s, st;
    create_matrix(backend, diagonal, false, SDDMM_INDEX_INT32, t.precision.values, a);
    create_matrix(backend, pairs, true, SDDMM_INDEX_INT32, t.precision.values, s);
    create_matrix(backend, transposed, false, SDDMM_INDEX_INT32, t.precision.values, st);
    check_exact(run_sddmm(backend, a, x1, x2, t.precision), t.want, "SDDMM");
    check_exact(run_spmm(backend, s, x, t.precision, false), t.want, "SpMM");
    check_exact(run_spmm(backend, st, x, t.precision, true), t.want, "SpMM^T");
  }
}

}  // namespace sddmm::test
