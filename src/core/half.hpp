// float16 (IEEE binary16) and bfloat16 on the host: conversions between their 16-bit patterns and
// double/float, rounding to nearest with ties to even, with signed zeros, subnormals, Inf, NaN and
// overflow to Inf. Portable C++17 (no _Float16, no intrinsics), shared by the CPU backend, the
// testkit and the fuzzer.
//
// Every conversion rounds once, from the exact value. A float argument widens to double exactly, so
// one double routine serves both. Narrowing a double to float first and then to 16 bits would round
// twice: 1 + 2^-11 + 2^-40 is nearer to the float16 1 + 2^-10 than to 1, but as a float it is the
// tie 1 + 2^-11, which then goes to the even 1.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>

namespace sddmm {

// A value stored as a float16 or bfloat16 bit pattern: the element type of 16-bit operands.
struct Float16 {
  uint16_t bits;
};
struct BFloat16 {
  uint16_t bits;
};

namespace binary16 {

static_assert(std::numeric_limits<double>::is_iec559, "double is IEEE binary64");

// A 16-bit binary format: sign, kExponentBits, kFractionBits (float16: 5, 10; bfloat16: 8, 7).
template <int kExponentBits, int kFractionBits>
struct Format {
  static_assert(1 + kExponentBits + kFractionBits == 16, "16 bits in all");
  static constexpr int kFraction = kFractionBits;
  static constexpr int kBias = (1 << (kExponentBits - 1)) - 1;
  static constexpr int kMinExponent = 1 - kBias;  // of the normal numbers
  static constexpr uint32_t kInfinity = ((1u << kExponentBits) - 1) << kFractionBits;
};
using Float16Format = Format<5, 10>;
using BFloat16Format = Format<8, 7>;

constexpr int kDoubleFraction = 52;
constexpr uint64_t kDoubleExponentMask = uint64_t{0x7FF} << kDoubleFraction;

inline uint64_t bits_of(double v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// The bit pattern of the format's value nearest to v (ties to even); beyond the largest finite
// value by half a unit or more, Inf. NaN stays NaN (quiet, sign and leading payload bits kept).
template <typename F>
uint16_t encode(double v) {
  const uint64_t bits = bits_of(v);
  const auto sign = static_cast<uint32_t>((bits >> 48) & 0x8000u);
  const auto biased = static_cast<int>((bits & kDoubleExponentMask) >> kDoubleFraction);
  const uint64_t fraction = bits & ((uint64_t{1} << kDoubleFraction) - 1);
  if (biased == 0x7FF) {
    if (fraction == 0) return static_cast<uint16_t>(sign | F::kInfinity);
    const auto payload = static_cast<uint32_t>(fraction >> (kDoubleFraction - F::kFraction));
    return static_cast<uint16_t>(sign | F::kInfinity | (1u << (F::kFraction - 1)) | payload);
  }
  // Zero, or a double subnormal (below 2^-1022): far under half the smallest subnormal of either format.
  if (biased == 0) return static_cast<uint16_t>(sign);
  const int exponent = biased - 1023;
  const uint64_t significand = fraction | (uint64_t{1} << kDoubleFraction);  // v = significand * 2^(exponent - 52)
  // The result's unit in the last place is 2^(e - kFraction), e = exponent but at least the smallest
  // normal exponent: below it the spacing stays that of the subnormals. q counts those units.
  const int e = std::max(exponent, F::kMinExponent);
  const int shift = (e - F::kFraction) - (exponent - kDoubleFraction);  // >= 52 - kFraction > 0
  if (shift > kDoubleFraction + 1) return static_cast<uint16_t>(sign);  // below half the smallest subnormal
  uint64_t q = significand >> shift;
  const uint64_t rest = significand & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  if (rest > half || (rest == half && (q & 1) != 0)) ++q;
  // For a normal result q holds the implicit leading bit, worth exactly one in the exponent field
  // above the stored fraction, so field (= biased exponent - 1) plus q is the pattern; a rounding
  // carry moves into the exponent as it should. For a subnormal result field is 0 and q the fraction
  // (q = 2^kFraction is the smallest normal, whose pattern that is).
  const auto field = static_cast<uint64_t>(e - F::kMinExponent);
  const uint64_t magnitude = (field << F::kFraction) + q;
  return static_cast<uint16_t>(sign | (magnitude >= F::kInfinity ? F::kInfinity : magnitude));
}

}  // namespace binary16

// Rounds v (a double, or a float widened exactly) to float16 / bfloat16 once, to nearest, ties to even.
inline uint16_t round_to_float16(double v) {
  return binary16::encode<binary16::Float16Format>(v);
}
inline uint16_t round_to_bfloat16(double v) {
  return binary16::encode<binary16::BFloat16Format>(v);
}

// The exact value of a pattern (NaN keeps its sign and payload); every float16 and bfloat16 value
// is also a float. These are the CPU kernels' loads, so they are branch-light bit manipulation.

// bfloat16 is the upper half of a float.
inline float bfloat16_to_float(uint16_t h) {
  const uint32_t bits = uint32_t{h} << 16;
  float f = 0;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// The exponent and fraction move into a float's low exponent bits and fraction, which is the value
// times 2^-112 (a float subnormal for float16 subnormals); multiplying by 2^112 is exact. Inf and NaN
// get the all-ones exponent instead.
inline float float16_to_float(uint16_t h) {
  const uint32_t magnitude = h & 0x7FFFu;
  uint32_t bits = magnitude << 13;
  if (magnitude >= 0x7C00u) {
    bits |= 0x7F800000u;
  } else {
    float f = 0;
    std::memcpy(&f, &bits, sizeof f);
    f *= 0x1p112f;
    std::memcpy(&bits, &f, sizeof bits);
  }
  bits |= uint32_t{h & 0x8000u} << 16;
  float f = 0;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline double float16_to_double(uint16_t h) {
  return float16_to_float(h);
}
inline double bfloat16_to_double(uint16_t h) {
  return bfloat16_to_float(h);
}

}  // namespace sddmm
