// The dtypes of a call: whether they are a supported (values, features, output) combination, judged
// by the tests' own copy of the table (tests/support/precisions.hpp, not the library's), and draws of
// dtypes that are mostly the offered ones.
#pragma once

#include <vector>

#include "byte_reader.hpp"
#include "caller_memory.hpp"
#include "precisions.hpp"
#include "sddmm.h"

namespace sddmm::fuzz {

inline bool is_supported(int values, int features, int output) {
  if (!is_dtype(values) || !is_dtype(features) || !is_dtype(output)) return false;
  return test::is_supported(test::Precision{static_cast<sddmm_dtype_t>(values), static_cast<sddmm_dtype_t>(features),
                                            static_cast<sddmm_dtype_t>(output)});
}

// Mostly features offered with these values, sometimes any dtype or none.
inline int draw_features(ByteReader& in, int values) {
  std::vector<int> offered;
  for (const test::Precision& p : test::supported_precisions()) {
    if (p.values == values) offered.push_back(p.features);
  }
  const uint8_t b = in.byte();
  if (b < 224 && !offered.empty()) return offered[b % offered.size()];
  const int any[] = {SDDMM_DTYPE_FLOAT32, SDDMM_DTYPE_FLOAT64, SDDMM_DTYPE_FLOAT16, SDDMM_DTYPE_BFLOAT16, 9};
  return in.pick(any);
}

// Mostly the output offered with these values and features, sometimes any dtype or none.
inline int draw_output(ByteReader& in, int values, int features) {
  for (const test::Precision& p : test::supported_precisions()) {
    if (p.values == values && p.features == features && in.chance(240)) return p.output;
  }
  const int any[] = {SDDMM_DTYPE_FLOAT32, SDDMM_DTYPE_FLOAT64, SDDMM_DTYPE_FLOAT16, SDDMM_DTYPE_BFLOAT16, -3};
  return in.pick(any);
}

}  // namespace sddmm::fuzz
