// Timing on the GPU: CUDA events around each run, median of many; the device's copy bandwidth; and
// how many buffer sets to rotate through so that a small problem is not timed out of a warm L2.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <string>

namespace sddmm::bench {

struct Timing {
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  int runs = 0;
};

// Enqueues `warmup` untimed runs, then `reps` runs with an event recorded before the first and after
// each, all on `stream`, and waits for them. run(i) enqueues run i; i counts warm-up and timed runs
// alike (0, 1, 2, ...), so a caller rotates buffer sets with i % sets. Events between back-to-back
// launches time what the GPU spends per run, launch gaps included when the GPU outpaces the host.
Timing time_runs(cudaStream_t stream, int warmup, int reps, const std::function<void(int)>& run);

struct DeviceInfo {
  int device = 0;
  std::string name;
  int sm_count = 0;
  int compute_capability = 0;  // major * 10 + minor
  int64_t l2_bytes = 0;
  int64_t memory_bytes = 0;
  double copy_gbs = 0;     // device-to-device copy, bytes read + written per second, / 1e9
  double l2_read_gbs = 0;  // reads the L2 delivers to the multiprocessors, bytes per second / 1e9 (l2_probe.hpp)
};

// Queries the device and measures the bandwidth of a device-to-device cudaMemcpy of up to 1 GiB
// and the L2's read rate (l2_probe.hpp).
DeviceInfo query_device(int device, cudaStream_t stream);

// Buffer sets to rotate through so that one run's data is out of L2 when its set comes round again:
// 1 when a run touches 3x the L2 or more, else enough sets to touch 3x the L2 in all, at most
// kMaxRotationSets (then the note says the cache may still help).
constexpr int kMaxRotationSets = 512;
int rotation_sets(double footprint_bytes, int64_t l2_bytes);

}  // namespace sddmm::bench
