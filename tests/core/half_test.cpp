// The float16 and bfloat16 conversions of src/core/half.hpp, which the CPU backend (the tests'
// oracle) and the testkit both use, so they are checked here against facts that do not come from
// that code: every pattern's value by the format's definition, and rounding at every midpoint.
#include "core/half.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

namespace sddmm {
namespace {

// One format's facts as the IEEE definition gives them, written out independently of half.hpp.
struct FormatFacts {
  const char* name;
  int fraction_bits;
  int bias;
  uint16_t (*round)(double);
  double (*to_double)(uint16_t);
  float (*to_float)(uint16_t);
};
const FormatFacts kFloat16{"float16", 10, 15, round_to_float16, float16_to_double, float16_to_float};
const FormatFacts kBFloat16{"bfloat16", 7, 127, round_to_bfloat16, bfloat16_to_double, bfloat16_to_float};

constexpr uint16_t kSign = 0x8000;

std::string hex(uint32_t v) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%04X", static_cast<unsigned>(v));
  return text;
}

uint16_t exponent_field(const FormatFacts& f, uint16_t h) {
  return static_cast<uint16_t>((h & 0x7FFF) >> f.fraction_bits);
}
uint16_t infinity(const FormatFacts& f) {
  return static_cast<uint16_t>(0x7FFF >> f.fraction_bits << f.fraction_bits);
}
bool is_nan(const FormatFacts& f, uint16_t h) {
  return (h & 0x7FFF) > infinity(f);
}

// (-1)^s * 2^(E - bias) * 1.fraction, or 2^(1 - bias) * 0.fraction when E = 0.
double defined_value(const FormatFacts& f, uint16_t h) {
  const int field = exponent_field(f, h);
  const double fraction = static_cast<double>(h & ((1 << f.fraction_bits) - 1));
  const double magnitude =
      field == 0 ? std::ldexp(fraction, 1 - f.bias - f.fraction_bits)
                 : std::ldexp(fraction + std::ldexp(1.0, f.fraction_bits), field - f.bias - f.fraction_bits);
  return (h & kSign) != 0 ? -magnitude : magnitude;
}

void check_every_pattern_round_trips(const FormatFacts& f) {
  INFO(f.name);
  int64_t wrong = 0;
  for (uint32_t i = 0; i <= 0xFFFF; ++i) {
    const auto h = static_cast<uint16_t>(i);
    const double d = f.to_double(h);
    const float x = f.to_float(h);
    if (is_nan(f, h)) {
      // NaN stays NaN with its sign; the round trip makes it quiet and keeps the payload.
      const uint16_t quiet = static_cast<uint16_t>(h | (1u << (f.fraction_bits - 1)));
      wrong += !std::isnan(d) || !std::isnan(x) || std::signbit(d) != ((h & kSign) != 0) || f.round(x) != quiet ||
               f.round(d) != quiet;
      continue;
    }
    const bool is_inf = (h & 0x7FFF) == infinity(f);
    const double want = is_inf ? ((h & kSign) != 0 ? -HUGE_VAL : HUGE_VAL) : defined_value(f, h);
    const bool value_ok = d == want && static_cast<double>(x) == want && std::signbit(d) == ((h & kSign) != 0);
    const bool back_ok = f.round(x) == h && f.round(d) == h;
    if ((!value_ok || !back_ok) && wrong < 5) {
      FAIL_CHECK("pattern ", hex(i), ": value ", d, " (defined ", want, "), back to ", hex(f.round(x)));
    }
    wrong += !value_ok || !back_ok;
  }
  CHECK_MESSAGE(wrong == 0, wrong, " patterns do not round-trip");
}

// For each pair of neighbouring non-negative patterns h, h + 1 (the last finite one paired with the
// first value past it, which rounds to Inf): their midpoint goes to the one with an even pattern, and
// the doubles just below and above it to h and h + 1. Doubles hold every midpoint exactly, and the
// ones just off a midpoint are where rounding through float first (twice) goes wrong.
void check_rounding_at_every_midpoint(const FormatFacts& f) {
  INFO(f.name);
  int64_t wrong = 0;
  const uint16_t inf = infinity(f);
  for (uint16_t h = 0; h < inf; ++h) {
    const double lo = f.to_double(h);
    const double hi = h + 1 == inf ? std::ldexp(1.0, f.bias + 1) : f.to_double(static_cast<uint16_t>(h + 1));
    const double mid = lo + (hi - lo) / 2;
    const auto up = static_cast<uint16_t>(h + 1);
    const uint16_t even = (h & 1) == 0 ? h : up;
    for (const double sign : {1.0, -1.0}) {
      const uint16_t s = sign < 0 ? kSign : 0;
      const bool ok = f.round(sign * mid) == (even | s) && f.round(sign * std::nextafter(mid, 0.0)) == (h | s) &&
                      f.round(sign * std::nextafter(mid, HUGE_VAL)) == (up | s);
      if (!ok && wrong < 5) FAIL_CHECK("between patterns ", hex(h), " and ", hex(up), ", sign ", sign);
      wrong += !ok;
    }
  }
  CHECK_MESSAGE(wrong == 0, wrong, " midpoints round wrongly");
}

}  // namespace

