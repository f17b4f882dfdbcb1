// The tensor-core SDDMM path: 16 x 64 units dense enough go to mma.sync, the other entries to the
// CUDA-core kernel. float16/bfloat16 plans, float32 plans (the float32-accurate TF32 split; with
// float16/bfloat16 features, the half arithmetic) and float32 plans created with
// SDDMM_CREATE_ALLOW_TF32 (plain TF32). Checked entry by entry against a
// float64 reference computed from the same inputs, on a matrix with dense and sparse units, a last
// strip and chunk that are partial, entries in shuffled caller order, with and without values, K on
// and off the tensor-core list, and the density threshold forced both ways (SDDMM_TC_MIN_DENSITY,
// SDDMM_TC_MIN_DENSITY_F32). Here too, as it needs the same checks: the CUDA-core line kernel's
// choice (SDDMM_SDDMM_LINE_KERNEL), and the unit census that skips listings that would keep no unit.
#if defined(SDDMM_TESTS_HAVE_CUDA)  // the half types come from the CUDA toolkit's headers
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "differential.hpp"
#include "generators.hpp"
#include "memory.hpp"
#include "scoped_env.hpp"

namespace {

using sddmm::test::ScopedEnv;

// kUnitRoundoff: rounding of the result to the output type. kProductError: relative error of one
// product as the tensor cores form it (half products are exact in float32; the TF32 split drops
// small x small and rounds the small parts, about 3 * 2^-22; plain TF32 rounds each factor to 11
// significant bits, 2^-11 each). kThresholdVariable: the environment variable of its threshold.
struct Fp16 {
  using Type = __half;
  using Value = Type;
  static constexpr sddmm_dtype_t kDtype = SDDMM_DTYPE_FLOAT16;
  static constexpr sddmm_dtype_t kValueDtype = kDtype;
  static constexpr uint32_t kFlags = SDDMM_CREATE_DEFAULT;
  static constexpr double kUnitRoundoff = 0x1p-11;
  static constexpr double kProductError = 0.0;
  static constexpr const char* kThresholdVariable = "SDDMM_TC_MIN_DENSITY";
};
struct Bf16 {
  using Type = __nv_bfloat16;
  using Value = Type;
  static constexpr sddmm_dtype_t kDtype = SDDMM_DTYPE_BFLOAT16;
  static constexpr sddmm_dtype_t kValueDtype = kDtype;
  static constexpr uint32_t kFlags = SDDMM_CREATE_DEFAULT;
  static constexpr double kUnitRoundoff = 0x1p-8;
  static constexpr double kProductError = 0.0;
  static constexpr const char* kThresholdVariable = "SDDMM_TC_MIN_DENSITY";
};
struct Fp32Split {
  using Type = float;
  using Value = Type;
  static constexpr sddmm_dtype_t kDtype = SDDMM_DTYPE_FLOAT32;
  static constexpr sddmm_dtype_t kValueDtype = kDtype;
  static constexpr uint32_t kFlags = SDDMM_CREATE_DEFAULT;
  static constexpr double kUnitRoundoff = 0x1p-24;
  static constexpr double kProductError = 0x1p-20;
  static constexpr const char* kThresholdVariable = "SDDMM_TC_MIN_DENSITY_F32";
};
struct Tf32 {
  using Type = float;
  using Value = Type;
  static constexpr sddmm_dtype_t kDtype = SDDMM_DTYPE_FLOAT32;
  static constexpr sddmm_dtype_t kValueDtype = kDtype;
  static constexpr uint32_t kFlags = SDDMM_CREATE_ALLOW_TF32;
  static constexpr double kUnitRoundoff = 0x1p-24;
  static constexpr double kProductError = 0x1p-10 + 0x1p-22;
  static constexpr const char* kThresholdVariable = "SDDMM_TC_MIN_DENSITY_F32";
};
// float16 / bfloat16 features with float32 values and output: a float32 plan (its units and
// threshold), the half arithmetic (products exact in float32), float32 rounding of the result.
template <typename Half>
struct HalfFeatures {
  using Type = typename Half::Type;
  using Value = float;
  static constexpr sddmm_dtype_t kDtype = Half::kDtype;
  static constexpr sddmm_dtype_t kValueDtype = SDDMM_DTYPE_FLOAT32;
  static constexpr uint32_t kFlags = SDDMM_CREATE_DEFAULT;
  static constexpr double kUnitRoundoff = 0x1p-24;
  static constexpr double kProductError = 0.0;
  static constexpr const char* kThresholdVariable = "SDDMM_TC_MIN_DENSITY_F32";
};

// 200 x 600: rows 0-95 (six strips of 16) hold 40 % of their cells, rows 96-199 0.5 %, so the
// default threshold sends the 6 x 10 units of the first six strips to the tensor cores and the rest
// to the CUDA cores. 600 columns = 9 chunks of 64 + 24, and the last strip has 8 rows: partial
// units. With the threshold at 0 every unit with an entry is dense, and a chunk's 13 strips make
// two work items (8 + 5 units). Other row counts and densities of the sparse rows are asked for
// by make_pattern's callers.
struct Pattern {
  int64_t rows = 200, cols = 600;
  std::vector<int32_t> row, col;
  bool csr = false;  // created with sddmm_create_csr (the entries then in row order), else sddmm_create_coo
};

// rows x cols, row r holding density(r) of its cells at random, in shuffled order.
Pattern make_pattern(uint32_t seed, int64_t rows, int64_t cols, const std::function<double(int64_t)>& density_of_row) {
  Pattern p;
  p.rows = rows;
  p.cols = cols;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int32_t r = 0; r < p.rows; ++r) {
    const double density = density_of_row(r);
    for (int32_t c = 0; c < p.cols; ++c) {
      if (u(rng) < density) p.row.push_back(r), p.col.push_back(c);
    }
  }
  // Shuffled caller order: outputs must come back in it (the plan sorts by row, the tiles by tile).
  sddmm::test::shuffle_entries(p.row, p.col, rng);
  return p;
}

