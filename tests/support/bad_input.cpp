#include "bad_input.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cases.hpp"
#include "memory.hpp"

namespace sddmm::test {
namespace {

// K or N: the odd widths the issue names, and vector-width multiples where only the offset pointer
// keeps the 16-byte path away.
constexpr int64_t kWidths[] = {1, 3, 5, 7, 127, 129, 4, 8, 128};

// Entries only in even rows and even columns, and none in the last six of either: odd and trailing
// rows and columns are never referenced.
testkit::CooMatrix even_rows_and_cols(int64_t rows, int64_t cols, int64_t nnz, uint64_t seed) {
  testkit::CooMatrix a = random_coo(rows, cols, nnz, seed);
  for (int64_t& r : a.row) r = 2 * (r % ((rows - 6) / 2));
  for (int64_t& c : a.col) c = 2 * (c % ((cols - 6) / 2));
  return a;
}

sddmm_status_t expect_success(sddmm_status_t s, const char* what) {
  CHECK_MESSAGE(s == SDDMM_STATUS_SUCCESS, std::string(what), ": ", std::string(sddmm_status_string(s)), " (",
                std::string(sddmm_last_error()), ")");  // doctest prints a char* as an address
  return s;
}

bool same_floats(const std::vector<float>& got, const std::vector<float>& want) {
  if (got.size() != want.size()) return false;
  for (size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i]) ? !std::isnan(got[i]) : got[i] != want[i]) return false;
  }
  return true;
}

std::string show(const std::vector<float>& v) {
  std::string s;
  for (float x : v) s += std::to_string(x) + " ";
  return s;
}

}  // namespace

std::vector<SddmmCase> offset_sddmm_cases() {
  std::vector<SddmmCase> cases;
  uint64_t seed = 2000;
  for (int64_t k : kWidths) {
    SddmmCase c{"operands one element off 16-byte alignment", random_coo(61, 47, 500, seed), k};
    c.offset = true;
    c.csr = k % 2 == 0;
    c.seed = seed++;
    cases.push_back(c);
  }
  return in_every_precision(cases);
}

std::vector<SpmmCase> offset_spmm_cases() {
  std::vector<SpmmCase> cases;
  uint64_t seed = 2100;
  for (int64_t n : kWidths) {
    for (bool transpose : {false, true}) {
      SpmmCase c{"operands one element off 16-byte alignment", random_coo(61, 47, 500, seed), n, transpose};
      c.offset = true;
      c.seed = seed++;
      cases.push_back(c);
    }
  }
  return in_every_precision(cases);
}

std::vector<SddmmCase> unreferenced_nan_sddmm_cases() {
  std::vector<SddmmCase> cases;
  uint64_t seed = 2200;
  for (int64_t k : {1, 4, 32, 33, 129}) {
    for (sddmm_layout_t l1 : {SDDMM_LAYOUT_ROW_MAJOR, SDDMM_LAYOUT_COL_MAJOR}) {
      for (sddmm_layout_t l2 : {SDDMM_LAYOUT_ROW_MAJOR, SDDMM_LAYOUT_COL_MAJOR}) {
        SddmmCase c{"NaN in unreferenced rows of x1 and columns of x2", even_rows_and_cols(90, 70, 800, seed), k};
        c.x1_layout = l1, c.x2_layout = l2, c.ld_pad = k % 2, c.seed = seed++;
        c.poison_unreferenced = true;
        cases.push_back(c);
      }
    }
  }
  return in_every_precision(cases);
}

std::vector<SpmmCase> unreferenced_nan_spmm_cases() {
  std::vector<SpmmCase> cases;
  uint64_t seed = 2300;
  for (int64_t n : {1, 4, 32, 33, 129}) {
    for (bool transpose : {false, true}) {
      for (sddmm_layout_t lx : {SDDMM_LAYOUT_ROW_MAJOR, SDDMM_LAYOUT_COL_MAJOR}) {
        SpmmCase c{"NaN in unreferenced rows of x", even_rows_and_cols(90, 70, 800, seed), n, transpose};
        c.x_layout = lx, c.ld_pad = n % 2, c.seed = seed++;
        c.poison_unreferenced = true;
        cases.push_back(c);
      }
    }
  }
  return in_every_precision(cases);
}

