#include "memory.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#ifdef SDDMM_TESTS_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace sddmm::test {
namespace {

#ifdef SDDMM_TESTS_HAVE_CUDA
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
#endif

}  // namespace

int cuda_device_count() {
#ifdef SDDMM_TESTS_HAVE_CUDA
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess ? n : 0;
#else
  return 0;
#endif
}

CurrentDevice::CurrentDevice(sddmm_backend_t backend, int device) {
#ifdef SDDMM_TESTS_HAVE_CUDA
  if (backend == SDDMM_BACKEND_CUDA && device >= 0 && cudaGetDevice(&previous_) == cudaSuccess && previous_ != device) {
    (void)cudaSetDevice(device);
    return;
  }
#else
  (void)backend;
  (void)device;
#endif
  previous_ = -1;  // nothing to restore
}

CurrentDevice::~CurrentDevice() {
#ifdef SDDMM_TESTS_HAVE_CUDA
  if (previous_ >= 0) (void)cudaSetDevice(previous_);
#endif
}

Buffer::Buffer(sddmm_backend_t backend, size_t bytes, int device) : backend_(backend), device_(device), bytes_(bytes) {
  const size_t alloc = bytes > 0 ? bytes : 1;
  if (backend == SDDMM_BACKEND_CPU) {
    ptr_ = std::malloc(alloc);
    if (ptr_ == nullptr) throw std::bad_alloc();
    return;
  }
#ifdef SDDMM_TESTS_HAVE_CUDA
  if (device_ < 0) check(cudaGetDevice(&device_), "cudaGetDevice");
  const CurrentDevice on(backend_, device_);
  check(cudaMalloc(&ptr_, alloc), "cudaMalloc");
#else
  throw std::runtime_error("test buffer: CUDA backend requested in a build without CUDA");
#endif
}

Buffer::~Buffer() {
  if (backend_ == SDDMM_BACKEND_CPU) {
    std::free(ptr_);
    return;
  }
#ifdef SDDMM_TESTS_HAVE_CUDA
  const CurrentDevice on(backend_, device_);
  cudaFree(ptr_);
#endif
}

void Buffer::upload(const void* host, size_t bytes, void* stream) {
  if (bytes > bytes_) throw std::runtime_error("test buffer: upload larger than buffer");
  if (bytes == 0) return;
  if (backend_ == SDDMM_BACKEND_CPU) {
    std::memcpy(ptr_, host, bytes);
    return;
  }
#ifdef SDDMM_TESTS_HAVE_CUDA
  const CurrentDevice on(backend_, device_);
  if (stream == nullptr) {
    check(cudaMemcpy(ptr_, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy H2D");
    return;
  }
  const auto s = static_cast<cudaStream_t>(stream);
  check(cudaMemcpyAsync(ptr_, host, bytes, cudaMemcpyHostToDevice, s), "cudaMemcpyAsync H2D");
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
#else
  (void)stream;
#endif
}

void Buffer::download(void* host, size_t bytes, void* stream) const {
  if (bytes > bytes_) throw std::runtime_error("test buffer: download larger than buffer");
  if (bytes == 0) return;
  if (backend_ == SDDMM_BACKEND_CPU) {
    std::memcpy(host, ptr_, bytes);
    return;
  }
#ifdef SDDMM_TESTS_HAVE_CUDA
  const CurrentDevice on(backend_, device_);
  if (stream == nullptr) {
    check(cudaMemcpy(host, ptr_, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy D2H");
    return;
  }
  const auto s = static_cast<cudaStream_t>(stream);
  check(cudaMemcpyAsync(host, ptr_, bytes, cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync D2H");
  check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
#else
  (void)stream;
#endif
}

void synchronize(sddmm_backend_t backend) {
#ifdef SDDMM_TESTS_HAVE_CUDA
  if (backend == SDDMM_BACKEND_CUDA) check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
#else
  (void)backend;
#endif
}

GuardedBuffer::GuardedBuffer(sddmm_backend_t backend, const std::vector<unsigned char>& bytes, size_t offset)
    : buffer_(backend, kGuardBytes + offset + bytes.size() + kGuardBytes), offset_(offset), size_(bytes.size()) {
  std::vector<unsigned char> host(kGuardBytes + offset + bytes.size() + kGuardBytes, 0xFF);
  std::copy(bytes.begin(), bytes.end(), host.begin() + static_cast<std::ptrdiff_t>(kGuardBytes + offset));
  buffer_.upload(host.data(), host.size());
}

std::vector<unsigned char> GuardedBuffer::download() const {
  std::vector<unsigned char> all = buffer_.to_host<unsigned char>(kGuardBytes + offset_ + size_ + kGuardBytes);
  const auto begin = all.begin() + static_cast<std::ptrdiff_t>(kGuardBytes + offset_);
  return std::vector<unsigned char>(begin, begin + static_cast<std::ptrdiff_t>(size_));
}

bool GuardedBuffer::guards_intact() const {
  const std::vector<unsigned char> all = buffer_.to_host<unsigned char>(kGuardBytes + offset_ + size_ + kGuardBytes);
  const size_t before = kGuardBytes + offset_;
  for (size_t i = 0; i < all.size(); ++i) {
    if ((i < before || i >= before + size_) && all[i] != 0xFF) return false;
  }
  return true;
}

Stream::Stream(sddmm_backend_t backend) {
#ifdef SDDMM_TESTS_HAVE_CUDA
  if (backend == SDDMM_BACKEND_CUDA) {
    cudaStream_t s = nullptr;
    check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    stream_ = s;
  }
#else
  (void)backend;
#endif
}

Stream::~Stream() {
#ifdef SDDMM_TESTS_HAVE_CUDA
  if (stream_ != nullptr) cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
#endif
}

void Stream::synchronize() const {
#ifdef SDDMM_TESTS_HAVE_CUDA
  if (stream_ != nullptr) check(cudaStreamSynchronize(static_cast<cudaStream_t>(stream_)), "cudaStreamSynchronize");
#endif
}

}  // namespace sddmm::test
