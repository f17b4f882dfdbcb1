// Hopper's warpgroup matrix instructions (wgmma, sm_90a only) as the square and walk kernels use
// them: the shared-memory matrix descriptor of a K-major operand laid out with the 128-byte
// swizzle, the m64n128k16 (both operands in shared memory) and m64n64k16 (A from registers)
// products with float32 sums, the fences around them, and setmaxnreg. Compiled only into the Hopper
// translation unit (sddmm_hopper.cu, built for compute_90a); elsewhere each body traps, and the
// plan never picks a kernel that would reach it (DevicePattern::wgmma_squares).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

namespace sddmm::cuda {

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define SDDMM_WGMMA_DEVICE 1
#else
#define SDDMM_WGMMA_DEVICE 0
#endif

// Bytes of one swizzled line (a row of X1 or a column of X2, 64 16-bit elements of K) and of one
// swizzle atom (8 lines), which must start 1024-byte aligned in shared memory.
constexpr int kSwizzleLineBytes = 128;
constexpr int kSwizzleAtomBytes = 8 * kSwizzleLineBytes;

// Where 16-byte piece `piece` (0-7) of line `line` of a swizzled operand lies, in bytes from its
// start: the 128-byte swizzle XORs the piece with the line's place in its atom, so that the 8 lines
// an instruction reads at once spread over all banks.
__host__ __device__ constexpr int swizzled_offset(int line, int piece) {
  return line * kSwizzleLineBytes + ((piece ^ (line & 7)) << 4);
}

// The descriptor of a K-major operand at shared address `address` (bits 0-13: address / 16),
// swizzled by 128 bytes (bits 62-63: 1), its atoms kSwizzleAtomBytes apart (bits 32-45: stride /
// 16). The leading byte offset (bits 16-29) is unused by swizzled K-major layouts; 1 as is usual.
// A step of 16 elements along K within a line adds 32 bytes to the address: the hardware applies
// the swizzle to the address it forms, which is why the atoms must be 1024-byte aligned.
__device__ __forceinline__ uint64_t wgmma_descriptor(unsigned address) {
  return (uint64_t{(address & 0x3FFFFu) >> 4}) | (uint64_t{1} << 16) |
         (uint64_t{kSwizzleAtomBytes >> 4} << 32) | (uint64_t{1} << 62);
}

// Orders this thread's earlier generic-proxy writes to shared memory (cp.async included) before
// the async proxy's reads (wgmma) that follow a barrier.
__device__ __forceinline__ void fence_proxy_async() {
#if SDDMM_WGMMA_DEVICE
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#else
  __trap();
#endif
}

__device__ __forceinline__ void wgmma_fence() {
#if SDDMM_WGMMA_DEVICE
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#else
  __trap();
#endif
}

__device__ __forceinline__ void wgmma_commit() {
#if SDDMM_WGMMA_DEVICE
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#else
  __trap();
#endif
}

// Waits until at most kPending of the warpgroup's newest wgmma groups are in flight; d is named so
// that the compiler reads the accumulators only after it.
template <int kPending, int kRegs>
__device__ __forceinline__ void wgmma_wait(float (&d)[kRegs]) {
#if SDDMM_WGMMA_DEVICE
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(kPending) : "memory");
#pragma unroll
  for (int i = 0; i < kRegs; ++i) asm volatile("" : "+f"(d[i])::"memory");
#else
  (void)d;
  __trap();
#endif
}

// Gives the warpgroup's registers back to the multiprocessor's pool (kRelease: setmaxnreg.dec) or
// takes more from it (kClaim: setmaxnreg.inc, waiting until the pool has them), kRegisters a
// thread after it; every warp of the warpgroup executes it. ptxas allocates the code after it
// within that count.
enum class RegisterMove { kRelease, kClaim };
template <RegisterMove kMove, int kRegisters>
__device__ __forceinline__ void warpgroup_registers() {
  static_assert(kRegisters % 8 == 0 && kRegisters >= 24 && kRegisters <= 256, "setmaxnreg's range");
#if SDDMM_WGMMA_DEVICE
  if constexpr (kMove == RegisterMove::kClaim) {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(kRegisters));
  } else {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(kRegisters));
  }
#else
  __trap();
#endif
}

#define SDDMM_WGMMA_D8(i)                                                                                           \
  "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), \
      "+f"(d[i + 7])

