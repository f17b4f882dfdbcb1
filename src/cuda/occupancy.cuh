// The size of a persistent grid: as many blocks of a kernel as the device runs at once, so that all
// of them start in the first wave. A grid sized from the device's thread capacity alone
// (multiprocessors x 2048 / 256 threads) is more than that wherever the kernel's registers allow
// fewer blocks per multiprocessor - the SpMM kernel at 40 registers: 6 of 8; SDDMM at 64: 4, with
// bfloat16 at 80: 3 - and its last blocks then start only when the first ones end, a second,
// partial wave with most of the GPU idle. Measured on the SpMM kernel (H200, 2026-11-21, 12 matrices
// x N = 32/128/256): geomean time 0.925x; banded N = 256 1.271 -> 1.027 ms, block-diagonal N = 128
// 1.045 -> 0.742, uniform 685000^2 N = 32 0.300 -> 0.248; R-MAT lost (N = 256 2.65 -> 2.76). The
// SDDMM kernel takes whole waves of this on purpose (sddmm.cu, tuning.hpp).
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>

#include "cuda/runtime.cuh"

namespace sddmm::cuda {

// Dynamic shared memory a kernel may take without asking for more (cudaFuncSetAttribute).
constexpr size_t kDefaultSharedBytes = 48 * 1024;

// Blocks of kKernel, launched with `threads` threads and `shared_bytes` of dynamic shared memory,
// that the current device runs at once (multiprocessors x blocks per multiprocessor). Asked of the
// runtime once per kernel and device (the first 64 devices; others ask each time): no
// synchronisation, no allocation, safe from several threads. A kernel that takes more than the
// default shared memory is allowed `shared_bytes` at the same time (an attribute of the kernel on
// the device, which lasts as long as its context), before the launch that needs it.
template <auto kKernel>
int resident_grid(int threads, size_t shared_bytes) {
  constexpr int kCachedDevices = 64;
  static std::atomic<int> cached[kCachedDevices] = {};  // 0: not asked yet
  int device = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  const bool cacheable = device >= 0 && device < kCachedDevices;
  int grid = cacheable ? cached[device].load(std::memory_order_relaxed) : 0;
  if (grid == 0) {
    if (shared_bytes > kDefaultSharedBytes) {
      check(cudaFuncSetAttribute(kKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes)),
            "cudaFuncSetAttribute (dynamic shared memory)");
    }
    int per_sm = 0, multiprocessors = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kKernel, threads, shared_bytes),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    check(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
    grid = (per_sm > 1 ? per_sm : 1) * (multiprocessors > 1 ? multiprocessors : 1);
    if (cacheable) cached[device].store(grid, std::memory_order_relaxed);
  }
  return grid;
}

}  // namespace sddmm::cuda
