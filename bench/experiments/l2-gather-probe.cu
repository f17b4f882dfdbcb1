// What the L2 delivers to kernels shaped like ours: a stand-alone probe, not built by CMake.
//
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Itestkit bench/experiments/l2-gather-probe.cu \
//     -o l2-gather-probe && ./l2-gather-probe
//
// Two access shapes, each over buffers from a sixteenth of the L2 to just over half of it, each the
// median of 15 runs (CUDA events) after 3 warm-ups:
// - stream: every thread reads 16-byte pieces grid-strided, 4 / 8 / 16 in flight (sddmm-bench's
//   first L2 probe was the 4-in-flight form at a quarter of the L2);
// - gather: every warp reads whole rows of 128 / 512 / 1024 bytes at uniformly random rows of the
//   buffer (rows from a hash of the warp's step, so no index is loaded), 4 / 8 steps in flight:
//   what SDDMM's X2 rows and SpMM's X rows are at K = N = 32 / 128 / 256 on a matrix without reuse.
// Loads are __ldcg (L2, not L1): rows the L1 would have kept are not counted as the L2's. ptxas
// folds each piece in as soon as it can (sm_90 SASS of the 8-in-flight stream: 4 loads, then 3
// folds, then 4 more), so "in flight" is what the source asks; at 2048 threads a multiprocessor
// even 4 x 16 bytes a thread is 128 KB in flight, several times what Little's law wants for 9 TB/s.
// Prints one line per configuration: shape, row bytes, in flight, buffer MiB, GB/s. Measured on an
// H200 (2026-12-02, e62; bench/RESULTS.md has the numbers): the gathers read more than the stream
// at every size, 9.4-9.6 TB/s at a sixteenth of the L2, so sddmm-bench's probe is now their kernel
// (bench/l2_gather.cuh), the best of four shapes (bench/l2_probe.hpp).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "../l2_gather.cuh"  // the gather kernel, sddmm-bench's L2 probe

#define PROBE_CUDA(x)                                                                 \
  do {                                                                                \
    cudaError_t e_ = (x);                                                             \
    if (e_ != cudaSuccess) {                                                          \
      std::fprintf(stderr, "%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      return 1;                                                                       \
    }                                                                                 \
  } while (0)

using sddmm::bench::GatherShape;
using sddmm::bench::l2_gather_kernel;
constexpr int kThreads = sddmm::bench::kGatherThreads;

template <int kInFlight>
__global__ void __launch_bounds__(kThreads) stream_kernel(const uint4* buf, size_t pieces, int passes, unsigned* sink) {
  const size_t stride = static_cast<size_t>(gridDim.x) * kThreads;
  unsigned acc = 0;
  for (int pass = 0; pass < passes; ++pass) {
    for (size_t i = blockIdx.x * size_t{kThreads} + threadIdx.x; i < pieces; i += stride * kInFlight) {
      uint4 v[kInFlight];
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const size_t at = i + u * stride;
        v[u] = at < pieces ? __ldcg(buf + at) : make_uint4(0, 0, 0, 0);
      }
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    }
  }
  if (acc == 0x9e3779b9u) *sink = acc;
}

template <typename Launch>
float median_ms(Launch launch) {
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (int i = 0; i < 3; ++i) launch();
  std::vector<float> ms;
  for (int i = 0; i < 15; ++i) {
    cudaEventRecord(a);
    launch();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float t = 0;
    cudaEventElapsedTime(&t, a, b);
    ms.push_back(t);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

template <typename Kernel>
int blocks_for(Kernel kernel, int sms) {
  int per_sm = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0);
  return sms * std::max(per_sm, 1);
}

template <int kInFlight>
void run_stream(const uint4* buf, size_t bytes, int sms, unsigned* sink) {
  const size_t pieces = bytes / 16;
  const int passes = static_cast<int>(std::max<size_t>(4, (size_t{1} << 30) / bytes));  // ~1 GB a run
  const int blocks = blocks_for(stream_kernel<kInFlight>, sms);
  const float ms = median_ms([&] { stream_kernel<kInFlight><<<blocks, kThreads>>>(buf, pieces, passes, sink); });
  std::printf("stream  %5d B  %2d in flight  %6.1f MiB  %8.0f GB/s\n", 16, kInFlight, bytes / 1048576.0,
              static_cast<double>(bytes) * passes / (ms * 1e6));
}

template <int kRowBytes, int kInFlight>
void run_gather(const uint4* buf, size_t bytes, int sms, unsigned* sink) {
  const uint32_t rows = static_cast<uint32_t>(bytes / kRowBytes);
  const int blocks = blocks_for(l2_gather_kernel<kRowBytes, kInFlight>, sms);
  const size_t warps = static_cast<size_t>(blocks) * kThreads / 32;
  const size_t bytes_per_step = static_cast<size_t>(GatherShape<kRowBytes>::kStepBytes);
  int steps = static_cast<int>((size_t{1} << 30) / (warps * bytes_per_step));
  steps = std::max(kInFlight, steps / kInFlight * kInFlight);
  const float ms =
      median_ms([&] { l2_gather_kernel<kRowBytes, kInFlight><<<blocks, kThreads>>>(buf, rows, steps, sink); });
  std::printf("gather  %5d B  %2d in flight  %6.1f MiB  %8.0f GB/s\n", kRowBytes, kInFlight, bytes / 1048576.0,
              static_cast<double>(warps) * steps * bytes_per_step / (ms * 1e6));
}

int main() {
  int device = 0, sms = 0, l2 = 0;
  PROBE_CUDA(cudaGetDevice(&device));
  PROBE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  PROBE_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  cudaDeviceProp prop{};
  PROBE_CUDA(cudaGetDeviceProperties(&prop, device));
  std::printf("%s: %d SMs, L2 %d MiB\n", prop.name, sms, l2 >> 20);
  const size_t largest = static_cast<size_t>(l2) * 5 / 8 / 4096 * 4096;
  void* raw = nullptr;
  unsigned* sink = nullptr;
  PROBE_CUDA(cudaMalloc(&raw, largest));
  PROBE_CUDA(cudaMalloc(&sink, sizeof(unsigned)));
  PROBE_CUDA(cudaMemset(raw, 0, largest));
  const uint4* buf = static_cast<const uint4*>(raw);
  for (const size_t bytes :
       {size_t(l2) / 16 / 4096 * 4096, size_t(l2) / 4 / 4096 * 4096, size_t(l2) / 2 / 4096 * 4096, largest}) {
    run_stream<4>(buf, bytes, sms, sink);
    run_stream<8>(buf, bytes, sms, sink);
    run_stream<16>(buf, bytes, sms, sink);
    run_gather<128, 4>(buf, bytes, sms, sink);
    run_gather<128, 8>(buf, bytes, sms, sink);
    run_gather<512, 4>(buf, bytes, sms, sink);
    run_gather<512, 8>(buf, bytes, sms, sink);
    run_gather<1024, 4>(buf, bytes, sms, sink);
    run_gather<1024, 8>(buf, bytes, sms, sink);
  }
  PROBE_CUDA(cudaGetLastError());
  PROBE_CUDA(cudaDeviceSynchronize());
  cudaFree(raw);
  cudaFree(sink);
  return 0;
}
