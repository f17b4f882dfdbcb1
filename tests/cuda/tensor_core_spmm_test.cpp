// The tensor-core SpMM (src/cuda/spmm/spmm_tensor_kernel.cuh): 16-bit plans whose dense 16 x 64
// units are full enough sum them by mma.sync, strip by strip, and add the strip's other entries
// on the CUDA cores. Checked output by output against a float64 reference, on a matrix whose
// dense strips also hold sparse entries, a last strip of 8 rows and a last chunk of 24 columns
// that are dense (X's rows past its end staged as zeros), entries in shuffled COO order and in
// CSR, with and without values, padded leading dimensions, N on and off the kernel's multiple of
// 32. Which kernel ran is not visible through the C ABI (the benchmark reports it:
// `tensor_core_kernel` "spmm-units"): float16 outputs at N = 256 must differ from the CUDA-core
// kernel's somewhere (another order of summation; SDDMM_SPMM_TC_MIN_FILL=2 turns the path off), and
// duplicate entries in a unit must leave the plan on the CUDA cores (the same bits as theirs).
#if defined(SDDMM_TESTS_HAVE_CUDA)  // the half types come from the CUDA toolkit's headers
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "differential.hpp"
#include "memory.hpp"
#include "scoped_env.hpp"

namespace {

using sddmm::test::Buffer;
using sddmm::test::ScopedEnv;

struct Fp16 {
  using Type = __half;
  static constexpr sddmm_dtype_t kDtype = SDDMM_DTYPE_FLOAT16;
  static constexpr double kUnitRoundoff = 0x1p-11;
  static constexpr double kSmallestSubnormal = 0x1p-24;
};
struct Bf16 {
  using Type = __nv_bfloat16;
  static constexpr sddmm_dtype_t kDtype = SDDMM_DTYPE_BFLOAT16;
  static constexpr double kUnitRoundoff = 0x1p-8;
  static constexpr double kSmallestSubnormal = 0x1p-133;
};

struct Entries {
  int64_t rows = 200, cols = 600;
  std::vector<int32_t> row, col;
  bool csr = false;  // sddmm_create_csr (entries sorted by row first), else sddmm_create_coo
};

// 200 x 600. Rows 0-95 and 176-199 (the last strip: 8 rows) hold 90 % of their cells in columns
// 0-383 and 520-599 (the last chunk: 24 columns) and 0.5 % elsewhere; the other rows 0.5 %: dense
// units (about 75 % full on average, past the default threshold, kSpmmTensorMinFill), and in the
// same strips sparse ones whose entries the CUDA cores add. Shuffled order.
Entries mixed_strips(uint32_t seed) {
  Entries p;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int32_t r = 0; r < p.rows; ++r) {
    for (int32_t c = 0; c < p.cols; ++c) {
      const bool dense = (r < 96 || r >= 176) && (c < 384 || c >= 520);
      if (u(rng) < (dense ? 0.9 : 0.005)) p.row.push_back(r), p.col.push_back(c);
    }
  }
  sddmm::test::shuffle_entries(p.row, p.col, rng);
  return p;
}

// The row-ordered entries and their CSR offsets.
std::vector<int32_t> sort_to_csr(Entries& p) {
  sddmm::test::sort_entries_by_row(p.row, p.col);
  return sddmm::test::csr_offsets(p.row, p.rows);
}

template <typename T>
double widened(T x) {
  return static_cast<double>(static_cast<float>(x));
}

