// Builds without the CUDA toolkit: the CUDA backend exists in the ABI but reports no device.
#include "core/error.hpp"
#include "core/matrix.hpp"

namespace sddmm {

std::unique_ptr<Plan> make_cuda_plan(const MatrixInfo& /*info*/, const SparseInput& /*input*/, void* /*stream*/) {
  fail(SDDMM_STATUS_NO_DEVICE, "this build of libsddmm has no CUDA backend (built without the CUDA toolkit)");
}

}  // namespace sddmm
