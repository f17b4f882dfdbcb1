// The SDDMM K-halves rule (src/cuda/sddmm/k_halves_rule.hpp): host code, in the CPU suite. Which
// calls sum K in two launches, on the benchmark's shapes (bench/RESULTS.md); the launches
// themselves are in the GPU suite (differential_test.cpp).
#if SDDMM_TESTS_HAVE_CUDA

#include "cuda/sddmm/k_halves_rule.hpp"

#include <doctest/doctest.h>

#include <cstdint>

namespace sddmm::cuda {
namespace {

constexpr int64_t kH200L2 = 60 * 1024 * 1024;
constexpr int64_t kH100L2 = 50 * 1024 * 1024;
constexpr int kRule = -1;

// Whether a float32 call at K on a matrix of `cols` columns (X2 cols x K) sums K in halves.
bool halves_for(int64_t k, int64_t cols, int64_t l2 = kH200L2, int mode = kRule) {
  return sddmm_k_halves(k, cols * k * 4, l2, mode);
}

}  // namespace

TEST_CASE("K halves: where X2 exceeds the L2 and half of it about fits") {
  CHECK(halves_for(256, 106000));           // uniform-106000-3M: X2 108 MB, a half 54
  CHECK(halves_for(256, 106000, kH100L2));  // the H100: 54 MB against its 52 MB
  CHECK(halves_for(256, 103000));           // uniform 300000 x 103000: X2 105 MB
  CHECK(halves_for(512, 36000));            // uniform-36000-4M at K = 512: X2 74 MB
}

TEST_CASE("K halves: not where X2 fits the L2, half of it does not, or K is under 256") {
  CHECK_FALSE(halves_for(128, 106000));   // 54 MB: X2 fits the H200's L2
  CHECK_FALSE(halves_for(256, 36000));    // uniform-36000-4M: 37 MB
  CHECK_FALSE(halves_for(256, 8000));     // uniform 8000^2
  CHECK_FALSE(halves_for(256, 200000));   // SBM: a half 102 MB
  CHECK_FALSE(halves_for(256, 685000));   // uniform 685000^2: 701 MB
  CHECK_FALSE(halves_for(256, 1000000));  // banded, R-MAT
  CHECK_FALSE(halves_for(128, 200000));   // SBM at K = 128: X2 102 MB, a half fits, but halves of 64
  CHECK_FALSE(halves_for(128, 140000));   // X2 72 MB at K = 128: the same
}

TEST_CASE("K halves: SDDMM_SDDMM_K_HALVES forces them on or off") {
  CHECK(halves_for(32, 8000, kH200L2, 1));
  CHECK(halves_for(128, 200000, kH200L2, 1));
  CHECK(halves_for(256, 685000, kH200L2, 1));
  CHECK_FALSE(halves_for(256, 106000, kH200L2, 0));
}

}  // namespace sddmm::cuda

#endif  // SDDMM_TESTS_HAVE_CUDA
