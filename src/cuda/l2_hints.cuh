// L2 eviction priorities for gathers whose rows are not equally wanted. Where X is larger than the
// L2 and a few of its rows serve most entries (power-law graphs: the columns of high degree), the
// L2's own replacement keeps whatever came last; loading the hot rows evict_last, and the other
// rows, the rows' classes and the outputs' stores evict_first, keeps the hot ones instead (the
// rule: spmm/l2_hint_rule.hpp; the measurements: tuning.hpp). The hints change where bytes come
// from, never which bytes, the arithmetic or its order.
#pragma once

#include <cstdint>

#include "cuda/precision.cuh"
#include "cuda/spmm/l2_hint_rule.hpp"

namespace sddmm::cuda {

// The two priorities, as the 64-bit cache policies that the hinted loads and stores take.
struct L2Policies {
  uint64_t keep = 0;  // evict_last
  uint64_t pass = 0;  // evict_first
};

__device__ __forceinline__ L2Policies make_l2_policies() {
  L2Policies p;
#if __CUDA_ARCH__ >= 800
  asm("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p.keep));
  asm("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p.pass));
#endif
  return p;
}

// load_held with an L2 policy (read-only data: the non-coherent path, as __ldg).
template <typename F, int kVec>
__device__ __forceinline__ HeldVector<F, kVec> load_held_hinted(const F* p, uint64_t policy) {
#if __CUDA_ARCH__ >= 800
  static_assert(sizeof(HeldVector<F, kVec>) == 16, "hinted loads are 16 bytes");
  uint4 w;
  asm("ld.global.nc.L2::cache_hint.v4.u32 {%0, %1, %2, %3}, [%4], %5;"
      : "=r"(w.x), "=r"(w.y), "=r"(w.z), "=r"(w.w)
      : "l"(p), "l"(policy));
  HeldVector<F, kVec> v;
  static_assert(sizeof(v) == sizeof(w), "one 16-byte word");
  memcpy(&v, &w, sizeof(w));
  return v;
#else
  (void)policy;
  return load_held<F, kVec>(p);
#endif
}

// A class byte (SpmmArgs::x_class, read once per call), loaded with an L2 policy: evict_first,
// so that the classes do not push the kept rows out.
__device__ __forceinline__ uint8_t load_class(const uint8_t* p, uint64_t policy) {
#if __CUDA_ARCH__ >= 800
  unsigned w;
  asm("ld.global.nc.L2::cache_hint.u8 %0, [%1], %2;" : "=r"(w) : "l"(p), "l"(policy));
  return static_cast<uint8_t>(w);
#else
  (void)policy;
  return *p;
#endif
}

// Four floats stored with an L2 policy.
__device__ __forceinline__ void store_float4_hinted(float* p, const float (&v)[4], uint64_t policy) {
#if __CUDA_ARCH__ >= 800
  asm volatile("st.global.L2::cache_hint.v4.f32 [%0], {%1, %2, %3, %4}, %5;"
               :
               : "l"(p), "f"(v[0]), "f"(v[1]), "f"(v[2]), "f"(v[3]), "l"(policy)
               : "memory");
#else
  (void)policy;
  store_vector(p, Vector<float, 4>{{v[0], v[1], v[2], v[3]}});
#endif
}

}  // namespace sddmm::cuda
