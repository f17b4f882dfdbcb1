#include <algorithm>

#include "device.hpp"
#include "l2_gather.cuh"
#include "l2_probe.hpp"
#include "timing.hpp"

namespace sddmm::bench {
namespace {

constexpr int kInFlight = 8;            // steps' loads a warp issues before their sum (4 read the same: e62)
constexpr int64_t kRunBytes = 1 << 30;  // read per run: ~110 us at 9.5 TB/s
constexpr int kWarmup = 3;
constexpr int kReps = 20;

// GB/s of one shape: every resident warp gathering kRowBytes rows of the first `bytes` of `buffer`.
template <int kRowBytes>
double gather_gbs(const uint4* buffer, int64_t bytes, unsigned* sink, int sms, cudaStream_t stream) {
  constexpr auto kKernel = l2_gather_kernel<kRowBytes, kInFlight>;
  int per_sm = 0;
  BENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kKernel, kGatherThreads, 0));
  const int blocks = sms * std::max(per_sm, 1);
  const int64_t warps = int64_t{blocks} * kGatherThreads / 32;
  const int64_t step_bytes = GatherShape<kRowBytes>::kStepBytes;
  const int steps = static_cast<int>(std::max<int64_t>(1, kRunBytes / (warps * step_bytes * kInFlight)) * kInFlight);
  const auto rows = static_cast<uint32_t>(bytes / kRowBytes);
  const Timing t = time_runs(stream, kWarmup, kReps, [&](int) {
    kKernel<<<blocks, kGatherThreads, 0, stream>>>(buffer, rows, steps, sink);
    BENCH_CUDA(cudaGetLastError());
  });
  return static_cast<double>(warps) * steps * step_bytes / (t.median_ms * 1e6);
}

}  // namespace

double measure_l2_read_gbs(int64_t l2_bytes, int sm_count, cudaStream_t stream) {
  const int64_t largest = std::max<int64_t>(l2_bytes / 4, 1 << 20) / 4096 * 4096;
  DeviceBuffer buffer(static_cast<size_t>(largest));
  DeviceBuffer sink(sizeof(unsigned));
  BENCH_CUDA(cudaMemsetAsync(buffer.get(), 0, static_cast<size_t>(largest), stream));
  const auto* rows = static_cast<const uint4*>(buffer.get());
  auto* out = static_cast<unsigned*>(sink.get());
  double best = 0;
  for (const int64_t bytes : {std::max<int64_t>(largest / 4 / 4096 * 4096, 4096), largest}) {
    best = std::max(best, gather_gbs<128>(rows, bytes, out, sm_count, stream));
    best = std::max(best, gather_gbs<1024>(rows, bytes, out, sm_count, stream));
  }
  return best;
}

}  // namespace sddmm::bench