Pattern make_pattern(uint32_t seed, int64_t rows = 200, double sparse_density = 0.005) {
  return make_pattern(seed, rows, 600, [&](int64_t r) { return r < 96 ? 0.4 : sparse_density; });
}

// rows x cols with density * rows * cols entries at uniformly random distinct cells (testkit's
// generator), in row order.
Pattern make_uniform_pattern(int64_t rows, int64_t cols, double density, uint64_t seed) {
  const auto nnz = static_cast<int64_t>(std::llround(density * static_cast<double>(rows * cols)));
  const sddmm::testkit::CooMatrix a = sddmm::testkit::uniform_random(rows, cols, nnz, seed);
  Pattern p;
  p.rows = rows, p.cols = cols;
  p.row.assign(a.row.begin(), a.row.end());
  p.col.assign(a.col.begin(), a.col.end());
  return p;
}

template <typename T>
std::vector<T> random_of(size_t n, std::mt19937& rng, double lo, double hi) {
  std::uniform_real_distribution<float> u(static_cast<float>(lo), static_cast<float>(hi));
  std::vector<T> v(n);
  for (auto& x : v) x = T(u(rng));
  return v;
}

template <typename T>
double to_double(T x) {
  return static_cast<double>(static_cast<float>(x));
}

struct Outcome {
  std::vector<double> out;  // the outputs, widened
  double max_relative = 0;  // largest |error| / (|value| * sum of |terms|) over the entries
};

