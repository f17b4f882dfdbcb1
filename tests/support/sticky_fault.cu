#include "sticky_fault.hpp"

namespace sddmm::test {
namespace {

__global__ void write_through(int* p) {
  *p = 1;
}

}  // namespace

cudaError_t leave_sticky_error() {
  write_through<<<1, 1>>>(nullptr);
  return cudaDeviceSynchronize();
}

}  // namespace sddmm::test
