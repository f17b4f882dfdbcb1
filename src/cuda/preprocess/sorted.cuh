// Sorted keys: radix-sort widths and offsets of a sorted key array, shared by the plan's CSR/CSC
// build and the tensor-core tiles.
#pragma once

#include <cstdint>

#include "cuda/preprocess/launch.cuh"

namespace sddmm::cuda {

// Bits a radix sort must look at for keys in [0, bound): CUB's end_bit.
inline int significant_bits(int64_t bound) {
  int bits = 1;
  while (bits < 63 && (int64_t{1} << bits) < bound) ++bits;
  return bits;
}

// The first position of sorted[0, n) (ascending) whose key is not below x; n where none is.
template <typename K>
__device__ int64_t first_not_below(const K* sorted, int64_t n, int64_t x) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (static_cast<int64_t>(sorted[mid]) < x) lo = mid + 1; else hi = mid;
  }
  return lo;
}

// The row holding entry e of a CSR pattern: the last r in [0, rows) with offsets[r] <= e (rows + 1
// offsets; rows > 0). Offsets that are not monotone give some r in that range, never one outside.
template <typename O>
__device__ int64_t row_holding(const O* offsets, int64_t rows, int64_t e) {
  int64_t lo = 0, hi = rows;
  while (hi - lo > 1) {
    const int64_t mid = (lo + hi) / 2;
    if (static_cast<int64_t>(offsets[mid]) <= e)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

// offsets[k] = first position whose key is >= k (keys sorted ascending): a binary search per outer
// index, so a long run of empty rows costs no more than any other.
template <typename K>
__global__ void offsets_from_sorted_kernel(const K* keys, int64_t n, int64_t outer, int64_t* offsets) {
  SDDMM_GRID_STRIDE(k, outer + 1) { offsets[k] = first_not_below(keys, n, k); }
}

}  // namespace sddmm::cuda
