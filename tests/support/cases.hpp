// The differential suite: every case the issue lists, shared by the CPU and the GPU tests so both
// backends are held to the same list.
#pragma once

#include <vector>

#include "differential.hpp"

namespace sddmm::test {

std::vector<SddmmCase> sddmm_cases();
std::vector<SpmmCase> spmm_cases();

// The real graphs in ../shared/data (SDDMM_TEST_DATA_DIR), as SDDMM and SpMM cases; empty when the
// folder is missing (the caller reports that).
std::vector<SddmmCase> graph_sddmm_cases();
std::vector<SpmmCase> graph_spmm_cases();

}  // namespace sddmm::test
