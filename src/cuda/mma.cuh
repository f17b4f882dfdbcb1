// The warp-level tensor-core primitives the mma.sync kernels share (SDDMM's unit and square
// kernels, SpMM's unit kernel): mma.sync tiles, ldmatrix, and cp.async copies into shared memory.
// Compute capability 8.0 and up; plans list tensor-core units only on such devices, so the
// fallbacks for older targets trap.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

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

// The shared-memory address of p, as ldmatrix and cp.async take it.
__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// Four 8 x 8 matrices of 16-bit elements (8 rows of 16 bytes each) from shared memory. Lane l
// gives the address of row l % 8 of matrix l / 8 and receives, of matrix i, the 4 bytes at row
// l / 4, bytes 4 (l % 4) .. + 3, in r[i]: mma's fragment layout for A (16 x K row-major) and B (K
// x 8 column-major) alike.
__device__ __forceinline__ void load_matrices(uint32_t (&r)[4], unsigned address) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
#else
  __trap();
#endif
}

// 16 bytes from shared memory at a shared-memory address (shared_address): a plain ld.shared,
// where a generic pointer into dynamic shared memory made sm_90 code rebuild the window's base
// before each load.
__device__ __forceinline__ float4 load_shared_16(unsigned address) {
  float4 v;
  asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];\n" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "r"(address));
  return v;
}

// Copies 16 bytes from global to shared memory without holding them in registers (cp.async, in
// flight until wait_copies), or, where `copy` is false, zero-fills them (reading nothing at `global`,
// which must still be a global address).
__device__ __forceinline__ void copy_16_async(unsigned shared, const void* global, bool copy) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(shared), "l"(global), "r"(copy ? 16 : 0) : "memory");
#else
  __trap();
#endif
}

// Closes the group of copies this thread issued since the last one.
__device__ __forceinline__ void commit_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

// Waits until at most kPending of this thread's newest groups of copies are still in flight.
template <int kPending>
__device__ __forceinline__ void wait_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
#endif
}

// The same four matrices transposed: lane l receives, of matrix i, the two 16-bit elements of
// column l / 4 at rows 2 (l % 4) and 2 (l % 4) + 1. For B (K x 8, column-major, as mma takes it)
// from a K x N row-major tile in shared memory: matrix rows are K, columns N.
__device__ __forceinline__ void load_matrices_transposed(uint32_t (&r)[4], unsigned address) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
#else
  __trap();
#endif
}

}  // namespace sddmm::cuda
