// Test runner. `--gpu-only` runs the "gpu" test suite and exits 77 (ctest: skipped) when no CUDA
// device is visible, so a machine without a GPU reports the GPU tests as skipped, not as passed.
// `--no-device-only` runs the "no-device" suite, which ctest runs with CUDA_VISIBLE_DEVICES="".
// Without either, both suites are left out.
#include <cstdio>
#include <cstring>
#include <vector>

#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "memory.hpp"

int main(int argc, char** argv) {
  bool gpu_only = false;
  bool no_device_only = false;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--gpu-only") == 0) {
      gpu_only = true;
    } else if (std::strcmp(argv[i], "--no-device-only") == 0) {
      no_device_only = true;
    } else {
      args.push_back(argv[i]);
    }
  }
  doctest::Context context(static_cast<int>(args.size()), args.data());
  if (gpu_only) {
    if (!sddmm::test::cuda_device_available()) {
      std::printf("SKIPPED: no CUDA device visible (or a build without CUDA): the GPU test suite did not run\n");
      return 77;
    }
    context.addFilter("test-suite", "gpu");
  } else if (no_device_only) {
    context.addFilter("test-suite", "no-device");
  } else {
    context.addFilter("test-suite-exclude", "gpu,no-device");
  }
  return context.run();
}
