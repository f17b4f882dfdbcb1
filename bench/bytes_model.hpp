// How many bytes a run is credited with (for GB/s and % of copy bandwidth), and how many distinct
// bytes it touches (for deciding whether it fits in L2). 32-bit indices, K = N; element sizes of the
// dense operands, A's values and the outputs as the case stores them (fp32 unless given).
//
// Credited bytes are the model: every stored entry gathers a whole row of the dense operand
// it meets (nnz * K elements, no credit for cache reuse), the streamed dense operand is read once, and
// the sparse arrays once. A kernel that reaches 100% of the copy bandwidth under this model moves
// data as fast as a plain copy while getting no help from the cache.
#pragma once

#include <cstdint>

namespace sddmm::bench {

// Bytes of one element of the dense operands (features), of A's values and of the outputs.
struct ElementBytes {
  double features = 4;
  double values = 4;
  double output = 4;
};

// SDDMM: gathered X2 columns + X1 rows streamed + (col idx + row idx + value + output) per entry.
inline double sddmm_bytes(int64_t rows, int64_t nnz, int64_t k, ElementBytes e = {}) {
  const double nz = static_cast<double>(nnz);
  return nz * k * e.features + static_cast<double>(rows) * k * e.features + nz * (4.0 + 4.0 + e.values + e.output);
}

// SpMM (Y = A @ X): gathered X rows + Y written + (col idx + value) per entry + each row's two
// 4-byte offsets.
inline double spmm_bytes(int64_t rows, int64_t nnz, int64_t n, ElementBytes e = {}) {
  const double nz = static_cast<double>(nnz);
  return nz * n * e.features + static_cast<double>(rows) * n * e.output + nz * (4.0 + e.values) + (rows + 1.0) * 8.0;
}

// Distinct bytes one SDDMM run touches: X1, X2, the CSR arrays and the output.
inline double sddmm_footprint(int64_t rows, int64_t cols, int64_t nnz, int64_t k, ElementBytes e = {}) {
  return (static_cast<double>(rows) + static_cast<double>(cols)) * k * e.features +
         static_cast<double>(nnz) * (8.0 + e.values + e.output) + (rows + 1.0) * 4.0;
}

// Distinct bytes one SpMM run touches: X, Y and the CSR arrays.
inline double spmm_footprint(int64_t rows, int64_t cols, int64_t nnz, int64_t n, ElementBytes e = {}) {
  return static_cast<double>(cols) * n * e.features + static_cast<double>(rows) * n * e.output +
         static_cast<double>(nnz) * (4.0 + e.values) + (rows + 1.0) * 4.0;
}

// Floating-point operations credited to either op: a multiply and an add per entry and column.
inline double flops(int64_t nnz, int64_t k) { return 2.0 * static_cast<double>(nnz) * static_cast<double>(k); }

}  // namespace sddmm::bench
