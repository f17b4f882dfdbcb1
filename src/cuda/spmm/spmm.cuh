// SpMM on the CUDA backend: kernel choice and launch for one plan and one call.
#pragma once

#include "core/dense.hpp"
#include "cuda/pattern.cuh"

namespace sddmm::cuda {

// Runs y = op(A) @ x on `stream`; no allocation, no synchronisation. V: A's value type; x.dtype
// and y.dtype pick the kernel's precision (cuda/precision.cuh).
template <typename V, typename I>
void run_spmm(const DevicePattern<V, I>& a, const DenseView& x, const DenseView& y, bool transpose, cudaStream_t stream);

}  // namespace sddmm::cuda
