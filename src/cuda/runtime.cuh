// CUDA runtime plumbing for the backend: errors as sddmm::Error, owning device arrays, the device
// guard that runs a call on the handle's device (pointer checks: cuda/pointer_check.hpp).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <utility>

#include "core/error.hpp"

namespace sddmm::cuda {

// Throws for a failed runtime call: OUT_OF_MEMORY for allocation failures, NO_DEVICE for a missing
// device or driver, CUDA_ERROR otherwise, naming the error and saying whether it is sticky. A sticky
// error left by someone else's kernel reaches our calls this way: the first runtime call that needs
// the context (a pointer query, an allocation, a launch) returns it.
void check(cudaError_t status, const char* what);

// Launch errors (bad configuration) are read right after a launch; this never synchronises.
void check_launch(const char* kernel);

// cudaMalloc of `bytes` on the current device; when the device is full, the memory the library's
// creation pool keeps there is handed back first and the allocation tried once more
// (cuda/creation_scratch.cu). Throws OUT_OF_MEMORY when that fails too.
void* device_malloc(size_t bytes);

// An owning, typed device allocation (cudaMalloc at creation time only).
template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(int64_t count) : count_(count) {
    if (count > 0) ptr_ = static_cast<T*>(device_malloc(static_cast<size_t>(count) * sizeof(T)));
  }
  ~DeviceArray() {
    if (ptr_ != nullptr) cudaFree(ptr_);  // errors ignored: destroy never fails or aborts
  }
  DeviceArray(DeviceArray&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), count_(std::exchange(o.count_, 0)) {}
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(count_, o.count_);
    return *this;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;

  T* get() const { return ptr_; }
  int64_t size() const { return count_; }
  bool empty() const { return ptr_ == nullptr; }

 private:
  T* ptr_ = nullptr;
  int64_t count_ = 0;
};

// Makes `device` current for the guard's lifetime and restores the caller's device after.
class DeviceGuard {
 public:
  explicit DeviceGuard(int device);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = -1;
};

// Throws NO_DEVICE when the driver or the device is missing. The query needs no context, so a
// sticky error should not show here; if one does, it is CUDA_ERROR, not NO_DEVICE.
void require_device(int device);

inline cudaStream_t as_stream(void* stream) { return static_cast<cudaStream_t>(stream); }

}  // namespace sddmm::cuda
