#include "rejections.hpp"

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "memory.hpp"
#include "problem.hpp"

namespace sddmm::test {

void check_create_rejections(sddmm_backend_t backend) {
  Problem p(backend);
  const sddmm_backend_t b = backend;
  const void* r = p.d_rows.get();
  const void* c = p.d_cols.get();
  const void* o = p.d_offsets.get();
  const void* v = p.d_vals.get();
  auto* const kSentinel = reinterpret_cast<sddmm_matrix_t>(uintptr_t{0x5eed});
  sddmm_matrix_t h = kSentinel;
  auto coo = [&](int64_t rows, int64_t cols, int64_t nnz, const void* ri, const void* ci, int it, const void* vals, int dt,
                 int backend_value, uint32_t flags) {
    h = kSentinel;
    const sddmm_status_t s = sddmm_create_coo(&h, rows, cols, nnz, ri, ci, static_cast<sddmm_index_type_t>(it), vals,
                                              static_cast<sddmm_dtype_t>(dt), static_cast<sddmm_backend_t>(backend_value), 0, flags, nullptr);
    CHECK_MESSAGE(h == kSentinel, "the output handle was written on failure");
    return s;
  };
  auto csr = [&](const std::vector<int32_t>& offsets, int64_t nnz) {
    Buffer d = Buffer::from(b, offsets);
    h = kSentinel;
    const sddmm_status_t s = sddmm_create_csr(&h, static_cast<int64_t>(offsets.size()) - 1, 10, nnz, d.get(), c,
                                              SDDMM_INDEX_INT32, v, SDDMM_DTYPE_FLOAT32, b, 0, 0, nullptr);
    CHECK(h == kSentinel);
    return s;
  };
  const int i32 = SDDMM_INDEX_INT32, f32 = SDDMM_DTYPE_FLOAT32;

  expect_rejected(p, "NULL handle pointer", SDDMM_STATUS_NULL_POINTER, "matrix", [&] {
    return sddmm_create_coo(nullptr, 4, 10, 5, r, c, SDDMM_INDEX_INT32, v, SDDMM_DTYPE_FLOAT32, b, 0, 0, nullptr);
  });
  expect_rejected(p, "negative rows", SDDMM_STATUS_INVALID_ARGUMENT, "rows = -4", [&] { return coo(-4, 10, 5, r, c, i32, v, f32, b, 0); });
  expect_rejected(p, "negative nnz", SDDMM_STATUS_INVALID_ARGUMENT, "nnz = -1", [&] { return coo(4, 10, -1, r, c, i32, v, f32, b, 0); });
  expect_rejected(p, "NULL row_idx", SDDMM_STATUS_NULL_POINTER, "row_idx", [&] { return coo(4, 10, 5, nullptr, c, i32, v, f32, b, 0); });
  expect_rejected(p, "NULL col_idx", SDDMM_STATUS_NULL_POINTER, "col_idx", [&] { return coo(4, 10, 5, r, nullptr, i32, v, f32, b, 0); });
  expect_rejected(p, "column index out of range", SDDMM_STATUS_INDEX_OUT_OF_RANGE, "col_idx[2] = 9 is out of range [0, 9)",
                  [&] { return coo(4, 9, 5, r, c, i32, v, f32, b, 0); });
  expect_rejected(p, "row index out of range", SDDMM_STATUS_INDEX_OUT_OF_RANGE, "row_idx[3] = 3 is out of range [0, 3)",
                  [&] { return coo(3, 10, 5, r, c, i32, v, f32, b, 0); });
  {
    Buffer neg = Buffer::from(b, std::vector<int32_t>{0, -1, 1, 3, 2});
    expect_rejected(p, "negative row index", SDDMM_STATUS_INDEX_OUT_OF_RANGE, "row_idx[1] = -1",
                    [&] { return coo(4, 10, 5, neg.get(), c, i32, v, f32, b, 0); });
  }
  expect_rejected(p, "invalid index type", SDDMM_STATUS_INVALID_ARGUMENT, "index_type = 7", [&] { return coo(4, 10, 5, r, c, 7, v, f32, b, 0); });
  expect_rejected(p, "invalid dtype", SDDMM_STATUS_INVALID_ARGUMENT, "value_dtype = 9", [&] { return coo(4, 10, 5, r, c, i32, v, 9, b, 0); });
  expect_rejected(p, "invalid backend", SDDMM_STATUS_INVALID_ARGUMENT, "backend = 5", [&] { return coo(4, 10, 5, r, c, i32, v, f32, 5, 0); });
  expect_rejected(p, "unknown flag bits", SDDMM_STATUS_INVALID_ARGUMENT, "flags", [&] { return coo(4, 10, 5, r, c, i32, v, f32, b, 0x80); });
  expect_rejected(p, "int32 indices with nnz >= 2^31 (sizes alone)", SDDMM_STATUS_SIZE_OVERFLOW, "does not fit int32",
                  [&] { return coo(4, 10, int64_t{1} << 31, r, c, i32, v, f32, b, 0); });
  expect_rejected(p, "int32 indices with cols >= 2^31", SDDMM_STATUS_SIZE_OVERFLOW, "does not fit int32",
                  [&] { return coo(4, int64_t{1} << 31, 5, r, c, i32, v, f32, b, 0); });
  expect_rejected(p, "nnz whose byte count overflows int64", SDDMM_STATUS_SIZE_OVERFLOW, "overflow",
                  [&] { return coo(4, 10, int64_t{1} << 61, r, c, SDDMM_INDEX_INT64, v, f32, b, 0); });
  {
    // Plans hold rows + 1 and cols + 1 offsets of 8 bytes: sizes whose byte counts overflow int64 are
    // refused before anything is read or allocated (they used to throw length_error on the CPU,
    // INTERNAL_ERROR, and to wrap the allocation size on the GPU).
    Buffer r64 = Buffer::from(b, std::vector<int64_t>{0, 1, 1, 3, 2});
    Buffer c64 = Buffer::from(b, std::vector<int64_t>{2, 0, 9, 4, 4});
    const int i64 = SDDMM_INDEX_INT64;
    expect_rejected(p, "rows = 2^60: (rows + 1) * 8 bytes overflow int64", SDDMM_STATUS_SIZE_OVERFLOW, "overflow",
                    [&] { return coo(int64_t{1} << 60, 10, 5, r64.get(), c64.get(), i64, v, f32, b, 0); });
    expect_rejected(p, "cols = 2^61 + 3: (cols + 1) * 8 wraps to 32 bytes in size_t", SDDMM_STATUS_SIZE_OVERFLOW, "overflow",
                    [&] { return coo(4, (int64_t{1} << 61) + 3, 5, r64.get(), c64.get(), i64, v, f32, b, 0); });
    expect_rejected(p, "rows = INT64_MAX - 1", SDDMM_STATUS_SIZE_OVERFLOW, "overflow",
                    [&] { return coo(INT64_MAX - 1, 10, 5, r64.get(), c64.get(), i64, v, f32, b, 0); });
  }
  {
    // Every load of an element assumes its alignment (and a misaligned one faults on the GPU).
    GuardedBuffer odd_cols(b, std::vector<unsigned char>(20, 0), 2);
    GuardedBuffer odd_vals(b, std::vector<unsigned char>(20, 0), 1);
    expect_rejected(p, "col_idx 2 bytes off int32 alignment", SDDMM_STATUS_INVALID_ARGUMENT, "col_idx is not aligned",
                    [&] { return coo(4, 10, 5, r, odd_cols.get(), i32, v, f32, b, 0); });
    expect_rejected(p, "values 1 byte off float32 alignment", SDDMM_STATUS_INVALID_ARGUMENT, "values is not aligned",
                    [&] { return coo(4, 10, 5, r, c, i32, odd_vals.get(), f32, b, 0); });
  }
  expect_rejected(p, "CSR offsets not starting at 0", SDDMM_STATUS_INDEX_OUT_OF_RANGE, "row_offsets[0] = 1", [&] { return csr({1, 1, 3, 4, 5}, 5); });
  expect_rejected(p, "CSR offsets decreasing", SDDMM_STATUS_INDEX_OUT_OF_RANGE, "row_offsets[2] = 0 is less than", [&] { return csr({0, 1, 0, 4, 5}, 5); });
  expect_rejected(p, "CSR offsets not ending at nnz", SDDMM_STATUS_INDEX_OUT_OF_RANGE, "must equal nnz", [&] { return csr({0, 1, 3, 4, 4}, 5); });
  expect_rejected(p, "CSR offset beyond nnz", SDDMM_STATUS_INDEX_OUT_OF_RANGE, "exceeds nnz", [&] { return csr({0, 1, 7, 4, 5}, 5); });
  expect_rejected(p, "NULL CSR offsets", SDDMM_STATUS_NULL_POINTER, "row_offsets", [&] {
    return sddmm_create_csr(&h, 4, 10, 5, nullptr, c, SDDMM_INDEX_INT32, v, SDDMM_DTYPE_FLOAT32, b, 0, 0, nullptr);
  });
  (void)o;

  // Zero sizes with NULL arrays are valid.
  sddmm_matrix_t empty = nullptr;
  CHECK(sddmm_create_coo(&empty, 0, 0, 0, nullptr, nullptr, SDDMM_INDEX_INT32, nullptr, SDDMM_DTYPE_FLOAT32, b, 0, 0, nullptr) == SDDMM_STATUS_SUCCESS);
  CHECK(sddmm_destroy(empty) == SDDMM_STATUS_SUCCESS);
  CHECK(sddmm_create_csr(&empty, 0, 7, 0, nullptr, nullptr, SDDMM_INDEX_INT64, nullptr, SDDMM_DTYPE_FLOAT64, b, 0, 0, nullptr) == SDDMM_STATUS_SUCCESS);
  CHECK(sddmm_destroy(empty) == SDDMM_STATUS_SUCCESS);
}

void check_execute_rejections(sddmm_backend_t backend) {
  Problem p(backend);
  sddmm_dense_t a = p.x1(), b = p.x2(), x = p.x(), y = p.y();
  void* out = p.d_out.get();
  auto sddmm = [&](const sddmm_dense_t* d1, const sddmm_dense_t* d2, void* o, int dt) {
    return sddmm_execute(p.handle, d1, d2, o, static_cast<sddmm_dtype_t>(dt), nullptr);
  };
  auto with = [](sddmm_dense_t d, const std::function<void(sddmm_dense_t&)>& edit) { edit(d); return d; };
  const int f32 = SDDMM_DTYPE_FLOAT32;

  expect_rejected(p, "NULL matrix", SDDMM_STATUS_NULL_POINTER, "matrix", [&] { return sddmm_execute(nullptr, &a, &b, out, SDDMM_DTYPE_FLOAT32, nullptr); });
  expect_rejected(p, "NULL x1", SDDMM_STATUS_NULL_POINTER, "x1 is NULL", [&] { return sddmm(nullptr, &b, out, f32); });
  expect_rejected(p, "NULL out", SDDMM_STATUS_NULL_POINTER, "out is NULL", [&] { return sddmm(&a, &b, nullptr, f32); });
  auto short_x1 = with(a, [](sddmm_dense_t& d) { d.rows = 3; });
  expect_rejected(p, "x1 rows != A rows", SDDMM_STATUS_SHAPE_MISMATCH, "x1 has 3 rows", [&] { return sddmm(&short_x1, &b, out, f32); });
  auto k_mismatch = with(b, [](sddmm_dense_t& d) { d.rows = 2; });
  expect_rejected(p, "x1.cols != x2.rows", SDDMM_STATUS_SHAPE_MISMATCH, "x1.cols must equal x2.rows", [&] { return sddmm(&a, &k_mismatch, out, f32); });
  auto narrow_x2 = with(b, [](sddmm_dense_t& d) { d.cols = 9; });
  expect_rejected(p, "x2 cols != A cols", SDDMM_STATUS_SHAPE_MISMATCH, "x2 has 9 columns", [&] { return sddmm(&a, &narrow_x2, out, f32); });
  auto small_ld = with(a, [](sddmm_dense_t& d) { d.ld = 2; });
  expect_rejected(p, "ld smaller than the row", SDDMM_STATUS_INVALID_ARGUMENT, "x1.ld = 2", [&] { return sddmm(&small_ld, &b, out, f32); });
  auto negative = with(a, [](sddmm_dense_t& d) { d.cols = -3; });
  expect_rejected(p, "negative operand shape", SDDMM_STATUS_INVALID_ARGUMENT, "negative shape", [&] { return sddmm(&negative, &b, out, f32); });
  auto null_data = with(b, [](sddmm_dense_t& d) { d.data = nullptr; });
  expect_rejected(p, "NULL data with a non-empty shape", SDDMM_STATUS_NULL_POINTER, "x2.data is NULL", [&] { return sddmm(&a, &null_data, out, f32); });
  auto bad_layout = with(b, [](sddmm_dense_t& d) { d.layout = static_cast<sddmm_layout_t>(4); });
  expect_rejected(p, "invalid layout", SDDMM_STATUS_INVALID_ARGUMENT, "x2.layout = 4", [&] { return sddmm(&a, &bad_layout, out, f32); });
  auto bad_dtype = with(a, [](sddmm_dense_t& d) { d.dtype = static_cast<sddmm_dtype_t>(11); });
  expect_rejected(p, "invalid operand dtype", SDDMM_STATUS_INVALID_ARGUMENT, "x1.dtype = 11", [&] { return sddmm(&bad_dtype, &b, out, f32); });
  auto f64_x1 = with(a, [](sddmm_dense_t& d) { d.dtype = SDDMM_DTYPE_FLOAT64; });
  expect_rejected(p, "x1 and x2 in different dtypes", SDDMM_STATUS_NOT_SUPPORTED, "x2.dtype is float32 but x1.dtype is float64", [&] { return sddmm(&f64_x1, &b, out, f32); });
  expect_rejected(p, "invalid out dtype", SDDMM_STATUS_INVALID_ARGUMENT, "out_dtype = 8", [&] { return sddmm(&a, &b, out, 8); });
  auto huge = with(a, [](sddmm_dense_t& d) { d.rows = 4; d.ld = int64_t{1} << 62; });
  expect_rejected(p, "operand extent overflows int64", SDDMM_STATUS_SIZE_OVERFLOW, "x1 (4 x 3, ld 4611686018427387904)", [&] { return sddmm(&huge, &b, out, f32); });
  auto aliased = with(a, [&](sddmm_dense_t& d) { d.data = out; });
  expect_rejected(p, "out aliases x1", SDDMM_STATUS_INVALID_ARGUMENT, "overlaps", [&] { return sddmm(&aliased, &b, out, f32); });

  auto spmm = [&](const sddmm_dense_t* dx, const sddmm_dense_t* dy, int op) {
    return spmm_execute(p.handle, dx, dy, static_cast<sddmm_operation_t>(op), nullptr);
  };
  auto short_y = with(y, [](sddmm_dense_t& d) { d.rows = 3; });
  expect_rejected(p, "y rows != A rows", SDDMM_STATUS_SHAPE_MISMATCH, "y has 3 rows", [&] { return spmm(&x, &short_y, 0); });
  expect_rejected(p, "transpose needs x with A's rows", SDDMM_STATUS_SHAPE_MISMATCH, "x has 10 rows but A^T has 4 columns", [&] { return spmm(&x, &y, 1); });
  auto wide_y = with(y, [](sddmm_dense_t& d) { d.cols = 1; });
  expect_rejected(p, "N mismatch", SDDMM_STATUS_SHAPE_MISMATCH, "N must agree", [&] { return spmm(&x, &wide_y, 0); });
  expect_rejected(p, "invalid operation", SDDMM_STATUS_INVALID_ARGUMENT, "operation = 2", [&] { return spmm(&x, &y, 2); });
  expect_rejected(p, "NULL y", SDDMM_STATUS_NULL_POINTER, "y is NULL", [&] { return spmm(&x, nullptr, 0); });
  auto y_on_x = with(y, [&](sddmm_dense_t& d) { d.data = x.data; });
  expect_rejected(p, "y aliases x", SDDMM_STATUS_INVALID_ARGUMENT, "y overlaps x", [&] { return spmm(&x, &y_on_x, 0); });

  // Pointers off their element's alignment: every load assumes it, and on the GPU a misaligned
  // load is an error that poisons the caller's context.
  GuardedBuffer odd_x1(p.backend, std::vector<unsigned char>(12 * 4, 0), 2);
  auto misaligned_x1 = with(a, [&](sddmm_dense_t& d) { d.data = odd_x1.get(); });
  expect_rejected(p, "x1.data 2 bytes off float32 alignment", SDDMM_STATUS_INVALID_ARGUMENT, "x1.data is not aligned",
                  [&] { return sddmm(&misaligned_x1, &b, out, f32); });
  GuardedBuffer odd_out(p.backend, std::vector<unsigned char>(5 * 4, 0x5A), 1);
  expect_rejected(p, "out 1 byte off float32 alignment", SDDMM_STATUS_INVALID_ARGUMENT, "out is not aligned",
                  [&] { return sddmm(&a, &b, odd_out.get(), f32); });
  CHECK(odd_out.download() == std::vector<unsigned char>(5 * 4, 0x5A));
  GuardedBuffer odd_y(p.backend, std::vector<unsigned char>(8 * 4, 0x5A), 2);
  auto misaligned_y = with(y, [&](sddmm_dense_t& d) { d.data = odd_y.get(); });
  expect_rejected(p, "y.data 2 bytes off float32 alignment", SDDMM_STATUS_INVALID_ARGUMENT, "y.data is not aligned",
                  [&] { return spmm(&x, &misaligned_y, 0); });
  CHECK(odd_y.download() == std::vector<unsigned char>(8 * 4, 0x5A));

  // The case: float64 operands 4 bytes off, on a float64 handle.
  sddmm_matrix_t f64 = nullptr;
  REQUIRE(sddmm_create_coo(&f64, 4, 10, 5, p.d_rows.get(), p.d_cols.get(), SDDMM_INDEX_INT32, nullptr, SDDMM_DTYPE_FLOAT64,
                           p.backend, 0, 0, nullptr) == SDDMM_STATUS_SUCCESS);
  GuardedBuffer x1_f64(p.backend, std::vector<unsigned char>(12 * 8, 0), 4);
  Buffer x2_f64(p.backend, 30 * 8);
  GuardedBuffer out_f64(p.backend, std::vector<unsigned char>(5 * 8, 0x5A), 0);
  const sddmm_dense_t d1{x1_f64.get(), 4, 3, 3, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT64};
  const sddmm_dense_t d2{x2_f64.get(), 3, 10, 3, SDDMM_LAYOUT_COL_MAJOR, SDDMM_DTYPE_FLOAT64};
  expect_rejected(p, "float64 x1.data 4 bytes off alignment", SDDMM_STATUS_INVALID_ARGUMENT, "x1.data is not aligned",
                  [&] { return sddmm_execute(f64, &d1, &d2, out_f64.get(), SDDMM_DTYPE_FLOAT64, nullptr); });
  CHECK(out_f64.download() == std::vector<unsigned char>(5 * 8, 0x5A));
  sddmm_destroy(f64);
}

}  // namespace sddmm::test