// Runs one SDDMM on the GPU and checks every entry against the float64 reference. `env`, when not
// nullptr, is set during plan creation to `env_value`.
template <typename H>
Outcome check_sddmm(const Pattern& p, int64_t k, bool with_values, const char* min_density,
                    const char* env = nullptr, const char* env_value = nullptr) {
  using T = typename H::Type;
  using V = typename H::Value;  // values and outputs
  CAPTURE(k);
  CAPTURE(with_values);
  CAPTURE(min_density == nullptr ? "default" : min_density);
  std::mt19937 rng(static_cast<uint32_t>(k * 7 + (with_values ? 1 : 0)));
  const int64_t nnz = static_cast<int64_t>(p.row.size());
  const int64_t ld1 = k + 8;  // a padded leading dimension, still 16-byte aligned rows
  std::vector<T> x1 = random_of<T>(static_cast<size_t>(p.rows * ld1), rng, -1.0, 1.0);
  std::vector<T> x2 = random_of<T>(static_cast<size_t>(p.cols * k), rng, -1.0, 1.0);
  std::vector<V> values = random_of<V>(static_cast<size_t>(nnz), rng, 0.5, 1.5);

  using sddmm::test::Buffer;
  Buffer d_row = Buffer::from(SDDMM_BACKEND_CUDA, p.row), d_col = Buffer::from(SDDMM_BACKEND_CUDA, p.col);
  // CSR (p.csr: the entries are in row order).
  Buffer d_offsets = Buffer::from(SDDMM_BACKEND_CUDA, sddmm::test::csr_offsets(p.row, p.rows));
  Buffer d_values = Buffer::from(SDDMM_BACKEND_CUDA, values);
  Buffer d_x1 = Buffer::from(SDDMM_BACKEND_CUDA, x1), d_x2 = Buffer::from(SDDMM_BACKEND_CUDA, x2);
  const std::vector<V> poison(static_cast<size_t>(nnz), V(NAN));
  Buffer d_out = Buffer::from(SDDMM_BACKEND_CUDA, poison);

  sddmm_matrix_t a = nullptr;
  sddmm_status_t created = SDDMM_STATUS_INTERNAL_ERROR;
  {
    const ScopedEnv threshold(H::kThresholdVariable, min_density);
    const ScopedEnv other(env, env_value);
    if (p.csr) {
      created = sddmm_create_csr(&a, p.rows, p.cols, nnz, d_offsets.get(), d_col.get(), SDDMM_INDEX_INT32,
                                 with_values ? d_values.get() : nullptr, H::kValueDtype, SDDMM_BACKEND_CUDA, 0,
                                 H::kFlags, nullptr);
    } else {
      created = sddmm_create_coo(&a, p.rows, p.cols, nnz, d_row.get(), d_col.get(), SDDMM_INDEX_INT32,
                                 with_values ? d_values.get() : nullptr, H::kValueDtype, SDDMM_BACKEND_CUDA, 0,
                                 H::kFlags, nullptr);
    }
  }
  REQUIRE_MESSAGE(created == SDDMM_STATUS_SUCCESS, sddmm_last_error());
  const sddmm_dense_t dx1{d_x1.get(), p.rows, k, ld1, SDDMM_LAYOUT_ROW_MAJOR, H::kDtype};
  const sddmm_dense_t dx2{d_x2.get(), k, p.cols, k, SDDMM_LAYOUT_COL_MAJOR, H::kDtype};
  REQUIRE_MESSAGE(sddmm_execute(a, &dx1, &dx2, d_out.get(), H::kValueDtype, nullptr) == SDDMM_STATUS_SUCCESS,
                  sddmm_last_error());
  const std::vector<V> out = d_out.to_host<V>(static_cast<size_t>(nnz));
  Outcome outcome;
  sddmm_destroy(a);

  int64_t bad = 0;
  for (int64_t e = 0; e < nnz; ++e) {
    double dot = 0.0, magnitude = 0.0;
    for (int64_t q = 0; q < k; ++q) {
      const double term = to_double(x1[static_cast<size_t>(p.row[e] * ld1 + q)]) * to_double(x2[static_cast<size_t>(p.col[e] * k + q)]);
      dot += term;
      magnitude += std::fabs(term);
    }
    const double scale = with_values ? to_double(values[static_cast<size_t>(e)]) : 1.0;
    const double want = scale * dot;
    // Rounding to the output format, the products as the arithmetic forms them, float32
    // accumulation over K terms.
    const double tolerance = H::kUnitRoundoff * std::fabs(want) +
                             scale * magnitude * (static_cast<double>(k) * 0x1p-23 + H::kProductError) + 1e-30;
    const double got = to_double(out[static_cast<size_t>(e)]);
    outcome.out.push_back(got);
    if (magnitude > 0) outcome.max_relative = std::max(outcome.max_relative, std::fabs(got - want) / (scale * magnitude));
    if (!(std::fabs(got - want) <= tolerance)) {
      if (bad < 5) MESSAGE("entry " << e << " (" << p.row[e] << ", " << p.col[e] << "): got " << got << ", want " << want);
      ++bad;
    }
  }
  CHECK(bad == 0);
  return outcome;
}

template <typename H>
void check_tensor_core_paths() {
  if (sddmm::test::cuda_device_count() == 0) return;
  // Without this a float32 plan of this pattern would carry a panel order instead of its units
  // (preprocess/compress.cu), and 16-bit calls at K = 256 whose units do not pay would take it.
  const ScopedEnv no_panels("SDDMM_SDDMM_PANELS", "0");
  const Pattern p = make_pattern(2026);
  for (const int64_t k : {32, 64, 128, 256, 48}) {  // 48: not a tensor-core K, the CUDA-core kernel takes all
    check_sddmm<H>(p, k, true, nullptr);
    check_sddmm<H>(p, k, false, nullptr);
  }
  check_sddmm<H>(p, 128, true, "0");  // every unit with an entry on the tensor cores
  check_sddmm<H>(p, 32, false, "0");
  check_sddmm<H>(p, 128, true, "2");  // no unit: all on the CUDA cores
}

// The listing keeps its per-run arrays (40 bytes per unit with an entry) in a buffer of 4 bytes per
// entry where they fit, else in an allocation of its own (preprocess/tiles.cu): make_pattern's
// ~23,000 entries in ~130 units take the first way. 8096 rows whose sparse 8000 hold 0.2 % of
// their cells put ~9,600 entries into ~4,300 of their 5,000 units (beside the 60 dense ones that
// hold ~72 % of the entries): more runs than a tenth of the ~34,000 entries, the second way. The
// dense units still run on the tensor cores at K = 128 (outputs differ in their last bits from a
// plan without units, threshold 2), and every output is checked against the reference. Asked for
// 95 % of the entries in dense units, with the census off, the listing stops once it has counted
// the runs (their count alone bounds the dense units' entries below that): no units, the same bits.
template <typename H>
void check_units_with_many_runs() {
  if (sddmm::test::cuda_device_count() == 0) return;
  const ScopedEnv no_panels("SDDMM_SDDMM_PANELS", "0");
  const Pattern p = make_pattern(2032, 8096, 0.002);
  const Outcome listed = check_sddmm<H>(p, 128, true, nullptr);
  const Outcome none = check_sddmm<H>(p, 128, true, "2");
  CHECK(listed.out != none.out);
  const ScopedEnv no_census("SDDMM_UNIT_CENSUS", "0");
  const Outcome too_few = check_sddmm<H>(p, 128, true, nullptr, "SDDMM_TC_MIN_SHARE", "0.95");
  CHECK(too_few.out == none.out);
}

