// The differential suite: every case the issue lists, in every supported dtype combination, shared by
// the CPU and the GPU tests so both backends are held to the same list.
#pragma once

#include <vector>

#include "differential.hpp"

namespace sddmm::test {

// Each case once in every supported precision (supported_precisions()), precision by precision.
template <typename Case>
std::vector<Case> in_every_precision(const std::vector<Case>& cases) {
  std::vector<Case> all;
  for (const Precision& p : supported_precisions()) {
    for (Case c : cases) {
      c.precision = p;
      all.push_back(c);
    }
  }
  return all;
}

std::vector<SddmmCase> sddmm_cases();
std::vector<SpmmCase> spmm_cases();

// 100 x 2000, about 200 entries a row, and row 7 with 3000 more: long light rows beside one heavy row.
testkit::CooMatrix long_light_rows_one_heavy(uint64_t seed);

// The real graphs in ../shared/data (SDDMM_TEST_DATA_DIR), as SDDMM and SpMM cases in every
// precision; empty when the folder is missing (the caller reports that).
std::vector<SddmmCase> graph_sddmm_cases();
std::vector<SpmmCase> graph_spmm_cases();

}  // namespace sddmm::test
