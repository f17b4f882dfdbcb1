// SDDMM on the CUDA backend: kernel choice and launch for one plan and one call.
#pragma once

#include "core/dense.hpp"
#include "cuda/pattern.cuh"

namespace sddmm::cuda {

// Runs out = A .* (x1 @ x2) on `stream`; no allocation, no synchronisation.
template <typename T, typename I>
void run_sddmm(const DevicePattern<T, I>& a, const DenseView& x1, const DenseView& x2, T* out, cudaStream_t stream);

}  // namespace sddmm::cuda
