// The CUDA backend's Plan: checks the device and where the caller's pointers live and how far their
// memory reaches, builds the device pattern once, and forwards each execute to its kernel family on
// the caller's stream.
#include <cstdint>
#include <limits>
#include <memory>

#include "core/dtype.hpp"
#include "core/matrix.hpp"
#include "cuda/pattern.cuh"
#include "cuda/pointer_check.hpp"
#include "cuda/precision.cuh"
#include "cuda/sddmm/sddmm.cuh"
#include "cuda/spmm/spmm.cuh"
#include "cuda/tuning.hpp"

namespace sddmm {
namespace cuda {
namespace {

template <typename T, typename I>
class CudaPlan final : public Plan {
 public:
  CudaPlan(const MatrixInfo& info, const SparseInput& input, cudaStream_t stream) : device_(info.device_id) {
    DeviceGuard guard(device_);
    pattern_ = std::make_unique<DevicePattern<T, I>>(build_device_pattern<T, I>(info, input, stream));
    if (!pattern_->tiles.empty()) prepare_tensor_cores<T, I>(*pattern_);
  }

  ~CudaPlan() override {
    // Free on the plan's device; errors are ignored so that destroy never fails.
    int previous = -1;
    const bool switched = cudaGetDevice(&previous) == cudaSuccess && previous != device_ && cudaSetDevice(device_) == cudaSuccess;
    pattern_.reset();
    if (switched) (void)cudaSetDevice(previous);
  }

  void sddmm(const DenseView& x1, const DenseView& x2, void* out, sddmm_dtype_t out_dtype, void* stream) const override {
    DeviceGuard guard(device_);
    require_device_memory(x1.data, x1.extent_bytes, device_, "x1.data");
    require_device_memory(x2.data, x2.extent_bytes, device_, "x2.data");
    require_device_memory(out, sddmm_output_bytes(pattern_->nnz, out_dtype), device_, "out");
    run_sddmm(*pattern_, x1, x2, out, out_dtype, as_stream(stream));
  }

  void spmm(const DenseView& x, const DenseView& y, bool transpose, void* stream) const override {
    DeviceGuard guard(device_);
    require_device_memory(x.data, x.extent_bytes, device_, "x.data");
    require_device_memory(y.data, y.extent_bytes, device_, "y.data");
    run_spmm(*pattern_, x, y, transpose, as_stream(stream));
  }

  int64_t tensor_core_entries(int64_t k, sddmm_dtype_t features) const override {
    return cuda::tensor_core_entries(*pattern_, k, features);
  }
  const char* tensor_core_kernel(int64_t k, sddmm_dtype_t features) const override {
    return cuda::tensor_core_kernel(*pattern_, k, features);
  }
  const char* cuda_core_kernel(int64_t k, sddmm_dtype_t features) const override {
    return cuda::cuda_core_kernel(*pattern_, k, features);
  }
  int64_t spmm_tensor_core_entries(int64_t n, sddmm_dtype_t features) const override {
    return cuda::spmm_tensor_core_entries(*pattern_, n, features);
  }

 private:
  int device_;
  std::unique_ptr<DevicePattern<T, I>> pattern_;
};

template <typename T>
std::unique_ptr<Plan> make_plan_for(const MatrixInfo& info, const SparseInput& input, cudaStream_t stream) {
  // 32-bit plan indices halve index traffic; 64-bit only when a dimension or nnz needs it (or a
  // test asks for them: plan_indices_64).
  constexpr int64_t kMax32 = std::numeric_limits<int32_t>::max();
  if (info.rows <= kMax32 && info.cols <= kMax32 && info.nnz <= kMax32 && !plan_indices_64()) {
    return std::make_unique<CudaPlan<T, int32_t>>(info, input, stream);
  }
  return std::make_unique<CudaPlan<T, int64_t>>(info, input, stream);
}

}  // namespace
}  // namespace cuda

std::unique_ptr<Plan> make_cuda_plan(const MatrixInfo& info, const SparseInput& input, void* stream) {
  cuda::require_device(info.device_id);
  cuda::DeviceGuard guard(info.device_id);
  const SparseInputExtents extents = sparse_input_extents(info, input);
  const bool csr = input.format == SparseInput::Format::kCsr;
  cuda::require_device_memory(input.rows, extents.rows, info.device_id, csr ? "row_offsets" : "row_idx");
  cuda::require_device_memory(input.cols, extents.cols, info.device_id, "col_idx");
  if (info.has_values) cuda::require_device_memory(input.values, extents.values, info.device_id, "values");
  switch (info.value_dtype) {
    case SDDMM_DTYPE_FLOAT32: return cuda::make_plan_for<float>(info, input, cuda::as_stream(stream));
    case SDDMM_DTYPE_FLOAT64: return cuda::make_plan_for<double>(info, input, cuda::as_stream(stream));
    case SDDMM_DTYPE_FLOAT16: return cuda::make_plan_for<__half>(info, input, cuda::as_stream(stream));
    case SDDMM_DTYPE_BFLOAT16: return cuda::make_plan_for<__nv_bfloat16>(info, input, cuda::as_stream(stream));
    default: fail(SDDMM_STATUS_NOT_SUPPORTED, "the CUDA backend does not support value dtype ", int(info.value_dtype));
  }
}

}  // namespace sddmm
