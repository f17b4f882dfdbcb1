#include <algorithm>

#include "device.hpp"
#include "l2_probe.hpp"
#include "timing.hpp"

namespace sddmm::bench {
namespace {

constexpr int kThreads = 1024;
constexpr int kInFlight = 4;  // 16-byte loads issued before their sum, per thread
constexpr int kPasses = 32;   // over the buffer per run: 512 MB at 16 MiB, ~60 us at 8.6 TB/s
constexpr int kWarmup = 3;
constexpr int kReps = 20;
constexpr size_t kMaxBytes = size_t{16} << 20;

// Reads `pieces` 16-byte pieces kPasses times, grid-strided, kInFlight at a time; the xor of what it
// read is stored only if it equals a value it cannot (the pieces are zero), so that no load is
// dropped as dead.
__global__ void __launch_bounds__(kThreads) l2_read_kernel(const uint4* buffer, size_t pieces, unsigned* sink) {
  const size_t stride = static_cast<size_t>(gridDim.x) * kThreads;
  unsigned acc = 0;
  for (int pass = 0; pass < kPasses; ++pass) {
    for (size_t i = blockIdx.x * size_t{kThreads} + threadIdx.x; i < pieces; i += stride * kInFlight) {
      uint4 v[kInFlight];
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const size_t at = i + u * stride;
        v[u] = at < pieces ? __ldcg(buffer + at) : make_uint4(0, 0, 0, 0);
      }
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    }
  }
  if (acc == 0x9e3779b9u) *sink = acc;
}

}  // namespace

double measure_l2_read_gbs(int64_t l2_bytes, cudaStream_t stream) {
  const size_t bytes = std::min(kMaxBytes, static_cast<size_t>(std::max<int64_t>(l2_bytes, 16 * 4)) / 4) / 16 * 16;
  const size_t pieces = bytes / 16;
  DeviceBuffer buffer(bytes);
  DeviceBuffer sink(sizeof(unsigned));
  BENCH_CUDA(cudaMemsetAsync(buffer.get(), 0, bytes, stream));
  int device = 0, sms = 0, per_sm = 0;
  BENCH_CUDA(cudaGetDevice(&device));
  BENCH_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  BENCH_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, l2_read_kernel, kThreads, 0));
  const int blocks = sms * std::max(per_sm, 1);
  const Timing t = time_runs(stream, kWarmup, kReps, [&](int) {
    l2_read_kernel<<<blocks, kThreads, 0, stream>>>(static_cast<const uint4*>(buffer.get()), pieces,
                                                    static_cast<unsigned*>(sink.get()));
    BENCH_CUDA(cudaGetLastError());
  });
  return static_cast<double>(bytes) * kPasses / (t.median_ms * 1e6);
}

}  // namespace sddmm::bench
