// SpMM on the CUDA backend: kernel choice and launch for one plan and one call.
#pragma once

#include "core/dense.hpp"
#include "cuda/pattern.cuh"

namespace sddmm::cuda {

// Runs y = op(A) @ x on `stream`; no allocation, no synchronisation.
template <typename T, typename I>
void run_spmm(const DevicePattern<T, I>& a, const DenseView& x, const DenseView& y, bool transpose, cudaStream_t stream);

}  // namespace sddmm::cuda