// d += A (64 x 16, K-major, descriptor a) * B (16 x 128, K-major, descriptor b), float32 sums, for
// the warpgroup. d holds its warp w's rows 16 w + l / 4 and + 8 (l = lane) in mma.sync's
// accumulator layout, one 8-column tile per 4 registers: d[4 t + 0, 1] row l / 4, columns 8 t + 2
// (l % 4) and + 1; d[4 t + 2, 3] the same columns of row l / 4 + 8.
template <typename F>
__device__ __forceinline__ void wgmma_64x128x16(float (&d)[64], uint64_t a, uint64_t b) {
#if SDDMM_WGMMA_DEVICE
#define SDDMM_WGMMA_OPERANDS                                                                                     \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, " \
  "%23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, " \
  "%44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "    \
  "%64, %65, 1, 1, 1, 0, 0;\n"
  if constexpr (std::is_same_v<F, __half>) {
    asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 " SDDMM_WGMMA_OPERANDS
                 : SDDMM_WGMMA_D8(0), SDDMM_WGMMA_D8(8), SDDMM_WGMMA_D8(16), SDDMM_WGMMA_D8(24), SDDMM_WGMMA_D8(32),
                   SDDMM_WGMMA_D8(40), SDDMM_WGMMA_D8(48), SDDMM_WGMMA_D8(56)
                 : "l"(a), "l"(b));
  } else {
    asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 " SDDMM_WGMMA_OPERANDS
                 : SDDMM_WGMMA_D8(0), SDDMM_WGMMA_D8(8), SDDMM_WGMMA_D8(16), SDDMM_WGMMA_D8(24), SDDMM_WGMMA_D8(32),
                   SDDMM_WGMMA_D8(40), SDDMM_WGMMA_D8(48), SDDMM_WGMMA_D8(56)
                 : "l"(a), "l"(b));
  }
#undef SDDMM_WGMMA_OPERANDS
#else
  (void)d;
  (void)a;
  (void)b;
  __trap();
#endif
}

// d += A (64 x 16, from registers) * B (16 x 64, K-major, descriptor b), float32 sums, for the
// warpgroup (the walk kernel: sddmm_wgmma_walk_kernel.cuh). a holds warp w's rows 16 w .. + 15 of
// A in mma.sync's A fragment layout (load_matrices: a[0] row l / 4, elements 2 (l % 4) and + 1;
// a[1] the same of row l / 4 + 8; a[2], a[3] those 8 elements further along K); d holds the 8
// tiles of a 16 x 64 unit, d[4 t .. 4 t + 3] as above. Where `accumulate` is false, d = A * B (d's
// values before are ignored: no instructions to zero it). Only B is read from shared memory: 2 KB
// a product, where A from there too made 4 KB, at one m64n64k16 each 32 cycles all of shared
// memory's 128 bytes a cycle.
template <typename F>
__device__ __forceinline__ void wgmma_64x64x16(float (&d)[32], const uint32_t (&a)[4], uint64_t b, bool accumulate) {
#if SDDMM_WGMMA_DEVICE
#define SDDMM_WGMMA_OPERANDS                                                                                     \
  "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, " \
  "%23, %24, %25, %26, %27, %28, %29, %30, %31}, {%32, %33, %34, %35}, %36, p, 1, 1, 0;\n}\n"
  if constexpr (std::is_same_v<F, __half>) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 " SDDMM_WGMMA_OPERANDS
                 : SDDMM_WGMMA_D8(0), SDDMM_WGMMA_D8(8), SDDMM_WGMMA_D8(16), SDDMM_WGMMA_D8(24)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "r"(static_cast<int>(accumulate)));
  } else {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 " SDDMM_WGMMA_OPERANDS
                 : SDDMM_WGMMA_D8(0), SDDMM_WGMMA_D8(8), SDDMM_WGMMA_D8(16), SDDMM_WGMMA_D8(24)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b), "r"(static_cast<int>(accumulate)));
  }
#undef SDDMM_WGMMA_OPERANDS
#else
  (void)d;
  (void)a;
  (void)b;
  (void)accumulate;
  __trap();
#endif
}

#undef SDDMM_WGMMA_D8

// Warp-level: stores one 16 x 64 unit of float32 sums held in the accumulator layout above (tile t
// in d[4 t .. 4 t + 3]) at `results`, row r at results + r * kPitch, for the unit's entries to be
// read back by place (the square and walk kernels' epilogues).
template <int kPitch>
__device__ __forceinline__ void stage_unit_sums(const float* d, float* results, int lane) {
  const int g = lane >> 2;
  const int q = lane & 3;
#pragma unroll
  for (int t = 0; t < 8; ++t) {
    float* const at = results + t * 8 + 2 * q;
    *reinterpret_cast<float2*>(at + g * kPitch) = make_float2(d[4 * t], d[4 * t + 1]);
    *reinterpret_cast<float2*>(at + (g + 8) * kPitch) = make_float2(d[4 * t + 2], d[4 * t + 3]);
  }
}

}  // namespace sddmm::cuda
