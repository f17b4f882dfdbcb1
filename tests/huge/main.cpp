// sddmm-huge-check: the sizes of issue 6 that only a large GPU holds, checked for correct results.
//   (a) nnz = 2^31 + 2^20 with int64 indices (nnz_beyond_int32.cpp): 129 GB of device memory
//   (b) dense offsets (row x K, column x K, row x N) past 2^31 and 2^32 elements in an int32 plan
//       (offsets_beyond_int32.cpp): 66 GB
// The big arrays are generated on the device; the host recomputes a few thousand sampled outputs
// from the same formulas (pattern.hpp) and compares them exactly. About a minute on an H200.
// Not a ctest test (its memory): scripts/gpu-check.sh runs it when SDDMM_HUGE=1.
//
// Usage: sddmm-huge-check [a] [b]   (no argument: both)
// Exit: 0 every part ran and matched; 1 a mismatch or a failure; 77 no GPU, or a part left out for
// want of device memory (a line "SKIPPED: ..." says which and why).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <exception>

#include "parts.hpp"

namespace {

struct Part {
  const char* name;
  sddmm::huge::Outcome (*run)();
};

constexpr Part kParts[] = {{"a", sddmm::huge::check_nnz_beyond_int32}, {"b", sddmm::huge::check_offsets_beyond_int32}};

bool chosen(const char* name, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return true;
  }
  return argc == 1;
}

}  // namespace

int main(int argc, char** argv) {
  using sddmm::huge::Outcome;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device visible: sddmm-huge-check did not run\n");
    return 77;
  }
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) {
    sddmm::huge::say("device 0: %s, %.1f GiB", prop.name, static_cast<double>(prop.totalGlobalMem) / (1u << 30));
  }
  int passed = 0, failed = 0, skipped = 0;
  for (const Part& part : kParts) {
    if (!chosen(part.name, argc, argv)) continue;
    try {
      const Outcome outcome = part.run();
      passed += outcome == Outcome::kPassed;
      failed += outcome == Outcome::kFailed;
      skipped += outcome == Outcome::kSkipped;
    } catch (const std::exception& e) {
      std::printf("FAILED: part (%s): %s\n", part.name, e.what());
      ++failed;
    }
  }
  sddmm::huge::say("sddmm-huge-check: %d part(s) passed, %d failed, %d skipped", passed, failed, skipped);
  if (failed > 0) return 1;
  return skipped > 0 ? 77 : 0;
}
