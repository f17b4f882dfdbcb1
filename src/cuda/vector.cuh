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
// lane of the warp must call it.
template <typename T>
__device__ __forceinline__ T group_sum(T x, int width) {
  for (int offset = width / 2; offset > 0; offset /= 2) x += __shfl_xor_sync(0xffffffffu, x, offset);
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