// Which K sends a plan's dense units to the tensor cores (tensor_cores_pay in
// src/cuda/sddmm/sddmm.cu, tuning.hpp): the tensor-core kernel adds in another order than the
// CUDA-core one, so whether it ran shows in the outputs' last bits, against a plan that lists no
// unit (threshold 2). 256 x 1024, uniform. float16: at 3 % the units listed (those at least 3 %
// full, about half) average ~3.4 %, below what K = 256 asks (3.7 %): CUDA cores, the same bits; at
// 6 % they average ~6 %: tensor cores at K = 256 (a few hundred outputs differ), CUDA cores at
// K = 32 (8 %). float32 (TF32 split): at 10 % tensor cores at K = 256, CUDA cores at K = 32 (20 %).
// The mma.sync kernels' rule: the wgmma squares, which sm_90 devices take first, are off
// (SDDMM_TC_WGMMA=0; their rule: check_wgmma_choice).
struct ChoiceCase {
  double density;
  int64_t k;
  bool tensor_cores;
};

template <typename H>
void check_tensor_core_choice(std::initializer_list<ChoiceCase> cases) {
  if (sddmm::test::cuda_device_count() == 0) return;
  const ScopedEnv no_panels("SDDMM_SDDMM_PANELS", "0");  // the panel kernel would take float32's K = 256 (below)
  const ScopedEnv no_wgmma("SDDMM_TC_WGMMA", "0");
  for (const ChoiceCase c : cases) {
    CAPTURE(c.density);
    CAPTURE(c.k);
    const Pattern p = make_uniform_pattern(256, 1024, c.density, 2028);
    const Outcome chosen = check_sddmm<H>(p, c.k, true, nullptr);
    const Outcome cuda_cores = check_sddmm<H>(p, c.k, true, "2");
    REQUIRE(chosen.out.size() == cuda_cores.out.size());
    size_t differ = 0;
    for (size_t e = 0; e < chosen.out.size(); ++e) differ += chosen.out[e] != cuda_cores.out[e] ? 1 : 0;
    CAPTURE(differ);
    CHECK((differ > 0) == c.tensor_cores);
  }
}

// float32 plans: every path within its bound (check_tensor_core_paths<Fp32Split / Tf32>), and each
// arithmetic really ran where it should:
//  - the default split differs from the CUDA-core kernel (SDDMM_F32_TENSOR_CORES=0) somewhere in the
//    last bits (another summation order), yet stays within float32's error: at K = 32 no entry is
//    off by more than 2^-17 of its terms' magnitude, which TF32 (2^-11 per factor) would pass;
//  - with SDDMM_CREATE_ALLOW_TF32 the dense units show TF32's error (some entry beyond 2^-17),
//    and the sparse rows (CUDA cores) float32's.
void check_float32_arithmetic() {
  if (sddmm::test::cuda_device_count() == 0) return;
  const ScopedEnv no_panels("SDDMM_SDDMM_PANELS", "0");  // the panel kernel would take K = 256 (below)
  const Pattern p = make_pattern(2027);
  for (const int64_t k : {32, 256}) {
    CAPTURE(k);
    const Outcome split = check_sddmm<Fp32Split>(p, k, true, nullptr);
    const Outcome cuda_cores = check_sddmm<Fp32Split>(p, k, true, nullptr, "SDDMM_F32_TENSOR_CORES", "0");
    REQUIRE(split.out.size() == cuda_cores.out.size());
    size_t differ = 0;
    for (size_t e = 0; e < split.out.size(); ++e) differ += split.out[e] != cuda_cores.out[e] ? 1 : 0;
    CHECK(differ > 0);
    if (k == 32) CHECK(split.max_relative < 0x1p-17);
    const Outcome tf32 = check_sddmm<Tf32>(p, k, true, nullptr);
    CHECK(tf32.max_relative > 0x1p-17);
  }
}

