// The testkit's typed storage: element sizes, rounding to each dtype, the unit roundoff and smallest
// subnormal the tolerances use, and dense operands written in a layout and read back.
#include "storage.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace sddmm::testkit {
namespace {

const sddmm_dtype_t kDtypes[] = {SDDMM_DTYPE_FLOAT32, SDDMM_DTYPE_FLOAT64, SDDMM_DTYPE_FLOAT16, SDDMM_DTYPE_BFLOAT16};

}  // namespace

TEST_CASE("storage: element sizes and names") {
  CHECK(size_of(SDDMM_DTYPE_FLOAT32) == 4);
  CHECK(size_of(SDDMM_DTYPE_FLOAT64) == 8);
  CHECK(size_of(SDDMM_DTYPE_FLOAT16) == 2);
  CHECK(size_of(SDDMM_DTYPE_BFLOAT16) == 2);
  CHECK(std::string(name_of(SDDMM_DTYPE_BFLOAT16)) == "bfloat16");
}

TEST_CASE("storage: unit roundoff and smallest subnormal are what rounding to each dtype shows") {
  for (const sddmm_dtype_t t : kDtypes) {
    INFO(name_of(t));
    const double u = unit_roundoff(t), s = smallest_subnormal(t);
    CHECK(round_to(t, 1.0 + u) == 1.0);              // the tie goes to the even 1
    CHECK(round_to(t, 1.0 + 2 * u) == 1.0 + 2 * u);  // the next value above 1
    CHECK(round_to(t, 1.0 + 1.5 * u) == 1.0 + 2 * u);
    CHECK(round_to(t, s) == s);
    CHECK(round_to(t, 0.75 * s) == s);
    if (t != SDDMM_DTYPE_FLOAT64) CHECK(round_to(t, 0.5 * s) == 0.0);  // a double has nothing below s
  }
  CHECK(round_to(SDDMM_DTYPE_FLOAT32, 0.1) == static_cast<double>(0.1f));
  CHECK(std::isinf(round_to(SDDMM_DTYPE_FLOAT16, 65520.0)));
}

TEST_CASE("storage: elements at any alignment, and vectors, round-trip through each dtype") {
  const std::vector<double> values{0.0, -0.0, 1.0, -2.5, 0.1, 1e-6, 3e38, -HUGE_VAL};
  for (const sddmm_dtype_t t : kDtypes) {
    INFO(name_of(t));
    unsigned char bytes[1 + 8];
    for (const double v : values) {
      store(t, v, bytes + 1);
      CHECK(load(t, bytes + 1) == round_to(t, v));
    }
    const std::vector<double> back = from_storage(to_storage(values, t), t);
    REQUIRE(back.size() == values.size());
    for (size_t i = 0; i < values.size(); ++i) CHECK(back[i] == round_to(t, values[i]));
    store(t, std::numeric_limits<double>::quiet_NaN(), bytes);
    CHECK(std::isnan(load(t, bytes)));
  }
  CHECK(to_storage({}, SDDMM_DTYPE_FLOAT16).size() == 2);  // never empty: data() is not NULL
}

TEST_CASE("storage: dense operands written in either layout with padding, read back rounded") {
  const DenseMatrix m{2, 3, {1.0, 0.1, -3.0, 4.0, 1.0 / 3, 6.0}};
  for (const sddmm_dtype_t t : kDtypes) {
    for (const sddmm_layout_t layout : {SDDMM_LAYOUT_ROW_MAJOR, SDDMM_LAYOUT_COL_MAJOR}) {
      INFO(name_of(t), layout == SDDMM_LAYOUT_ROW_MAJOR ? " row-major" : " column-major");
      const int64_t ld = (layout == SDDMM_LAYOUT_ROW_MAJOR ? 3 : 2) + 2;
      const std::vector<unsigned char> bytes = write_dense(m, t, layout, ld, std::nan(""));
      CHECK(bytes.size() == static_cast<size_t>((layout == SDDMM_LAYOUT_ROW_MAJOR ? 2 : 3) * ld) * size_of(t));
      const DenseMatrix back = read_dense(bytes.data(), t, 2, 3, layout, ld);
      for (size_t i = 0; i < m.v.size(); ++i) CHECK(back.v[i] == round_to(t, m.v[i]));
      const std::vector<double> all = from_storage(bytes, t);
      int64_t padding = 0;
      for (const double v : all) padding += std::isnan(v);
      CHECK(padding == static_cast<int64_t>(all.size() - m.v.size()));
    }
  }
}

}  // namespace sddmm::testkit
