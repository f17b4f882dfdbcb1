// SDDMM on tensor cores for the dense 16-row strips of a float16/bfloat16 plan (cuda/tiles.cuh).
// Each warp owns one strip and keeps its 16 x K slice of X1 in registers as mma.m16n8k16 A
// fragments. The block stages 64 columns of X2 at a time in shared memory, shared by its kWarps
// strips; for every 8-column tile of the chunk that holds entries of its strip, a warp runs K / 16
// mma.sync (16 x 8 results in float32) and writes out only the stored entries of that tile, taking
// each entry's value from the lane that holds it by shuffles. Empty tiles cost nothing but their
// share of the staged chunk; strips too sparse for this stay on the CUDA-core kernel.
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
  __trap();  // plans build tensor-core tiles only on devices of compute capability 8.0 and up
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
  constexpr int kSteps = Config::kK / 16;
  constexpr int kPitch = Config::kPitch;
  constexpr int kChunkCols = Config::kChunkCols;
  constexpr int kVectorsPerColumn = kK / 8;  // 16-byte pieces of one staged column
  __shared__ alignas(16) F chunk[kChunkCols * kPitch];

  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x & 31;
  const int g = lane >> 2;  // mma groupID: fragment row (A, C) or column (B)
  const int q = lane & 3;   // thread in group: fragment k pair (A, B) or column pair (C)
  const int64_t list_index = int64_t{blockIdx.x} * Config::kWarps + warp;
  const bool active = list_index < a.strip_count;

  // A fragments: rows g and g + 8 of the strip, k pairs 2q and 2q + 8 of each 16-wide step.
  uint32_t af[kSteps][4];
  {
    const int64_t row0 = active ? static_cast<int64_t>(a.strips[list_index]) * kStripRows + g : a.rows;
    const int64_t row1 = row0 + 8;
    const F* x0 = a.x1 + (row0 < a.rows ? row0 : 0) * a.x1_ld;
    const F* x8 = a.x1 + (row1 < a.rows ? row1 : 0) * a.x1_ld;
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
      const int k = s * 16 + 2 * q;
      af[s][0] = row0 < a.rows ? load_pair(x0 + k) : 0u;
      af[s][1] = row1 < a.rows ? load_pair(x8 + k) : 0u;
      af[s][2] = row0 < a.rows ? load_pair(x0 + k + 8) : 0u;
      af[s][3] = row1 < a.rows ? load_pair(x8 + k + 8) : 0u;
    }
  }

  const int64_t chunks = (a.cols + kChunkCols - 1) / kChunkCols;
  const int64_t chunk_begin = int64_t{blockIdx.y} * a.chunks_per_split;
  const int64_t chunk_end = chunk_begin + a.chunks_per_split < chunks ? chunk_begin + a.chunks_per_split : chunks;
  const int64_t* offsets = a.tile_offsets + (active ? list_index : 0) * a.tiles_per_strip;

  for (int64_t c = chunk_begin; c < chunk_end; ++c) {
    __syncthreads();  // every warp is done reading the previous chunk
    for (int v = threadIdx.x; v < kChunkCols * kVectorsPerColumn; v += Config::kThreadsPerBlock) {
      const int col = v / kVectorsPerColumn;
      const int piece = v % kVectorsPerColumn;
      const int64_t j = c * kChunkCols + col;
      uint4 bits = make_uint4(0u, 0u, 0u, 0u);  // columns past the matrix read as zeros
      if (j < a.cols) bits = *reinterpret_cast<const uint4*>(a.x2 + j * a.x2_ld + piece * 8);
      *reinterpret_cast<uint4*>(chunk + col * kPitch + piece * 8) = bits;
    }
    __syncthreads();
    if (!active) continue;

#pragma unroll 1
    for (int t = 0; t < kChunkCols / kTileCols; ++t) {
      const int64_t tile = c * (kChunkCols / kTileCols) + t;
      if (tile >= a.tiles_per_strip) break;
      const int64_t begin = offsets[tile];
      const int64_t end = offsets[tile + 1];
      if (begin == end) continue;  // warp-uniform: no entry of this strip in these 8 columns

      float acc[4] = {0.f, 0.f, 0.f, 0.f};
      const F* column = chunk + (t * kTileCols + g) * kPitch + 2 * q;  // B fragment: column g, k pair 2q
#pragma unroll
      for (int s = 0; s < kSteps; ++s) mma_16x8x16<F>(acc, af[s], load_pair(column + s * 16), load_pair(column + s * 16 + 8));

      // acc holds (row g, cols 2q, 2q+1) and (row g + 8, cols 2q, 2q+1); entry (r, c) is at lane
      // (r % 8) * 4 + c / 2, register (r / 8) * 2 + c % 2.
      for (int64_t base = begin; base < end; base += 32) {
        const int64_t e = base + lane;
        const bool valid = e < end;
        const int local = valid ? a.local[e] : 0;
        const int r = local / kTileCols;
        const int col = local % kTileCols;
        const int from = (r % 8) * 4 + col / 2;
        const float v0 = __shfl_sync(0xffffffffu, acc[0], from);
        const float v1 = __shfl_sync(0xffffffffu, acc[1], from);
        const float v2 = __shfl_sync(0xffffffffu, acc[2], from);
        const float v3 = __shfl_sync(0xffffffffu, acc[3], from);
        if (valid) {
          const float dot = r < 8 ? (col % 2 == 0 ? v0 : v1) : (col % 2 == 0 ? v2 : v3);
          const float scale = a.value != nullptr ? widen(a.value[e]) : 1.0f;
          a.out[static_cast<int64_t>(a.out_position[e])] = narrow<O>(scale * dot);
        }
      }
    }
  }
}

}  // namespace sddmm::cuda
