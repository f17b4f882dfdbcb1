// SDDMM on tensor cores for the dense 16 x 64 units of a plan (cuda/tiles.cuh). A block takes one
// work item: up to kWarps dense units of one 64-column chunk. It copies the chunk's 64 columns of X2
// into shared memory once (cp.async: every piece in flight at once); each warp loads its unit's 16
// rows of X1 as mma A fragments and computes the whole 16 x 64 block as 8 independent accumulator
// tiles (K / kMmaK mma.sync each, interleaved so that no mma waits on the one before), stages the
// float32 results in shared memory (its own rows; where the columns were once the block is past
// its products, where that lets more blocks run) and writes out only the unit's stored entries.
// With 16-bit features from K = 128 on, each lane's 16-byte loads of X1 and X2 hold its fragments of
// two mma steps, and the next step's X1 rows load while a step multiplies (SddmmTensorConfig::
// kTwoSteps). Units too sparse for this stay on the CUDA-core kernel. The arithmetic
// (TensorArithmetic, sddmm_config.cuh):
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

// Sixteen bytes at p (16-byte aligned), or zeros where p is nullptr (a row past the matrix).
__device__ __forceinline__ uint4 load_16(const void* p) {
  return p != nullptr ? *reinterpret_cast<const uint4*>(p) : make_uint4(0u, 0u, 0u, 0u);
}

// Copies 16 bytes from global to shared memory without holding them in registers (cp.async, in
// flight until wait_copies), or, where `copy` is false, zero-fills them (reading nothing at `global`,
// which must still be a global address).
__device__ __forceinline__ void copy_16_async(void* shared, const void* global, bool copy) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(address), "l"(global), "r"(copy ? 16 : 0) : "memory");
#else
  __trap();
#endif
}

__device__ __forceinline__ void wait_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

// Two mma steps of the warp's 16 x 64 unit with 16-bit features (SddmmTensorConfig::kTwoSteps):
// acc[t] += A(rows g, g + 8; kStepK = 32 elements of K) * B(tile t). Each lane loads 16 bytes of
// each row and column, elements [32 s + 8 q, + 8) of K, as 4 pairs p0..p3. The k of the two steps
// are permuted alike in A and B (a sum does not depend on the order of its terms): the first step
// takes p0 as mma's k (2q, 2q + 1) and p1 as (2q + 8, 2q + 9), the second p2 and p3. Half the
// loads of mma_step, each twice as wide. a0, a8: this lane's 16 bytes of X1 rows g and g + 8.
template <typename Config>
__device__ __forceinline__ void mma_two_steps(float (&acc)[Config::kTiles][4], const uint4& a0, const uint4& a8,
                                              const typename Config::Feature* columns, int s, int g, int q) {
  using F = typename Config::Feature;
  static_assert(Config::kTwoSteps, "16-bit features, two steps per load");
  const F* column = columns + g * Config::kPitch + s * Config::kStepK + q * Config::kPerVector;
  const uint32_t first[4] = {a0.x, a8.x, a0.y, a8.y};
  const uint32_t second[4] = {a0.z, a8.z, a0.w, a8.w};
#pragma unroll
  for (int t = 0; t < Config::kTiles; ++t) {
    const uint4 b = *reinterpret_cast<const uint4*>(column + t * 8 * Config::kPitch);  // column 8t + g
    mma_16x8x16<F>(acc[t], first, b.x, b.y);
    mma_16x8x16<F>(acc[t], second, b.z, b.w);
  }
}

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreadsPerBlock, Config::kMinBlocksPerSm) sddmm_tensor_kernel(const SddmmTensorArgs<typename Config::Types, I> a) {
  using F = typename Config::Feature;
  using O = typename Config::Types::Output;
  constexpr int kSteps = Config::kK / Config::kStepK;  // loop steps: one or two mma steps each
  constexpr int kTiles = Config::kTiles;
  constexpr int kPitch = Config::kPitch;
  constexpr int kResultPitch = Config::kResultPitch;
  constexpr int kPerVector = Config::kPerVector;
  constexpr int kVectorsPerColumn = Config::kK / kPerVector;
  extern __shared__ __align__(16) unsigned char shared[];
  F* columns = reinterpret_cast<F*>(shared);  // (64, kPitch): X2's chunk, column by column
  // This warp's (16, kResultPitch) results (with kResultsOverColumns, where the columns were).
  float* results = reinterpret_cast<float*>(shared + Config::kResultOffset) + (threadIdx.x / 32) * (kUnitRows * kResultPitch);

  const int lane = threadIdx.x & 31;
  const int g = lane >> 2;  // mma groupID: fragment row (A, C) or column (B)
  const int q = lane & 3;   // thread in group: fragment k (A, B) or column pair (C)
  const int64_t first_unit = a.item_units[blockIdx.x];
  const int64_t unit = first_unit + threadIdx.x / 32;
  const bool active = unit < a.item_units[blockIdx.x + 1];
  const int64_t chunk = a.unit_key[first_unit] / a.strips;

  // Every 16-byte piece of the chunk's columns in flight at once; columns past the matrix read as zeros.
#pragma unroll
  for (int v = threadIdx.x; v < kUnitCols * kVectorsPerColumn; v += Config::kThreadsPerBlock) {
    const int col = v / kVectorsPerColumn;
    const int piece = v % kVectorsPerColumn;
    const int64_t j = chunk * kUnitCols + col;
    const bool inside = j < a.cols;
    copy_16_async(columns + col * kPitch + piece * kPerVector, inside ? a.x2 + j * a.x2_ld + piece * kPerVector : a.x2, inside);
  }
  const int64_t row0 = active ? (a.unit_key[unit] % a.strips) * kUnitRows + g : a.rows;
  const int64_t row1 = row0 + 8;
  const F* x0 = row0 < a.rows ? a.x1 + row0 * a.x1_ld : nullptr;
  const F* x8 = row1 < a.rows ? a.x1 + row1 * a.x1_ld : nullptr;
  float acc[kTiles][4] = {};
  if constexpr (Config::kTwoSteps) {
    // The first step's 16 bytes of the rows load with the columns, each next step's while one multiplies.
    const auto rows_at = [&](const F* x, int s) { return load_16(x != nullptr ? x + s * Config::kStepK + q * kPerVector : nullptr); };
    uint4 a0 = rows_at(x0, 0), a8 = rows_at(x8, 0);
    wait_copies();
    __syncthreads();
    if (active) {
#pragma unroll
      for (int s = 0; s < kSteps; ++s) {
        const bool more = s + 1 < kSteps;
        const uint4 n0 = more ? rows_at(x0, s + 1) : uint4{}, n8 = more ? rows_at(x8, s + 1) : uint4{};
        mma_two_steps<Config>(acc, a0, a8, columns, s, g, q);
        a0 = n0;
        a8 = n8;
      }
    }
  } else {
    wait_copies();
    __syncthreads();
    if (active) {
#pragma unroll(Config::kUnrollSteps)
      for (int s = 0; s < kSteps; ++s) mma_step<Config>(acc, x0, x8, columns, s, g, q);
    }
  }
  if constexpr (Config::kResultsOverColumns) __syncthreads();  // every warp is done with the columns
  if (!active) return;

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
