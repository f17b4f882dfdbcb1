// Faults on the CUDA backend: device memory that cannot be had at creation, and the memory creation
// keeps between calls. (No GPU at all is the "no-device" suite, no_device_test.cpp.)
#ifdef SDDMM_TESTS_HAVE_CUDA
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "cuda/tuning.hpp"  // the pool's bound (creation_pool_bytes)
#include "differential.hpp"
#include "memory.hpp"
#include "scoped_env.hpp"
#include "sddmm.h"

namespace sddmm::test {
namespace {

size_t free_device_memory() {
  size_t free = 0, total = 0;
  REQUIRE(cudaMemGetInfo(&free, &total) == cudaSuccess);
  return free;
}

// A COO matrix whose plan cannot fit: `rows` x `cols` with 3 real entries on the device (int64
// indices), one dimension 2^40, so its 2^40 + 1 offsets need 8 TB. Creation must say OUT_OF_MEMORY
// and leave the handle untouched.
void expect_out_of_memory(int64_t rows, int64_t cols) {
  INFO("A ", rows, " x ", cols, ", nnz 3, int64 indices");
  const Buffer d_rows = Buffer::from(SDDMM_BACKEND_CUDA, std::vector<int64_t>{0, 12345 % rows, rows - 1});
  const Buffer d_cols = Buffer::from(SDDMM_BACKEND_CUDA, std::vector<int64_t>{cols - 1, 0, 2 % cols});
  auto* const untouched = reinterpret_cast<sddmm_matrix_t>(uintptr_t{0x5eed});
  sddmm_matrix_t h = untouched;
  const sddmm_status_t s = sddmm_create_coo(&h, rows, cols, 3, d_rows.get(), d_cols.get(), SDDMM_INDEX_INT64, nullptr,
                                            SDDMM_DTYPE_FLOAT32, SDDMM_BACKEND_CUDA, 0, 0, nullptr);
  const std::string message = sddmm_last_error();
  CHECK_MESSAGE(s == SDDMM_STATUS_OUT_OF_MEMORY, "got ", std::string(sddmm_status_string(s)), ": ", message);
  CHECK_MESSAGE(message.find("out of memory") != std::string::npos, "message: '", message, "'");
  CHECK(h == untouched);
}

// Creates and destroys a float32 COO plan of `m` (int64 indices in row order) on `stream`.
void create_and_destroy(const testkit::CooMatrix& m, cudaStream_t stream) {
  const Buffer d_rows = Buffer::from(SDDMM_BACKEND_CUDA, m.row);
  const Buffer d_cols = Buffer::from(SDDMM_BACKEND_CUDA, m.col);
  sddmm_matrix_t h = nullptr;
  REQUIRE_MESSAGE(sddmm_create_coo(&h, m.rows, m.cols, m.nnz(), d_rows.get(), d_cols.get(), SDDMM_INDEX_INT64, nullptr,
                                   SDDMM_DTYPE_FLOAT32, SDDMM_BACKEND_CUDA, 0, 0, stream) == SDDMM_STATUS_SUCCESS,
                  sddmm_last_error());
  CHECK(sddmm_destroy(h) == SDDMM_STATUS_SUCCESS);
}

// A float32 matrix whose plan lists tile entries (cuda/tile_entries.cuh: 128 x 256 tiles of 1200
// entries or more on average, rows' columns ascending): 8192 x 8192, an entry where a hash of (row,
// column) falls in 1 of 20 (about 3.36M entries, 1640 a tile), in row order, with values; its
// tile entries are 12 bytes an entry, about 40 MB.
struct TiledMatrix {
  static constexpr int64_t kSide = 8192;
  std::vector<int32_t> row, col;
  std::vector<float> val;
  TiledMatrix() {
    for (int64_t r = 0; r < kSide; ++r) {
      for (int64_t c = 0; c < kSide; ++c) {
        uint64_t h = static_cast<uint64_t>(r * kSide + c) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
        if (h % 20 != 0) continue;
        row.push_back(static_cast<int32_t>(r));
        col.push_back(static_cast<int32_t>(c));
        val.push_back(static_cast<float>(static_cast<int>(h >> 40) % 13 - 6) * 0.25f);
      }
    }
  }
  int64_t nnz() const { return static_cast<int64_t>(row.size()); }
};

// Device memory taken in pieces of at most 16 GiB (halved where one cannot be had, down to 2 MiB),
// `bytes` in all or as near as the device gives; freed on destruction.
class Ballast {
 public:
  explicit Ballast(size_t bytes) {
    size_t piece = size_t{16} << 30;
    while (bytes >= (size_t{2} << 20) && piece >= (size_t{2} << 20)) {
      void* p = nullptr;
      if (cudaMalloc(&p, std::min(piece, bytes)) != cudaSuccess) {
        (void)cudaGetLastError();
        piece /= 2;
        continue;
      }
      pieces_.push_back(p);
      bytes -= std::min(piece, bytes);
    }
  }
  ~Ballast() {
    for (void* p : pieces_) (void)cudaFree(p);
  }
  Ballast(const Ballast&) = delete;
  Ballast& operator=(const Ballast&) = delete;

