// The CPU backend against the float64 reference, over the whole differential suite.
#include <doctest/doctest.h>

#include "cases.hpp"

namespace sddmm::test {

TEST_CASE("cpu: SDDMM matches the float64 reference on every suite case") {
  for (const auto& c : sddmm_cases()) check_sddmm(SDDMM_BACKEND_CPU, c);
}

TEST_CASE("cpu: SpMM and transposed SpMM match the float64 reference on every suite case") {
  for (const auto& c : spmm_cases()) check_spmm(SDDMM_BACKEND_CPU, c);
}

TEST_CASE("cpu: real graphs from Matrix Market files") {
  const auto sddmm = graph_sddmm_cases();
  REQUIRE_MESSAGE(sddmm.size() == 5 * supported_precisions().size(), "expected the 5 graphs of shared/data in ", SDDMM_TEST_DATA_DIR,
                  " (set SDDMM_TEST_DATA_DIR at configure time)");
  for (const auto& c : sddmm) check_sddmm(SDDMM_BACKEND_CPU, c);
  for (const auto& c : graph_spmm_cases()) check_spmm(SDDMM_BACKEND_CPU, c);
}

}  // namespace sddmm::test
