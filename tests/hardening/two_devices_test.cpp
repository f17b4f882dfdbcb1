// Pointers from another device (the pointer check, cuda/pointer_check.hpp): a handle on device 0
// given operands or index arrays that live on device 1 rejects them as INVALID_POINTER, naming the
// argument and both devices, with outputs untouched and the next valid call working; a handle on
// device 1 computes while device 0 is current and leaves it current. Needs two devices (ctest:
// sddmm_tests_two_devices, skipped with fewer).
#ifdef SDDMM_TESTS_HAVE_CUDA
#include <cuda_runtime.h>
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "problem.hpp"

namespace sddmm::test {

TEST_SUITE("two-devices") {
  TEST_CASE("two-devices: operands and index arrays on device 1 given to a handle on device 0 are rejected") {
    Problem p(SDDMM_BACKEND_CUDA, 0);
    Problem on1(SDDMM_BACKEND_CUDA, 1);  // the same arrays, all on device 1
    const std::string from_1 = " is memory of CUDA device 1 but the handle runs on device 0";
    const sddmm_status_t rejected = SDDMM_STATUS_INVALID_POINTER;
    const sddmm_dtype_t f32 = SDDMM_DTYPE_FLOAT32;
    sddmm_dense_t x1 = p.x1(), x2 = p.x2(), x = p.x(), y = p.y();
    sddmm_dense_t x1_1 = on1.x1(), x2_1 = on1.x2(), x_1 = on1.x(), y_1 = on1.y();

    expect_rejected(p, "SDDMM x1 on device 1", rejected, "x1.data" + from_1,
                    [&] { return sddmm_execute(p.handle, &x1_1, &x2, p.d_out.get(), f32, nullptr); });
    expect_rejected(p, "SDDMM x2 on device 1", rejected, "x2.data" + from_1,
                    [&] { return sddmm_execute(p.handle, &x1, &x2_1, p.d_out.get(), f32, nullptr); });
    expect_rejected(p, "SDDMM out on device 1", rejected, "out" + from_1,
                    [&] { return sddmm_execute(p.handle, &x1, &x2, on1.d_out.get(), f32, nullptr); });
    expect_rejected(p, "SpMM x on device 1", rejected, "x.data" + from_1,
                    [&] { return spmm_execute(p.handle, &x_1, &y, SDDMM_OPERATION_NON_TRANSPOSE, nullptr); });
    expect_rejected(p, "SpMM y on device 1", rejected, "y.data" + from_1,
                    [&] { return spmm_execute(p.handle, &x, &y_1, SDDMM_OPERATION_NON_TRANSPOSE, nullptr); });
    CHECK_MESSAGE(on1.outputs_untouched(), "an output on device 1 was written by a rejected call");

    auto* const untouched = reinterpret_cast<sddmm_matrix_t>(uintptr_t{0x5eed});
    sddmm_matrix_t h = untouched;
    auto coo = [&](const void* rows, const void* cols, const void* vals) {
      h = untouched;
      const sddmm_status_t s =
          sddmm_create_coo(&h, 4, 10, 5, rows, cols, SDDMM_INDEX_INT32, vals, f32, SDDMM_BACKEND_CUDA, 0, 0, nullptr);
      CHECK_MESSAGE(h == untouched, "the output handle was written on failure");
      return s;
    };
    const void* rows = p.d_rows.get();
    const void* cols = p.d_cols.get();
    const void* vals = p.d_vals.get();
    expect_rejected(p, "row_idx on device 1", rejected, "row_idx" + from_1,
                    [&] { return coo(on1.d_rows.get(), cols, vals); });
    expect_rejected(p, "col_idx on device 1", rejected, "col_idx" + from_1,
                    [&] { return coo(rows, on1.d_cols.get(), vals); });
    expect_rejected(p, "values on device 1", rejected, "values" + from_1,
                    [&] { return coo(rows, cols, on1.d_vals.get()); });
    expect_rejected(p, "CSR row_offsets on device 1", rejected, "row_offsets" + from_1, [&] {
      h = untouched;
      const sddmm_status_t s = sddmm_create_csr(&h, 4, 10, 5, on1.d_offsets.get(), cols, SDDMM_INDEX_INT32, vals, f32,
                                                SDDMM_BACKEND_CUDA, 0, 0, nullptr);
      CHECK(h == untouched);
      return s;
    });
  }

  TEST_CASE("two-devices: a handle on device 1 computes while device 0 is current, which stays current") {
    REQUIRE(cudaSetDevice(0) == cudaSuccess);
    Problem on1(SDDMM_BACKEND_CUDA, 1);
    sddmm_dense_t x1 = on1.x1(), x2 = on1.x2();
    CHECK(sddmm_execute(on1.handle, &x1, &x2, on1.d_out.get(), SDDMM_DTYPE_FLOAT32, nullptr) == SDDMM_STATUS_SUCCESS);
    int current = -1;
    CHECK(cudaGetDevice(&current) == cudaSuccess);
    CHECK(current == 0);
    {
      const CurrentDevice on(SDDMM_BACKEND_CUDA, 1);
      synchronize(SDDMM_BACKEND_CUDA);
    }
    // out[p] = val[p] * dot(ones(3), ones(3)), in entry order.
    CHECK(on1.d_out.to_host<float>(5) == std::vector<float>{3, 6, 9, 12, 15});
  }
}

}  // namespace sddmm::test
#endif  // SDDMM_TESTS_HAVE_CUDA