TEST_CASE("half: every float16 and bfloat16 pattern has its defined value and converts back unchanged") {
  check_every_pattern_round_trips(kFloat16);
  check_every_pattern_round_trips(kBFloat16);
}

TEST_CASE("half: doubles round to nearest, ties to even, at every midpoint of both formats") {
  check_rounding_at_every_midpoint(kFloat16);
  check_rounding_at_every_midpoint(kBFloat16);
}

TEST_CASE("half: targeted float16 cases - ties, extremes, overflow, subnormals, specials") {
  CHECK(round_to_float16(1.0) == 0x3C00);
  CHECK(round_to_float16(1.0 + 0x1p-11) == 0x3C00);            // tie, to the even 1
  CHECK(round_to_float16(1.0 + 3 * 0x1p-11) == 0x3C02);        // tie, to the even 1 + 2^-9
  CHECK(round_to_float16(1.0 + 0x1p-11 + 0x1p-40) == 0x3C01);  // through float first: 0x3C00 (twice rounded)
  CHECK(round_to_float16(65504.0) == 0x7BFF);                  // largest finite
  CHECK(round_to_float16(65519.99) == 0x7BFF);
  CHECK(round_to_float16(65520.0) == 0x7C00);  // half a unit past it: Inf
  CHECK(round_to_float16(1e10) == 0x7C00);
  CHECK(round_to_float16(-1e300) == 0xFC00);
  CHECK(round_to_float16(0x1p-24) == 0x0001);  // smallest subnormal
  CHECK(round_to_float16(0x1p-25) == 0x0000);  // half of it: tie, to the even 0
  CHECK(round_to_float16(0x1.0000000000001p-25) == 0x0001);
  CHECK(round_to_float16(-0x1p-26) == 0x8000);
  CHECK(round_to_float16(0x1p-14) == 0x0400);            // smallest normal
  CHECK(round_to_float16(0x1p-14 - 0x1p-24) == 0x03FF);  // largest subnormal
  CHECK(round_to_float16(0x1p-14 - 0x1p-25) == 0x0400);  // tie between them, to the even normal
  CHECK(round_to_float16(std::numeric_limits<double>::denorm_min()) == 0x0000);
  CHECK(round_to_float16(-0.0) == 0x8000);
  CHECK(round_to_float16(HUGE_VAL) == 0x7C00);
  CHECK(round_to_float16(-HUGE_VAL) == 0xFC00);
  CHECK(round_to_float16(std::numeric_limits<double>::quiet_NaN()) == 0x7E00);
  CHECK(float16_to_float(0x7BFF) == 65504.0f);
  CHECK(float16_to_float(0x0001) == 0x1p-24f);
  CHECK(std::isinf(float16_to_float(0xFC00)));
}

TEST_CASE("half: targeted bfloat16 cases - ties, extremes, overflow, subnormals, specials") {
  CHECK(round_to_bfloat16(1.0) == 0x3F80);
  CHECK(round_to_bfloat16(1.0 + 0x1p-8) == 0x3F80);            // tie, to the even 1
  CHECK(round_to_bfloat16(1.0 + 3 * 0x1p-8) == 0x3F82);        // tie, to the even 1 + 2^-6
  CHECK(round_to_bfloat16(1.0 + 0x1p-8 + 0x1p-30) == 0x3F81);  // through float first: 0x3F80
  const double largest = 0x1.FEp127;
  CHECK(round_to_bfloat16(largest) == 0x7F7F);
  CHECK(round_to_bfloat16(0x1.FFp127) == 0x7F80);                         // half a unit past it: Inf
  CHECK(round_to_bfloat16(std::numeric_limits<float>::max()) == 0x7F80);  // float's max is past that
  CHECK(round_to_bfloat16(0x1p-133) == 0x0001);                           // smallest subnormal
  CHECK(round_to_bfloat16(0x1p-134) == 0x0000);                           // tie, to the even 0
  CHECK(round_to_bfloat16(0x1p-126) == 0x0080);                           // smallest normal
  CHECK(round_to_bfloat16(-0.0) == 0x8000);
  CHECK(round_to_bfloat16(-HUGE_VAL) == 0xFF80);
  CHECK(round_to_bfloat16(std::numeric_limits<double>::quiet_NaN()) == 0x7FC0);
  CHECK(bfloat16_to_float(0x7F7F) == static_cast<float>(largest));
  CHECK(bfloat16_to_float(0x3F81) == 1.0f + 0x1p-7f);
}

}  // namespace sddmm
