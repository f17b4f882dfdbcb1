#include "cuda/creation_scratch.cuh"

#include <mutex>
#include <vector>

#include "cuda/runtime.cuh"
#include "cuda/tuning.hpp"

namespace sddmm::cuda {
namespace {

struct DevicePool {
  bool made = false;         // tried once: pool stays null where the device has no pools
  cudaMemPool_t pool = nullptr;
  size_t bound = 0;          // scratch above this comes from cudaMalloc
};

// The library's pool of `device`, made on first use (if `make`), and the bound of scratch it serves;
// a null pool where the bound is 0 or the device does not support memory pools. Never throws:
// without a pool the scratch is a cudaMalloc, as it was before pools.
DevicePool pool_of(int device, bool make) {
  static std::mutex mutex;
  static std::vector<DevicePool> pools;
  const std::lock_guard<std::mutex> lock(mutex);
  if (device >= static_cast<int>(pools.size())) pools.resize(static_cast<size_t>(device) + 1);
  DevicePool& p = pools[static_cast<size_t>(device)];
  if (p.made || !make) return p;
  p.made = true;
  int supported = 0;
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device) != cudaSuccess || supported == 0 ||
      cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
    (void)cudaGetLastError();
    return p;
  }
  p.bound = creation_pool_bytes(total_bytes);
  if (p.bound == 0) return p;
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  unsigned long long keep = p.bound;
  if (cudaMemPoolCreate(&p.pool, &props) != cudaSuccess ||
      cudaMemPoolSetAttribute(p.pool, cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess) {
    (void)cudaGetLastError();
    if (p.pool != nullptr) (void)cudaMemPoolDestroy(p.pool);
    p.pool = nullptr;
  }
  return p;
}

// Hands back what `pool` keeps, once the device is done with it: memory whose cudaFreeAsync the
// device has not yet reached cannot be released by a trim, and a creation's scratch is freed so,
// on its stream, as the creation returns. Called only where memory ran out: the wait for the
// device costs nothing otherwise.
void empty_pool(cudaMemPool_t pool) {
  if (cudaDeviceSynchronize() != cudaSuccess) (void)cudaGetLastError();  // a sticky error stays for the next check
  (void)cudaMemPoolTrimTo(pool, 0);
}

// The same for the pool of the current device (nothing where it has none yet).
void empty_current_pool() {
  int device = -1;
  if (cudaGetDevice(&device) != cudaSuccess) return;
  const DevicePool p = pool_of(device, false);
  if (p.pool != nullptr) empty_pool(p.pool);
}

}  // namespace

void* device_malloc(size_t bytes) {
  void* ptr = nullptr;
  cudaError_t status = cudaMalloc(&ptr, bytes);
  if (status == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();
    empty_current_pool();
    status = cudaMalloc(&ptr, bytes);
  }
  check(status, "cudaMalloc");
  return ptr;
}

CreationScratch::CreationScratch(size_t bytes, int device, cudaStream_t stream) : bytes_(bytes), stream_(stream) {
  if (bytes == 0) return;
  const DevicePool p = pool_of(device, true);
  if (p.pool != nullptr && bytes <= p.bound) {
    void* ptr = nullptr;
    cudaError_t status = cudaMallocFromPoolAsync(&ptr, bytes, p.pool, stream);
    if (status == cudaErrorMemoryAllocation) {
      // What the pool keeps may be what is missing: hand it back and try once more.
      (void)cudaGetLastError();
      empty_pool(p.pool);
      status = cudaMallocFromPoolAsync(&ptr, bytes, p.pool, stream);
    }
    check(status, "cudaMallocFromPoolAsync (plan creation scratch)");
    ptr_ = static_cast<unsigned char*>(ptr);
    pooled_ = true;
    return;
  }
  ptr_ = static_cast<unsigned char*>(device_malloc(bytes));
}

CreationScratch::~CreationScratch() {
  if (ptr_ == nullptr) return;
  // Errors ignored: a failed creation still frees what it can and reports its own error.
  const cudaError_t status = pooled_ ? cudaFreeAsync(ptr_, stream_) : cudaFree(ptr_);
  if (status != cudaSuccess) (void)cudaGetLastError();  // leave no error for the next call to find
}

}  // namespace sddmm::cuda