// One y = A x on the GPU, every output checked against the float64 reference; the outputs,
// widened. `env` = `env_value` during plan creation when not null.
template <typename H>
std::vector<double> check_spmm(Entries p, int64_t n, bool with_values, const char* env = nullptr,
                               const char* env_value = nullptr) {
  using T = typename H::Type;
  CAPTURE(n);
  CAPTURE(with_values);
  CAPTURE(p.csr);
  const std::vector<int32_t> offsets = p.csr ? sort_to_csr(p) : std::vector<int32_t>{};
  const auto nnz = static_cast<int64_t>(p.row.size());
  const int64_t ldx = n + 8, ldy = n + 8;  // padded, rows still 16-byte aligned
  std::mt19937 rng(static_cast<uint32_t>(n * 3 + (with_values ? 1 : 0)));
  std::uniform_real_distribution<float> features(-1.0f, 1.0f), scales(0.5f, 1.5f);
  std::vector<T> x(static_cast<size_t>(p.cols * ldx)), values(static_cast<size_t>(nnz));
  for (auto& v : x) v = T(features(rng));
  for (auto& v : values) v = T(scales(rng));

  Buffer d_row = Buffer::from(SDDMM_BACKEND_CUDA, p.row), d_col = Buffer::from(SDDMM_BACKEND_CUDA, p.col);
  Buffer d_offsets = Buffer::from(SDDMM_BACKEND_CUDA, p.csr ? offsets : std::vector<int32_t>{0});
  Buffer d_values = Buffer::from(SDDMM_BACKEND_CUDA, values), d_x = Buffer::from(SDDMM_BACKEND_CUDA, x);
  Buffer d_y = Buffer::from(SDDMM_BACKEND_CUDA, std::vector<T>(static_cast<size_t>(p.rows * ldy), T(NAN)));
  sddmm_matrix_t a = nullptr;
  sddmm_status_t created = SDDMM_STATUS_INTERNAL_ERROR;
  {
    const ScopedEnv override_(env, env_value);
    void* vals = with_values ? d_values.get() : nullptr;
    created = p.csr ? sddmm_create_csr(&a, p.rows, p.cols, nnz, d_offsets.get(), d_col.get(), SDDMM_INDEX_INT32, vals,
                                       H::kDtype, SDDMM_BACKEND_CUDA, 0, SDDMM_CREATE_DEFAULT, nullptr)
                    : sddmm_create_coo(&a, p.rows, p.cols, nnz, d_row.get(), d_col.get(), SDDMM_INDEX_INT32, vals,
                                       H::kDtype, SDDMM_BACKEND_CUDA, 0, SDDMM_CREATE_DEFAULT, nullptr);
  }
  REQUIRE_MESSAGE(created == SDDMM_STATUS_SUCCESS, sddmm_last_error());
  const sddmm_dense_t dx{d_x.get(), p.cols, n, ldx, SDDMM_LAYOUT_ROW_MAJOR, H::kDtype};
  const sddmm_dense_t dy{d_y.get(), p.rows, n, ldy, SDDMM_LAYOUT_ROW_MAJOR, H::kDtype};
  const sddmm_status_t ran = spmm_execute(a, &dx, &dy, SDDMM_OPERATION_NON_TRANSPOSE, nullptr);
  sddmm_destroy(a);
  REQUIRE_MESSAGE(ran == SDDMM_STATUS_SUCCESS, sddmm_last_error());
  const std::vector<T> y = d_y.to_host<T>(static_cast<size_t>(p.rows * ldy));

  std::vector<double> want(static_cast<size_t>(p.rows * n), 0.0), magnitude(want.size(), 0.0);
  std::vector<int64_t> terms(static_cast<size_t>(p.rows), 0);
  for (int64_t e = 0; e < nnz; ++e) {
    const double v = with_values ? widened(values[static_cast<size_t>(e)]) : 1.0;
    const auto r = static_cast<size_t>(p.row[static_cast<size_t>(e)]);
    ++terms[r];
    for (int64_t j = 0; j < n; ++j) {
      const double term = v * widened(x[static_cast<size_t>(p.col[static_cast<size_t>(e)] * ldx + j)]);
      want[r * static_cast<size_t>(n) + static_cast<size_t>(j)] += term;
      magnitude[r * static_cast<size_t>(n) + static_cast<size_t>(j)] += std::fabs(term);
    }
  }
  std::vector<double> got;
  int64_t bad = 0;
  for (int64_t r = 0; r < p.rows; ++r) {
    for (int64_t j = 0; j < n; ++j) {
      const size_t i = static_cast<size_t>(r * n + j);
      const double g = widened(y[static_cast<size_t>(r * ldy + j)]);
      // One rounding to the output (absolute below its normal range), float32 sums over the row's terms.
      const double bound = H::kUnitRoundoff * std::fabs(want[i]) + H::kSmallestSubnormal / 2 +
                           magnitude[i] * static_cast<double>(terms[static_cast<size_t>(r)] + 2) * 0x1p-22;
      got.push_back(g);
      if (!(std::fabs(g - want[i]) <= bound)) {
        if (bad < 5) MESSAGE("y(" << r << ", " << j << "): got " << g << ", want " << want[i]);
        ++bad;
      }
    }
  }
  CHECK(bad == 0);
  return got;
}

