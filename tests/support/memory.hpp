// Buffers where a backend wants them (host memory for the CPU backend, device memory for CUDA), so
// that one test body runs against either backend.
#pragma once

#include <cstddef>
#include <vector>

#include "sddmm.h"

namespace sddmm::test {

bool cuda_device_available();

class Buffer {
 public:
  Buffer(sddmm_backend_t backend, size_t bytes);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& other) noexcept : backend_(other.backend_), ptr_(other.ptr_), bytes_(other.bytes_) {
    other.ptr_ = nullptr;
    other.bytes_ = 0;
  }
  Buffer& operator=(Buffer&&) = delete;

  void* get() const { return ptr_; }
  void upload(const void* host, size_t bytes);
  void download(void* host, size_t bytes) const;

  template <typename T>
  static Buffer from(sddmm_backend_t backend, const std::vector<T>& host) {
    Buffer b(backend, host.size() * sizeof(T));
    b.upload(host.data(), host.size() * sizeof(T));
    return b;
  }
  template <typename T>
  std::vector<T> to_host(size_t count) const {
    std::vector<T> host(count);
    download(host.data(), count * sizeof(T));
    return host;
  }

 private:
  sddmm_backend_t backend_;
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

// Waits for all device work (no-op for the CPU backend).
void synchronize(sddmm_backend_t backend);

}  // namespace sddmm::test
