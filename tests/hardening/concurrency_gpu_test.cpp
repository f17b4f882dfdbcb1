// Concurrency and determinism on the CUDA backend: 16 threads share one handle, each with its own
// stream and operands, 1000 executes each; every result bitwise equal to a single-threaded run.
#include <doctest/doctest.h>

#include "concurrency.hpp"

namespace sddmm::test {

TEST_SUITE("gpu") {
  TEST_CASE("gpu: 16 threads, own streams, one shared handle, 1000 executes each; bitwise equal to one thread") {
    check_shared_handle_threads(SDDMM_BACKEND_CUDA, 16, 1000);
  }
}

}  // namespace sddmm::test
