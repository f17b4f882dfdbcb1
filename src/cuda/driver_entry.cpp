// The driver's functions through the runtime (cuda/driver_entry.hpp).
#include "cuda/driver_entry.hpp"

#include <cuda_runtime.h>

namespace sddmm::cuda {

void* driver_function(const char* symbol, unsigned version) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  const cudaError_t status = cudaGetDriverEntryPointByVersion(symbol, &fn, version, cudaEnableDefault, &found);
  if (status != cudaSuccess || found != cudaDriverEntryPointSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return fn;
}

}  // namespace sddmm::cuda