size_t count_differing(const std::vector<double>& a, const std::vector<double>& b) {
  size_t differ = 0;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) differ += a[i] != b[i] ? 1 : 0;
  return differ;
}

template <typename H>
void check_tensor_spmm() {
  if (sddmm::test::cuda_device_count() == 0) return;
  for (const bool csr : {false, true}) {
    Entries p = mixed_strips(811);
    p.csr = csr;
    for (const int64_t n : {32, 64, 256, 40}) {
      for (const bool with_values : {true, false}) {
        const std::vector<double> chosen = check_spmm<H>(p, n, with_values);
        CHECK(check_spmm<H>(p, n, with_values) == chosen);  // deterministic
        const std::vector<double> cuda_cores = check_spmm<H>(p, n, with_values, "SDDMM_SPMM_TC_MIN_FILL", "2");
        const size_t differ = count_differing(chosen, cuda_cores);
        const std::string call = std::string(with_values ? "values" : "no values") + (csr ? ", CSR" : ", COO");
        MESSAGE("N = " << n << ", " << call << ": " << differ << " of " << chosen.size()
                       << " outputs differ from the CUDA-core kernel's");
        // The other order of sums shows in about 1 float16 output in 2000 (the float32 sums'
        // difference crossing a float16 rounding boundary): at N = 256, 51,200 outputs, some must
        // differ; bfloat16's 8 bits may hide it, and N = 32 may too. N = 40 (not a multiple of 32)
        // stays on the CUDA cores either way.
        if (n == 256 && H::kUnitRoundoff < 0x1p-10) CHECK(differ > 0);
        if (n % 32 != 0) CHECK(differ == 0);
      }
    }
  }
}

// Two entries in one cell of a dense unit (duplicate COO entries, summed by SpMM): the plan keeps
// SpMM on the CUDA cores, whose bits the call then gives exactly.
void check_duplicates_stay_on_cuda_cores() {
  if (sddmm::test::cuda_device_count() == 0) return;
  Entries p = mixed_strips(812);
  const size_t first = p.row.size();
  for (size_t i = 0; i < first; i += 7) {
    if (p.row[i] < 96) p.row.push_back(p.row[i]), p.col.push_back(p.col[i]);
  }
  REQUIRE(p.row.size() > first);
  for (const int64_t n : {32, 256}) {
    const std::vector<double> chosen = check_spmm<Fp16>(p, n, true);
    CHECK(count_differing(chosen, check_spmm<Fp16>(p, n, true, "SDDMM_SPMM_TC_MIN_FILL", "2")) == 0);
  }
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("gpu: tensor-core SpMM, float16: dense units by mma.sync, the rest on CUDA cores") {
    check_tensor_spmm<Fp16>();
  }
  TEST_CASE("gpu: tensor-core SpMM, bfloat16: dense units by mma.sync, the rest on CUDA cores") {
    check_tensor_spmm<Bf16>();
  }
  TEST_CASE("gpu: tensor-core SpMM, float16: duplicate entries in a unit keep the CUDA cores") {
    check_duplicates_stay_on_cuda_cores();
  }
}

#endif  // SDDMM_TESTS_HAVE_CUDA
