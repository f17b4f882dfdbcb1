// The SDDMM K-parts rule (src/cuda/sddmm/k_parts_rule.hpp): host code, in the CPU suite. Into how
// many launches calls split K, on the benchmark's shapes (bench/RESULTS.md); the launches
// themselves are in the GPU suite (differential_test.cpp).
#if SDDMM_TESTS_HAVE_CUDA

#include "cuda/sddmm/k_parts_rule.hpp"

#include <doctest/doctest.h>

#include <cstdint>

namespace sddmm::cuda {
namespace {

constexpr int64_t kH200L2 = 60 * 1024 * 1024;
constexpr int64_t kH100L2 = 50 * 1024 * 1024;
constexpr int kRule = 0;

// The launches of a float32 call at K on a matrix of `cols` columns (X2 cols x K).
int parts_for(int64_t k, int64_t cols, int64_t l2 = kH200L2, int forced = kRule) {
  return sddmm_k_parts(k, cols * k * 4, l2, forced);
}

}  // namespace

TEST_CASE("K parts: the fewest parts of which one fits the L2") {
  CHECK(parts_for(512, 36000) == 2);    // uniform-36000-4M at K = 512: X2 74 MB, a half 37
  CHECK(parts_for(1024, 36000) == 4);   // X2 147 MB, a half 74 (1.17 L2), a quarter 37
  CHECK(parts_for(512, 106000) == 4);   // uniform-106000-3M: X2 217 MB, a half 109, a quarter 54
  CHECK(parts_for(512, 103000) == 4);   // 300000 x 103000 at K = 512: X2 211 MB
  CHECK(parts_for(1024, 106000) == 8);  // X2 434 MB: eighths of 128, 54 MB
  CHECK(parts_for(1024, 103000) == 8);
  CHECK(parts_for(512, 62586) == 2);    // p2p-Gnutella31: a half 1.02 L2 counts as fitting
  CHECK(parts_for(1024, 62586) == 4);   // and a quarter at K = 1024
  CHECK(parts_for(512, 106000, kH100L2) == 4);  // the H100: a quarter 1.04 L2
}

TEST_CASE("K parts: where none fits, parts of 128 (K = 256 within the bound)") {
  CHECK(parts_for(256, 106000) == 2);           // a half 54 MB (0.86 L2), quarters would be of 64
  CHECK(parts_for(256, 106000, kH100L2) == 2);  // the H100: 54 MB against its 52 MB
  CHECK(parts_for(256, 103000) == 2);           // uniform 300000 x 103000: X2 105 MB
  CHECK(parts_for(512, 200000) == 4);           // SBM at K = 512: quarters of 102 MB (1.63 L2)
  CHECK(parts_for(1024, 200000) == 8);          // SBM at K = 1024: eighths of 102 MB
  CHECK(parts_for(512, 1000000) == 4);          // banded, R-MAT: quarters of 512 MB
  CHECK(parts_for(1024, 685000) == 8);          // uniform 685000^2: eighths of 350 MB
  CHECK(parts_for(512, 262144) == 4);           // block-diagonal 262144: quarters of 134 MB
  CHECK(parts_for(2048, 106000) == 8);          // X2 868 MB: no more than eight parts, of 256
}

TEST_CASE("K parts: one launch where X2 fits the L2, or at K = 256 a half is past the bound") {
  CHECK(parts_for(128, 106000) == 1);    // 54 MB: X2 fits the H200's L2
  CHECK(parts_for(256, 36000) == 1);     // uniform-36000-4M: 37 MB
  CHECK(parts_for(1024, 8000) == 1);     // uniform 8000^2: 33 MB
  CHECK(parts_for(512, 19717) == 1);     // pubmed: 40 MB
  CHECK(parts_for(256, 200000) == 1);    // SBM: a half 102 MB (1.63 L2)
  CHECK(parts_for(256, 685000) == 1);    // uniform 685000^2: a half 350 MB
  CHECK(parts_for(256, 1000000) == 1);   // banded, R-MAT
  CHECK(parts_for(128, 200000) == 1);    // SBM at K = 128: X2 102 MB, a half fits, but halves of 64
  CHECK(parts_for(128, 140000) == 1);    // X2 72 MB at K = 128: the same
  CHECK(parts_for(192, 140000) == 1);    // K = 192: halves of 96
}

TEST_CASE("K parts: SDDMM_SDDMM_K_PARTS forces a count") {
  CHECK(parts_for(32, 8000, kH200L2, 2) == 2);
  CHECK(parts_for(128, 200000, kH200L2, 4) == 4);
  CHECK(parts_for(256, 685000, kH200L2, 2) == 2);
  CHECK(parts_for(256, 106000, kH200L2, 1) == 1);
}

}  // namespace sddmm::cuda

#endif  // SDDMM_TESTS_HAVE_CUDA