 private:
  std::vector<void*> pieces_;
};

// Creates a float32 plan of the TiledMatrix whose arrays (on the device) are `rows`, `cols` and
// `vals` while about `left_free` bytes of device memory are free, the rest held by a ballast taken
// just before and freed just after: the status (SUCCESS or OUT_OF_MEMORY; any other fails the
// test), the failure's message in `*error` (when given). On SUCCESS `*kept` (when given) holds the
// handle, else it is destroyed. The creation pool is emptied first (a failed allocation hands back
// what it keeps, src/cuda/creation_scratch.cu), so that scratch it kept from an earlier creation,
// which the free memory does not count, is not there for this one to reuse.
sddmm_status_t create_with_free(const Buffer& rows, const Buffer& cols, const Buffer& vals, int64_t nnz,
                                size_t left_free, sddmm_matrix_t* kept = nullptr, std::string* error = nullptr) {
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  expect_out_of_memory(int64_t{1} << 40, 3);
  const size_t free = free_device_memory();
  const Ballast ballast(left_free < free ? free - left_free : 0);
  sddmm_matrix_t h = nullptr;
  const sddmm_status_t s =
      sddmm_create_coo(&h, TiledMatrix::kSide, TiledMatrix::kSide, nnz, rows.get(), cols.get(), SDDMM_INDEX_INT32,
                       vals.get(), SDDMM_DTYPE_FLOAT32, SDDMM_BACKEND_CUDA, 0, 0, nullptr);
  const std::string message = s == SDDMM_STATUS_SUCCESS ? std::string() : std::string(sddmm_last_error());
  if (error != nullptr) *error = message;
  REQUIRE_MESSAGE((s == SDDMM_STATUS_SUCCESS || s == SDDMM_STATUS_OUT_OF_MEMORY), sddmm_status_string(s), ": ",
                  message);
  if (s == SDDMM_STATUS_SUCCESS && kept != nullptr) {
    *kept = h;
  } else if (s == SDDMM_STATUS_SUCCESS) {
    CHECK(sddmm_destroy(h) == SDDMM_STATUS_SUCCESS);
  }
  return s;
}

// The least free memory, to 2 MiB, at which that plan can be created (between 0 and 1 GiB).
size_t least_free_for_creation(const Buffer& rows, const Buffer& cols, const Buffer& vals, int64_t nnz) {
  size_t fails = 0, works = size_t{1} << 30;
  REQUIRE(create_with_free(rows, cols, vals, nnz, works) == SDDMM_STATUS_SUCCESS);
  while (works - fails > (size_t{2} << 20)) {
    const size_t mid = fails + (works - fails) / 2;
    (create_with_free(rows, cols, vals, nnz, mid) == SDDMM_STATUS_SUCCESS ? works : fails) = mid;
  }
  return works;
}

// SDDMM at K = 32 (x1 row-major, x2 column-major, every value 1 / 8 apart) into `out`.
void sddmm_k32(sddmm_matrix_t h, const Buffer& x1, const Buffer& x2, const Buffer& out) {
  const sddmm_dense_t d1{x1.get(), TiledMatrix::kSide, 32, 32, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
  const sddmm_dense_t d2{x2.get(), 32, TiledMatrix::kSide, 32, SDDMM_LAYOUT_COL_MAJOR, SDDMM_DTYPE_FLOAT32};
  REQUIRE_MESSAGE(sddmm_execute(h, &d1, &d2, out.get(), SDDMM_DTYPE_FLOAT32, nullptr) == SDDMM_STATUS_SUCCESS,
                  sddmm_last_error());
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
}
// Creation's fallback without an optimisation that costs device memory (`env` = 0 turns it off;
// cuda/preprocess/compress.cu, build_device_pattern) on the TiledMatrix: with memory to spare, the
// plan with it holds at least 32 MiB more than without (`what` says how much it should take); with
// 8 MiB more free than the plan without it needs, creation by the rule succeeds and gives the same
// SDDMM results as with memory to spare.
void check_creation_without(const char* env, const char* what) {
  const TiledMatrix m;
  INFO("8192 x 8192, nnz ", m.nnz());
  const Buffer rows = Buffer::from(SDDMM_BACKEND_CUDA, m.row);
  const Buffer cols = Buffer::from(SDDMM_BACKEND_CUDA, m.col);
  const Buffer vals = Buffer::from(SDDMM_BACKEND_CUDA, m.val);
  std::vector<float> x1(TiledMatrix::kSide * 32), x2(TiledMatrix::kSide * 32);
  for (size_t i = 0; i < x1.size(); ++i) x1[i] = static_cast<float>(static_cast<int>(i % 17) - 8) * 0.125f;
  for (size_t i = 0; i < x2.size(); ++i) x2[i] = static_cast<float>(static_cast<int>(i % 11) - 5) * 0.125f;
  const Buffer d_x1 = Buffer::from(SDDMM_BACKEND_CUDA, x1);
  const Buffer d_x2 = Buffer::from(SDDMM_BACKEND_CUDA, x2);
  const Buffer out_spare(SDDMM_BACKEND_CUDA, static_cast<size_t>(m.nnz()) * sizeof(float));
  const Buffer out_tight(SDDMM_BACKEND_CUDA, static_cast<size_t>(m.nnz()) * sizeof(float));

  // With memory to spare (kernels loaded, as lazy module loading keeps them), with and without
  // the optimisation: the free memory each plan holds (its arrays, and the scratch its pool keeps).
  size_t held_with = 0, held_without = 0;
  {
    constexpr size_t kNoBallast = std::numeric_limits<size_t>::max();
    expect_out_of_memory(int64_t{1} << 40, 3);  // the creation pool emptied, as create_with_free does
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const size_t free_before = free_device_memory();
    sddmm_matrix_t h = nullptr;
    REQUIRE(create_with_free(rows, cols, vals, m.nnz(), kNoBallast, &h) == SDDMM_STATUS_SUCCESS);
    sddmm_k32(h, d_x1, d_x2, out_spare);
    held_with = free_before - free_device_memory();
    CHECK(sddmm_destroy(h) == SDDMM_STATUS_SUCCESS);
    const ScopedEnv without(env, "0");
    REQUIRE(create_with_free(rows, cols, vals, m.nnz(), kNoBallast, &h) == SDDMM_STATUS_SUCCESS);
    held_without = free_before - free_device_memory();
    CHECK(sddmm_destroy(h) == SDDMM_STATUS_SUCCESS);
  }
  CAPTURE(held_with);
  CAPTURE(held_without);
  CHECK_MESSAGE(held_with >= held_without + (size_t{32} << 20), what);

  bool created = false;
  size_t least = 0;
  std::string error;  // the last failed creation's message
  for (int attempt = 0; attempt < 3 && !created; ++attempt) {
    {
      const ScopedEnv without(env, "0");
      least = least_free_for_creation(rows, cols, vals, m.nnz());
    }
    sddmm_matrix_t h = nullptr;
    created =
        create_with_free(rows, cols, vals, m.nnz(), least + (size_t{8} << 20), &h, &error) == SDDMM_STATUS_SUCCESS;
    if (created) {
      sddmm_k32(h, d_x1, d_x2, out_tight);
      CHECK(sddmm_destroy(h) == SDDMM_STATUS_SUCCESS);
    }
  }
  CAPTURE(least);
  CAPTURE(error);
  REQUIRE_MESSAGE(created, "with ", env, " unset, creation failed with 8 MiB more free than it needs without");
  const int64_t nnz = m.nnz();
  CHECK(out_tight.to_host<float>(static_cast<size_t>(nnz)) == out_spare.to_host<float>(static_cast<size_t>(nnz)));
  CHECK(cudaGetLastError() == cudaSuccess);
}
}  // namespace

TEST_SUITE("gpu") {
  // Creation's scratch comes from a pool the library keeps per device (src/cuda/creation_scratch.cuh):
  // it may hold up to its bound between creations, never more, and creations that follow reuse it.
  // Free device memory is the whole device's: another process that starts (a CUDA context) or
  // allocates during a measurement moves it, so a measurement that disagrees is taken again, up to
  // three times; scratch that leaked or a pool that grew would disagree every time. (Left out of
  // the sanitizer shards, whose processes run at once: scripts/gpu-check.sh.)
  TEST_CASE("gpu: plan creation's scratch pool holds at most its bound and does not grow from creation to creation") {
    cudaStream_t stream = nullptr;
    REQUIRE(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) == cudaSuccess);
    const testkit::CooMatrix small = random_coo(2000, 3000, 20000, 8400, false);
    const testkit::CooMatrix large = random_coo(20000, 30000, 1000000, 8401, false);  // ~20 MB of scratch
    create_and_destroy(small, stream);  // kernels loaded (lazy module loading keeps that memory)
    size_t free = 0, total = 0;
    REQUIRE(cudaMemGetInfo(&free, &total) == cudaSuccess);
    // The bound as the library sets it (src/cuda/tuning.cpp, compiled into the tests); 2 MiB below
    // for the pool's granularity.
    const size_t bound = cuda::creation_pool_bytes(total);
    std::vector<size_t> after;
    size_t held = 0;
    bool steady = false;
    for (int attempt = 0; attempt < 3 && !steady; ++attempt) {
      REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
      const size_t before = free_device_memory();
      after.clear();
      for (int i = 0; i < 4; ++i) {
        create_and_destroy(i % 2 == 0 ? large : small, stream);
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        after.push_back(free_device_memory());
      }
      held = before > after[0] ? before - after[0] : 0;
      steady = std::all_of(after.begin(), after.end(), [&](size_t f) { return f == after[0]; }) &&
               held <= bound + (size_t{2} << 20);
    }
    CHECK(cudaStreamDestroy(stream) == cudaSuccess);
    for (size_t i = 1; i < after.size(); ++i) {
      CHECK_MESSAGE(after[i] == after[0], "free device memory after creation ", i + 1, ": ", after[i],
                    " bytes, after the first: ", after[0]);
    }
    CHECK_MESSAGE(held <= bound + (size_t{2} << 20), "creation kept ", held, " bytes of device memory, bound ", bound);
    CHECK(cudaGetLastError() == cudaSuccess);
  }

