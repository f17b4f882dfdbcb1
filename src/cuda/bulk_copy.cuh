// Bulk copies from global to shared memory (sm_90's tensor memory accelerator: cp.async.bulk, and
// cp.async.bulk.tensor through a tensor map) and the shared-memory barriers (mbarrier) that say
// when they have landed.
// Compiled for sm_90 and later; on earlier architectures the functions trap (their callers take a
// cp.async path there instead).
#pragma once

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define SDDMM_BULK_COPY_DEVICE 1
#else
#define SDDMM_BULK_COPY_DEVICE 0
#endif

namespace sddmm::cuda {

// A barrier at shared address `bar` whose phases complete after `count` arrivals and the bytes
// they announced have landed. Waiting on a parity returns once the phase of that parity has
// completed (phase 0 is parity 0; on a fresh barrier, parity 1 returns at once).
__device__ __forceinline__ void barrier_init(unsigned bar, unsigned count) {
#if SDDMM_BULK_COPY_DEVICE
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
#else
  (void)bar;
  (void)count;
  __trap();
#endif
}

__device__ __forceinline__ void barrier_wait(unsigned bar, unsigned parity) {
#if SDDMM_BULK_COPY_DEVICE
  unsigned done = 0;
  do {
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (done == 0);
#else
  (void)bar;
  (void)parity;
  __trap();
#endif
}

// Arrives on `bar` (release: this thread's earlier reads and writes of shared memory come before
// whatever a thread that sees the phase complete does next).
__device__ __forceinline__ void barrier_arrive(unsigned bar) {
#if SDDMM_BULK_COPY_DEVICE
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
#else
  (void)bar;
  __trap();
#endif
}

// Arrives on `bar` and adds `bytes` to the bytes its current phase waits for.
__device__ __forceinline__ void barrier_arrive_expect_bytes(unsigned bar, unsigned bytes) {
#if SDDMM_BULK_COPY_DEVICE
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
#else
  (void)bar;
  (void)bytes;
  __trap();
#endif
}

// Copies `bytes` (a multiple of 16; both addresses 16-byte aligned) from `global` to shared
// address `target`, completing them on barrier `bar` as they land.
__device__ __forceinline__ void bulk_copy_to_shared(unsigned target, const void* global, unsigned bytes, unsigned bar) {
#if SDDMM_BULK_COPY_DEVICE
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n" ::"r"(target),
               "l"(global), "r"(bytes), "r"(bar)
               : "memory");
#else
  (void)target;
  (void)global;
  (void)bytes;
  (void)bar;
  __trap();
#endif
}

// Copies the 2-D box of a tensor map at element coordinates (inner, outer) to shared address
// `target`, laid out (and swizzled) as the map says, elements past the tensor's extent zero,
// completing its bytes (the whole box's, zeros included) on barrier `bar`. `map` is the address
// of a __grid_constant__ kernel parameter encoded on the host (cuTensorMapEncodeTiled).
__device__ __forceinline__ void tensor_copy_to_shared(unsigned target, const void* map, int inner, int outer,
                                                      unsigned bar) {
#if SDDMM_BULK_COPY_DEVICE
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n" ::"r"(
          target),
      "l"(map), "r"(inner), "r"(outer), "r"(bar)
      : "memory");
#else
  (void)target;
  (void)map;
  (void)inner;
  (void)outer;
  (void)bar;
  __trap();
#endif
}

}  // namespace sddmm::cuda
