// Part (a): nnz = 2^31 + 2^20, beyond int32: int64 indices and an int64 plan.
//
// A is CSR with int64 indices and no values (all ones), 58,149 rows x 73,712 columns. Rows
// r % 4 != 3 hold 32,768-65,520 entries in columns [0, 65521) (heavy rows, and those columns heavy,
// about 32,700 entries each); the others hold 0-255 entries in columns [65521, 73712) (light rows,
// light columns of about 220 entries).
// Rows and columns of each kind have entries beyond position 2^31. SDDMM with K = 32 (X1 row-major,
// X2 column-major), SpMM and SpMM^T with N = 32, float32 (the vector kernels).
//
// Device memory, n = nnz = 2,148,532,224 (rows and columns are few: only per-entry arrays count):
//   the caller's col_idx, 8 bytes an entry                     8n =  17.2 GB
//   plan creation at its peak, the column sort (compress.cu): 52n = 111.7 GB: entry_row and
//     entry_col 8n each, 32-bit column keys 4n, sorted keys and CUB's copy 4n each, positions
//     in, out and CUB's copy 8n each
//   together, the peak of the whole check                    60n = 128.9 GB = 120.1 GiB
//   after creation (col_idx freed): the plan 24n (entry_row, entry_col, csc_row) and SDDMM's out
//     4n = 60.2 GB; X1, X2, X and Y are below 10 MB each
// Host memory: the row offsets (465 KB) and the samples.
#include <cstdio>
#include <string>

#include "device_fill.hpp"
#include "memory.hpp"
#include "parts.hpp"

namespace sddmm::huge {
namespace {

constexpr int64_t kNnz = (int64_t{1} << 31) + (int64_t{1} << 20);
constexpr int64_t kWidth = 32;  // K of SDDMM, N of SpMM
constexpr int64_t kPeakBytesPerEntry = 60;
constexpr int64_t kHeavyColumns = 65521;  // primes: every band's a and b are invertible
constexpr int64_t kLightColumns = 8191;

Pattern pattern() {
  const RowKind heavy{Band{0, kHeavyColumns, 7919, 39208}, 32768, 32753};
  const RowKind light{Band{kHeavyColumns, kLightColumns, 1237, 6437}, 0, 256};
  // More rows than needed: laying out stops at kNnz entries.
  return Pattern{int64_t{1} << 20, kHeavyColumns + kLightColumns, heavy, light, 61};
}

}  // namespace

Outcome check_nnz_beyond_int32() {
  say("(a) nnz = 2^31 + 2^20 = %lld, int64 indices", static_cast<long long>(kNnz));
  const std::string missing = missing_device_memory(kPeakBytesPerEntry * kNnz + (int64_t{1} << 30));
  if (!missing.empty()) {
    std::printf("SKIPPED: (a) nnz beyond 2^31 %s\n", missing.c_str());
    return Outcome::kSkipped;
  }
  const LaidOut a(pattern(), kNnz);
  const int64_t rows = a.pattern.rows;
  const int64_t cols = a.pattern.cols;
  say("(a) A is %lld x %lld with %lld entries", static_cast<long long>(rows), static_cast<long long>(cols),
      static_cast<long long>(a.nnz()));
  // Heavy above 256 entries, whatever the mean row length (about 37,000 here, which would make
  // every row light by default): the split above, with rows and columns of both kinds.
  const Matrix m = create_on_device(a, SDDMM_INDEX_INT64, "256");

  // One buffer of rows x 32 and one of cols x 32 serve as X1 and X2 of SDDMM and as the X of SpMM^T
  // and of SpMM; Y is the larger of rows x 32 and cols x 32.
  const test::Buffer by_row(SDDMM_BACKEND_CUDA, static_cast<size_t>(rows * kWidth) * sizeof(float));
  const test::Buffer by_col(SDDMM_BACKEND_CUDA, static_cast<size_t>(cols * kWidth) * sizeof(float));
  fill_dense(static_cast<float*>(by_row.get()), rows * kWidth, 1);
  fill_dense(static_cast<float*>(by_col.get()), cols * kWidth, 2);
  const sddmm_layout_t row_major = SDDMM_LAYOUT_ROW_MAJOR;
  const sddmm_dtype_t f32 = SDDMM_DTYPE_FLOAT32;
  int64_t mismatches = 0;
  {
    const Generated x1{{by_row.get(), rows, kWidth, kWidth, row_major, f32}, 1};
    const Generated x2{{by_col.get(), kWidth, cols, kWidth, SDDMM_LAYOUT_COL_MAJOR, f32}, 2};
    const test::Buffer out(SDDMM_BACKEND_CUDA, static_cast<size_t>(kNnz) * sizeof(float));
    const int64_t boundary = int64_t{1} << 31;
    const auto entries = sample_positions(kNnz, 4096, 11, {0, boundary - 1, boundary, boundary + 1, kNnz - 1});
    mismatches += run_sddmm("(a) SDDMM, K = 32", m, a, x1, x2, static_cast<float*>(out.get()), entries);
  }
  const test::Buffer y(SDDMM_BACKEND_CUDA, static_cast<size_t>((rows > cols ? rows : cols) * kWidth) * sizeof(float));
  const auto y_bytes = static_cast<int64_t>(y.bytes());
  const Generated x{{by_col.get(), cols, kWidth, kWidth, row_major, f32}, 2};
  const sddmm_dense_t y_rows{y.get(), rows, kWidth, kWidth, row_major, f32};
  const auto sampled_rows = sample_positions(rows, 256, 12, {0, a.row_of(int64_t{1} << 31), rows - 1});
  mismatches += run_spmm("(a) SpMM, N = 32", m, a, false, x, y_rows, y_bytes, sampled_rows);

  const Generated xt{{by_row.get(), rows, kWidth, kWidth, row_major, f32}, 1};
  const sddmm_dense_t y_cols{y.get(), cols, kWidth, kWidth, row_major, f32};
  const auto sampled_cols = sample_positions(cols, 256, 13, {0, kHeavyColumns - 1, kHeavyColumns, cols - 1});
  mismatches += run_spmm("(a) SpMM^T, N = 32", m, a, true, xt, y_cols, y_bytes, sampled_cols);
  return mismatches == 0 ? Outcome::kPassed : Outcome::kFailed;
}

}  // namespace sddmm::huge
