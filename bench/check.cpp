#include "check.hpp"

#include <cfloat>
#include <cmath>
#include <sstream>

#include "precision.hpp"

namespace sddmm::bench {
namespace {

// What one comparison allows (check.hpp).
struct Tolerance {
  double relative = 0;         // times the magnitude of the terms
  double absolute = 0;         // the output format's spacing near zero
  double overflow = INFINITY;  // from this magnitude the output format rounds to infinity
};

Tolerance tolerance_for(int64_t terms, sddmm_dtype_t output) {
  Tolerance t;
  t.relative = 2.0 * (static_cast<double>(terms) + 2.0) * FLT_EPSILON;
  t.overflow = overflow_threshold(output);
  if (output != SDDMM_DTYPE_FLOAT32) {
    t.relative += 2.0 * unit_roundoff(output);
    t.absolute = smallest_subnormal(output);
  }
  return t;
}

// Adds one element to the result: error |ours - expected| against relative * magnitude + absolute
// (zero allowed error demands an exact match). Returns true for the first element that fails, so
// that the caller describes it.
bool account(CheckResult& result, double ours, double expected, double magnitude, const Tolerance& t) {
  const double allowed = t.relative * magnitude + t.absolute;
  double error = std::fabs(ours - expected);
  // Rounding a result beyond the output's range gives infinity: right, if of the right sign.
  if (std::isinf(ours) && std::fabs(expected) + allowed >= t.overflow && std::signbit(ours) == std::signbit(expected)) {
    error = 0;
  }
  const bool ok = error <= allowed;  // false for NaN
  if (magnitude > 0) {
    result.max_rel_error = std::fmax(result.max_rel_error, std::isnan(error) ? INFINITY : error / magnitude);
  }
  if (allowed > 0) {
    result.worst_ratio = std::fmax(result.worst_ratio, std::isnan(error) ? INFINITY : error / allowed);
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

// Entry p against `expected`, a dot product of positive terms (times A's value for SDDMM, which
// scales them all alike): the |terms| sum to |expected|.
void account_entry(CheckResult& result, const HostMatrix& m, int64_t p, double ours, double expected,
                   const Tolerance& t) {
  if (account(result, ours, expected, std::fabs(expected), t)) {
    result.first_bad = describe(entry_text(m, p), ours, expected, t.relative * std::fabs(expected) + t.absolute);
  }
}

}  // namespace

CheckResult check_sddmm(const HostMatrix& m, const std::vector<float>& values, int64_t k, sddmm_dtype_t output,
                        double product_error, const std::vector<float>& ours, const std::vector<float>& theirs) {
  CheckResult result;
  Tolerance t = tolerance_for(k, output);
  t.relative += product_error;
  for (int64_t p = 0; p < m.nnz; ++p) {
    const size_t i = static_cast<size_t>(p);
    account_entry(result, m, p, ours[i], static_cast<double>(theirs[i]) * static_cast<double>(values[i]), t);
  }
  result.pass = result.bad == 0;
  return result;
}

CheckResult check_spmm(const HostMatrix& m, const std::vector<float>& values, int64_t n, sddmm_dtype_t output,
                       const std::vector<float>& ours, const std::vector<float>& theirs) {
  CheckResult result;
  for (int64_t r = 0; r < m.rows; ++r) {
    const int32_t begin = m.row_offsets[static_cast<size_t>(r)];
    const int32_t end = m.row_offsets[static_cast<size_t>(r) + 1];
    double value_sum = 0;
    for (int32_t p = begin; p < end; ++p) value_sum += std::fabs(static_cast<double>(values[static_cast<size_t>(p)]));
    const double magnitude = 1.5 * value_sum;
    const Tolerance t = tolerance_for(end - begin, output);
    for (int64_t j = 0; j < n; ++j) {
      const size_t i = static_cast<size_t>(r * n + j);
      if (account(result, ours[i], theirs[i], magnitude, t)) {
        const std::string where = "Y(" + std::to_string(r) + ", " + std::to_string(j) + ")";
        result.first_bad = describe(where, ours[i], theirs[i], t.relative * magnitude + t.absolute);
      }
    }
  }
  result.pass = result.bad == 0;
  return result;
}

CheckResult check_product_samples(const HostMatrix& m, int64_t k, sddmm_dtype_t output, double product_error,
                                  const std::vector<int64_t>& entries, const std::vector<float>& sampled,
                                  const std::vector<float>& theirs) {
  CheckResult result;
  Tolerance t = tolerance_for(k, output);
  t.relative += product_error;
  for (size_t i = 0; i < entries.size(); ++i) {
    account_entry(result, m, entries[i], sampled[i], theirs[static_cast<size_t>(entries[i])], t);
  }
  result.pass = result.bad == 0;
  return result;
}

}  // namespace sddmm::bench
