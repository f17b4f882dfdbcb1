// The element types of the CPU kernels (float, double, Float16, BFloat16): each widens exactly to
// double, where the kernels compute, and a result is rounded once from double to its output type.
#pragma once

#include "core/half.hpp"
#include "sddmm.h"

namespace sddmm::cpu {

inline double to_double(float v) {
  return v;
}
inline double to_double(double v) {
  return v;
}
inline double to_double(Float16 v) {
  return float16_to_double(v.bits);
}
inline double to_double(BFloat16 v) {
  return bfloat16_to_double(v.bits);
}

// v rounded to T, to nearest even (the hardware's float conversion does that too).
template <typename T>
T round_to(double v);
template <>
inline float round_to<float>(double v) {
  return static_cast<float>(v);
}
template <>
inline double round_to<double>(double v) {
  return v;
}
template <>
inline Float16 round_to<Float16>(double v) {
  return Float16{round_to_float16(v)};
}
template <>
inline BFloat16 round_to<BFloat16>(double v) {
  return BFloat16{round_to_bfloat16(v)};
}

// The dtype enum value of an element type.
template <typename T>
inline constexpr sddmm_dtype_t kDtypeOf = SDDMM_DTYPE_FLOAT32;
template <>
inline constexpr sddmm_dtype_t kDtypeOf<double> = SDDMM_DTYPE_FLOAT64;
template <>
inline constexpr sddmm_dtype_t kDtypeOf<Float16> = SDDMM_DTYPE_FLOAT16;
template <>
inline constexpr sddmm_dtype_t kDtypeOf<BFloat16> = SDDMM_DTYPE_BFLOAT16;

}  // namespace sddmm::cpu
