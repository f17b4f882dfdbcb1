#include "check.hpp"

#include <cfloat>
#include <cmath>
#include <sstream>

namespace sddmm::bench {
namespace {

double tolerance_factor(int64_t terms) { return 2.0 * (static_cast<double>(terms) + 2.0) * FLT_EPSILON; }

// Adds one element to the result: error |ours - expected| against factor * magnitude; a zero
// magnitude (an empty row, a zero value) demands an exact zero. Returns true for the first element
// that fails, so that the caller describes it.
bool account(CheckResult& result, double ours, double expected, double magnitude, double factor) {
  const double error = std::fabs(ours - expected);
  const bool ok = error <= factor * magnitude;  // false for NaN
  if (magnitude > 0) {
    const double relative = std::isnan(error) ? INFINITY : error / magnitude;
    result.max_rel_error = std::fmax(result.max_rel_error, relative);
    result.worst_ratio = std::fmax(result.worst_ratio, relative / factor);
  } else if (!ok) {
    result.worst_ratio = INFINITY;
  }
  if (ok) return false;
  return ++result.bad == 1;
}

std::string describe(const std::string& where, double ours, double expected, double allowed) {
  std::ostringstream text;
  text << where << ": ours " << ours << ", expected " << expected << " (tolerance " << allowed << ")";
  return text.str();
}

std::string entry_text(const HostMatrix& m, int64_t p) {
  return "entry " + std::to_string(p) + " (row " + std::to_string(m.row[static_cast<size_t>(p)]) + ", col " +
         std::to_string(m.col[static_cast<size_t>(p)]) + ")";
}

}  // namespace

CheckResult check_sddmm(const HostMatrix& m, int64_t k, const std::vector<float>& ours,
                        const std::vector<float>& theirs) {
  CheckResult result;
  const double factor = tolerance_factor(k);
  for (int64_t p = 0; p < m.nnz; ++p) {
    const size_t i = static_cast<size_t>(p);
    // theirs is a positive dot product: |terms| sum to it, and A's value scales both alike.
    const double expected = static_cast<double>(theirs[i]) * static_cast<double>(m.val[i]);
    if (account(result, ours[i], expected, std::fabs(expected), factor)) {
      result.first_bad = describe(entry_text(m, p), ours[i], expected, factor * std::fabs(expected));
    }
  }
  result.pass = result.bad == 0;
  return result;
}

CheckResult check_spmm(const HostMatrix& m, int64_t n, const std::vector<float>& ours,
                       const std::vector<float>& theirs) {
  CheckResult result;
  for (int64_t r = 0; r < m.rows; ++r) {
    const int32_t begin = m.row_offsets[static_cast<size_t>(r)];
    const int32_t end = m.row_offsets[static_cast<size_t>(r) + 1];
    double value_sum = 0;
    for (int32_t p = begin; p < end; ++p) value_sum += std::fabs(static_cast<double>(m.val[static_cast<size_t>(p)]));
    const double magnitude = 1.5 * value_sum;
    const double factor = tolerance_factor(end - begin);
    for (int64_t j = 0; j < n; ++j) {
      const size_t i = static_cast<size_t>(r * n + j);
      if (account(result, ours[i], theirs[i], magnitude, factor)) {
        const std::string where = "Y(" + std::to_string(r) + ", " + std::to_string(j) + ")";
        result.first_bad = describe(where, ours[i], theirs[i], factor * magnitude);
      }
    }
  }
  result.pass = result.bad == 0;
  return result;
}

}  // namespace sddmm::bench
