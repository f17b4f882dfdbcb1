// CUDA, cuSPARSE and libsddmm return codes turned into exceptions that name the failed call, and
// an owning device buffer. An allocation that fails throws DeviceOutOfMemory, which the benchmark
// catches to skip one case; every other error ends the run.
#pragma once

#include <cuda_runtime.h>
#include <cusparse.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "sddmm.h"

namespace sddmm::bench {

struct DeviceOutOfMemory : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// cuSPARSE answered CUSPARSE_STATUS_NOT_SUPPORTED: that algorithm or layout is skipped, not fatal.
struct CusparseNotSupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A call of libsddmm that returned an error status; the case is recorded as failed.
struct LibraryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check_cuda(cudaError_t status, const char* call, const char* file, int line);
void check_cusparse(cusparseStatus_t status, const char* call, const char* file, int line);
void check_sddmm(sddmm_status_t status, const char* call, const char* file, int line);

// The text of the call goes into the message, so a failure names exactly what failed.
#define BENCH_CUDA(call) ::sddmm::bench::check_cuda((call), #call, __FILE__, __LINE__)
#define BENCH_CUSPARSE(call) ::sddmm::bench::check_cusparse((call), #call, __FILE__, __LINE__)
#define BENCH_SDDMM(call) ::sddmm::bench::check_sddmm((call), #call, __FILE__, __LINE__)

// Owns `bytes` of device memory; move-only.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t bytes);
  ~DeviceBuffer();
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void* get() const { return data_; }
  size_t bytes() const { return bytes_; }
  template <typename T>
  T* as() const {
    return static_cast<T*>(data_);
  }

 private:
  void* data_ = nullptr;
  size_t bytes_ = 0;
};

// A device copy of `bytes` bytes at `host`, enqueued on `stream`; `host` may be freed on return.
DeviceBuffer upload(const void* host, size_t bytes, cudaStream_t stream);

// `sets` device copies of `host`: the first uploaded, the others copied from it on the device.
std::vector<DeviceBuffer> replicate(const std::vector<float>& host, int sets, cudaStream_t stream);

// `sets` buffers of `count` elements of `element_bytes`, every byte set to `byte` (0xFF: NaN in fp32,
// fp16 and bf16 alike, to catch unwritten output).
std::vector<DeviceBuffer> allocate_filled(size_t count, size_t element_bytes, int sets, int byte, cudaStream_t stream);

// A host copy of the first `count` floats of `buffer`; waits for `stream`.
std::vector<float> download(const DeviceBuffer& buffer, size_t count, cudaStream_t stream);

// The device's free memory now.
size_t free_device_memory();

}  // namespace sddmm::bench
