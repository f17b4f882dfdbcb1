// CPU kernels: OpenMP over independent outputs, float64 accumulation, a fixed summation order (caller
// order within a row), so results are deterministic and accurate enough to serve as the test oracle.
// Template arguments: V, A's value type; F, the dense operands' (features'); O, the output's. Every
// element is widened exactly to double, and each output rounded once to O. Instantiated for the
// combinations of core/support.cpp only.
#pragma once

#include "core/dense.hpp"
#include "cpu/pattern.hpp"

namespace sddmm::cpu {

// out[p] = value[p] * dot(x1[row[p], :], x2[:, col[p]]) for every entry p, caller order.
template <typename V, typename F, typename O>
void sddmm(const Pattern<V>& a, const DenseView& x1, const DenseView& x2, O* out);

// y[o, :] = sum over entries e of outer index o of value[e] * x[index[e], :]. With a.by_row this is
// A @ X; with a.by_col it is A^T @ X.
template <typename V, typename F, typename O>
void spmm(const Compressed<V>& a, int64_t outer, const DenseView& x, const DenseView& y);

}  // namespace sddmm::cpu