// The CUDA-core line kernel (src/cuda/sddmm/sddmm_line_kernel.cuh) takes the calls whose K makes
// a row of X1 and a column of X2 one 64- or 128-byte line, the entry kernel the others: with no
// dense unit listed (threshold 2), the two kernels add each entry's products in another order, so
// that the outputs of SDDMM_SDDMM_LINE_KERNEL=1 and =0 differ in their last bits exactly at those K.
// Both are checked against the float64 reference, with and without values.
template <typename H>
void check_line_kernel_choice(std::initializer_list<std::pair<int64_t, bool>> cases) {
  if (sddmm::test::cuda_device_count() == 0) return;
  const Pattern p = make_pattern(2029);
  for (const auto& [k, line] : cases) {
    CAPTURE(k);
    for (const bool with_values : {true, false}) {
      const Outcome lines = check_sddmm<H>(p, k, with_values, "2", "SDDMM_SDDMM_LINE_KERNEL", "1");
      const Outcome entries = check_sddmm<H>(p, k, with_values, "2", "SDDMM_SDDMM_LINE_KERNEL", "0");
      REQUIRE(lines.out.size() == entries.out.size());
      size_t differ = 0;
      for (size_t e = 0; e < lines.out.size(); ++e) differ += lines.out[e] != entries.out[e] ? 1 : 0;
      CAPTURE(differ);
      CHECK((differ > 0) == line);
    }
  }
}

// The unit census (src/cuda/preprocess/census.cu) lets plan creation skip the listing when the
// dense units hold less than SDDMM_TC_MIN_SHARE of the entries. make_pattern's dense units hold
// about 98.7 % of them (the sparse rows' units hold ~5 entries, below every threshold): with the
// share at 0.9 the plan keeps its units (the outputs differ from a plan without units, threshold
// 2, in their last bits), at 0.999 it has none (the same bits), whether the census ran or not
// (SDDMM_UNIT_CENSUS=0: the listing decides alone), from COO in shuffled order and from CSR (the
// census finds each entry's row in the offsets).
template <typename H>
void check_unit_census() {
  if (sddmm::test::cuda_device_count() == 0) return;
  const ScopedEnv no_panels("SDDMM_SDDMM_PANELS", "0");  // the panel kernel would take float32's K = 256 (below)
  Pattern shuffled = make_pattern(2030);
  Pattern csr = shuffled;
  sddmm::test::sort_entries_by_row(csr.row, csr.col);
  csr.csr = true;
  for (const Pattern* p : {&shuffled, &csr}) {
    CAPTURE(p->csr);
    const Outcome none = check_sddmm<H>(*p, 256, true, "2");
    for (const char* census : {"1", "0"}) {
      CAPTURE(census);
      const ScopedEnv on_or_off("SDDMM_UNIT_CENSUS", census);
      const Outcome kept = check_sddmm<H>(*p, 256, true, nullptr, "SDDMM_TC_MIN_SHARE", "0.9");
      const Outcome skipped = check_sddmm<H>(*p, 256, true, nullptr, "SDDMM_TC_MIN_SHARE", "0.999");
      CHECK(kept.out != none.out);
      CHECK(skipped.out == none.out);
    }
  }
}

// The panel kernel (src/cuda/sddmm/sddmm_panel_kernel.cuh) takes float32 calls whose X1 rows are
// 512 or 1024 bytes (K = 128, 256) in place of the tensor-core split where the plan has a panel
// order: uniform 256 x 1024 at 10 % (6.4 entries per 64-row panel and column, X2 within the L2)
// has one by default. Its outputs then differ from the split's (SDDMM_SDDMM_PANELS=0) in their last
// bits, and equal the entry kernel's (no units, no panels) bit for bit: each lane sums the same 16
// products in the same order and the group adds its lanes in the same tree. At K = 32 (the line
// kernel) and K = 64 (the entry kernel) neither panels nor units run.
void check_panel_kernel_choice() {
  if (sddmm::test::cuda_device_count() == 0) return;
  const Pattern p = make_uniform_pattern(256, 1024, 0.10, 2031);
  for (const int64_t k : {32, 64, 128, 256}) {
    const Outcome chosen = check_sddmm<Fp32Split>(p, k, true, nullptr);
    const Outcome split = check_sddmm<Fp32Split>(p, k, true, nullptr, "SDDMM_SDDMM_PANELS", "0");
    const Outcome entries = check_sddmm<Fp32Split>(p, k, true, "2", "SDDMM_SDDMM_PANELS", "0");
    const bool panel_k = k == 128 || k == 256;
    CHECK((chosen.out != split.out) == panel_k);
    CHECK(chosen.out == entries.out);
  }
}

