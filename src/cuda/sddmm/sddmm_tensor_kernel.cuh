// SDDMM on tensor cores for the dense 16 x 64 units of a float16/bfloat16 plan (cuda/tiles.cuh).
// A block takes one work item: up to kWarps dense units of one 64-column chunk. It stages the
// chunk's 64 columns of X2 in shared memory once; each warp loads its unit's 16 rows of X1 as
// mma.m16n8k16 A fragments and computes the whole 16 x 64 block as 8 independent accumulator
// tiles (K / 16 mma.sync each, interleaved so that no mma waits on the one before), stages the
// float32 results in its own shared-memory rows and writes out only the unit's stored entries.
// Units too sparse for this stay on the CUDA-core kernel.
#pragma once

#include <cstdint>

#include "cuda/precision.cuh"
#include "cuda/sddmm/sddmm_config.cuh"
#include "cuda/tiles.cuh"

namespace sddmm::cuda {

// c += a * b for one m16n8k16 tile: a row-major 16 x 16, b column-major 16 x 8, float32 sums.
template <typename F>
__device__ __forceinline__ void mma_16x8x16(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (std::is_same_v<F, __half>) {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  } else {
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
  }
#else
  __trap();  // plans list tensor-core units only on devices of compute capability 8.0 and up
#endif
}

// Two consecutive half-precision elements as one 32-bit register (4-byte aligned).
template <typename F>
__device__ __forceinline__ uint32_t load_pair(const F* p) {
  return *reinterpret_cast<const uint32_t*>(p);
}

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreadsPerBlock) sddmm_tensor_kernel(const SddmmTensorArgs<typename Config::Types, I> a) {
  using F = typename Config::Feature;
  using O = typename Config::Types::Output;
  constexpr int kK = Config::kK;
  constexpr int kSteps = kK / 16;
  constexpr int kTiles = Config::kTiles;
  constexpr int kPitch = Config::kPitch;
  constexpr int kResultPitch = Config::kResultPitch;
  constexpr int kVectorsPerColumn = kK / 8;  // 16-byte pieces of one staged column
  extern __shared__ __align__(16) unsigned char shared[];
  F* columns = reinterpret_cast<F*>(shared);  // (64, kPitch): X2's chunk, column by column
  float* results = reinterpret_cast<float*>(shared + size_t{kUnitCols} * kPitch * sizeof(F)) +
                   (threadIdx.x / 32) * (kUnitRows * kResultPitch);  // this warp's (16, kResultPitch)

  const int lane = threadIdx.x & 31;
  const int g = lane >> 2;  // mma groupID: fragment row (A, C) or column (B)
  const int q = lane & 3;   // thread in group: fragment k pair (A, B) or column pair (C)
  const int64_t first_unit = a.item_units[blockIdx.x];
  const int64_t unit = first_unit + threadIdx.x / 32;
  const bool active = unit < a.item_units[blockIdx.x + 1];
  const int64_t chunk = a.unit_key[first_unit] / a.strips;

  for (int v = threadIdx.x; v < kUnitCols * kVectorsPerColumn; v += Config::kThreadsPerBlock) {
    const int col = v / kVectorsPerColumn;
    const int piece = v % kVectorsPerColumn;
    const int64_t j = chunk * kUnitCols + col;
    uint4 bits = make_uint4(0u, 0u, 0u, 0u);  // columns past the matrix read as zeros
    if (j < a.cols) bits = *reinterpret_cast<const uint4*>(a.x2 + j * a.x2_ld + piece * 8);
    *reinterpret_cast<uint4*>(columns + col * kPitch + piece * 8) = bits;
  }
  __syncthreads();
  if (!active) return;

  // A fragments: rows g and g + 8 of the strip, k pairs 2q and 2q + 8 of each 16-wide step.
  const int64_t row0 = (a.unit_key[unit] % a.strips) * kUnitRows + g;
  const int64_t row1 = row0 + 8;
  const F* x0 = a.x1 + (row0 < a.rows ? row0 : 0) * a.x1_ld + 2 * q;
  const F* x8 = a.x1 + (row1 < a.rows ? row1 : 0) * a.x1_ld + 2 * q;
  float acc[kTiles][4] = {};
#pragma unroll
  for (int s = 0; s < kSteps; ++s) {
    const uint32_t af[4] = {row0 < a.rows ? load_pair(x0 + s * 16) : 0u, row1 < a.rows ? load_pair(x8 + s * 16) : 0u,
                            row0 < a.rows ? load_pair(x0 + s * 16 + 8) : 0u, row1 < a.rows ? load_pair(x8 + s * 16 + 8) : 0u};
#pragma unroll
    for (int t = 0; t < kTiles; ++t) {
      const F* b = columns + (t * 8 + g) * kPitch + s * 16 + 2 * q;  // B fragment: column g of tile t
      mma_16x8x16<F>(acc[t], af, load_pair(b), load_pair(b + 8));
    }
  }

  // acc[t] holds (row g, cols 8t + 2q, + 1) and (row g + 8, the same columns).
#pragma unroll
  for (int t = 0; t < kTiles; ++t) {
    *reinterpret_cast<float2*>(results + g * kResultPitch + t * 8 + 2 * q) = make_float2(acc[t][0], acc[t][1]);
    *reinterpret_cast<float2*>(results + (g + 8) * kResultPitch + t * 8 + 2 * q) = make_float2(acc[t][2], acc[t][3]);
  }
  __syncwarp();
  const int64_t end = a.unit_entries[unit + 1];
  for (int64_t e = a.unit_entries[unit] + lane; e < end; e += 32) {
    const int local = a.local[e];
    const float dot = results[(local % kUnitRows) * kResultPitch + local / kUnitRows];
    const float scale = a.value != nullptr ? widen(a.value[e]) : 1.0f;
    a.out[static_cast<int64_t>(a.out_position[e])] = narrow<O>(scale * dot);
  }
}

}  // namespace sddmm::cuda
