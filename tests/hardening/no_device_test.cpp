// No GPU visible: ctest runs this suite as sddmm_tests_no_device with CUDA_VISIBLE_DEVICES="" (on
// a GPU machine too), so a CUDA build meets the runtime's "no device" answer, a CPU-only build its
// own stub. Either way creating a CUDA handle must say NO_DEVICE and the CPU backend must work.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "differential.hpp"
#include "sddmm.h"

namespace sddmm::test {

TEST_SUITE("no-device") {
  TEST_CASE("no-device: creating a CUDA handle returns NO_DEVICE; the library loads and the CPU backend works") {
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    REQUIRE_MESSAGE((visible != nullptr && *visible == '\0'),
                    "run with CUDA_VISIBLE_DEVICES set and empty (ctest: sddmm_tests_no_device)");
    CHECK(sddmm_version() == SDDMM_VERSION_NUMBER);

    const std::vector<int32_t> rows{0, 1, 1}, cols{1, 0, 2}, offsets{0, 1, 3};
    auto* const untouched = reinterpret_cast<sddmm_matrix_t>(uintptr_t{0x5eed});
    sddmm_matrix_t h = untouched;
    CHECK(sddmm_create_coo(&h, 2, 3, 3, rows.data(), cols.data(), SDDMM_INDEX_INT32, nullptr, SDDMM_DTYPE_FLOAT32,
                           SDDMM_BACKEND_CUDA, 0, 0, nullptr) == SDDMM_STATUS_NO_DEVICE);
    const std::string message = sddmm_last_error();
    CHECK_MESSAGE(message.find("CUDA") != std::string::npos, "message: '", message, "'");
    CHECK(h == untouched);
    CHECK(sddmm_create_csr(&h, 2, 3, 3, offsets.data(), cols.data(), SDDMM_INDEX_INT32, nullptr, SDDMM_DTYPE_FLOAT64,
                           SDDMM_BACKEND_CUDA, 0, 0, nullptr) == SDDMM_STATUS_NO_DEVICE);
    CHECK(h == untouched);

    check_sddmm(SDDMM_BACKEND_CPU, SddmmCase{"CPU after NO_DEVICE", random_coo(40, 30, 200, 8100), 16});
    check_spmm(SDDMM_BACKEND_CPU, SpmmCase{"CPU after NO_DEVICE", random_coo(40, 30, 200, 8101), 8, true});
  }
}

}  // namespace sddmm::test
