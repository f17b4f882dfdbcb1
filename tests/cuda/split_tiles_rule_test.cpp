// The SpMM split-tiles rule (src/cuda/spmm/split_tiles_rule.hpp): host code, in the CPU suite. Which
// calls deal a whole-warp light row's column tiles over several warps, on the benchmark's shapes
// (bench/RESULTS.md); the split kernel itself is in the GPU suite (differential_test.cpp).
#if SDDMM_TESTS_HAVE_CUDA

#include "cuda/spmm/split_tiles_rule.hpp"

#include <doctest/doctest.h>

#include <cstdint>

namespace sddmm::cuda {
namespace {

constexpr int64_t kResidentThreads = 132 * 2048;  // the H200's
constexpr int kRule = -1;

// The shift for a float32 call of width n (tiles of 128 columns) on light rows of the given count
// and mean length.
int shift_for(int64_t n, int64_t rows, int64_t mean, bool x_exceeds_l2, int mode = kRule) {
  return light_tile_shift((n + 127) / 128, rows * mean, rows, kResidentThreads, x_exceeds_l2, mode);
}

}  // namespace

TEST_CASE("split tiles: few short rows (the small graphs) split from two tiles on") {
  CHECK(shift_for(256, 19000, 4, false) == 1);   // pubmed-like: two warps a row
  CHECK(shift_for(256, 3300, 3, false) == 1);    // citeseer-like
  CHECK(shift_for(384, 19000, 4, false) == 1);   // 3 tiles: two warps, one of them two tiles
  CHECK(shift_for(520, 19000, 4, false) == 2);   // 5 tiles: four warps
  CHECK(shift_for(1024, 19000, 4, false) == 3);  // 8 tiles: eight warps
  CHECK(shift_for(4096, 19000, 4, false) == 3);  // never more than eight
  CHECK(shift_for(128, 19000, 4, false) == 0);   // one tile: nothing to deal
  CHECK(shift_for(129, 19000, 4, false) == 1);   // a part-filled second tile
}

TEST_CASE("split tiles: many rows, or long rows that fit the L2, stay one warp a row") {
  CHECK(shift_for(256, 1000000, 11, true) == 0);  // banded: millions of rows
  CHECK(shift_for(256, 62586, 2, false) == 0);    // p2p-Gnutella31: 7.4 waves of rows
  CHECK(shift_for(256, 8000, 160, false) == 0);   // uniform 8000^2: long rows, X in the L2
  CHECK(shift_for(256, 4000, 22, false) == 0);    // uniform-4000-88k: rows above the mean bound
  CHECK(shift_for(512, 8000, 800, false) == 0);   // uniform-8000-6.4M at N = 512: X in the L2
  CHECK(shift_for(512, 1000000, 11, true) == 0);  // banded at N = 512: short rows
  CHECK(shift_for(512, 106000, 28, true) == 0);   // uniform-106000-3M: under the wide rule's mean
}

TEST_CASE("split tiles: from four tiles, long rows past the L2 split too") {
  CHECK(shift_for(512, 300000, 230, true) == 2);   // uniform 300000 x 103000
  CHECK(shift_for(512, 200000, 55, true) == 2);    // SBM
  CHECK(shift_for(1024, 300000, 230, true) == 3);  // 8 tiles
  CHECK(shift_for(384, 300000, 230, true) == 0);   // 3 tiles: not measured, not taken
  CHECK(shift_for(256, 300000, 230, true) == 0);   // 2 tiles: measured neutral
  CHECK(shift_for(512, 300000, 230, false) == 0);  // X within the L2
}

constexpr int64_t kH200L2 = 60 * 1024 * 1024;
constexpr int64_t kH100L2 = 50 * 1024 * 1024;

// Whether a float32 call of width n on a rows x cols matrix (X cols x n, Y rows x n) with light rows
// of the given mean takes the tiles share-major.
bool outer_for(int64_t n, int64_t rows, int64_t cols, int64_t mean, int64_t l2 = kH200L2, int mode = kRule) {
  return light_tiles_outer((n + 127) / 128, rows * mean, rows, cols * n * 4, rows * n * 4, l2, mode);
}

TEST_CASE("tiles outer: full_tile_shift deals up to eight warps") {
  CHECK(full_tile_shift(1) == 0);
  CHECK(full_tile_shift(2) == 1);
  CHECK(full_tile_shift(3) == 1);
  CHECK(full_tile_shift(4) == 2);
  CHECK(full_tile_shift(8) == 3);
  CHECK(full_tile_shift(40) == 3);
}

TEST_CASE("tiles outer: share-major where one share of X fits the L2 and X and Y do not") {
  CHECK(outer_for(256, 106000, 106000, 28));        // uniform-106000-3M: X 108 MB, a share 54
  CHECK(outer_for(512, 106000, 106000, 28));        // ... four shares of 54 MB
  CHECK(outer_for(256, 106000, 106000, 28, kH100L2));  // the H100: 54 MB against its 52 MB
  CHECK(outer_for(256, 300000, 103000, 230));       // uniform 300000 x 103000
  CHECK(outer_for(512, 300000, 103000, 230));
  CHECK(outer_for(256, 37000, 37000, 10));          // uniform-37000-368k: X + Y 76 MB
  CHECK(outer_for(256, 36000, 36000, 111));         // uniform-36000-4M
  CHECK_FALSE(outer_for(128, 106000, 106000, 28));  // one tile: nothing to deal
}

TEST_CASE("tiles outer: not where X and Y fit the L2, a share does not, or rows are short") {
  CHECK_FALSE(outer_for(256, 8000, 8000, 160));       // uniform 8000^2: 16 MB in all
  CHECK_FALSE(outer_for(512, 8000, 8000, 800));
  CHECK_FALSE(outer_for(256, 19717, 19717, 4));       // pubmed: 40 MB in all
  CHECK_FALSE(outer_for(256, 200000, 200000, 55));    // SBM: a share 102 MB (1.6 L2)
  CHECK_FALSE(outer_for(512, 200000, 200000, 55));
  CHECK_FALSE(outer_for(256, 262144, 262144, 64));    // block-diagonal: 134 MB
  CHECK_FALSE(outer_for(256, 1000000, 1000000, 11));  // banded: 512 MB
  CHECK_FALSE(outer_for(256, 916000, 916000, 5));     // uniform 916000^2
  CHECK_FALSE(outer_for(256, 685000, 685000, 12));    // uniform 685000^2: 351 MB
  CHECK_FALSE(outer_for(256, 62586, 62586, 2));       // p2p-Gnutella31: a share fits, rows of 2
  CHECK_FALSE(light_tiles_outer(2, 0, 0, int64_t{1} << 30, int64_t{1} << 30, kH200L2, kRule));  // no light rows
}

TEST_CASE("tiles outer: SDDMM_SPMM_TILES_OUTER forces it on wherever N allows, or off") {
  CHECK(outer_for(256, 8000, 8000, 160, kH200L2, 1));
  CHECK(outer_for(256, 1000000, 1000000, 11, kH200L2, 1));
  CHECK_FALSE(outer_for(128, 8000, 8000, 160, kH200L2, 1));  // one tile
  CHECK_FALSE(outer_for(256, 106000, 106000, 28, kH200L2, 0));
}

TEST_CASE("tiles outer: light_tile_split takes share-major first, else the split rule's shift") {
  const auto split_for = [](int64_t n, int64_t rows, int64_t cols, int64_t mean) {
    return light_tile_split((n + 127) / 128, rows * mean, rows, kResidentThreads, cols * n * 4, rows * n * 4, kH200L2,
                            kRule, kRule);
  };
  const LightTileSplit wide = split_for(512, 300000, 103000, 230);  // both rules take it
  CHECK(wide.outer);
  CHECK(wide.shift == 2);
  const LightTileSplit graph = split_for(256, 19000, 19000, 4);  // pubmed-like: the split rule alone
  CHECK_FALSE(graph.outer);
  CHECK(graph.shift == 1);
  const LightTileSplit banded = split_for(256, 1000000, 1000000, 11);  // neither
  CHECK_FALSE(banded.outer);
  CHECK(banded.shift == 0);
}

TEST_CASE("split tiles: SDDMM_SPMM_SPLIT_TILES forces it on wherever N allows, or off") {
  CHECK(shift_for(256, 1000000, 11, true, 1) == 1);
  CHECK(shift_for(512, 8000, 800, false, 1) == 2);
  CHECK(shift_for(128, 1000000, 11, true, 1) == 0);  // one tile: still nothing to deal
  CHECK(shift_for(256, 19000, 4, false, 0) == 0);
  CHECK(shift_for(512, 300000, 230, true, 0) == 0);
  CHECK(light_tile_shift(2, 0, 0, kResidentThreads, false, kRule) == 0);  // no light rows
}

}  // namespace sddmm::cuda

#endif  // SDDMM_TESTS_HAVE_CUDA
