// Buffers where a backend wants them (host memory for the CPU backend, device memory for CUDA), so
// that one test body runs against either backend.
#pragma once

#include <cstddef>
#include <vector>

#include "sddmm.h"

namespace sddmm::test {

// CUDA devices visible to this process (0 in a build without CUDA or when the query fails).
int cuda_device_count();

// Makes `device` current for its lifetime and then restores the caller's (CUDA backend; nothing for
// the CPU). Best effort: errors are ignored, so it is safe in destructors and in a poisoned context.
class CurrentDevice {
 public:
  CurrentDevice(sddmm_backend_t backend, int device);
  ~CurrentDevice();
  CurrentDevice(const CurrentDevice&) = delete;
  CurrentDevice& operator=(const CurrentDevice&) = delete;

 private:
  int previous_ = -1;
};

// For CUDA, memory of one device: `device`, or the current device when -1. Its copies run with that
// device current, so they are ordered with the work the library enqueues there.
class Buffer {
 public:
  Buffer(sddmm_backend_t backend, size_t bytes, int device = -1);
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  Buffer(Buffer&& other) noexcept
      : backend_(other.backend_), device_(other.device_), ptr_(other.ptr_), bytes_(other.bytes_) {
    other.ptr_ = nullptr;
    other.bytes_ = 0;
  }
  Buffer& operator=(Buffer&&) = delete;

  void* get() const { return ptr_; }
  size_t bytes() const { return bytes_; }
  // Copies to or from the start of the buffer. With a stream (a cudaStream_t as void*) the copy is
  // ordered on that stream and waited for; without one it is a plain synchronous copy.
  void upload(const void* host, size_t bytes, void* stream = nullptr);
  void download(void* host, size_t bytes, void* stream = nullptr) const;

  template <typename T>
  static Buffer from(sddmm_backend_t backend, const std::vector<T>& host, int device = -1) {
    Buffer b(backend, host.size() * sizeof(T), device);
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
  int device_ = -1;
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

// Waits for all device work (no-op for the CPU backend).
void synchronize(sddmm_backend_t backend);

// Bytes placed `offset` bytes into a buffer, with guard bytes of 0xFF (NaN in float32 and float64)
// before and after them: an operand read out of its extent brings NaN into the output, and an
// output written out of its extent shows in guards_intact().
class GuardedBuffer {
 public:
  static constexpr size_t kGuardBytes = 64;
  GuardedBuffer(sddmm_backend_t backend, const std::vector<unsigned char>& bytes, size_t offset);

  void* get() const { return static_cast<unsigned char*>(buffer_.get()) + kGuardBytes + offset_; }
  std::vector<unsigned char> download() const;  // the placed bytes
  bool guards_intact() const;

 private:
  Buffer buffer_;
  size_t offset_;
  size_t size_;
};

// A stream of one's own: a non-blocking CUDA stream for the CUDA backend, nothing for the CPU.
class Stream {
 public:
  explicit Stream(sddmm_backend_t backend);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  void* get() const { return stream_; }  // what the API takes as its stream argument
  void synchronize() const;

 private:
  void* stream_ = nullptr;
};

}  // namespace sddmm::test
