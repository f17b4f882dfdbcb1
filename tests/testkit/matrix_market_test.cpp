// The Matrix Market reader: fields, symmetry, comments, 1-based indices, malformed files.
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include <doctest/doctest.h>

#include "matrix_market.hpp"

namespace {

std::string write_temp(const std::string& text) {
  static int counter = 0;
  const std::string path = std::string(P_tmpdir) + "/sddmm_mm_test_" + std::to_string(counter++) + ".mtx";
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST_CASE("matrix market: real general with comments, 1-based") {
  const auto m = sddmm::testkit::read_matrix_market(write_temp(
      "%%MatrixMarket matrix coordinate real general\n% a comment\n\n3 4 2\n1 1 2.5\n3 4 -1\n"));
  CHECK(m.rows == 3);
  CHECK(m.cols == 4);
  REQUIRE(m.nnz() == 2);
  CHECK(m.row[1] == 2);
  CHECK(m.col[1] == 3);
  CHECK(m.val[0] == 2.5);
}

TEST_CASE("matrix market: symmetric mirrors off-diagonal entries only") {
  const auto m = sddmm::testkit::read_matrix_market(write_temp(
      "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n1 1 1\n3 1 5\n"));
  REQUIRE(m.nnz() == 3);
  CHECK(m.row[2] == 0);
  CHECK(m.col[2] == 2);
  CHECK(m.val[2] == 5.0);
}

TEST_CASE("matrix market: pattern has no values; integer reads as values; skew negates") {
  const auto p = sddmm::testkit::read_matrix_market(write_temp("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n2 1\n"));
  CHECK(p.val.empty());
  CHECK(p.nnz() == 1);
  const auto i = sddmm::testkit::read_matrix_market(write_temp("%%MatrixMarket matrix coordinate integer general\n2 2 1\n2 1 7\n"));
  CHECK(i.val[0] == 7.0);
  const auto s = sddmm::testkit::read_matrix_market(write_temp("%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 3\n"));
  REQUIRE(s.nnz() == 2);
  CHECK(s.val[1] == -3.0);
}

TEST_CASE("matrix market: malformed files are rejected with the line") {
  CHECK_THROWS_WITH_AS(sddmm::testkit::read_matrix_market(write_temp("%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n")),
                       doctest::Contains(":3: index out of range"), std::runtime_error);
  CHECK_THROWS_AS(sddmm::testkit::read_matrix_market(write_temp("%%MatrixMarket matrix array real general\n2 2\n")), std::runtime_error);
  CHECK_THROWS_AS(sddmm::testkit::read_matrix_market(write_temp("%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n")), std::runtime_error);
  CHECK_THROWS_AS(sddmm::testkit::read_matrix_market("/nonexistent/file.mtx"), std::runtime_error);
}