void check_inf_times_stored_zero(sddmm_backend_t backend) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // A is 3 x 4: (0,1) = 0, (1,2) = 2, (2,3) = 0, (2,0) = 1; row 0 of x1 holds Inf, column 3 of x2 NaN.
  Buffer rows = Buffer::from(backend, std::vector<int32_t>{0, 1, 2, 2});
  Buffer cols = Buffer::from(backend, std::vector<int32_t>{1, 2, 3, 0});
  Buffer vals = Buffer::from(backend, std::vector<float>{0, 2, 0, 1});
  sddmm_matrix_t a = nullptr;
  REQUIRE(expect_success(sddmm_create_coo(&a, 3, 4, 4, rows.get(), cols.get(), SDDMM_INDEX_INT32, vals.get(),
                                          SDDMM_DTYPE_FLOAT32, backend, 0, 0, nullptr),
                         "create") == SDDMM_STATUS_SUCCESS);
  Buffer x1 = Buffer::from(backend, std::vector<float>{inf, 1, 1, 1, 1, 1});        // 3 x 2 row-major
  Buffer x2 = Buffer::from(backend, std::vector<float>{1, 1, 1, 1, 1, 1, nan, 1});  // 2 x 4 column-major
  Buffer out = Buffer::from(backend, std::vector<float>(4, -1.0f));
  const sddmm_dense_t d1{x1.get(), 3, 2, 2, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
  const sddmm_dense_t d2{x2.get(), 2, 4, 2, SDDMM_LAYOUT_COL_MAJOR, SDDMM_DTYPE_FLOAT32};
  expect_success(sddmm_execute(a, &d1, &d2, out.get(), SDDMM_DTYPE_FLOAT32, nullptr), "SDDMM");
  synchronize(backend);
  const std::vector<float> sddmm_out = out.to_host<float>(4);
  CHECK_MESSAGE(same_floats(sddmm_out, {nan, 4, nan, 2}), "SDDMM gave ", show(sddmm_out), ", want nan 4 nan 2");

  // Y = A X with row 1 of X = {Inf, 1}: the stored 0 at (0,1) gives NaN in column 0 and 0 in column 1.
  Buffer x = Buffer::from(backend, std::vector<float>{1, 1, inf, 1, 1, 1, 1, 1});  // 4 x 2
  Buffer y = Buffer::from(backend, std::vector<float>(6, -1.0f));                  // 3 x 2
  const sddmm_dense_t dx{x.get(), 4, 2, 2, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
  const sddmm_dense_t dy{y.get(), 3, 2, 2, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
  expect_success(spmm_execute(a, &dx, &dy, SDDMM_OPERATION_NON_TRANSPOSE, nullptr), "SpMM");
  synchronize(backend);
  const std::vector<float> spmm_out = y.to_host<float>(6);
  CHECK_MESSAGE(same_floats(spmm_out, {nan, 0, 2, 2, 1, 1}), "SpMM gave ", show(spmm_out), ", want nan 0 2 2 1 1");

  // Y = A^T X with row 0 of X = {Inf, 1}: only the stored 0 at (0,1) meets it.
  Buffer xt = Buffer::from(backend, std::vector<float>{inf, 1, 1, 1, 1, 1});  // 3 x 2
  Buffer yt = Buffer::from(backend, std::vector<float>(8, -1.0f));            // 4 x 2
  const sddmm_dense_t dxt{xt.get(), 3, 2, 2, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
  const sddmm_dense_t dyt{yt.get(), 4, 2, 2, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
  expect_success(spmm_execute(a, &dxt, &dyt, SDDMM_OPERATION_TRANSPOSE, nullptr), "SpMM^T");
  synchronize(backend);
  const std::vector<float> spmm_t_out = yt.to_host<float>(8);
  CHECK_MESSAGE(same_floats(spmm_t_out, {1, 1, nan, 0, 2, 2, 0, 0}), "SpMM^T gave ", show(spmm_t_out),
                ", want 1 1 nan 0 2 2 0 0");
  sddmm_destroy(a);

  // K = 0: out[p] = value[p] * 0, so an Inf value gives NaN, a finite one 0.
  Buffer inf_vals = Buffer::from(backend, std::vector<float>{inf, 3, 0, -2});
  REQUIRE(expect_success(sddmm_create_coo(&a, 3, 4, 4, rows.get(), cols.get(), SDDMM_INDEX_INT32, inf_vals.get(),
                                          SDDMM_DTYPE_FLOAT32, backend, 0, 0, nullptr),
                         "create") == SDDMM_STATUS_SUCCESS);
  const sddmm_dense_t k0_x1{x1.get(), 3, 0, 1, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
  const sddmm_dense_t k0_x2{x2.get(), 0, 4, 1, SDDMM_LAYOUT_COL_MAJOR, SDDMM_DTYPE_FLOAT32};
  expect_success(sddmm_execute(a, &k0_x1, &k0_x2, out.get(), SDDMM_DTYPE_FLOAT32, nullptr), "SDDMM, K = 0");
  synchronize(backend);
  const std::vector<float> k0_out = out.to_host<float>(4);
  CHECK_MESSAGE(same_floats(k0_out, {nan, 0, 0, 0}), "SDDMM with K = 0 gave ", show(k0_out), ", want nan 0 0 0");
  sddmm_destroy(a);
}

void check_null_arrays_with_zero_sizes(sddmm_backend_t backend) {
  const auto f32 = SDDMM_DTYPE_FLOAT32;
  const auto row_major = SDDMM_LAYOUT_ROW_MAJOR;
  Buffer x1 = Buffer::from(backend, std::vector<float>(15, 1.0f));  // 5 x 3
  Buffer x2 = Buffer::from(backend, std::vector<float>(21, 1.0f));  // 3 x 7
  Buffer x = Buffer::from(backend, std::vector<float>(14, 1.0f));   // 7 x 2
  Buffer y = Buffer::from(backend, std::vector<float>(14, -1.0f));  // 5 x 2 or 7 x 2
  const sddmm_dense_t d1{x1.get(), 5, 3, 3, row_major, f32};
  const sddmm_dense_t d2{x2.get(), 3, 7, 7, row_major, f32};
  const sddmm_dense_t no_k1{nullptr, 5, 0, 1, row_major, f32};
  const sddmm_dense_t no_k2{nullptr, 0, 7, 7, row_major, f32};
  const sddmm_dense_t no_n_x{nullptr, 7, 0, 1, row_major, f32};
  const sddmm_dense_t no_n_y{nullptr, 5, 0, 1, row_major, f32};

  SUBCASE("COO 5 x 7 with nnz = 0 and every array NULL") {
    sddmm_matrix_t a = nullptr;
    REQUIRE(expect_success(sddmm_create_coo(&a, 5, 7, 0, nullptr, nullptr, SDDMM_INDEX_INT64, nullptr, f32, backend, 0,
                                            0, nullptr),
                           "create") == SDDMM_STATUS_SUCCESS);
    int64_t r = -1, c = -1, n = -1;
    expect_success(sddmm_get_shape(a, &r, &c, &n), "get_shape");
    CHECK((r == 5 && c == 7 && n == 0));
    expect_success(sddmm_execute(a, &d1, &d2, nullptr, f32, nullptr), "SDDMM with out NULL");
    expect_success(sddmm_execute(a, &no_k1, &no_k2, nullptr, f32, nullptr), "SDDMM with K = 0, all NULL");
    const sddmm_dense_t dx{x.get(), 7, 2, 2, row_major, f32};
    const sddmm_dense_t dy{y.get(), 5, 2, 2, row_major, f32};
    expect_success(spmm_execute(a, &dx, &dy, SDDMM_OPERATION_NON_TRANSPOSE, nullptr), "SpMM");
    synchronize(backend);
    CHECK_MESSAGE(y.to_host<float>(10) == std::vector<float>(10, 0.0f), "Y of an empty A must be all zeros");
    expect_success(spmm_execute(a, &no_n_x, &no_n_y, SDDMM_OPERATION_NON_TRANSPOSE, nullptr),
                   "SpMM with N = 0, all NULL");
    sddmm_destroy(a);
  }
  SUBCASE("CSR 0 x 7 with every array NULL") {
    sddmm_matrix_t a = nullptr;
    REQUIRE(expect_success(sddmm_create_csr(&a, 0, 7, 0, nullptr, nullptr, SDDMM_INDEX_INT32, nullptr, f32, backend, 0,
                                            0, nullptr),
                           "create") == SDDMM_STATUS_SUCCESS);
    const sddmm_dense_t x1_empty{nullptr, 0, 3, 3, row_major, f32};
    expect_success(sddmm_execute(a, &x1_empty, &d2, nullptr, f32, nullptr), "SDDMM with x1 0 x 3 NULL, out NULL");
    // A^T is 7 x 0: Y = A^T X is 7 x 2 of zeros, from an X with no rows.
    const sddmm_dense_t x_empty{nullptr, 0, 2, 2, row_major, f32};
    const sddmm_dense_t dy{y.get(), 7, 2, 2, row_major, f32};
    expect_success(spmm_execute(a, &x_empty, &dy, SDDMM_OPERATION_TRANSPOSE, nullptr), "SpMM^T with X NULL");
    synchronize(backend);
    CHECK_MESSAGE(y.to_host<float>(14) == std::vector<float>(14, 0.0f), "Y = A^T X of an empty A must be all zeros");
    sddmm_destroy(a);
  }
  SUBCASE("COO 0 x 0: every operand and output NULL") {
    sddmm_matrix_t a = nullptr;
    REQUIRE(expect_success(sddmm_create_coo(&a, 0, 0, 0, nullptr, nullptr, SDDMM_INDEX_INT32, nullptr, f32, backend, 0,
                                            0, nullptr),
                           "create") == SDDMM_STATUS_SUCCESS);
    const sddmm_dense_t none{nullptr, 0, 0, 1, row_major, f32};
    expect_success(sddmm_execute(a, &none, &none, nullptr, f32, nullptr), "SDDMM");
    expect_success(spmm_execute(a, &none, &none, SDDMM_OPERATION_NON_TRANSPOSE, nullptr), "SpMM");
    expect_success(spmm_execute(a, &none, &none, SDDMM_OPERATION_TRANSPOSE, nullptr), "SpMM^T");
    sddmm_destroy(a);
  }
  SUBCASE("nnz > 0 with K = 0: x1 and x2 NULL, out all zeros") {
    Buffer rows = Buffer::from(backend, std::vector<int32_t>{0, 4, 2});
    Buffer cols = Buffer::from(backend, std::vector<int32_t>{6, 0, 3});
    Buffer out = Buffer::from(backend, std::vector<float>(3, -1.0f));
    sddmm_matrix_t a = nullptr;
    REQUIRE(expect_success(sddmm_create_coo(&a, 5, 7, 3, rows.get(), cols.get(), SDDMM_INDEX_INT32, nullptr, f32,
                                            backend, 0, 0, nullptr),
                           "create") == SDDMM_STATUS_SUCCESS);
    expect_success(sddmm_execute(a, &no_k1, &no_k2, out.get(), f32, nullptr), "SDDMM with K = 0");
    synchronize(backend);
    CHECK(out.to_host<float>(3) == std::vector<float>(3, 0.0f));
    // An empty operand's ld only has to be >= 1: row * ld must not be formed from it.
    const sddmm_dense_t huge_ld1{nullptr, 5, 0, INT64_MAX, row_major, f32};
    const sddmm_dense_t huge_ld2{nullptr, 0, 7, INT64_MAX, SDDMM_LAYOUT_COL_MAJOR, f32};
    out.upload(std::vector<float>(3, -1.0f).data(), 3 * sizeof(float));
    expect_success(sddmm_execute(a, &huge_ld1, &huge_ld2, out.get(), f32, nullptr), "SDDMM with K = 0, ld = INT64_MAX");
    synchronize(backend);
    CHECK(out.to_host<float>(3) == std::vector<float>(3, 0.0f));
    sddmm_destroy(a);
  }
}

}  // namespace sddmm::test
