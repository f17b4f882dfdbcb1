// A sticky CUDA error left in the process by someone else's kernel (a write to an illegal address):
// every later call of the library on the CUDA backend reports it as CUDA_ERROR naming the error,
// creation fails without writing the handle, destroy returns without aborting, and the CPU backend
// still computes. The error poisons the process's CUDA context for good, so this suite runs alone in
// a process of its own (ctest: sddmm_tests_sticky_error) and never under compute-sanitizer, which
// would report the fault it provokes.
#ifdef SDDMM_TESTS_HAVE_CUDA
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "differential.hpp"
#include "problem.hpp"
#include "sticky_fault.hpp"

namespace sddmm::test {
namespace {

void expect_reported(sddmm_status_t s, cudaError_t error, const char* call) {
  INFO("call: ", std::string(call));  // doctest prints a char* as an address
  const std::string message = sddmm_last_error();
  const std::string name = cudaGetErrorName(error);
  CHECK_MESSAGE(s == SDDMM_STATUS_CUDA_ERROR, "got ", std::string(sddmm_status_string(s)), ": ", message);
  CHECK_MESSAGE(message.find(name) != std::string::npos, "message '", message, "' does not name ", name);
}

}  // namespace

TEST_SUITE("sticky-error") {
  TEST_CASE("sticky-error: every call reports an error left by another kernel; destroy returns; the CPU works") {
    // Before the fault: a working handle with all its operands on the device.
    Problem p(SDDMM_BACKEND_CUDA);
    p.valid_calls_still_work();
    const cudaError_t fault = leave_sticky_error();
    REQUIRE_MESSAGE(fault != cudaSuccess, "the faulting kernel did not fault");
    INFO("left in the context: ", std::string(cudaGetErrorName(fault)));

    sddmm_dense_t x1 = p.x1(), x2 = p.x2(), x = p.x(), y = p.y();
    expect_reported(sddmm_execute(p.handle, &x1, &x2, p.d_out.get(), SDDMM_DTYPE_FLOAT32, nullptr), fault,
                    "sddmm_execute");
    expect_reported(spmm_execute(p.handle, &x, &y, SDDMM_OPERATION_NON_TRANSPOSE, nullptr), fault, "spmm_execute");
    // Transposed, x is rows x N and y cols x N: y's buffer as x, x's as y.
    sddmm_dense_t xt{p.d_y.get(), 4, 2, 2, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
    sddmm_dense_t yt{p.d_x.get(), 10, 2, 2, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
    expect_reported(spmm_execute(p.handle, &xt, &yt, SDDMM_OPERATION_TRANSPOSE, nullptr), fault, "spmm_execute (A^T)");

    auto* const untouched = reinterpret_cast<sddmm_matrix_t>(uintptr_t{0x5eed});
    sddmm_matrix_t h = untouched;
    expect_reported(p.create_coo(&h), fault, "sddmm_create_coo");
    CHECK(h == untouched);
    expect_reported(sddmm_create_csr(&h, 4, 10, 5, p.d_offsets.get(), p.d_cols.get(), SDDMM_INDEX_INT32, nullptr,
                                     SDDMM_DTYPE_FLOAT64, SDDMM_BACKEND_CUDA, 0, 0, nullptr),
                    fault, "sddmm_create_csr");
    CHECK(h == untouched);

    int64_t rows = 0, cols = 0, nnz = 0;  // a host-side query still answers
    CHECK(sddmm_get_shape(p.handle, &rows, &cols, &nnz) == SDDMM_STATUS_SUCCESS);
    CHECK((rows == 4 && cols == 10 && nnz == 5));
    CHECK(sddmm_destroy(p.handle) == SDDMM_STATUS_SUCCESS);
    p.handle = nullptr;

    check_sddmm(SDDMM_BACKEND_CPU, SddmmCase{"CPU after a sticky CUDA error", random_coo(40, 30, 200, 8400), 16});
    check_spmm(SDDMM_BACKEND_CPU, SpmmCase{"CPU after a sticky CUDA error", random_coo(40, 30, 200, 8401), 8, true});
  }
}

}  // namespace sddmm::test
#endif  // SDDMM_TESTS_HAVE_CUDA
