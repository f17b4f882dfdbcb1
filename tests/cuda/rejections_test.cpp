// The rejections of the C API against the CUDA backend, plus pointers in the wrong memory.
#include <cstdint>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "memory.hpp"
#include "rejections.hpp"

TEST_SUITE("gpu") {
  TEST_CASE("gpu: every rejected create input returns its status and message, outputs untouched") {
    sddmm::test::check_create_rejections(SDDMM_BACKEND_CUDA);
  }

  TEST_CASE("gpu: every rejected execute input returns its status and message, outputs untouched") {
    sddmm::test::check_execute_rejections(SDDMM_BACKEND_CUDA);
  }

  TEST_CASE("gpu: every combination of dtypes: the supported ones compute, the others are refused by name") {
    sddmm::test::check_dtype_combinations(SDDMM_BACKEND_CUDA);
  }

  TEST_CASE("gpu: alignment and extents are counted in 2-byte elements for float16 and bfloat16") {
    sddmm::test::check_two_byte_element_checks(SDDMM_BACKEND_CUDA);
  }

  TEST_CASE("gpu: host pointers given to a CUDA handle are rejected as INVALID_POINTER") {
    std::vector<int32_t> rows{0, 1}, cols{1, 0};
    sddmm_matrix_t a = nullptr;
    CHECK(sddmm_create_coo(&a, 2, 2, 2, rows.data(), cols.data(), SDDMM_INDEX_INT32, nullptr, SDDMM_DTYPE_FLOAT32,
                           SDDMM_BACKEND_CUDA, 0, 0, nullptr) == SDDMM_STATUS_INVALID_POINTER);
    CHECK(std::string(sddmm_last_error()).find("row_idx") != std::string::npos);

    sddmm::test::Buffer d_rows = sddmm::test::Buffer::from(SDDMM_BACKEND_CUDA, rows);
    sddmm::test::Buffer d_cols = sddmm::test::Buffer::from(SDDMM_BACKEND_CUDA, cols);
    REQUIRE(sddmm_create_coo(&a, 2, 2, 2, d_rows.get(), d_cols.get(), SDDMM_INDEX_INT32, nullptr, SDDMM_DTYPE_FLOAT32,
                             SDDMM_BACKEND_CUDA, 0, 0, nullptr) == SDDMM_STATUS_SUCCESS);
    std::vector<float> host_x1(4, 1.0f), host_x2(4, 1.0f), host_out(2, 7.0f);
    sddmm::test::Buffer d_x2 = sddmm::test::Buffer::from(SDDMM_BACKEND_CUDA, host_x2);
    sddmm_dense_t x1{host_x1.data(), 2, 2, 2, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
    sddmm_dense_t x2{d_x2.get(), 2, 2, 2, SDDMM_LAYOUT_COL_MAJOR, SDDMM_DTYPE_FLOAT32};
    sddmm::test::Buffer d_out = sddmm::test::Buffer::from(SDDMM_BACKEND_CUDA, host_out);
    CHECK(sddmm_execute(a, &x1, &x2, d_out.get(), SDDMM_DTYPE_FLOAT32, nullptr) == SDDMM_STATUS_INVALID_POINTER);
    CHECK(std::string(sddmm_last_error()).find("x1") != std::string::npos);
    CHECK(d_out.to_host<float>(2) == host_out);
    CHECK(sddmm_execute(a, &x2, &x2, host_out.data(), SDDMM_DTYPE_FLOAT32, nullptr) == SDDMM_STATUS_INVALID_POINTER);
    CHECK(std::string(sddmm_last_error()).find("out") != std::string::npos);
    sddmm_destroy(a);
  }
}
