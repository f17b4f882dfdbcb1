// The SDDMM line kernel's 32-bit row addresses (src/cuda/line_address.cuh): with 32-bit plan
// indices it multiplies a row index by X1's row pitch in bytes as 32 x 32 -> 64 bits, which the
// kernel choice allows only where the pitch is under 2^32 bytes. Two X1 rows are placed one pitch
// apart, just under 4 GiB and exactly 4 GiB: the first runs the line kernel (its outputs differ in
// their last bits from the entry kernel's, SDDMM_SDDMM_LINE_KERNEL=0), the second the entry kernel
// (the same bits), and both match the float64 reference.
#ifdef SDDMM_TESTS_HAVE_CUDA
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "memory.hpp"
#include "scoped_env.hpp"
#include "sddmm.h"

namespace sddmm::test {
namespace {

constexpr int64_t kK = 32;        // float32: one 128-byte line, the line kernel's
constexpr int64_t kCols = 4096;   // every (row, column) of a 2 x 4096 matrix is an entry
constexpr int64_t kRows = 2;

struct Operands {
  std::vector<float> row0, row1;  // X1's two rows
  std::vector<float> x2;          // K x cols, column-major
  std::vector<int32_t> row, col;  // COO, row order
};

Operands make_operands() {
  std::mt19937 rng(2041);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  Operands o;
  for (int64_t q = 0; q < kK; ++q) o.row0.push_back(uniform(rng)), o.row1.push_back(uniform(rng));
  for (int64_t i = 0; i < kK * kCols; ++i) o.x2.push_back(uniform(rng));
  for (int32_t r = 0; r < kRows; ++r) {
    for (int32_t c = 0; c < kCols; ++c) o.row.push_back(r), o.col.push_back(c);
  }
  return o;
}

// SDDMM (no values) with X1's rows `ld` elements apart; `line_kernel` "1" or "0" at creation.
std::vector<float> run(const Operands& o, const Buffer& d_x1, int64_t ld, const char* line_kernel) {
  const int64_t nnz = static_cast<int64_t>(o.row.size());
  const Buffer d_row = Buffer::from(SDDMM_BACKEND_CUDA, o.row), d_col = Buffer::from(SDDMM_BACKEND_CUDA, o.col);
  const Buffer d_x2 = Buffer::from(SDDMM_BACKEND_CUDA, o.x2);
  const Buffer d_out = Buffer::from(SDDMM_BACKEND_CUDA, std::vector<float>(static_cast<size_t>(nnz), NAN));
  sddmm_matrix_t a = nullptr;
  {
    const ScopedEnv no_units("SDDMM_TC_MIN_DENSITY_F32", "2");  // every entry on the CUDA cores
    const ScopedEnv env("SDDMM_SDDMM_LINE_KERNEL", line_kernel);
    REQUIRE_MESSAGE(sddmm_create_coo(&a, kRows, kCols, nnz, d_row.get(), d_col.get(), SDDMM_INDEX_INT32, nullptr,
                                     SDDMM_DTYPE_FLOAT32, SDDMM_BACKEND_CUDA, 0, 0, nullptr) == SDDMM_STATUS_SUCCESS,
                    sddmm_last_error());
  }
  const sddmm_dense_t x1{d_x1.get(), kRows, kK, ld, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
  const sddmm_dense_t x2{d_x2.get(), kK, kCols, kK, SDDMM_LAYOUT_COL_MAJOR, SDDMM_DTYPE_FLOAT32};
  const sddmm_status_t status = sddmm_execute(a, &x1, &x2, d_out.get(), SDDMM_DTYPE_FLOAT32, nullptr);
  sddmm_destroy(a);
  REQUIRE_MESSAGE(status == SDDMM_STATUS_SUCCESS, sddmm_last_error());
  return d_out.to_host<float>(static_cast<size_t>(nnz));
}

// Entries off the float64 reference by more than float32 summation allows.
int64_t wrong_entries(const Operands& o, const std::vector<float>& out) {
  int64_t bad = 0;
  for (size_t e = 0; e < out.size(); ++e) {
    const std::vector<float>& x1_row = o.row[e] == 0 ? o.row0 : o.row1;
    double dot = 0.0, magnitude = 0.0;
    for (int64_t q = 0; q < kK; ++q) {
      const double term = double{x1_row[static_cast<size_t>(q)]} * double{o.x2[static_cast<size_t>(o.col[e] * kK + q)]};
      dot += term;
      magnitude += std::fabs(term);
    }
    if (!(std::fabs(double{out[e]} - dot) <= magnitude * (kK + 1) * 0x1p-23 + 1e-30)) ++bad;
  }
  return bad;
}

void check_pitch(int64_t pitch_bytes, bool line_kernel_expected) {
  CAPTURE(pitch_bytes);
  const int64_t ld = pitch_bytes / static_cast<int64_t>(sizeof(float));
  const size_t bytes = static_cast<size_t>((ld + kK) * static_cast<int64_t>(sizeof(float)));
  size_t free = 0, total = 0;
  REQUIRE(cudaMemGetInfo(&free, &total) == cudaSuccess);
  if (free < bytes + (size_t{1} << 30)) {
    MESSAGE("not run: X1 needs " << bytes << " bytes of device memory, " << free << " free");
    return;
  }
  const Operands o = make_operands();
  const Buffer d_x1(SDDMM_BACKEND_CUDA, bytes);
  char* base = static_cast<char*>(d_x1.get());
  REQUIRE(cudaMemcpy(base, o.row0.data(), kK * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
  REQUIRE(cudaMemcpy(base + pitch_bytes, o.row1.data(), kK * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
  const std::vector<float> chosen = run(o, d_x1, ld, "1");
  const std::vector<float> entry_kernel = run(o, d_x1, ld, "0");
  CHECK(wrong_entries(o, chosen) == 0);
  CHECK(wrong_entries(o, entry_kernel) == 0);
  CHECK((chosen != entry_kernel) == line_kernel_expected);
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("gpu: the SDDMM line kernel with X1 rows just under 4 GiB apart, and the entry kernel at 4 GiB") {
    if (cuda_device_count() == 0) return;
    check_pitch((int64_t{1} << 32) - 128, true);  // the largest 16-byte aligned pitch under 2^32
    check_pitch(int64_t{1} << 32, false);
  }
}

}  // namespace sddmm::test
#endif  // SDDMM_TESTS_HAVE_CUDA
