#include "reference.hpp"

#include <cmath>

namespace sddmm::testkit {

Reference reference_sddmm(const CooMatrix& a, const DenseMatrix& x1, const DenseMatrix& x2) {
  Reference r;
  r.value.resize(static_cast<size_t>(a.nnz()));
  r.magnitude.resize(static_cast<size_t>(a.nnz()));
  for (int64_t p = 0; p < a.nnz(); ++p) {
    const double scale = a.val.empty() ? 1.0 : a.val[p];
    double sum = 0.0, mag = 0.0;
    for (int64_t k = 0; k < x1.cols; ++k) {
      const double t = x1.at(a.row[p], k) * x2.at(k, a.col[p]);
      sum += t;
      mag += std::fabs(t);
    }
    r.value[p] = scale * sum;
    r.magnitude[p] = std::fabs(scale) * mag;
  }
  return r;
}

Reference reference_spmm(const CooMatrix& a, const DenseMatrix& x, bool transpose) {
  const int64_t out_rows = transpose ? a.cols : a.rows;
  const int64_t n = x.cols;
  Reference r;
  r.value.assign(static_cast<size_t>(out_rows * n), 0.0);
  r.magnitude.assign(static_cast<size_t>(out_rows * n), 0.0);
  for (int64_t p = 0; p < a.nnz(); ++p) {
    const double v = a.val.empty() ? 1.0 : a.val[p];
    const int64_t o = transpose ? a.col[p] : a.row[p];
    const int64_t i = transpose ? a.row[p] : a.col[p];
    for (int64_t j = 0; j < n; ++j) {
      const double t = v * x.at(i, j);
      r.value[static_cast<size_t>(o * n + j)] += t;
      r.magnitude[static_cast<size_t>(o * n + j)] += std::fabs(t);
    }
  }
  return r;
}

}  // namespace sddmm::testkit
