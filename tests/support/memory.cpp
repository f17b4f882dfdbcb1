#include "memory.hpp"

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

bool cuda_device_available() {
#ifdef SDDMM_TESTS_HAVE_CUDA
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
#else
  return false;
#endif
}

Buffer::Buffer(sddmm_backend_t backend, size_t bytes) : backend_(backend), bytes_(bytes) {
  const size_t alloc = bytes > 0 ? bytes : 1;
  if (backend == SDDMM_BACKEND_CPU) {
    ptr_ = std::malloc(alloc);
    if (ptr_ == nullptr) throw std::bad_alloc();
    return;
  }
#ifdef SDDMM_TESTS_HAVE_CUDA
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
  cudaFree(ptr_);
#endif
}

void Buffer::upload(const void* host, size_t bytes) {
  if (bytes > bytes_) throw std::runtime_error("test buffer: upload larger than buffer");
  if (bytes == 0) return;
  if (backend_ == SDDMM_BACKEND_CPU) {
    std::memcpy(ptr_, host, bytes);
    return;
  }
#ifdef SDDMM_TESTS_HAVE_CUDA
  check(cudaMemcpy(ptr_, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy H2D");
#endif
}

void Buffer::download(void* host, size_t bytes) const {
  if (bytes > bytes_) throw std::runtime_error("test buffer: download larger than buffer");
  if (bytes == 0) return;
  if (backend_ == SDDMM_BACKEND_CPU) {
    std::memcpy(host, ptr_, bytes);
    return;
  }
#ifdef SDDMM_TESTS_HAVE_CUDA
  check(cudaMemcpy(host, ptr_, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy D2H");
#endif
}

void synchronize(sddmm_backend_t backend) {
#ifdef SDDMM_TESTS_HAVE_CUDA
  if (backend == SDDMM_BACKEND_CUDA) check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
#else
  (void)backend;
#endif
}

}  // namespace sddmm::test
