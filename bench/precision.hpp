// The storage types a case runs in: features (SDDMM's X1 and X2, SpMM's X), A's values, and outputs
// (SDDMM's out, SpMM's Y). Accumulation is fp32 throughout. fp32 is the baseline every other
// combination is compared with, and the only one cuSPARSE runs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bytes_model.hpp"
#include "sddmm.h"

namespace sddmm::bench {

struct Precision {
  std::string name;  // on the command line and in the results: "f32", "tf32", "f16", "bf16", "f16-f32", "bf16-f32"
  sddmm_dtype_t features;
  sddmm_dtype_t values;
  sddmm_dtype_t output;
  uint32_t create_flags = SDDMM_CREATE_DEFAULT;  // tf32: fp32 data, plans made with SDDMM_CREATE_ALLOW_TF32

  bool is_f32() const {
    return features == SDDMM_DTYPE_FLOAT32 && values == SDDMM_DTYPE_FLOAT32 && output == SDDMM_DTYPE_FLOAT32 &&
           create_flags == SDDMM_CREATE_DEFAULT;
  }
};

// Every combination --dtype accepts, fp32 first: one type throughout (fp32, fp16, bf16), fp32 with
// TF32 allowed, and half features with fp32 values and outputs.
const std::vector<Precision>& precisions();
const Precision& f32_precision();
// Throws std::invalid_argument naming the accepted combinations.
const Precision& precision_named(const std::string& name);
// "features f16, values f32, outputs f32"
std::string describe(const Precision& precision);

// Properties of a storage type; float64 is not one the benchmark stores (std::logic_error).
const char* dtype_name(sddmm_dtype_t dtype);  // "f32", "f16", "bf16"
size_t dtype_bytes(sddmm_dtype_t dtype);
// 2^-p for a p-bit significand: the largest relative error of rounding to nearest.
double unit_roundoff(sddmm_dtype_t dtype);
// The smallest subnormal: the spacing of the format near zero.
double smallest_subnormal(sddmm_dtype_t dtype);
// Round to nearest gives infinity from this magnitude on (fp16: 65520).
double overflow_threshold(sddmm_dtype_t dtype);

ElementBytes element_bytes(const Precision& precision);

// Relative error the library may add to each product beyond fp32 arithmetic: 2^-10 + 2^-22 with
// TF32 allowed (each factor rounded to 11 significant bits), else 0.
double product_error(const Precision& precision);

}  // namespace sddmm::bench
