// Test runner. Without a mode flag it runs everything but the suites below; each flag runs one suite
// alone, in a process of its own (ctest runs each as its own test):
//   --gpu-only           "gpu": needs a CUDA device
//   --no-device-only     "no-device": ctest runs it with CUDA_VISIBLE_DEVICES=""
//   --sticky-error-only  "sticky-error": needs a CUDA device, and poisons its context for good
//   --two-devices-only   "two-devices": needs two CUDA devices
// A suite that needs more devices than are visible exits 77 (ctest: skipped), so a machine without
// them reports it as skipped, never as passed.
#include <cstdio>
#include <cstring>
#include <vector>

#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "memory.hpp"

namespace {

struct Mode {
  const char* flag;
  const char* suite;
  int devices;  // CUDA devices the suite needs
};

constexpr Mode kModes[] = {
    {"--gpu-only", "gpu", 1},
    {"--no-device-only", "no-device", 0},
    {"--sticky-error-only", "sticky-error", 1},
    {"--two-devices-only", "two-devices", 2},
};

}  // namespace

int main(int argc, char** argv) {
  const Mode* mode = nullptr;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    const Mode* found = nullptr;
    for (const Mode& m : kModes) {
      if (std::strcmp(argv[i], m.flag) == 0) found = &m;
    }
    if (found != nullptr) {
      mode = found;
    } else {
      args.push_back(argv[i]);
    }
  }
  doctest::Context context(static_cast<int>(args.size()), args.data());
  if (mode == nullptr) {
    context.addFilter("test-suite-exclude", "gpu,no-device,sticky-error,two-devices");
    return context.run();
  }
  const int visible = sddmm::test::cuda_device_count();
  if (visible < mode->devices) {
    std::printf("SKIPPED: the %s suite needs %d CUDA device(s), %d visible (or a build without CUDA): it did not run\n",
                mode->suite, mode->devices, visible);
    return 77;
  }
  context.addFilter("test-suite", mode->suite);
  return context.run();
}
