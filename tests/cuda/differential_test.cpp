// The CUDA backend against the float64 reference, over the same suite as the CPU backend. These run
// only as the "gpu" test suite (ctest: sddmm_tests_gpu), which reports itself skipped without a GPU.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cases.hpp"
#include "generators.hpp"
#include "scoped_env.hpp"

namespace sddmm::test {
namespace {

// The CUDA backend's SDDMM on every suite case and every real graph, against the float64 reference
// (run by the test cases below under the tuning overrides they set).
void check_sddmm_suite_and_graphs() {
  for (const auto& c : sddmm_cases()) check_sddmm(SDDMM_BACKEND_CUDA, c);
  for (const auto& c : graph_sddmm_cases()) check_sddmm(SDDMM_BACKEND_CUDA, c);
}

bool float32_throughout(const SddmmCase& c) {
  return c.precision.features == SDDMM_DTYPE_FLOAT32 && c.precision.values == SDDMM_DTYPE_FLOAT32 &&
         c.precision.output == SDDMM_DTYPE_FLOAT32;
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("gpu: SDDMM matches the float64 reference on every suite case") {
    for (const auto& c : sddmm_cases()) check_sddmm(SDDMM_BACKEND_CUDA, c);
  }

  TEST_CASE("gpu: SpMM and transposed SpMM match the float64 reference on every suite case") {
    for (const auto& c : spmm_cases()) check_spmm(SDDMM_BACKEND_CUDA, c);
  }

  TEST_CASE("gpu: the heavy-row SpMM kernel on every suite case (all rows forced heavy)") {
    // Plan creation reads these tuning overrides: a threshold of 0 entries, without the term from the
    // mean row length, sends every non-empty row to the heavy-row blocks.
    const ScopedEnv heavy_entries("SDDMM_SPMM_HEAVY_ROW_ENTRIES", "0");
    const ScopedEnv heavy_factor("SDDMM_SPMM_HEAVY_ROW_FACTOR", "0");
    for (const auto& c : spmm_cases()) check_spmm(SDDMM_BACKEND_CUDA, c);
  }

  TEST_CASE("gpu: SpMM's narrow lane groups with deep rows everywhere and nowhere (every suite case)") {
    // By default float32 calls in lane groups narrower than a warp (N <= 64) take the deep
    // configuration (16 entries in flight) where the light rows average at least 16 entries, and
    // its few-rows form (up to 128 registers, never sliced, indices a round ahead) where those rows
    // are few (tuning.hpp).
    // Deep rows at 1 take it wherever they run: short rows, tails of 0 to 15 entries; by the
    // few-rows rule the suite's small cases then run few-rows where they would be unsliced and
    // sliced where they would be sliced; SDDMM_SPMM_FEW_ROWS=1 runs few-rows on every case (long
    // rows, beside heavy rows), 0 the plain deep kernel unsliced and sliced. Deep rows at 0 never:
    // the sliced and plain paths of 4 entries in flight. SDDMM_SPMM_FEW_LONG_ROWS=1 takes the
    // few-rows form for long rows (16-byte index and value loads after a masked first round)
    // wherever few-rows runs: rows that start at every alignment, rows shorter than a round, no
    // values.
    const struct {
      const char* mean;
      const char* few_rows;  // nullptr: the rule
      const char* few_long;  // nullptr: the rule
    } settings[] = {{"1", nullptr, nullptr}, {"1", "1", nullptr}, {"1", "1", "1"}, {"1", "0", nullptr},
                    {"0", nullptr, nullptr}};
    // One subcase a setting, so that a process can run one (doctest -sc): under compute-sanitizer
    // the five together ran past 420 s.
    for (const auto& s : settings) {
      const std::string name = std::string("SDDMM_SPMM_DEEP_ROWS=") + s.mean +
                               " SDDMM_SPMM_FEW_ROWS=" + (s.few_rows != nullptr ? s.few_rows : "(rule)") +
                               " SDDMM_SPMM_FEW_LONG_ROWS=" + (s.few_long != nullptr ? s.few_long : "(rule)");
      SUBCASE(name.c_str()) {
        const ScopedEnv deep("SDDMM_SPMM_DEEP_ROWS", s.mean);
        const ScopedEnv few("SDDMM_SPMM_FEW_ROWS", s.few_rows);
        const ScopedEnv few_long("SDDMM_SPMM_FEW_LONG_ROWS", s.few_long);
        for (const auto& c : spmm_cases()) check_spmm(SDDMM_BACKEND_CUDA, c);
      }
    }
  }

  TEST_CASE("gpu: the SDDMM CUDA-core kernel with its grid at 64 waves (suite cases and real graphs)") {
    // Plan creation reads these tuning overrides: up to 64 waves of resident blocks, without the
    // minimum of work per warp, so that the real graphs (88k-187k entries) take more blocks than
    // the device runs at once and many warps get a share of one iteration or none.
    const ScopedEnv grid_waves("SDDMM_SDDMM_GRID_WAVES", "64");
    const ScopedEnv wave_products("SDDMM_SDDMM_WAVE_PRODUCTS", "0");
    check_sddmm_suite_and_graphs();
  }

  TEST_CASE("gpu: the SDDMM CUDA-core kernels with warps taking whole rows (suite cases and real graphs)") {
    // By default warps take whole rows only where X2 exceeds the L2 and rows are long (sddmm.cu),
    // which no case here is; this override gives them whole rows wherever the plan has no heavy
    // row: shares that end anywhere in an iteration, warps with no rows (more warps than rows).
    const ScopedEnv row_shares("SDDMM_SDDMM_ROW_SHARES", "1");
    check_sddmm_suite_and_graphs();
  }

  TEST_CASE("gpu: the SDDMM entry kernel in blocks of a whole multiprocessor (suite cases and real graphs)") {
    // By default float32's entry kernel takes 1024-thread blocks only where X2 exceeds the L2
    // (sddmm.cu), which no case here does; this override takes them wherever it runs, equal shares
    // and whole rows alike, and with 64 waves and no minimum of work per warp many blocks get a
    // share of one iteration or none.
    const ScopedEnv sm_blocks("SDDMM_SDDMM_SM_BLOCKS", "1");
    const ScopedEnv grid_waves("SDDMM_SDDMM_GRID_WAVES", "64");
    const ScopedEnv wave_products("SDDMM_SDDMM_WAVE_PRODUCTS", "0");
    check_sddmm_suite_and_graphs();
    const ScopedEnv row_shares("SDDMM_SDDMM_ROW_SHARES", "1");
    check_sddmm_suite_and_graphs();
  }

  TEST_CASE("gpu: SDDMM by launches over parts of K wherever a call allows (suite cases and real graphs)") {
    // By default only calls whose X2 exceeds the L2 take parts of K (sddmm/k_parts_rule.hpp),
    // which no case here does; this override takes halves, then quarters, on every
    // float32-output call of the entry kernel's vector path whose K is a multiple of the parts'
    // vectors: caller orders, no values, 16-bit features, K from 8 (16 for quarters). Then halves
    // with whole rows per warp and whole-multiprocessor blocks too, on many blocks with little or
    // no work, as the parts past the L2 may take them.
    {
      const ScopedEnv k_quarters("SDDMM_SDDMM_K_PARTS", "4");
      check_sddmm_suite_and_graphs();
    }
    const ScopedEnv k_halves("SDDMM_SDDMM_K_PARTS", "2");
    check_sddmm_suite_and_graphs();
    const ScopedEnv row_shares("SDDMM_SDDMM_ROW_SHARES", "1");
    const ScopedEnv sm_blocks("SDDMM_SDDMM_SM_BLOCKS", "1");
    const ScopedEnv grid_waves("SDDMM_SDDMM_GRID_WAVES", "64");
    const ScopedEnv wave_products("SDDMM_SDDMM_WAVE_PRODUCTS", "0");
    check_sddmm_suite_and_graphs();
  }

  TEST_CASE("gpu: the SDDMM line kernel with contiguous shares per warp (suite cases and real graphs)") {
    // By default the line kernel's warps take its iterations in turn at K <= 32, on a grid of one wave
    // (sddmm.cu); this override gives them one contiguous share each, on up to 64 waves without a
    // minimum of work per warp, as the entry kernel's.
    const ScopedEnv line_interleave("SDDMM_SDDMM_LINE_INTERLEAVE", "0");
    const ScopedEnv grid_waves("SDDMM_SDDMM_GRID_WAVES", "64");
    const ScopedEnv wave_products("SDDMM_SDDMM_WAVE_PRODUCTS", "0");
    check_sddmm_suite_and_graphs();
  }

  TEST_CASE("gpu: the SDDMM panel kernel wherever a panel order fits (suite cases and real graphs)") {
    // By default plans build the panel order only where each X2 column read would serve enough
    // entries (preprocess/compress.cu), which the K sweep's matrix does and most cases do not; this
    // override builds it for every plan whose keys fit, so that every call at K of 512-, 1024- or
    // 2048-byte rows on the vector path takes the panel kernel: panels of a few entries, shares
    // that cross panels, caller orders, no values, every precision. The graphs also at K = 256
    // (their K of 64 has 512-byte rows in float64 only), with the rows and columns that no entry
    // uses poisoned. Then the calls whose X1 rows are 512 to 2048 bytes again (those on the vector
    // path's layout take the panel kernel), on a grid of up to 64 waves without a minimum of
    // entries a block (by default more than one wave only where each block still gets
    // kSddmmPanelBlockEntries): many blocks a panel, each a share of a few iterations that starts
    // and ends anywhere in it.
    const ScopedEnv panels("SDDMM_SDDMM_PANELS", "1");
    std::vector<SddmmCase> panel_row_calls;
    const auto panel_rows = [](const SddmmCase& c) {  // X1 rows of 512, 1024 or 2048 bytes
      const sddmm_dtype_t f = c.precision.features;
      const int64_t bytes = f == SDDMM_DTYPE_FLOAT64 ? 8 : f == SDDMM_DTYPE_FLOAT32 ? 4 : 2;
      return c.k * bytes == 512 || c.k * bytes == 1024 || c.k * bytes == 2048;
    };
    for (const auto& c : sddmm_cases()) {
      check_sddmm(SDDMM_BACKEND_CUDA, c);
      if (panel_rows(c)) panel_row_calls.push_back(c);
    }
    for (auto c : graph_sddmm_cases()) {
      check_sddmm(SDDMM_BACKEND_CUDA, c);
      c.k = 256;
      c.poison_unreferenced = true;
      check_sddmm(SDDMM_BACKEND_CUDA, c);
      if (panel_rows(c)) panel_row_calls.push_back(c);
    }
    REQUIRE(!panel_row_calls.empty());
    const ScopedEnv grid_waves("SDDMM_SDDMM_GRID_WAVES", "64");
    const ScopedEnv block_entries("SDDMM_SDDMM_PANEL_BLOCK_ENTRIES", "0");
    for (const auto& c : panel_row_calls) check_sddmm(SDDMM_BACKEND_CUDA, c);
  }

  TEST_CASE("gpu: the SDDMM tile kernel at float32 K = 32 (dense tiles, suite cases, real graphs)") {
    // By default float32 plans keep tile entries where their 128 x 256 tiles hold enough entries on
    // average and every row's columns ascend (tuning.hpp, kSddmmTileMinEntries), and then float32
    // calls at K = 32 on the vector path's layout take the tile kernel. First patterns the rule
    // gives tiles to: about 10 % dense with repeated entries, the last row of tiles and the last
    // slab partial (1000 = 7 x 128 + 104 rows, 2000 = 7 x 256 + 208 columns), int32 and int64
    // indices, with and without values: COO in row order, CSR with X1 rows and X2 columns padded,
    // and COO in column order (the outputs go back to the caller's places); then in shuffled
    // order, and in row order with each row's columns shuffled (COO and CSR), whose rows' columns do
    // not ascend: the plan drops its tile entries and the line kernel runs. Then, with the tile entries forced on every
    // float32 plan (SDDMM_SDDMM_TILES=1), every float32 suite case and graph at K = 32 with its entries sorted by row
    // and column: tiles of a few entries, empty tiles and rows, one-row and one-column matrices, offsets that leave the
    // vector path.
    uint64_t seed = 8800;
    for (sddmm_index_type_t it : {SDDMM_INDEX_INT32, SDDMM_INDEX_INT64}) {
      for (bool values : {true, false}) {
        const testkit::CooMatrix shuffled = random_coo(1000, 2000, 200000, seed++, values);
        const testkit::CooMatrix in_rows = sorted_by_row(shuffled, true);
        SddmmCase c{"dense tiles, row order", in_rows, 32, Precision{}, it};
        check_sddmm(SDDMM_BACKEND_CUDA, c);
        c.name = "dense tiles, CSR, padded";
        c.csr = true;
        c.ld_pad = 4;  // 36 floats: rows and columns stay 16-byte aligned (the vector path)
        c.seed = seed++;
        check_sddmm(SDDMM_BACKEND_CUDA, c);
        c = SddmmCase{"dense tiles, column order", sorted_by_column(shuffled), 32, Precision{}, it};
        check_sddmm(SDDMM_BACKEND_CUDA, c);
        c = SddmmCase{"dense tiles, shuffled (no tile entries kept)", shuffled, 32, Precision{}, it};
        check_sddmm(SDDMM_BACKEND_CUDA, c);
        // In row order with each row's columns in the shuffled order: creation's copy of the
        // caller's row-ordered entries finds that they do not ascend, for COO and for CSR (where
        // a row's first entry is known from the offsets alone).
        c = SddmmCase{"dense tiles, row order, columns not ascending", sorted_by_row(shuffled), 32, Precision{}, it};
        check_sddmm(SDDMM_BACKEND_CUDA, c);
        c.name = "dense tiles, CSR, columns not ascending";
        c.csr = true;
        c.seed = seed++;
        check_sddmm(SDDMM_BACKEND_CUDA, c);
      }
    }
    const ScopedEnv tiles("SDDMM_SDDMM_TILES", "1");
    int64_t calls = 0;
    for (auto c : sddmm_cases()) {
      if (c.k != 32 || !float32_throughout(c)) continue;
      c.a = sorted_by_row(c.a, true);
      check_sddmm(SDDMM_BACKEND_CUDA, c);
      ++calls;
    }
    for (auto c : graph_sddmm_cases()) {
      c.k = 32;
      if (!float32_throughout(c)) continue;
      c.a = sorted_by_row(c.a, true);
      check_sddmm(SDDMM_BACKEND_CUDA, c);
      c.poison_unreferenced = true;
      check_sddmm(SDDMM_BACKEND_CUDA, c);
      ++calls;
    }
    CHECK(calls > 0);
  }

  TEST_CASE("gpu: SpMM with L2 hints on every float32 whole-warp call (suite cases and a power-law graph)") {
    // By default the hinted kernels (src/cuda/l2_hints.cuh) take float32 calls with N > 64 whose X
    // exceeds the L2 and a few of whose rows serve most entries (spmm.cu): none of these cases.
    // SDDMM_SPMM_L2_HINTS=1 gives every plan the classes and every such forward call the hinted
    // kernels (plain and shared indices, heavy-row blocks beside them), with the busiest rows of X,
    // whole classes up to half of them, loaded evict_last and the others evict_first: both kinds of
    // load in one call. The R-MAT graph has both kinds in every row's entries, the heavy rows too.
    const ScopedEnv hints("SDDMM_SPMM_L2_HINTS", "1");
    for (const auto& c : spmm_cases()) check_spmm(SDDMM_BACKEND_CUDA, c);
    const testkit::CooMatrix graph = testkit::rmat(12, 16, 31);
    uint64_t seed = 8000;
    for (int64_t n : {128, 256}) {
      for (sddmm_index_type_t it : {SDDMM_INDEX_INT32, SDDMM_INDEX_INT64}) {
        SpmmCase c{"R-MAT scale 12, L2 hints", graph, n, false, Precision{}, it};
        c.seed = seed++;
        check_spmm(SDDMM_BACKEND_CUDA, c);
      }
    }
  }

  TEST_CASE("gpu: SpMM whole-warp rows with their column tiles dealt over several warps, and not") {
    // By default float32 calls with N > 128 deal a light row's column tiles of 128 columns over up
    // to 8 warps (tile t to warp t mod 2^shift) where the light rows are few and short
    // (spmm/split_tiles_rule.hpp): most of the suite's small cases. SDDMM_SPMM_SPLIT_TILES=1 does
    // so wherever N allows, 0 never. N of 3, 5 and 8 tiles (a warp with two tiles of a row, the
    // last tile part-filled, 8 warps a row), plain and shared index loads (rows of 200 entries),
    // beside a heavy row, with L2 hints.
    uint64_t seed = 9000;
    std::vector<SpmmCase> wide;
    for (int64_t n : {384, 520, 1024}) {
      for (sddmm_index_type_t it : {SDDMM_INDEX_INT32, SDDMM_INDEX_INT64}) {
        SpmmCase c{"split tiles: short rows", random_coo(300, 200, 3000, seed), n, false, Precision{}, it};
        c.seed = seed++;
        wide.push_back(c);
        SpmmCase l{"split tiles: long rows", random_coo(100, 300, 20000, seed), n, false, Precision{}, it};
        l.seed = seed++;
        wide.push_back(l);
      }
      SpmmCase heavy{"split tiles: a heavy row", long_light_rows_one_heavy(seed), n};
      heavy.seed = seed++;
      wide.push_back(heavy);
    }
    // SDDMM_SPMM_TILES_OUTER=1 deals them wherever N allows too, every row's first share before
    // any row's second.
    const struct {
      const char* split;  // nullptr: the rule
      const char* outer;  // nullptr: the rule
    } settings[] = {{"1", nullptr}, {"0", nullptr}, {nullptr, "1"}};
    // One subcase a setting (doctest -sc), as above.
    for (const auto& s : settings) {
      const std::string name = std::string("SDDMM_SPMM_SPLIT_TILES=") + (s.split != nullptr ? s.split : "(rule)") +
                               " SDDMM_SPMM_TILES_OUTER=" + (s.outer != nullptr ? s.outer : "(rule)");
      SUBCASE(name.c_str()) {
        const ScopedEnv split("SDDMM_SPMM_SPLIT_TILES", s.split);
        const ScopedEnv outer("SDDMM_SPMM_TILES_OUTER", s.outer);
        for (const auto& c : spmm_cases()) check_spmm(SDDMM_BACKEND_CUDA, c);
        for (const auto& c : wide) check_spmm(SDDMM_BACKEND_CUDA, c);
        const ScopedEnv hints("SDDMM_SPMM_L2_HINTS", "1");
        for (const auto& c : wide) check_spmm(SDDMM_BACKEND_CUDA, c);
      }
    }
  }

  TEST_CASE("gpu: the SpMM slab kernel wherever it runs (suite cases and row-sorted cases over many slabs)") {
    // By default the slab kernel takes float32 calls only where each row of X serves many entries
    // per block (spmm.cu); this override takes it wherever it runs: float32 throughout, row-major X
    // and Y with rows of 128 to 1024 bytes, no heavy outer index, inner indices ascending within
    // each outer index (every transposed call; forward calls on the row-sorted cases here). The
    // row-sorted cases (60 entries a row, 90 a column: none heavy) have more rows of X than the
    // buffers hold at every N, warps with a second row (6000 rows over one block a
    // multiprocessor), empty rows, a duplicate entry, no values, and rows of X apart from each other
    // (a leading dimension past N: a bulk copy a row on sm_90).
    const ScopedEnv slabs("SDDMM_SPMM_SLABS", "1");
    uint64_t seed = 7000;
    const testkit::CooMatrix sorted = sorted_by_row(random_coo(6000, 4000, 360000, seed++), true);
    testkit::CooMatrix gaps;  // rows 100-199 empty, one entry twice
    gaps.rows = sorted.rows, gaps.cols = sorted.cols;
    for (int64_t p = 0; p < sorted.nnz(); ++p) {
      if (sorted.row[p] >= 100 && sorted.row[p] < 200) continue;
      const int copies = p == 20000 ? 2 : 1;
      for (int i = 0; i < copies; ++i) {
        gaps.row.push_back(sorted.row[p]), gaps.col.push_back(sorted.col[p]), gaps.val.push_back(sorted.val[p] + i);
      }
    }
    testkit::CooMatrix ones = sorted;
    ones.val.clear();
    for (const auto& c : spmm_cases()) check_spmm(SDDMM_BACKEND_CUDA, c);
    for (int64_t n : {32, 64, 128, 256}) {
      for (bool t : {false, true}) {
        SpmmCase c{"slabs: row-sorted", sorted, n, t};
        c.seed = seed++;
        check_spmm(SDDMM_BACKEND_CUDA, c);
        SpmmCase g{"slabs: empty rows and a duplicate", gaps, n, t, Precision{}, SDDMM_INDEX_INT64, true};
        g.seed = seed++;
        check_spmm(SDDMM_BACKEND_CUDA, g);
        SpmmCase apart{"slabs: leading dimension N + 4", sorted, n, t};
        apart.ld_pad = 4, apart.seed = seed++;
        check_spmm(SDDMM_BACKEND_CUDA, apart);
      }
    }
    check_spmm(SDDMM_BACKEND_CUDA, SpmmCase{"slabs: no values", ones, 32});
  }

  TEST_CASE("gpu: real graphs from Matrix Market files") {
    const auto sddmm = graph_sddmm_cases();
    REQUIRE_MESSAGE(sddmm.size() == 5 * supported_precisions().size(), "expected the 5 graphs of shared/data in ",
                    SDDMM_TEST_DATA_DIR);
    for (const auto& c : sddmm) check_sddmm(SDDMM_BACKEND_CUDA, c);
    for (const auto& c : graph_spmm_cases()) check_spmm(SDDMM_BACKEND_CUDA, c);
  }
}

}  // namespace sddmm::test
