// Part (b): dense offsets past 2^31 and 2^32 elements, in an int32 plan.
//
// A: rows = cols = 2^22 + 2^20 + 1 = 5,242,881, four entries in every row and every column (int32
// CSR, nnz 20,971,524, no values). K = N = 1024, so X1, X2 and SpMM's X and Y hold 5.37e9 elements
// each: row x K, column x K and row x N reach 5.37e9, past 2^31 (rows from 2^21 on) and 2^32 (from
// 2^22 on); column-major operands reach it through k x ld and j x ld. Run, float32:
//   SDDMM with the vector kernel (X1 row-major, X2 column-major) and the strided one (X1
//   column-major, X2 row-major);
//   SpMM and SpMM^T, row-major (vector kernels) and column-major (strided), each on the default plan
//   (light-row kernels: four entries a row) and on a plan made with SDDMM_SPMM_HEAVY_ROW_ENTRIES=3
//   (the heavy-row kernel, a block per row and column tile).
//
// Device memory: three buffers of 5.37e9 floats, 21.5 GB each (X1 and SpMM^T's X; X2 and SpMM's X;
// SpMM's Y) = 64.4 GB; SDDMM's out 84 MB; two plans of about 0.3 GB (12 bytes an entry plus the
// offsets). Host memory: the row offsets (42 MB, and 21 MB as int32) and the samples.
#include <cstdio>
#include <string>

#include "device_fill.hpp"
#include "memory.hpp"
#include "parts.hpp"

namespace sddmm::huge {
namespace {

constexpr int64_t kSide = (int64_t{1} << 22) + (int64_t{1} << 20) + 1;  // rows = cols = 3 * 7 * 29 * 8609
constexpr int64_t kWidth = 1024;                                        // K of SDDMM, N of SpMM
constexpr int64_t kElements = kSide * kWidth;
constexpr int64_t kDenseBytes = kElements * static_cast<int64_t>(sizeof(float));

Pattern pattern() {
  const RowKind four{Band{0, kSide, 1048573, 104729}, 4, 1};  // a and b coprime to kSide
  return Pattern{kSide, kSide, four, four, 71};
}

// The plan made while SDDMM_SPMM_HEAVY_ROW_ENTRIES=3 and SDDMM_SPMM_HEAVY_ROW_FACTOR=0 (no term from
// the mean row length): every row and column (four entries) is heavy.
Matrix create_with_heavy_rows(const LaidOut& a) {
  return create_on_device(a, SDDMM_INDEX_INT32, "3");
}

sddmm_dense_t dense(const test::Buffer& b, int64_t rows, int64_t cols, bool column_major) {
  const sddmm_layout_t layout = column_major ? SDDMM_LAYOUT_COL_MAJOR : SDDMM_LAYOUT_ROW_MAJOR;
  return sddmm_dense_t{b.get(), rows, cols, column_major ? rows : cols, layout, SDDMM_DTYPE_FLOAT32};
}

}  // namespace

Outcome check_offsets_beyond_int32() {
  say("(b) %lld x %lld operands (K = N = %lld): offsets up to %lld elements, int32 indices",
      static_cast<long long>(kSide), static_cast<long long>(kWidth), static_cast<long long>(kWidth),
      static_cast<long long>(kElements));
  const std::string missing = missing_device_memory(3 * kDenseBytes + (int64_t{2} << 30));
  if (!missing.empty()) {
    std::printf("SKIPPED: (b) offsets beyond 2^31 %s\n", missing.c_str());
    return Outcome::kSkipped;
  }
  const LaidOut a(pattern(), INT64_MAX);
  const Matrix m = create_on_device(a, SDDMM_INDEX_INT32);
  const test::Buffer by_row(SDDMM_BACKEND_CUDA, static_cast<size_t>(kDenseBytes));  // X1; SpMM^T's X
  const test::Buffer by_col(SDDMM_BACKEND_CUDA, static_cast<size_t>(kDenseBytes));  // X2; SpMM's X
  const test::Buffer y(SDDMM_BACKEND_CUDA, static_cast<size_t>(kDenseBytes));
  fill_dense(static_cast<float*>(by_row.get()), kElements, 21);
  fill_dense(static_cast<float*>(by_col.get()), kElements, 22);
  say("(b) X1 and X2 generated on the device");

  const int64_t past_2_31 = int64_t{1} << 21;  // the first row whose row x 1024 offset passes 2^31
  const int64_t past_2_32 = int64_t{1} << 22;
  const auto entries = sample_positions(a.nnz(), 4096, 31, {0, 4 * past_2_31, 4 * past_2_32, a.nnz() - 1});
  const auto rows = sample_positions(kSide, 256, 32, {0, past_2_31 - 1, past_2_31, past_2_32, kSide - 1});
  int64_t mismatches = 0;
  {
    const test::Buffer out(SDDMM_BACKEND_CUDA, static_cast<size_t>(a.nnz()) * sizeof(float));
    auto* d_out = static_cast<float*>(out.get());
    for (const bool strided : {false, true}) {
      const Generated x1{dense(by_row, kSide, kWidth, strided), 21};
      const Generated x2{dense(by_col, kWidth, kSide, !strided), 22};
      const std::string what = strided ? "(b) SDDMM, strided (X1 column-major, X2 row-major)" : "(b) SDDMM, vector";
      mismatches += run_sddmm(what, m, a, x1, x2, d_out, entries);
    }
  }
  const Matrix heavy = create_with_heavy_rows(a);
  for (const Matrix* plan : {&m, &heavy}) {
    for (const bool transpose : {false, true}) {
      for (const bool strided : {false, true}) {
        const Generated x{dense(transpose ? by_row : by_col, kSide, kWidth, strided), transpose ? 21u : 22u};
        const std::string what = std::string("(b) SpMM") + (transpose ? "^T" : "") +
                                 (strided ? ", strided (column-major)" : ", vector") +
                                 (plan == &heavy ? ", heavy-row kernel" : ", light-row kernels");
        mismatches += run_spmm(what, *plan, a, transpose, x, dense(y, kSide, kWidth, strided), kDenseBytes, rows);
      }
    }
  }
  return mismatches == 0 ? Outcome::kPassed : Outcome::kFailed;
}

}  // namespace sddmm::huge
