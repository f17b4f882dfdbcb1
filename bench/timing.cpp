#include "timing.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "device.hpp"
#include "l2_probe.hpp"

namespace sddmm::bench {
namespace {

// Events created for one measurement and destroyed with it, also when a run throws.
class EventList {
 public:
  explicit EventList(int count) {
    events_.reserve(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i) {
      cudaEvent_t event = nullptr;
      BENCH_CUDA(cudaEventCreate(&event));
      events_.push_back(event);
    }
  }
  ~EventList() {
    for (cudaEvent_t event : events_) cudaEventDestroy(event);
  }
  EventList(const EventList&) = delete;
  EventList& operator=(const EventList&) = delete;
  cudaEvent_t operator[](int i) const { return events_[static_cast<size_t>(i)]; }

 private:
  std::vector<cudaEvent_t> events_;
};

// Copy bandwidth buffer: 1 GiB read + 1 GiB written is far past the L2 and long enough (~0.5 ms on
// an H200) that event resolution does not matter.
constexpr size_t kCopyBytes = size_t{1} << 30;
constexpr int kCopyWarmup = 3;
constexpr int kCopyReps = 20;
// A run that touches this many times the L2 leaves little of the previous run's data in it.
constexpr double kL2Multiple = 3.0;

}  // namespace

Timing time_runs(cudaStream_t stream, int warmup, int reps, const std::function<void(int)>& run) {
  for (int i = 0; i < warmup; ++i) run(i);
  EventList events(reps + 1);
  BENCH_CUDA(cudaEventRecord(events[0], stream));
  for (int i = 0; i < reps; ++i) {
    run(warmup + i);
    BENCH_CUDA(cudaEventRecord(events[i + 1], stream));
  }
  BENCH_CUDA(cudaEventSynchronize(events[reps]));
  std::vector<double> ms(static_cast<size_t>(reps));
  for (int i = 0; i < reps; ++i) {
    float elapsed = 0;
    BENCH_CUDA(cudaEventElapsedTime(&elapsed, events[i], events[i + 1]));
    ms[static_cast<size_t>(i)] = elapsed;
  }
  std::sort(ms.begin(), ms.end());
  Timing timing;
  timing.runs = reps;
  if (reps > 0) {
    const size_t mid = ms.size() / 2;
    timing.median_ms = ms.size() % 2 == 1 ? ms[mid] : 0.5 * (ms[mid - 1] + ms[mid]);
    timing.min_ms = ms.front();
    timing.max_ms = ms.back();
  }
  return timing;
}

DeviceInfo query_device(int device, cudaStream_t stream) {
  DeviceInfo info;
  info.device = device;
  cudaDeviceProp prop{};
  BENCH_CUDA(cudaGetDeviceProperties(&prop, device));
  info.name = prop.name;
  info.sm_count = prop.multiProcessorCount;
  info.compute_capability = prop.major * 10 + prop.minor;
  info.memory_bytes = static_cast<int64_t>(prop.totalGlobalMem);
  int l2 = 0;
  BENCH_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  info.l2_bytes = l2;

  const size_t bytes = std::min(kCopyBytes, free_device_memory() / 4);
  DeviceBuffer src(bytes);
  DeviceBuffer dst(bytes);
  BENCH_CUDA(cudaMemsetAsync(src.get(), 1, bytes, stream));
  const Timing copy = time_runs(stream, kCopyWarmup, kCopyReps, [&](int) {
    BENCH_CUDA(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, stream));
  });
  info.copy_gbs = 2.0 * static_cast<double>(bytes) / (copy.median_ms * 1e6);
  info.l2_read_gbs = measure_l2_read_gbs(info.l2_bytes, info.sm_count, stream);
  return info;
}

int rotation_sets(double footprint_bytes, int64_t l2_bytes) {
  const double target = kL2Multiple * static_cast<double>(l2_bytes);
  if (footprint_bytes >= target) return 1;
  if (footprint_bytes <= 0) return kMaxRotationSets;
  return static_cast<int>(std::min<double>(kMaxRotationSets, std::ceil(target / footprint_bytes)));
}

}  // namespace sddmm::bench
