// Faults on the CPU backend: host memory that cannot be had at creation.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "differential.hpp"
#include "sddmm.h"

// AddressSanitizer and ThreadSanitizer report a failing operator new as a fatal error instead of
// throwing bad_alloc (even with allocator_may_return_null=1), so the out-of-memory path can only run
// without them: doctest reports the case as skipped there.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SDDMM_TESTS_SANITIZER_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SDDMM_TESTS_SANITIZER_ALLOCATOR 1
#endif
#endif
#ifndef SDDMM_TESTS_SANITIZER_ALLOCATOR
#define SDDMM_TESTS_SANITIZER_ALLOCATOR 0
#endif

namespace sddmm::test {

TEST_CASE("cpu: host out of memory at creation gives OUT_OF_MEMORY, the handle untouched, the next call works" *
          doctest::skip(SDDMM_TESTS_SANITIZER_ALLOCATOR != 0)) {
  // rows = 2^59 fits int64 byte counts (so it is not SIZE_OVERFLOW) but its 2^62 bytes of row offsets
  // exceed any address space, whatever the overcommit policy; the input arrays hold 3 entries.
  const int64_t rows = int64_t{1} << 59;
  const std::vector<int64_t> row_idx{0, rows - 1, 12345}, col_idx{0, 1, 2};
  auto* const untouched = reinterpret_cast<sddmm_matrix_t>(uintptr_t{0x5eed});
  sddmm_matrix_t h = untouched;
  CHECK(sddmm_create_coo(&h, rows, 3, 3, row_idx.data(), col_idx.data(), SDDMM_INDEX_INT64, nullptr,
                         SDDMM_DTYPE_FLOAT32, SDDMM_BACKEND_CPU, 0, 0, nullptr) == SDDMM_STATUS_OUT_OF_MEMORY);
  const std::string message = sddmm_last_error();
  CHECK_MESSAGE(message.find("memory") != std::string::npos, "message: '", message, "'");
  CHECK(h == untouched);
  check_sddmm(SDDMM_BACKEND_CPU, SddmmCase{"after OUT_OF_MEMORY", random_coo(40, 30, 200, 8200), 16});
}

}  // namespace sddmm::test
