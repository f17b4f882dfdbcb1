#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <stdexcept>

#include "convert.hpp"
#include "precision.hpp"

namespace sddmm::bench {
namespace {

constexpr int kThreads = 256;
// Enough blocks to fill any current GPU; larger arrays are walked with a grid stride.
constexpr size_t kMaxBlocks = 4096;

__device__ void store(float value, float* out) {
  *out = value;
}
__device__ void store(float value, __half* out) {
  *out = __float2half_rn(value);
}
__device__ void store(float value, __nv_bfloat16* out) {
  *out = __float2bfloat16_rn(value);
}
__device__ float load(const float* in) {
  return *in;
}
__device__ float load(const __half* in) {
  return __half2float(*in);
}
__device__ float load(const __nv_bfloat16* in) {
  return __bfloat162float(*in);
}

template <typename T>
__global__ void narrow_kernel(const float* src, T* dst, size_t count) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    store(src[i], dst + i);
  }
}

template <typename T>
__global__ void widen_kernel(const T* src, float* dst, size_t count) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += stride) {
    dst[i] = load(src + i);
  }
}

unsigned blocks_for(size_t count) {
  return static_cast<unsigned>(std::min(kMaxBlocks, (count + kThreads - 1) / kThreads));
}

// Calls body(T{}) with T the element type that stores dtype: the one switch from a runtime type to
// a compile-time one.
template <typename Body>
void with_element_type(sddmm_dtype_t dtype, const Body& body) {
  switch (dtype) {
    case SDDMM_DTYPE_FLOAT32:
      return body(float{});
    case SDDMM_DTYPE_FLOAT16:
      return body(__half{});
    case SDDMM_DTYPE_BFLOAT16:
      return body(__nv_bfloat16{});
    default:
      break;
  }
  throw std::logic_error("the benchmark stores no float64 data");
}

}  // namespace

void narrow_from_f32(const float* src, void* dst, sddmm_dtype_t dtype, size_t count, cudaStream_t stream) {
  if (count == 0) return;
  with_element_type(dtype, [&](auto element) {
    using T = decltype(element);
    narrow_kernel<<<blocks_for(count), kThreads, 0, stream>>>(src, static_cast<T*>(dst), count);
  });
  BENCH_CUDA(cudaGetLastError());
}

void widen_to_f32(const void* src, sddmm_dtype_t dtype, float* dst, size_t count, cudaStream_t stream) {
  if (count == 0) return;
  with_element_type(dtype, [&](auto element) {
    using T = decltype(element);
    widen_kernel<<<blocks_for(count), kThreads, 0, stream>>>(static_cast<const T*>(src), dst, count);
  });
  BENCH_CUDA(cudaGetLastError());
}

DeviceBuffer upload_as(const std::vector<float>& host, sddmm_dtype_t dtype, cudaStream_t stream) {
  if (dtype == SDDMM_DTYPE_FLOAT32) return upload(host.data(), host.size() * sizeof(float), stream);
  const DeviceBuffer staging = upload(host.data(), host.size() * sizeof(float), stream);
  DeviceBuffer stored(host.size() * dtype_bytes(dtype));
  narrow_from_f32(staging.as<float>(), stored.get(), dtype, host.size(), stream);
  BENCH_CUDA(cudaStreamSynchronize(stream));  // the conversion has read the staging copy before it is freed
  return stored;
}

std::vector<float> download_as_f32(const DeviceBuffer& buffer, sddmm_dtype_t dtype, size_t count, cudaStream_t stream) {
  if (count > buffer.bytes() / dtype_bytes(dtype)) {
    throw std::logic_error("download_as_f32: more elements than the buffer holds");
  }
  if (dtype == SDDMM_DTYPE_FLOAT32) return download(buffer, count, stream);
  const DeviceBuffer wide(count * sizeof(float));
  widen_to_f32(buffer.get(), dtype, wide.as<float>(), count, stream);
  return download(wide, count, stream);
}

std::vector<float> rounded_to(const std::vector<float>& host, sddmm_dtype_t dtype, cudaStream_t stream) {
  if (dtype == SDDMM_DTYPE_FLOAT32) return host;
  return download_as_f32(upload_as(host, dtype, stream), dtype, host.size(), stream);
}

}  // namespace sddmm::bench