// The tile kernel (src/cuda/sddmm/sddmm_tile_kernel.cuh) takes float32 calls at K = 32 where the
// plan keeps tile entries: the same uniform 256 x 1024 at 10 %, its entries sorted by row and
// column (every row's columns ascend), 2 x 4 tiles of 3277 entries on average, has them by
// default, as COO in row order and as CSR. Its lanes sum the same pieces in the same tree as the
// line kernel's: the same bits as with the tile entries off (SDDMM_SDDMM_TILES=0). At K = 64 (the
// entry kernel) they change nothing either.
void check_tile_kernel_choice() {
  if (sddmm::test::cuda_device_count() == 0) return;
  Pattern p = make_uniform_pattern(256, 1024, 0.10, 2032);
  std::vector<size_t> order(p.row.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(),
            [&](size_t x, size_t y) { return p.row[x] != p.row[y] ? p.row[x] < p.row[y] : p.col[x] < p.col[y]; });
  Pattern sorted = p;
  for (size_t i = 0; i < order.size(); ++i) sorted.row[i] = p.row[order[i]], sorted.col[i] = p.col[order[i]];
  for (const bool csr : {false, true}) {
    CAPTURE(csr);
    sorted.csr = csr;
    for (const int64_t k : {32, 64}) {
      const Outcome chosen = check_sddmm<Fp32Split>(sorted, k, true, nullptr);
      const Outcome no_tiles = check_sddmm<Fp32Split>(sorted, k, true, nullptr, "SDDMM_SDDMM_TILES", "0");
      CHECK(chosen.out == no_tiles.out);
    }
  }
}

// The square kernel (src/cuda/sddmm/sddmm_tensor_square_kernel.cuh) takes 16-bit plans whose
// dense units cover at least 90 % of the matrix's units (SDDMM_TC_SQUARE_COVER), at K = 256 (on
// sm_90 devices the wgmma square kernel takes them first: off here, SDDMM_TC_WGMMA=0; next test).
// 1000 x 1100: rows 0-15 at 0.5 % (their 18 units left to the CUDA cores: the kernel computes them
// and drops them), the rest at 10 % (every unit dense); a last strip of 8 rows and a last chunk of
// 12 columns (zeros staged past them), 8 x 9 squares of 8 strips x 2 chunks, the last ones partial;
// entries in shuffled caller order. Every output against the reference, bit for bit against the
// unit kernel (the cover asked at 2: each unit's mma, in the same order, on the same staged
// values), and, in float16, not against the CUDA-core kernel (no units, threshold 2: another order
// of summation; bfloat16's 8-bit outputs can hide it). (Which kernel a plan's units take is not
// visible through the C ABI these tests link: the benchmark reports it, `tensor_core_kernel`.)
Pattern square_test_pattern() {
  return make_pattern(2033, 1000, 1100, [](int64_t r) { return r < 16 ? 0.005 : 0.1; });
}

template <typename H>
void check_tensor_squares() {
  if (sddmm::test::cuda_device_count() == 0) return;
  const ScopedEnv mma_sync("SDDMM_TC_WGMMA", "0");
  const Pattern p = square_test_pattern();
  for (const bool with_values : {true, false}) {
    const Outcome squares = check_sddmm<H>(p, 256, with_values, nullptr);
    const Outcome units = check_sddmm<H>(p, 256, with_values, nullptr, "SDDMM_TC_SQUARE_COVER", "2");
    CHECK(squares.out == units.out);
    if (H::kUnitRoundoff < 0x1p-10) CHECK(squares.out != check_sddmm<H>(p, 256, with_values, "2").out);
  }
}

