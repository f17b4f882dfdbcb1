// The L2 probe's kernel (l2_probe.cu), also built by bench/experiments/l2-gather-probe.cu: whole
// rows of a buffer gathered at random, past L1, the access shape of SDDMM's X2 columns and SpMM's
// X rows on a matrix with no reuse.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "random.hpp"  // testkit: mix64, constexpr, so device code calls it (--expt-relaxed-constexpr)

namespace sddmm::bench {

constexpr int kGatherThreads = 1024;

// How a warp meets rows of kRowBytes: a row of kPieces 16-byte pieces takes that many lanes, up to
// a warp, so a step of the warp reads kRowsPerStep rows, kStepBytes in all (what the hosts count).
template <int kRowBytes>
struct GatherShape {
  static constexpr int kPieces = kRowBytes / 16;
  static constexpr int kLanesPerRow = kPieces < 32 ? kPieces : 32;
  static constexpr int kRowsPerStep = 32 / kLanesPerRow;
  static constexpr int64_t kStepBytes = int64_t{kRowsPerStep} * kRowBytes;
};

// Each warp reads, `steps` times, kRowBytes at a row of `rows` picked by testkit's mix64 of (warp,
// step), so that no index is loaded beside the rows; kInFlight steps' loads are issued before their
// sum. A row of P = kRowBytes / 16 pieces takes P lanes (32 / P rows a step) up to 32 pieces; beyond
// that each lane takes P / 32 pieces of one row. Loads are __ldcg (L2, not L1), so that the rate is
// the L2's; the xor of what was read is stored only if it equals a value it cannot (the buffer is
// zero), so that no load is dropped as dead.
template <int kRowBytes, int kInFlight>
__global__ void __launch_bounds__(kGatherThreads)
    l2_gather_kernel(const uint4* buffer, uint32_t rows, int steps, unsigned* sink) {
  using Shape = GatherShape<kRowBytes>;
  constexpr int kPieces = Shape::kPieces;
  constexpr int kLanesPerRow = Shape::kLanesPerRow;
  constexpr int kRowsPerStep = Shape::kRowsPerStep;
  constexpr int kPiecesPerLane = kPieces / kLanesPerRow;
  const int lane = threadIdx.x % 32;
  const uint32_t warp = (blockIdx.x * kGatherThreads + threadIdx.x) / 32;
  const int sub = lane / kLanesPerRow, piece = lane % kLanesPerRow;
  unsigned acc = 0;
  for (int s = 0; s < steps; s += kInFlight) {
    uint4 v[kInFlight][kPiecesPerLane];
#pragma unroll
    for (int u = 0; u < kInFlight; ++u) {
      const uint64_t key = (uint64_t{warp} * static_cast<uint64_t>(steps) + s + u) * kRowsPerStep + sub;
      const uint32_t row = __umulhi(static_cast<uint32_t>(testkit::mix64(key)), rows);
      const uint4* base = buffer + static_cast<size_t>(row) * kPieces + piece;
#pragma unroll
      for (int j = 0; j < kPiecesPerLane; ++j) v[u][j] = __ldcg(base + j * kLanesPerRow);
    }
#pragma unroll
    for (int u = 0; u < kInFlight; ++u)
#pragma unroll
      for (int j = 0; j < kPiecesPerLane; ++j) acc ^= v[u][j].x ^ v[u][j].y ^ v[u][j].z ^ v[u][j].w;
  }
  if (acc == 0x9e3779b9u) *sink = acc;
}

}  // namespace sddmm::bench
