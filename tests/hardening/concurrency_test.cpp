// Concurrency and determinism on the CPU backend: 16 threads share one handle (the library's own
// OpenMP teams run inside each call), every result bitwise equal to a single-threaded run. Run
// under ThreadSanitizer by scripts/test.sh.
#include "concurrency.hpp"

#include <doctest/doctest.h>

namespace sddmm::test {

// 16 x 150 executes take about 2 s here (2 cores) and about 40 s under ThreadSanitizer.
TEST_CASE("cpu: 16 threads share one handle; every result bitwise equal to a single-threaded run") {
  check_shared_handle_threads(SDDMM_BACKEND_CPU, 16, 1000);
}

}  // namespace sddmm::test
