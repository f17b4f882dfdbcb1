// SpMM on the CUDA backend: kernel choice and launch for one plan and one call.
#pragma once

#include "core/dense.hpp"
#include "cuda/pattern.cuh"

namespace sddmm::cuda {

// Runs y = op(A) @ x on `stream`; no allocation, no synchronisation. V: A's value type; x.dtype
// and y.dtype pick the kernel's precision (cuda/precision.cuh).
template <typename V, typename I>
void run_spmm(const DevicePattern<V, I>& a, const DenseView& x, const DenseView& y, bool transpose, cudaStream_t stream);

// Entries a y = A x with N columns and features of this dtype runs on tensor cores, given row-major,
// 16-byte aligned operands (choose_spmm_kernel): the dense units' where the plan lists them strip by
// strip and the call is 16-bit throughout, else 0.
template <typename V, typename I>
int64_t spmm_tensor_core_entries(const DevicePattern<V, I>& a, int64_t n, sddmm_dtype_t features);

}  // namespace sddmm::cuda
