// The temporaries of plan creation, in one block of device memory for the whole creation
// (preprocess/compress.cu carves every phase's arrays from it).
//
// A cudaMalloc + cudaFree pair costs more than most creation kernels: 0.10 ms at 4 MB, 0.13 at
// 32 MB, 0.20 at 128 MB, 0.44 at 512 MB on the H200, against 0.011-0.020 ms for the same block
// taken from and returned to a stream-ordered pool that keeps its memory (tuning.hpp). So scratch
// up to a bound comes from a pool the library keeps per device, which holds at most that bound
// between creations; larger scratch is a cudaMalloc as before (a pool that hands such a block back
// to the driver took 3.5x cudaFree's time at 512 MB). The bound is `creation_pool_bytes` (tuning.hpp:
// 2 GiB, or 1 % of the device's memory if less; SDDMM_CREATION_POOL_BYTES, 0 turns the pool off).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace sddmm::cuda {

class CreationScratch {
 public:
  // `bytes` of device memory on `device` (the current one), usable on `stream` at once. Throws
  // OUT_OF_MEMORY when neither the pool (emptied and tried again) nor cudaMalloc has them.
  CreationScratch(size_t bytes, int device, cudaStream_t stream);
  // Returned to the pool in stream order (after the work queued on `stream`), or cudaFree'd.
  ~CreationScratch();
  CreationScratch(const CreationScratch&) = delete;
  CreationScratch& operator=(const CreationScratch&) = delete;

  unsigned char* get() const { return ptr_; }
  size_t size() const { return bytes_; }

 private:
  unsigned char* ptr_ = nullptr;
  size_t bytes_ = 0;
  cudaStream_t stream_ = nullptr;
  bool pooled_ = false;
};

}  // namespace sddmm::cuda
