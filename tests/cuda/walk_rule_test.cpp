// The wgmma walk rule (src/cuda/sddmm/walk_rule.hpp): host code, in the CPU suite. Which of the
// benchmark's matrices take the walk rather than the squares (bench/RESULTS.md, issue 4 section);
// the kernel itself is in the GPU suite (tensor_core_test.cpp), where its outputs are held to the
// squares' bit for bit.
#if SDDMM_TESTS_HAVE_CUDA

#include "cuda/sddmm/walk_rule.hpp"

#include <doctest/doctest.h>

#include <cstdint>

namespace sddmm::cuda {
namespace {

constexpr int kRule = -1;

}  // namespace

TEST_CASE("wgmma walk: from 2.5 % dense, the squares below") {
  CHECK(wgmma_walk_pays(8000, 8000, 6'400'000, kRule));   // 10 %: the walk won (71.4 / 94.2 us)
  CHECK(wgmma_walk_pays(8000, 8000, 1'920'000, kRule));   // 3 %: won (66.4 / 87.3 against 73.2 / 93.5)
  CHECK(wgmma_walk_pays(8000, 8000, 1'600'000, kRule));   // 2.5 % exactly
  CHECK_FALSE(wgmma_walk_pays(8000, 8000, 1'599'999, kRule));
  CHECK_FALSE(wgmma_walk_pays(8000, 8000, 1'280'000, kRule));  // 2 %
  CHECK(wgmma_walk_pays(1000, 1100, 108'044, kRule));     // the GPU suite's square pattern, 9.8 %
  // Rectangular and large: by the share of cells, not by the count of entries.
  CHECK(wgmma_walk_pays(300000, 1000, 30'000'000, kRule));
  CHECK_FALSE(wgmma_walk_pays(300000, 103000, 69'000'000, kRule));  // 0.2 %
  CHECK_FALSE(wgmma_walk_pays(int64_t{1} << 31, int64_t{1} << 31, int64_t{1} << 40, kRule));  // 2^-22
}

TEST_CASE("wgmma walk: SDDMM_TC_WGMMA_WALK forces either, an empty matrix never walks by the rule") {
  CHECK(wgmma_walk_pays(8000, 8000, 1'280'000, 1));
  CHECK_FALSE(wgmma_walk_pays(8000, 8000, 6'400'000, 0));
  CHECK_FALSE(wgmma_walk_pays(0, 0, 0, kRule));
  CHECK_FALSE(wgmma_walk_pays(0, 8000, 0, kRule));
}

}  // namespace sddmm::cuda

#endif  // SDDMM_TESTS_HAVE_CUDA
