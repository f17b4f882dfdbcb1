#include "precision.hpp"

#include <cmath>
#include <stdexcept>

namespace sddmm::bench {
namespace {

// IEEE-style binary format: p significand bits (the implicit one included), exponents emin..emax.
struct Format {
  const char* name;
  size_t bytes;
  int significand_bits;
  int min_exponent;
  int max_exponent;
};

Format format_of(sddmm_dtype_t dtype) {
  switch (dtype) {
    case SDDMM_DTYPE_FLOAT32:
      return {"f32", 4, 24, -126, 127};
    case SDDMM_DTYPE_FLOAT16:
      return {"f16", 2, 11, -14, 15};
    case SDDMM_DTYPE_BFLOAT16:
      return {"bf16", 2, 8, -126, 127};
    default:
      break;
  }
  throw std::logic_error("the benchmark stores no float64 data");
}

}  // namespace

const std::vector<Precision>& precisions() {
  static const std::vector<Precision> all = {
      {"f32", SDDMM_DTYPE_FLOAT32, SDDMM_DTYPE_FLOAT32, SDDMM_DTYPE_FLOAT32},
      {"tf32", SDDMM_DTYPE_FLOAT32, SDDMM_DTYPE_FLOAT32, SDDMM_DTYPE_FLOAT32, SDDMM_CREATE_ALLOW_TF32},
      {"f16", SDDMM_DTYPE_FLOAT16, SDDMM_DTYPE_FLOAT16, SDDMM_DTYPE_FLOAT16},
      {"bf16", SDDMM_DTYPE_BFLOAT16, SDDMM_DTYPE_BFLOAT16, SDDMM_DTYPE_BFLOAT16},
      {"f16-f32", SDDMM_DTYPE_FLOAT16, SDDMM_DTYPE_FLOAT32, SDDMM_DTYPE_FLOAT32},
      {"bf16-f32", SDDMM_DTYPE_BFLOAT16, SDDMM_DTYPE_FLOAT32, SDDMM_DTYPE_FLOAT32},
  };
  return all;
}

const Precision& f32_precision() {
  return precisions().front();
}

const Precision& precision_named(const std::string& name) {
  std::string accepted;
  for (const Precision& p : precisions()) {
    if (p.name == name) return p;
    accepted += (accepted.empty() ? "" : ", ") + p.name;
  }
  throw std::invalid_argument("--dtype wants any of " + accepted + ", got '" + name + "'");
}

std::string describe(const Precision& p) {
  return std::string("features ") + dtype_name(p.features) + ", values " + dtype_name(p.values) + ", outputs " +
         dtype_name(p.output) + ((p.create_flags & SDDMM_CREATE_ALLOW_TF32) != 0 ? ", TF32 allowed" : "");
}

double product_error(const Precision& p) {
  return (p.create_flags & SDDMM_CREATE_ALLOW_TF32) != 0 ? std::ldexp(1.0, -10) + std::ldexp(1.0, -22) : 0.0;
}

const char* dtype_name(sddmm_dtype_t dtype) {
  return format_of(dtype).name;
}

size_t dtype_bytes(sddmm_dtype_t dtype) {
  return format_of(dtype).bytes;
}

double unit_roundoff(sddmm_dtype_t dtype) {
  return std::ldexp(1.0, -format_of(dtype).significand_bits);
}

double smallest_subnormal(sddmm_dtype_t dtype) {
  const Format f = format_of(dtype);
  return std::ldexp(1.0, f.min_exponent - f.significand_bits + 1);
}

double overflow_threshold(sddmm_dtype_t dtype) {
  // Halfway between the largest finite value, (2 - 2u) 2^emax, and 2^(emax+1); u = 2^-p.
  return (2.0 - unit_roundoff(dtype)) * std::ldexp(1.0, format_of(dtype).max_exponent);
}

ElementBytes element_bytes(const Precision& p) {
  return {static_cast<double>(dtype_bytes(p.features)), static_cast<double>(dtype_bytes(p.values)),
          static_cast<double>(dtype_bytes(p.output))};
}

}  // namespace sddmm::bench
