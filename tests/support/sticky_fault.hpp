// A sticky CUDA error, as a crashed kernel of someone else's in the same process would leave it.
#pragma once

#include <cuda_runtime.h>

namespace sddmm::test {

// Runs a kernel that writes through a null pointer on the current device and returns what
// cudaDeviceSynchronize then reports (cudaErrorIllegalAddress). From then on the process's CUDA
// context is unusable: only the "sticky-error" suite, alone in its process, may call this.
cudaError_t leave_sticky_error();

}  // namespace sddmm::test
