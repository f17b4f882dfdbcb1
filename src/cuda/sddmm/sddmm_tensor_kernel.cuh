// SDDMM on tensor cores for the dense 16 x 64 units of a plan (cuda/tiles.cuh). A block takes one
// work item: up to kWarps dense units of one 64-column chunk. It stages the chunk's 64 columns of X2
// in shared memory once; each warp loads its unit's 16 rows of X1 as mma A fragments and computes
// the whole 16 x 64 block as 8 independent accumulator tiles (K / kMmaK mma.sync each, interleaved
// so that no mma waits on the one before), stages the float32 results in its own shared-memory rows
// and writes out only the unit's stored entries. Units too sparse for this stay on the CUDA-core
// kernel. The arithmetic (TensorArithmetic, sddmm_config.cuh):
//  - kHalf: float16/bfloat16 features, mma.m16n8k16, float32 sums;
//  - kTf32: float32 features rounded to TF32 (10-bit significand), mma.m16n8k8; opt-in only;
//  - kTf32Split: float32 features as big + small TF32 parts, three mma per step (big x big, big x
//    small, small x big): each product carries about 2^-21 relative error, below float32's own
//    summation error for K >= 8, at 3x the tensor-core work of kTf32.
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

// c += a * b for one m16n8k8 TF32 tile: a row-major 16 x 8, b column-major 8 x 8, float32 sums.
__device__ __forceinline__ void mma_16x8x8_tf32(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#else
  __trap();
#endif
}

// float32 to TF32, rounded to nearest (ties away from zero), as the 32-bit pattern mma reads.
__device__ __forceinline__ uint32_t to_tf32(float x) {
  uint32_t r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
#else
  __trap();
#endif
  return r;
}

// x = big + small (+ a remainder below 2^-22 |x|), both TF32.
struct Tf32Parts {
  uint32_t big;
  uint32_t small;
};
__device__ __forceinline__ Tf32Parts split_tf32(float x) {
  const uint32_t big = to_tf32(x);
  return {big, to_tf32(x - __uint_as_float(big))};
}

// Two consecutive elements as 32-bit registers (4- or 8-byte aligned).
template <typename F>
__device__ __forceinline__ uint32_t load_pair(const F* p) {
  return *reinterpret_cast<const uint32_t*>(p);
}

