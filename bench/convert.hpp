// fp32 to and from the half-precision storage types, on the device: operands and values are
// generated in fp32 and rounded there, so the library and the references read the same rounded data.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

#include "device.hpp"
#include "sddmm.h"

namespace sddmm::bench {

// dst (count elements of dtype) = src (count floats), rounded to nearest even (fp32: copied).
void narrow_from_f32(const float* src, void* dst, sddmm_dtype_t dtype, size_t count, cudaStream_t stream);

// dst (count floats) = src (count elements of dtype), exactly.
void widen_to_f32(const void* src, sddmm_dtype_t dtype, float* dst, size_t count, cudaStream_t stream);

// A device copy of `host` stored as dtype.
DeviceBuffer upload_as(const std::vector<float>& host, sddmm_dtype_t dtype, cudaStream_t stream);

// The first `count` elements of `buffer`, of dtype, as floats on the host; waits for `stream`.
std::vector<float> download_as_f32(const DeviceBuffer& buffer, sddmm_dtype_t dtype, size_t count, cudaStream_t stream);

// `host` after rounding to dtype on the device, widened back: what a reference must compute from.
std::vector<float> rounded_to(const std::vector<float>& host, sddmm_dtype_t dtype, cudaStream_t stream);

}  // namespace sddmm::bench
