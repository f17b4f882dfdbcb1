#include "cases.hpp"

#include <filesystem>
#include <string>
#include <utility>

#include "matrix_market.hpp"

namespace sddmm::test {
namespace {

using testkit::CooMatrix;

// Appends `count` entries to row `row`, at random columns below `cols`, values in [-1, 1).
void add_row_entries(CooMatrix& a, int64_t row, int count, int64_t cols, Rng& rng) {
  for (int i = 0; i < count; ++i) {
    a.row.push_back(row);
    a.col.push_back(rng.below(cols));
    a.val.push_back(rng.uniform(-1, 1));
  }
}

// 300 x 200 with every 7th row empty and row 5 holding 3000 entries (heavy row, many duplicates).
CooMatrix skewed(uint64_t seed) {
  CooMatrix a = random_coo(300, 200, 4000, seed);
  for (int64_t p = 0; p < a.nnz(); ++p) {
    if (a.row[p] % 7 == 0) a.row[p] = 5;
  }
  Rng rng(seed + 1);
  add_row_entries(a, 5, 3000, 200, rng);
  return a;
}

// 64 x 6000 with row 3 holding 40000 entries (many duplicates: more than its 6000 columns) and rows
// 10, 11 and 12 4096, 5000 and 4095, the rest about 30 each: heavy rows of several lengths, a
// hundred times the heavy threshold and more, which the plan orders longest first by bit width.
// transposed: the same as 6000 x 64, so that transposed SpMM (by column) meets them as columns.
CooMatrix long_rows(uint64_t seed, bool transposed) {
  const std::pair<int64_t, int> lengths[] = {{3, 40000}, {10, 4096}, {11, 5000}, {12, 4095}};
  const CooMatrix base = random_coo(64, 6000, 2000, seed);
  CooMatrix a;
  a.rows = base.rows, a.cols = base.cols;
  for (int64_t p = 0; p < base.nnz(); ++p) {
    const int64_t r = base.row[static_cast<size_t>(p)];
    if (r == 3 || (r >= 10 && r <= 12)) continue;  // the long rows hold exactly their count
    a.row.push_back(r);
    a.col.push_back(base.col[static_cast<size_t>(p)]);
    a.val.push_back(base.val[static_cast<size_t>(p)]);
  }
  Rng rng(seed + 1);
  for (const auto& [row, count] : lengths) add_row_entries(a, row, count, 6000, rng);
  if (transposed) {
    std::swap(a.rows, a.cols);
    std::swap(a.row, a.col);
  }
  return a;
}

// Many exact duplicates of a few entries, unsorted.
CooMatrix duplicates(uint64_t seed) {
  CooMatrix a = random_coo(40, 30, 50, seed);
  const CooMatrix copy = a;
  for (int rep = 0; rep < 4; ++rep) {
    a.row.insert(a.row.begin(), copy.row.begin(), copy.row.end());
    a.col.insert(a.col.begin(), copy.col.begin(), copy.col.end());
    a.val.insert(a.val.begin(), copy.val.begin(), copy.val.end());
  }
  return a;
}

CooMatrix empty_matrix(int64_t rows, int64_t cols) {
  CooMatrix a;
  a.rows = rows;
  a.cols = cols;
  return a;
}

}  // namespace

// 100 x 2000, 20000 entries spread at random (about 200 a row) and row 7 with 3000 more: long light
// rows beside one heavy row (heavy from 2 x the mean row length, tuning.hpp).
CooMatrix long_light_rows_one_heavy(uint64_t seed) {
  CooMatrix a = random_coo(100, 2000, 20000, seed);
  Rng rng(seed + 1);
  add_row_entries(a, 7, 3000, 2000, rng);
  return a;
}

std::vector<SddmmCase> sddmm_cases() {
  std::vector<SddmmCase> cases;
  uint64_t seed = 100;
  // 1032: more than one pass of a full warp on the CUDA vector path in every dtype (float32: 32
  // lanes x 4 steps x 4 floats = 512 per pass), the last pass partial. 8, 16, 32, 64: K of one 64- or
  // 128-byte line in some dtype (the line kernel, src/cuda/sddmm/sddmm_line_kernel.cuh).
  for (int64_t k : {1, 2, 3, 4, 5, 7, 8, 16, 31, 32, 33, 64, 127, 128, 255, 256, 512, 1032}) {
    SddmmCase c{"K sweep", random_coo(97, 113, 900, seed), k};
    c.seed = seed++;
    cases.push_back(c);
  }
  for (sddmm_index_type_t it : {SDDMM_INDEX_INT32, SDDMM_INDEX_INT64}) {
    for (bool csr : {false, true}) {
      SddmmCase c{"index/format", skewed(seed), 64, Precision{}, it, csr};
      c.seed = seed++;
      cases.push_back(c);
    }
  }
  for (sddmm_layout_t l1 : {SDDMM_LAYOUT_ROW_MAJOR, SDDMM_LAYOUT_COL_MAJOR}) {
    for (sddmm_layout_t l2 : {SDDMM_LAYOUT_ROW_MAJOR, SDDMM_LAYOUT_COL_MAJOR}) {
      for (int64_t pad : {0, 3}) {
        for (int64_t k : {5, 128}) {
          SddmmCase c{"layouts and leading dimensions", random_coo(64, 80, 700, seed), k};
          c.x1_layout = l1, c.x2_layout = l2, c.ld_pad = pad, c.seed = seed++;
          cases.push_back(c);
        }
      }
    }
  }
  SddmmCase outer{"1-D operands (K = 1, outer product)", random_coo(50, 60, 400, seed), 1};
  cases.push_back(outer);
  SddmmCase dup{"duplicate unsorted entries", duplicates(seed + 1), 33};
  cases.push_back(dup);
  SddmmCase no_values{"no values (all ones)", random_coo(70, 90, 600, seed + 2, false), 32};
  cases.push_back(no_values);
  SddmmCase rect{"rectangular tall", random_coo(1000, 17, 3000, seed + 3), 32};
  cases.push_back(rect);
  SddmmCase wide{"rectangular wide", random_coo(9, 2000, 3000, seed + 4), 128};
  cases.push_back(wide);
  cases.push_back(SddmmCase{"nnz = 0", empty_matrix(10, 10), 16});
  cases.push_back(SddmmCase{"rows = 0", empty_matrix(0, 10), 16});
  SddmmCase k0{"K = 0", random_coo(20, 20, 50, seed + 5), 0};
  cases.push_back(k0);
  return in_every_precision(cases);
}

std::vector<SpmmCase> spmm_cases() {
  std::vector<SpmmCase> cases;
  uint64_t seed = 500;
  for (int64_t n : {1, 2, 3, 4, 5, 7, 8, 31, 32, 33, 64, 127, 128, 255, 256, 512}) {
    for (bool t : {false, true}) {
      SpmmCase c{"N sweep", random_coo(97, 113, 900, seed), n, t};
      c.seed = seed++;
      cases.push_back(c);
    }
  }
  for (sddmm_index_type_t it : {SDDMM_INDEX_INT32, SDDMM_INDEX_INT64}) {
    for (bool csr : {false, true}) {
      for (bool t : {false, true}) {
        SpmmCase c{"skewed rows: index/format", skewed(seed), 64, t, Precision{}, it, csr};
        c.seed = seed++;
        cases.push_back(c);
      }
    }
  }
  for (sddmm_layout_t lx : {SDDMM_LAYOUT_ROW_MAJOR, SDDMM_LAYOUT_COL_MAJOR}) {
    for (sddmm_layout_t ly : {SDDMM_LAYOUT_ROW_MAJOR, SDDMM_LAYOUT_COL_MAJOR}) {
      for (int64_t pad : {0, 3}) {
        SpmmCase c{"layouts and leading dimensions", random_coo(64, 80, 700, seed), 37, pad % 2 == 1};
        c.x_layout = lx, c.y_layout = ly, c.ld_pad = pad, c.seed = seed++;
        cases.push_back(c);
      }
    }
  }
  // Long light rows (mean 200 entries, all under the heavy threshold): a warp per row, slices summed
  // by shuffles, for N whose lane groups leave room for several slices.
  for (int64_t n : {8, 12, 16, 32, 64}) {
    for (bool t : {false, true}) {
      SpmmCase c{"long light rows (row slices)", random_coo(100, 300, 20000, seed), n, t};
      c.seed = seed++;
      cases.push_back(c);
    }
  }
  // The same rows with N > 64: whole-warp lane groups that load each row's indices and values 32 at a
  // time (float32 features, light rows of at least 80 entries on average: src/cuda/spmm/spmm.cu),
  // N = 96 and 192 with lanes past N in a column tile; and beside a heavy row, which takes the same
  // kernel configuration.
  for (int64_t n : {96, 128, 192, 256}) {
    for (bool t : {false, true}) {
      SpmmCase c{"long light rows (whole warps)", random_coo(100, 300, 20000, seed), n, t};
      c.seed = seed++;
      cases.push_back(c);
    }
    SpmmCase heavy{"long light rows and a heavy row", long_light_rows_one_heavy(seed), n};
    heavy.seed = seed++;
    cases.push_back(heavy);
  }
  // The same beside a heavy row with narrow lane groups: float32 takes the deep configuration there
  // (light rows of 200 entries: src/cuda/spmm/spmm.cu), heavy-row blocks included.
  for (int64_t n : {32, 64}) {
    SpmmCase heavy{"long light rows and a heavy row (narrow groups)", long_light_rows_one_heavy(seed), n};
    heavy.seed = seed++;
    cases.push_back(heavy);
  }
  // Very long rows (transposed: columns), on the vector path (N = 32, 128, 256) and off it (33).
  for (int64_t n : {32, 33, 128, 256}) {
    for (bool t : {false, true}) {
      SpmmCase c{"very long rows", long_rows(seed, t), n, t};
      c.seed = seed++;
      cases.push_back(c);
    }
  }
  cases.push_back(SpmmCase{"duplicates are summed", duplicates(seed), 16});
  cases.push_back(SpmmCase{"duplicates are summed (transpose)", duplicates(seed), 16, true});
  cases.push_back(SpmmCase{"no values", random_coo(70, 90, 600, seed + 1, false), 32});
  // Rows of 200 entries without values: the deep configurations' whole rounds with every scale 1.
  cases.push_back(SpmmCase{"no values (long rows)", random_coo(40, 300, 8000, seed + 4, false), 32});
  cases.push_back(SpmmCase{"rectangular", random_coo(1000, 17, 3000, seed + 2), 32});
  cases.push_back(SpmmCase{"rectangular (transpose)", random_coo(1000, 17, 3000, seed + 2), 32, true});
  cases.push_back(SpmmCase{"N = 1 (vector)", random_coo(300, 200, 2000, seed + 3), 1});
  cases.push_back(SpmmCase{"nnz = 0 zero-fills Y", empty_matrix(10, 12), 8});
  cases.push_back(SpmmCase{"nnz = 0 zero-fills Y (transpose)", empty_matrix(10, 12), 8, true});
  cases.push_back(SpmmCase{"rows = 0", empty_matrix(0, 12), 8});
  cases.push_back(SpmmCase{"rows = 0 (transpose)", empty_matrix(0, 12), 8, true});
  return in_every_precision(cases);
}

namespace {

std::vector<std::string> graph_files() {
  std::vector<std::string> files;
  const std::filesystem::path dir(SDDMM_TEST_DATA_DIR);
  for (const char* name : {"cora.mtx", "citeseer.mtx", "pubmed.mtx", "ca-CondMat.mtx", "p2p-Gnutella31.mtx"}) {
    if (std::filesystem::exists(dir / name)) files.push_back((dir / name).string());
  }
  return files;
}

}  // namespace

std::vector<SddmmCase> graph_sddmm_cases() {
  std::vector<SddmmCase> cases;
  uint64_t seed = 900;
  for (const auto& f : graph_files()) {
    SddmmCase c{f, testkit::read_matrix_market(f), 64};
    c.seed = seed++;
    cases.push_back(c);
  }
  return in_every_precision(cases);
}

std::vector<SpmmCase> graph_spmm_cases() {
  std::vector<SpmmCase> cases;
  uint64_t seed = 950;
  for (const auto& f : graph_files()) {
    SpmmCase c{f, testkit::read_matrix_market(f), 64};
    c.seed = seed++;
    cases.push_back(c);
    c.transpose = true;
    cases.push_back(c);
  }
  return in_every_precision(cases);
}

}  // namespace sddmm::test