// One K step of the warp's 16 x 64 unit: acc[t] += A(rows g, g + 8; this step's k) * B(tile t).
// x0, x8: X1 rows g and g + 8 of the strip (nullptr: past the matrix, zeros); columns: the staged
// chunk, column-major with kPitch elements per column.
//  - half: k pairs (2q, 2q + 1) and (2q + 8, 2q + 9) of the 16-wide step, as mma.m16n8k16 lays out.
//  - TF32: the 8-wide step's k are permuted alike in A and B (a sum does not depend on the order of
//    its terms): mma's k = q and q + 4 read elements 2q and 2q + 1, one 8-byte load each.
template <typename Config>
__device__ __forceinline__ void mma_step(float (&acc)[Config::kTiles][4], const typename Config::Feature* x0,
                                         const typename Config::Feature* x8, const typename Config::Feature* columns,
                                         int s, int g, int q) {
  using F = typename Config::Feature;
  constexpr int kPitch = Config::kPitch;
  if constexpr (Config::kArithmetic == TensorArithmetic::kHalf) {
    const int k = s * 16 + 2 * q;
    const uint32_t af[4] = {x0 != nullptr ? load_pair(x0 + k) : 0u, x8 != nullptr ? load_pair(x8 + k) : 0u,
                            x0 != nullptr ? load_pair(x0 + k + 8) : 0u, x8 != nullptr ? load_pair(x8 + k + 8) : 0u};
#pragma unroll
    for (int t = 0; t < Config::kTiles; ++t) {
      const F* b = columns + (t * 8 + g) * kPitch + k;  // B fragment: column g of tile t
      mma_16x8x16<F>(acc[t], af, load_pair(b), load_pair(b + 8));
    }
  } else {
    const int k = s * 8 + 2 * q;
    const float2 r0 = x0 != nullptr ? *reinterpret_cast<const float2*>(x0 + k) : make_float2(0.f, 0.f);
    const float2 r8 = x8 != nullptr ? *reinterpret_cast<const float2*>(x8 + k) : make_float2(0.f, 0.f);
    if constexpr (Config::kArithmetic == TensorArithmetic::kTf32) {
      const uint32_t af[4] = {to_tf32(r0.x), to_tf32(r8.x), to_tf32(r0.y), to_tf32(r8.y)};
#pragma unroll
      for (int t = 0; t < Config::kTiles; ++t) {
        const float2 b = *reinterpret_cast<const float2*>(columns + (t * 8 + g) * kPitch + k);
        mma_16x8x8_tf32(acc[t], af, to_tf32(b.x), to_tf32(b.y));
      }
    } else {
      const Tf32Parts a0 = split_tf32(r0.x), a1 = split_tf32(r8.x), a2 = split_tf32(r0.y), a3 = split_tf32(r8.y);
      const uint32_t big[4] = {a0.big, a1.big, a2.big, a3.big};
      const uint32_t small[4] = {a0.small, a1.small, a2.small, a3.small};
#pragma unroll
      for (int t = 0; t < Config::kTiles; ++t) {
        const float2 b = *reinterpret_cast<const float2*>(columns + (t * 8 + g) * kPitch + k);
        const Tf32Parts b0 = split_tf32(b.x), b1 = split_tf32(b.y);
        mma_16x8x8_tf32(acc[t], small, b0.big, b1.big);  // the small products first, the big one last
        mma_16x8x8_tf32(acc[t], big, b0.small, b1.small);
        mma_16x8x8_tf32(acc[t], big, b0.big, b1.big);
      }
    }
  }
}

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreadsPerBlock) sddmm_tensor_kernel(const SddmmTensorArgs<typename Config::Types, I> a) {
  using F = typename Config::Feature;
  using O = typename Config::Types::Output;
  constexpr int kK = Config::kK;
  constexpr int kSteps = kK / Config::kMmaK;
  constexpr int kTiles = Config::kTiles;
  constexpr int kPitch = Config::kPitch;
  constexpr int kResultPitch = Config::kResultPitch;
  constexpr int kPerVector = 16 / static_cast<int>(sizeof(F));  // elements per 16-byte piece
  constexpr int kVectorsPerColumn = kK / kPerVector;
  extern __shared__ __align__(16) unsigned char shared[];
  F* columns = reinterpret_cast<F*>(shared);  // (64, kPitch): X2's chunk, column by column
  float* results = reinterpret_cast<float*>(shared + size_t{kUnitCols} * kPitch * sizeof(F)) +
                   (threadIdx.x / 32) * (kUnitRows * kResultPitch);  // this warp's (16, kResultPitch)

  const int lane = threadIdx.x & 31;
  const int g = lane >> 2;  // mma groupID: fragment row (A, C) or column (B)
  const int q = lane & 3;   // thread in group: fragment k (A, B) or column pair (C)
  const int64_t first_unit = a.item_units[blockIdx.x];
  const int64_t unit = first_unit + threadIdx.x / 32;
  const bool active = unit < a.item_units[blockIdx.x + 1];
  const int64_t chunk = a.unit_key[first_unit] / a.strips;

  for (int v = threadIdx.x; v < kUnitCols * kVectorsPerColumn; v += Config::kThreadsPerBlock) {
    const int col = v / kVectorsPerColumn;
    const int piece = v % kVectorsPerColumn;
    const int64_t j = chunk * kUnitCols + col;
    uint4 bits = make_uint4(0u, 0u, 0u, 0u);  // columns past the matrix read as zeros
    if (j < a.cols) bits = *reinterpret_cast<const uint4*>(a.x2 + j * a.x2_ld + piece * kPerVector);
    *reinterpret_cast<uint4*>(columns + col * kPitch + piece * kPerVector) = bits;
  }
  __syncthreads();
  if (!active) return;

  const int64_t row0 = (a.unit_key[unit] % a.strips) * kUnitRows + g;
  const int64_t row1 = row0 + 8;
  const F* x0 = row0 < a.rows ? a.x1 + row0 * a.x1_ld : nullptr;
  const F* x8 = row1 < a.rows ? a.x1 + row1 * a.x1_ld : nullptr;
  float acc[kTiles][4] = {};
#pragma unroll(Config::kUnrollSteps)
  for (int s = 0; s < kSteps; ++s) mma_step<Config>(acc, x0, x8, columns, s, g, q);

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
