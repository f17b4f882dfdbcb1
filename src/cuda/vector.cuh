// A short vector of kVec elements loaded or stored in one instruction (16 bytes: LDG.128/STG.128).
#pragma once

namespace sddmm::cuda {

template <typename T, int kVec>
struct alignas(sizeof(T) * kVec) Vector {
  T v[kVec];
};

template <typename T, int kVec>
__device__ __forceinline__ Vector<T, kVec> load_vector(const T* p) {
  return *reinterpret_cast<const Vector<T, kVec>*>(p);
}

template <typename T, int kVec>
__device__ __forceinline__ void store_vector(T* p, const Vector<T, kVec>& x) {
  *reinterpret_cast<Vector<T, kVec>*>(p) = x;
}

// Sum over the `width` lanes of each aligned lane group (width a power of two, at most 32). Every
// lane of the warp must call it. A loop of log2(width) shuffles, or, with kStraightLine, five
// shuffles whatever the width, each added only inside the group: no loop counter, no branch
// (SddmmConfig::kStraightLineSum has the measurement).
template <bool kStraightLine = false, typename T>
__device__ __forceinline__ T group_sum(T x, int width) {
  if constexpr (kStraightLine) {
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
      const T other = __shfl_xor_sync(0xffffffffu, x, offset);
      if (offset < width) x += other;
    }
  } else {
    for (int offset = width / 2; offset > 0; offset /= 2) x += __shfl_xor_sync(0xffffffffu, x, offset);
  }
  return x;
}

// The fewest lanes (a power of two, at most a warp) that cover `steps` steps in one pass.
inline int lanes_covering(int64_t steps) {
  int lanes = 1;
  while (lanes < 32 && lanes < steps) lanes *= 2;
  return lanes;
}

inline bool is_aligned(const void* p, int bytes) { return reinterpret_cast<unsigned long long>(p) % bytes == 0; }

}  // namespace sddmm::cuda
