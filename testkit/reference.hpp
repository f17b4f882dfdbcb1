// Float64 reference SDDMM and SpMM: plain loops, no cleverness, the oracle of the tests. Each value
// comes with the magnitude sum of its terms, from which tests derive rounding tolerances.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "coo.hpp"

namespace sddmm::testkit {

// A dense row-major float64 matrix.
struct DenseMatrix {
  int64_t rows = 0;
  int64_t cols = 0;
  std::vector<double> v;

  double at(int64_t i, int64_t j) const { return v[static_cast<size_t>(i * cols + j)]; }
  double& at(int64_t i, int64_t j) { return v[static_cast<size_t>(i * cols + j)]; }
};

// A reference result: value and sum of |term| per output element.
struct Reference {
  std::vector<double> value;
  std::vector<double> magnitude;
};

// out[p] = val[p] * sum_k x1(row[p], k) * x2(k, col[p]), caller order.
Reference reference_sddmm(const CooMatrix& a, const DenseMatrix& x1, const DenseMatrix& x2);

// Y = A @ X (or A^T @ X), row-major, outer dimension first.
Reference reference_spmm(const CooMatrix& a, const DenseMatrix& x, bool transpose);

}  // namespace sddmm::testkit
