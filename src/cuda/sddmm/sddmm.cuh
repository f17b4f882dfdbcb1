// SDDMM on the CUDA backend: kernel choice and launch for one plan and one call.
#pragma once

#include "core/dense.hpp"
#include "cuda/pattern.cuh"

namespace sddmm::cuda {

// Runs out = A .* (x1 @ x2) on `stream`; no allocation, no synchronisation. V: A's value type;
// x1.dtype and out_dtype pick the kernel's precision (cuda/precision.cuh).
template <typename V, typename I>
void run_sddmm(const DevicePattern<V, I>& a, const DenseView& x1, const DenseView& x2, void* out, sddmm_dtype_t out_dtype,
               cudaStream_t stream);

// Entries that a call with this K and features of this dtype runs on tensor cores, given 16-byte
// aligned, K-contiguous operands: the plan's dense units where the call's precision has a
// tensor-core kernel (features of the values' type, or float16/bfloat16 features with float32
// values) and they are full enough for it (tuning.hpp), else 0. run_sddmm's choice, and the
// benchmark's report.
template <typename V, typename I>
int64_t tensor_core_entries(const DevicePattern<V, I>& a, int64_t k, sddmm_dtype_t features);

// Which kernel runs them (core/plan_stats.hpp): "units", "squares", "wgmma-squares" or
// "wgmma-walk"; "" where tensor_core_entries is 0.
template <typename V, typename I>
const char* tensor_core_kernel(const DevicePattern<V, I>& a, int64_t k, sddmm_dtype_t features);

// Which CUDA-core kernel such a call runs (core/plan_stats.hpp): "entries", "entries-k-parts",
// "line", "tile", "panel" or "strided"; "" for features the plan's values have no kernel for.
template <typename V, typename I>
const char* cuda_core_kernel(const DevicePattern<V, I>& a, int64_t k, sddmm_dtype_t features);

// Allows the tensor-core kernels of a plan with value type V the shared memory they need, on the
// current device (cudaFuncSetAttribute, per function and context): called by plan creation when
// it lists dense units, so that execution does nothing but launch.
template <typename V, typename I>
void prepare_tensor_cores(const DevicePattern<V, I>& a);

}  // namespace sddmm::cuda
