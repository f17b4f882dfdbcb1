// The element types of one call and the CUDA backend's table of which combinations have kernels.
//   F: dense features (x1 and x2 of SDDMM, x of SpMM)   V: A's values   O: the output (out, y)
// Sums are kept in Acc: float64 for float64 features, float32 for everything else, so half-precision
// inputs never overflow an intermediate sum; each result is rounded once, to O, when it is stored.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstring>
#include <type_traits>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "cuda/vector.cuh"

namespace sddmm::cuda {

template <typename F, typename V, typename O>
struct Precision {
  using Feature = F;
  using Value = V;
  using Output = O;
  using Accumulator = std::conditional_t<std::is_same_v<F, double>, double, float>;
};

template <typename T>
constexpr sddmm_dtype_t dtype_of() {
  if constexpr (std::is_same_v<T, float>) return SDDMM_DTYPE_FLOAT32;
  if constexpr (std::is_same_v<T, double>) return SDDMM_DTYPE_FLOAT64;
  if constexpr (std::is_same_v<T, __half>) return SDDMM_DTYPE_FLOAT16;
  if constexpr (std::is_same_v<T, __nv_bfloat16>) return SDDMM_DTYPE_BFLOAT16;
}

__device__ __forceinline__ float widen(float x) { return x; }
__device__ __forceinline__ double widen(double x) { return x; }
__device__ __forceinline__ float widen(__half x) { return __half2float(x); }
__device__ __forceinline__ float widen(__nv_bfloat16 x) { return __bfloat162float(x); }

// How a 16-byte vector of features is held in registers between its load and its arithmetic:
// 4- and 8-byte features as they are, 16-bit ones as 32-bit words of two features each (the lower
// address in the lower half). Held as a Vector of 8 halves, the compiler kept one 16-bit value per
// register and moved them back into pairs for the conversions: the sm_90 SASS of the float16 SDDMM
// kernel had 221 PRMT and 140 IMAD beside its 64 FFMA (bfloat16: 256 and 264). A vector of one
// feature (the strided path) is held as it is.
template <typename F, int kVec, bool kPair = sizeof(F) == 2 && kVec % 2 == 0>
struct Held {
  static constexpr bool kPacked = false;
  using Word = F;
  static constexpr int kWords = kVec;
};
template <typename F, int kVec>
struct Held<F, kVec, true> {
  static constexpr bool kPacked = true;  // two features per word
  using Word = unsigned int;
  static constexpr int kWords = kVec / 2;
};
template <typename F, int kVec>
using HeldVector = Vector<typename Held<F, kVec>::Word, Held<F, kVec>::kWords>;

// kVec features at p (aligned to the vector), loaded in one instruction.
template <typename F, int kVec>
__device__ __forceinline__ HeldVector<F, kVec> load_held(const F* p) {
  using Word = typename Held<F, kVec>::Word;
  return load_vector<Word, Held<F, kVec>::kWords>(reinterpret_cast<const Word*>(p));
}

// The two 16-bit features of a held word, widened exactly: float16 by conversion, bfloat16 (the upper
// half of a float32) by placing its bits.
__device__ __forceinline__ float2 widen_pair(unsigned int w, __half) {
  __half2 h;
  static_assert(sizeof(h) == sizeof(w), "two halves in a word");
  memcpy(&h, &w, sizeof(w));
  return __half22float2(h);
}
__device__ __forceinline__ float2 widen_pair(unsigned int w, __nv_bfloat16) {
  return make_float2(__uint_as_float(w << 16), __uint_as_float(w & 0xffff0000u));
}

// A held vector of kVec features, widened to the accumulator type element by element.
template <typename Acc, typename F, int kVec>
__device__ __forceinline__ Vector<Acc, kVec> widen_held(const HeldVector<F, kVec>& x) {
  Vector<Acc, kVec> w;
  if constexpr (Held<F, kVec>::kPacked) {
#pragma unroll
    for (int j = 0; j < kVec / 2; ++j) {
      const float2 p = widen_pair(x.v[j], F{});
      w.v[2 * j] = p.x, w.v[2 * j + 1] = p.y;
    }
  } else {
#pragma unroll
    for (int j = 0; j < kVec; ++j) w.v[j] = widen(x.v[j]);
  }
  return w;
}

// The dot product of two held vectors in the accumulator type: the products in element order, each
// added to the sum of those before it. The CUDA-core SDDMM kernels' sum of one 16-byte step: one
// order in all of them, so that kernels summing the same steps in the same tree agree bit for bit.
template <typename Acc, typename F, int kVec>
__device__ __forceinline__ Acc held_dot(const HeldVector<F, kVec>& x, const HeldVector<F, kVec>& y) {
  const Vector<Acc, kVec> wx = widen_held<Acc, F, kVec>(x), wy = widen_held<Acc, F, kVec>(y);
  Acc sum = wx.v[0] * wy.v[0];
#pragma unroll
  for (int j = 1; j < kVec; ++j) sum += wx.v[j] * wy.v[j];
  return sum;
}

// Round-to-nearest-even from the accumulator to the storage type.
template <typename O, typename Acc>
__device__ __forceinline__ O narrow(Acc x) {
  if constexpr (std::is_same_v<O, Acc>) {
    return x;
  } else if constexpr (std::is_same_v<O, __half>) {
    return __float2half_rn(x);
  } else {
    static_assert(std::is_same_v<O, __nv_bfloat16>, "outputs are float32, float64, float16 or bfloat16");
    return __float2bfloat16_rn(x);
  }
}

// Stores kVec accumulators to p[0 .. kVec) as O, in 16-byte stores (p 16-byte aligned).
template <typename O, int kVec, typename Acc>
__device__ __forceinline__ void store_narrowed(O* p, const Acc (&acc)[kVec]) {
  constexpr int kPiece = 16 / static_cast<int>(sizeof(O));
  static_assert(kVec % kPiece == 0, "outputs are never wider per vector than 16 bytes of features");
#pragma unroll
  for (int s = 0; s < kVec; s += kPiece) {
    Vector<O, kPiece> piece;
#pragma unroll
    for (int t = 0; t < kPiece; ++t) piece.v[t] = narrow<O>(acc[s + t]);
    store_vector(p + s, piece);
  }
}

// The combinations the CUDA kernels are built for (core/support.cpp admits the same set): calls
// fn(Precision<F, V, O>{}) for the call's feature and output dtypes, given the plan's value type V.
//  - F = V = O, for float32, float64, float16 and bfloat16;
//  - float16 or bfloat16 features with float32 values and output.
template <typename V, typename Fn>
void dispatch_precision(sddmm_dtype_t feature, sddmm_dtype_t output, Fn&& fn) {
  if constexpr (std::is_same_v<V, float>) {
    if (output == SDDMM_DTYPE_FLOAT32) {
      switch (feature) {
        case SDDMM_DTYPE_FLOAT32: fn(Precision<float, float, float>{}); return;
        case SDDMM_DTYPE_FLOAT16: fn(Precision<__half, float, float>{}); return;
        case SDDMM_DTYPE_BFLOAT16: fn(Precision<__nv_bfloat16, float, float>{}); return;
        default: break;
      }
    }
  } else {
    if (feature == dtype_of<V>() && output == dtype_of<V>()) {
      fn(Precision<V, V, V>{});
      return;
    }
  }
  fail(SDDMM_STATUS_NOT_SUPPORTED, "the CUDA backend has no kernel for ", name_of(feature), " operands with ",
       name_of(dtype_of<V>()), " values and ", name_of(output), " output");
}

}  // namespace sddmm::cuda