  TEST_CASE("gpu: device out of memory at creation gives OUT_OF_MEMORY, frees all it took, the next call works") {
    const int64_t huge = int64_t{1} << 40;
    // The first attempts load the kernels they launch (lazy module loading keeps that memory), so
    // the measurement starts after them.
    expect_out_of_memory(huge, 3);
    expect_out_of_memory(3, huge);
    // Rounds of 6 failed creations, free memory measured before and after each: memory they took
    // and kept would leave less free after every round. More may be free after one: a failed
    // allocation empties the creation pool (src/cuda/creation_scratch.cu), and run with -tc after
    // the tile cases a round once ended with 32 MiB more free than it began (H200, e80, before the
    // pool was emptied only once the device is done: the warm-up's failures then released less). Free
    // memory is the whole device's, which other processes move (e82: the same run beside the
    // sanitizers saw 0.4-2.9 GB less after), so the check asks for two rounds in a row with no
    // fall, in at most four: a release that hides a leak in one round does not in the next.
    int rounds_without_fall = 0;
    size_t before = 0, after = 0;
    for (int round = 1; round <= 4 && rounds_without_fall < 2; ++round) {
      REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
      before = free_device_memory();
      for (int i = 0; i < 3; ++i) {
        expect_out_of_memory(huge, 3);  // fails at the plan's allocation (its row offsets), before validation
        expect_out_of_memory(3, huge);  // the same (its column offsets)
      }
      REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
      after = free_device_memory();
      rounds_without_fall = after >= before ? rounds_without_fall + 1 : 0;
    }
    CHECK_MESSAGE(rounds_without_fall == 2, "free device memory fell in a round of 6 failed creations: the last had ",
                  before, " bytes before and ", after, " after");
    CHECK(cudaGetLastError() == cudaSuccess);  // no error left behind for the caller
    check_sddmm(SDDMM_BACKEND_CUDA, SddmmCase{"after OUT_OF_MEMORY", random_coo(40, 30, 200, 8300), 16});
    check_spmm(SDDMM_BACKEND_CUDA, SpmmCase{"after OUT_OF_MEMORY", random_coo(40, 30, 200, 8301), 8, true});
  }

