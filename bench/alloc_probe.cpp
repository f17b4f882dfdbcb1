// sddmm-alloc-probe: host time of taking a block of device memory for a creation and giving it
// back, three ways, at 4 / 32 / 128 / 512 MB: cudaMalloc + cudaFree (what plan creation did), a
// stream-ordered pool that keeps its memory (release threshold 1 GiB: what it does now for scratch
// up to a bound, src/cuda/creation_scratch.cuh), and one that hands it back at each synchronisation
// (threshold 0, as the device's default pool). Each round also writes 4 KB of the block and waits
// for the stream, as a creation would. Prints the median of 31 rounds in microseconds; the numbers
// in src/cuda/tuning.hpp (kCreationPoolMaxBytes) came from it.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

bool ok(cudaError_t status, const char* what) {
  if (status != cudaSuccess) std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
  return status == cudaSuccess;
}

double now_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

cudaMemPool_t make_pool(unsigned long long release_threshold) {
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool = nullptr;
  if (!ok(cudaMemPoolCreate(&pool, &props), "cudaMemPoolCreate") ||
      !ok(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &release_threshold), "cudaMemPoolSetAttribute")) {
    return nullptr;
  }
  return pool;
}

// One round: take `bytes`, write 4 KB of them on `stream`, give them back, wait. Host microseconds, or -1.
double round_plain(size_t bytes, cudaStream_t stream) {
  void* p = nullptr;
  const double t = now_us();
  if (!ok(cudaMalloc(&p, bytes), "cudaMalloc") || !ok(cudaMemsetAsync(p, 0, 4096, stream), "cudaMemsetAsync") ||
      !ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize") || !ok(cudaFree(p), "cudaFree")) {
    return -1;
  }
  return now_us() - t;
}

double round_pool(size_t bytes, cudaMemPool_t pool, cudaStream_t stream) {
  void* p = nullptr;
  const double t = now_us();
  if (!ok(cudaMallocFromPoolAsync(&p, bytes, pool, stream), "cudaMallocFromPoolAsync") ||
      !ok(cudaMemsetAsync(p, 0, 4096, stream), "cudaMemsetAsync") || !ok(cudaFreeAsync(p, stream), "cudaFreeAsync") ||
      !ok(cudaStreamSynchronize(stream), "cudaStreamSynchronize")) {
    return -1;
  }
  return now_us() - t;
}

}  // namespace

int main() {
  cudaStream_t stream = nullptr;
  if (!ok(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate")) return 1;
  const cudaMemPool_t keeps = make_pool(1ull << 30), hands_back = make_pool(0);
  if (keeps == nullptr || hands_back == nullptr) return 1;
  std::printf("%8s %22s %22s %26s\n", "MB", "cudaMalloc+cudaFree us", "pool that keeps us", "pool that hands back us");
  for (const size_t mb : {4, 32, 128, 512}) {
    const size_t bytes = mb << 20;
    std::vector<double> plain, kept, returned;
    for (int i = 0; i < 31; ++i) {
      plain.push_back(round_plain(bytes, stream));
      kept.push_back(round_pool(bytes, keeps, stream));
      returned.push_back(round_pool(bytes, hands_back, stream));
      if (plain.back() < 0 || kept.back() < 0 || returned.back() < 0) return 1;
    }
    std::printf("%8zu %22.1f %22.1f %26.1f\n", mb, median(plain), median(kept), median(returned));
  }
  return 0;
}
