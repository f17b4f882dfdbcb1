// The C API's fixed surface: version, status names, NULL handling, and every rejection on the CPU.
#include <cstring>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "rejections.hpp"
#include "sddmm.h"

TEST_CASE("api: version macros and runtime version agree") {
  CHECK(sddmm_version() == SDDMM_VERSION_NUMBER);
  CHECK(SDDMM_VERSION_NUMBER == SDDMM_VERSION_MAJOR * 10000 + SDDMM_VERSION_MINOR * 100 + SDDMM_VERSION_PATCH);
}

TEST_CASE("api: status values are pinned and every status has a name") {
  CHECK(SDDMM_STATUS_SUCCESS == 0);
  CHECK(SDDMM_STATUS_NOT_SUPPORTED == 6);
  CHECK(SDDMM_STATUS_INTERNAL_ERROR == 11);
  for (int s = SDDMM_STATUS_SUCCESS; s <= SDDMM_STATUS_INTERNAL_ERROR; ++s) {
    const std::string name = sddmm_status_string(static_cast<sddmm_status_t>(s));
    CHECK(name.rfind("SDDMM_STATUS_", 0) == 0);
  }
  CHECK(std::string(sddmm_status_string(static_cast<sddmm_status_t>(99))) == "unknown status");
}

TEST_CASE("api: destroy accepts NULL; get_shape reports the shape") {
  CHECK(sddmm_destroy(nullptr) == SDDMM_STATUS_SUCCESS);
  const int32_t rows[] = {0, 2};
  const int32_t cols[] = {1, 1};
  sddmm_matrix_t a = nullptr;
  REQUIRE(sddmm_create_coo(&a, 3, 2, 2, rows, cols, SDDMM_INDEX_INT32, nullptr, SDDMM_DTYPE_FLOAT32, SDDMM_BACKEND_CPU, 0, 0, nullptr) == SDDMM_STATUS_SUCCESS);
  int64_t r = 0, c = 0, n = 0;
  CHECK(sddmm_get_shape(a, &r, &c, &n) == SDDMM_STATUS_SUCCESS);
  CHECK(r == 3);
  CHECK(c == 2);
  CHECK(n == 2);
  CHECK(sddmm_get_shape(a, nullptr, nullptr, nullptr) == SDDMM_STATUS_SUCCESS);
  CHECK(sddmm_get_shape(nullptr, &r, &c, &n) == SDDMM_STATUS_NULL_POINTER);
  CHECK(sddmm_destroy(a) == SDDMM_STATUS_SUCCESS);
}

TEST_CASE("api: the last-error message is per thread and names the argument") {
  sddmm_matrix_t a = nullptr;
  CHECK(sddmm_create_coo(&a, -1, 2, 0, nullptr, nullptr, SDDMM_INDEX_INT32, nullptr, SDDMM_DTYPE_FLOAT32, SDDMM_BACKEND_CPU, 0, 0, nullptr) == SDDMM_STATUS_INVALID_ARGUMENT);
  CHECK(std::string(sddmm_last_error()).find("rows = -1") != std::string::npos);
}

TEST_CASE("api: the issue's example message for an out-of-range column") {
  std::vector<int32_t> rows(13, 0), cols(13, 5);
  cols[12] = 70001;
  sddmm_matrix_t a = nullptr;
  CHECK(sddmm_create_coo(&a, 1, 70000, 13, rows.data(), cols.data(), SDDMM_INDEX_INT32, nullptr, SDDMM_DTYPE_FLOAT32, SDDMM_BACKEND_CPU, 0, 0, nullptr) == SDDMM_STATUS_INDEX_OUT_OF_RANGE);
  CHECK(std::string(sddmm_last_error()) == "col_idx[12] = 70001 is out of range [0, 70000)");
}

TEST_CASE("cpu: every rejected create input returns its status and message, outputs untouched") {
  sddmm::test::check_create_rejections(SDDMM_BACKEND_CPU);
}

TEST_CASE("cpu: every rejected execute input returns its status and message, outputs untouched") {
  sddmm::test::check_execute_rejections(SDDMM_BACKEND_CPU);
}

TEST_CASE("cpu: every combination of dtypes: the supported ones compute, the others are refused by name") {
  sddmm::test::check_dtype_combinations(SDDMM_BACKEND_CPU);
}

TEST_CASE("cpu: alignment and extents are counted in 2-byte elements for float16 and bfloat16") {
  sddmm::test::check_two_byte_element_checks(SDDMM_BACKEND_CPU);
}

TEST_CASE("api: a CUDA handle without a usable GPU reports NO_DEVICE, and the CPU still works") {
  const int32_t rows[] = {0};
  const int32_t cols[] = {0};
  sddmm_matrix_t a = nullptr;
  const sddmm_status_t s = sddmm_create_coo(&a, 1, 1, 1, rows, cols, SDDMM_INDEX_INT32, nullptr, SDDMM_DTYPE_FLOAT32,
                                            SDDMM_BACKEND_CUDA, 0, 0, nullptr);
  // With a GPU present, host arrays are in the wrong memory; without one, there is no device.
  CHECK((s == SDDMM_STATUS_NO_DEVICE || s == SDDMM_STATUS_INVALID_POINTER));
  CHECK(std::strlen(sddmm_last_error()) > 0);
  CHECK(a == nullptr);
  CHECK(sddmm_create_coo(&a, 1, 1, 1, rows, cols, SDDMM_INDEX_INT32, nullptr, SDDMM_DTYPE_FLOAT32, SDDMM_BACKEND_CPU, 0, 0, nullptr) == SDDMM_STATUS_SUCCESS);
  sddmm_destroy(a);
}