  // The tile entries are an optimisation (src/cuda/preprocess/compress.cu, build_device_pattern):
  // where creation with them runs out of device memory, at the plan's allocation or at its scratch
  // after it, it starts again without them. Measured here: the least free memory at which the plan
  // can be created without tile entries (SDDMM_SDDMM_TILES=0), and the free memory the plan holds
  // with them against without (about 40 MB more); then, with tile entries by the rule, creation
  // must succeed with 8 MiB more free than the least without, where a plan with them cannot fit,
  // and its SDDMM equal that of a plan with them (operands of a few bits each, so that every sum is
  // exact in any order). Free memory is the whole device's, which other processes move: up to three
  // tries (and left out of the sanitizers' processes, which run at once).
  TEST_CASE("gpu: out of memory with tile entries: creation starts again without them, same results") {
    check_creation_without("SDDMM_SDDMM_TILES", "the tile entries should take about 40 MB");
  }

  TEST_CASE("gpu: out of memory with a panel order: creation starts again without it, same results") {
    // The same matrix has a panel order by the rule (8192 columns of X2 fit the L2; about 3.3
    // entries a panel column): 3i + v = 16 bytes an entry of the plan (about 54 MB) and 4 of the
    // scratch. Tile entries off throughout, so that the panel order is the only part left out.
    const ScopedEnv no_tiles("SDDMM_SDDMM_TILES", "0");
    check_creation_without("SDDMM_SDDMM_PANELS", "the panel order should take about 54 MB");
  }
}
}  // namespace sddmm::test
#endif  // SDDMM_TESTS_HAVE_CUDA