// The wgmma kernels take the same plans at K = 128 and 256 on sm_90 devices in builds with the
// Hopper kernels: the walk kernel (src/cuda/sddmm/sddmm_wgmma_walk_kernel.cuh at K = 128, its form
// with entry warps, sddmm_wgmma_walk_entry_warps_kernel.cuh, at K = 256) forced here
// (SDDMM_TC_WGMMA_WALK=1; by default from 2.5 % dense), the square kernel
// (sddmm_wgmma_square_kernel.cuh) with SDDMM_TC_WGMMA_WALK=0, both on the square kernel's pattern
// (partial squares at both edges, a strip of units left to the CUDA cores), every output within
// the float64 reference's bound, with and without values; and a second pattern of 20 x 18 squares
// (2500 x 2300, partial at both edges), more than an H200 runs at once (264 blocks), one row of
// them empty (rows 1024-1151, square row 8: those blocks return once their first copies land; for
// the walk kernel 20 row tiles x 36 chunks over its 132 blocks: runs of 5-6 tiles, most of them
// crossing into the next row tile, and the last tile of a row and of a column partial; 157 strips,
// so at K = 128 an odd chunk's 9 cell offsets lie one cell into the 10 its bulk copy moves); and
// a third, uniform 25600 x 512 at 10 % (200 row tiles x 8 chunks: runs of 12 tiles that begin
// anywhere in a row tile and cross one or two more, where the X1 lines are copied again and
// every multiplying warp reads its rows again; 1600 strips: chunk x strips always even); and a
// fourth, 1000 x 1100 with rows 0-511 at 40 % and the rest at 5 %: a unit of the upper rows holds
// about 410 entries, so each warp that writes a unit out writes its first batch of 128 (loaded
// during the products) and then three more loaded as it goes, which the other patterns' 10 %
// units (about 100 entries) seldom reach.
// Which kernel ran is not visible through the C ABI (the benchmark reports it:
// `tensor_core_kernel` "wgmma-walk" or "wgmma-squares"); so the test holds the walk's outputs to
// the squares' bit for bit, sets them beside the mma.sync kernels' (SDDMM_TC_WGMMA=0) and says how
// many bits differ (all sum each 16-element step of K in float32, in K order). Elsewhere the same
// calls run the other kernels, and the check holds them to the same bound.
template <typename H>
void check_wgmma_squares() {
  if (sddmm::test::cuda_device_count() == 0) return;
  const Pattern several_squares = make_pattern(2035, 2500, 2300, [](int64_t r) {
    return r < 16 ? 0.005 : r >= 1024 && r < 1152 ? 0.0 : 0.1;
  });
  const Pattern many_row_tiles = make_uniform_pattern(25600, 512, 0.1, 2036);
  const Pattern full_tiles = make_pattern(2037, 1000, 1100, [](int64_t r) { return r < 512 ? 0.4 : 0.05; });
  for (const Pattern& p : {square_test_pattern(), several_squares, many_row_tiles, full_tiles}) {
    for (const int64_t k : {128, 256}) {
      for (const bool with_values : {true, false}) {
        const Outcome chosen = check_sddmm<H>(p, k, with_values, nullptr, "SDDMM_TC_WGMMA_WALK", "1");
        const Outcome mma_sync = check_sddmm<H>(p, k, with_values, nullptr, "SDDMM_TC_WGMMA", "0");
        const Outcome squares = check_sddmm<H>(p, k, with_values, nullptr, "SDDMM_TC_WGMMA_WALK", "0");
        // The walk kernel and the wgmma square kernel sum each output's 16-element steps of K in the
        // same order, by the same instruction family: the same bits; and so does the walk of a plan
        // with 64-bit indices (SDDMM_PLAN_INDICES_64; otherwise only past 2^31 rows, columns or
        // entries).
        CHECK(chosen.out == squares.out);
        {
          const ScopedEnv wide("SDDMM_PLAN_INDICES_64", "1");
          CHECK(check_sddmm<H>(p, k, with_values, nullptr, "SDDMM_TC_WGMMA_WALK", "1").out == chosen.out);
        }
        REQUIRE(chosen.out.size() == mma_sync.out.size());
        size_t differ = 0;
        for (size_t i = 0; i < chosen.out.size(); ++i) differ += chosen.out[i] != mma_sync.out[i] ? 1 : 0;
        const std::string values = with_values ? "values" : "no values";
        MESSAGE(p.rows << " x " << p.cols << ", K = " << k << ", " << values << ": " << differ << " of "
                       << chosen.out.size() << " outputs differ from the mma.sync kernels' (sm_90: wgmma)");
      }
    }
  }
}

// Whether this process's device 0 runs the wgmma squares: compute capability 9.0, in a build that
// holds the Hopper kernels.
bool wgmma_device() {
#if SDDMM_TESTS_HOPPER_KERNELS
  cudaDeviceProp prop{};
  return cudaGetDeviceProperties(&prop, 0) == cudaSuccess && prop.major == 9 && prop.minor == 0;
#else
  return false;
#endif
}

// The wgmma squares' rule (tuning.hpp, kTensorWgmmaMinMatrixDensity): on sm_90, 16-bit matrices at
// least 2.5 % dense list their units from 1 % fill, index their cells, and take the squares at K =
// 128 and 256 whatever the units' mean fill: uniform 256 x 1024 at 3 %, whose units the mma.sync
// rule leaves to the CUDA cores (check_tensor_core_choice), runs on tensor cores there; at 2 % (and
// at K = 32 and 64, and on other devices at 3 %) the CUDA cores take every entry, the same bits as
// a plan that lists no unit.
template <typename H>
void check_wgmma_choice() {
  if (sddmm::test::cuda_device_count() == 0) return;
  const bool wgmma = wgmma_device();
  for (const double density : {0.03, 0.02}) {
    const Pattern p = make_uniform_pattern(256, 1024, density, 2035);
    for (const int64_t k : {32, 64, 128, 256}) {
      CAPTURE(density);
      CAPTURE(k);
      const Outcome chosen = check_sddmm<H>(p, k, true, nullptr);
      const Outcome cuda_cores = check_sddmm<H>(p, k, true, "2");
      CHECK((chosen.out != cuda_cores.out) == (wgmma && density >= 0.025 && k >= 128));
    }
  }
}

