#include "cuda/runtime.cuh"

namespace sddmm::cuda {

void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  (void)cudaGetLastError();  // clear a non-sticky error so the next call starts clean
  if (status == cudaErrorMemoryAllocation) fail(SDDMM_STATUS_OUT_OF_MEMORY, what, ": device out of memory");
  if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver) {
    fail(SDDMM_STATUS_NO_DEVICE, what, ": ", cudaGetErrorString(status));
  }
  // A sticky error (a kernel fault: illegal address, trap, ...) survives the clearing above: the
  // context is unusable for the rest of the process, whoever caused it, and the message says so.
  const bool sticky = cudaPeekAtLastError() != cudaSuccess;
  fail(SDDMM_STATUS_CUDA_ERROR, what, ": ", cudaGetErrorName(status), " (", cudaGetErrorString(status), ")",
       sticky ? "; the error is sticky: this process's CUDA context is unusable from now on" : "");
}

void check_launch(const char* kernel) { check(cudaGetLastError(), kernel); }

DeviceGuard::DeviceGuard(int device) {
  check(cudaGetDevice(&previous_), "cudaGetDevice");
  if (previous_ != device) check(cudaSetDevice(device), "cudaSetDevice");
}

DeviceGuard::~DeviceGuard() {
  int current = -1;
  if (cudaGetDevice(&current) == cudaSuccess && current != previous_ && previous_ >= 0) (void)cudaSetDevice(previous_);
}

namespace {

// The errors of a kernel that faulted: they poison the context (sticky), they do not mean "no device".
bool is_kernel_fault(cudaError_t status) {
  switch (status) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorLaunchTimeout:
    case cudaErrorAssert:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorECCUncorrectable:
      return true;
    default:
      return false;
  }
}

}  // namespace

void require_device(int device) {
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess) {
    if (is_kernel_fault(status)) check(status, "cudaGetDeviceCount");  // CUDA_ERROR, should the query see one
    (void)cudaGetLastError();
    fail(SDDMM_STATUS_NO_DEVICE, "no usable CUDA device: ", cudaGetErrorName(status), " (", cudaGetErrorString(status), ")");
  }
  if (device >= count) fail(SDDMM_STATUS_NO_DEVICE, "device_id = ", device, " but ", count, " CUDA device(s) are visible");
}

}  // namespace sddmm::cuda