// float16/bfloat16 features with float32 values and output take the tensor cores on a float32
// plan's dense units, in the half arithmetic (their products are exact in float32): make_pattern's
// units (40 % full) at every tensor-core K, with and without values. Every output within the
// reference's bound, and, at those K, differing from the CUDA-core kernel's (the plan's units off:
// SDDMM_TC_MIN_DENSITY_F32=2) in its last bits (another order of summation, kept by the float32
// output); K = 48 takes the CUDA cores either way (the same bits).
template <typename Half>
void check_half_features_float32_values() {
  if (sddmm::test::cuda_device_count() == 0) return;
  const ScopedEnv no_panels("SDDMM_SDDMM_PANELS", "0");  // a float32 plan with a panel order lists no units
  using H = HalfFeatures<Half>;
  const Pattern p = make_pattern(2034);
  for (const int64_t k : {32, 64, 128, 256, 48}) {
    for (const bool with_values : {true, false}) {
      const Outcome tensor_cores = check_sddmm<H>(p, k, with_values, nullptr);
      const Outcome cuda_cores = check_sddmm<H>(p, k, with_values, "2");
      CHECK((tensor_cores.out != cuda_cores.out) == (k != 48));
    }
  }
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("gpu: tensor-core SDDMM, float16") { check_tensor_core_paths<Fp16>(); }
  TEST_CASE("gpu: tensor-core SDDMM, bfloat16") { check_tensor_core_paths<Bf16>(); }
  TEST_CASE("gpu: tensor-core SDDMM, float16: units listed among more runs than a tenth of the entries") {
    check_units_with_many_runs<Fp16>();
  }
  TEST_CASE("gpu: tensor-core SDDMM, float16: the square kernel where the dense units cover the matrix") {
    check_tensor_squares<Fp16>();
  }
  TEST_CASE("gpu: tensor-core SDDMM, bfloat16: the square kernel where the dense units cover the matrix") {
    check_tensor_squares<Bf16>();
  }
  TEST_CASE("gpu: tensor-core SDDMM, float16: the wgmma walk and square kernels (sm_90) where dense units cover the matrix") {
    check_wgmma_squares<Fp16>();
  }
  TEST_CASE("gpu: tensor-core SDDMM, bfloat16: the wgmma walk and square kernels (sm_90) where dense units cover the matrix") {
    check_wgmma_squares<Bf16>();
  }
  TEST_CASE("gpu: tensor-core SDDMM, float16: the wgmma squares' fill rule (sm_90)") { check_wgmma_choice<Fp16>(); }
  TEST_CASE("gpu: tensor-core SDDMM, float16 features with float32 values and output") {
    check_half_features_float32_values<Fp16>();
  }
  TEST_CASE("gpu: tensor-core SDDMM, bfloat16 features with float32 values and output") {
    check_half_features_float32_values<Bf16>();
  }
  TEST_CASE("gpu: tensor-core SDDMM, float32 (TF32 split)") { check_tensor_core_paths<Fp32Split>(); }
  TEST_CASE("gpu: tensor-core SDDMM, float32 with SDDMM_CREATE_ALLOW_TF32") { check_tensor_core_paths<Tf32>(); }
  TEST_CASE("gpu: tensor-core SDDMM, float32: each arithmetic where it belongs") { check_float32_arithmetic(); }
  TEST_CASE("gpu: SDDMM, float32: the panel kernel takes K = 128 / 256 before the tensor-core split") {
    check_panel_kernel_choice();
  }
  TEST_CASE("gpu: the SDDMM tile kernel equals the line kernel bit for bit (float32 K = 32)") {
    check_tile_kernel_choice();
  }
  TEST_CASE("gpu: tensor-core SDDMM, float16: the dense units' fill that K asks for") {
    check_tensor_core_choice<Fp16>({{0.03, 256, false}, {0.06, 256, true}, {0.06, 32, false}});
  }
  TEST_CASE("gpu: tensor-core SDDMM, float32 (TF32 split): the dense units' fill that K asks for") {
    check_tensor_core_choice<Fp32Split>({{0.10, 256, true}, {0.10, 32, false}});
  }
  TEST_CASE("gpu: tensor-core SDDMM, float16: the unit census skips exactly the listings that keep no unit") {
    check_unit_census<Fp16>();
  }
  TEST_CASE("gpu: tensor-core SDDMM, float32 (TF32 split): the unit census skips exactly the listings that keep none") {
    check_unit_census<Fp32Split>();
  }
  TEST_CASE("gpu: the CUDA-core line kernel takes K of one 64- or 128-byte line, float32") {
    check_line_kernel_choice<Fp32Split>({{16, true}, {32, true}, {64, false}, {8, false}});
  }
  TEST_CASE("gpu: the CUDA-core line kernel takes K of one 64- or 128-byte line, float16") {
    check_line_kernel_choice<Fp16>({{32, true}, {64, true}, {128, false}});
  }
}
#endif  // SDDMM_TESTS_HAVE_CUDA
