// Values as the library stores them: the element types of sddmm.h (float32, float64, float16,
// bfloat16), rounding to them, and typed buffers written from and read back into float64. Test data is
// generated in float64, then rounded to its storage type on the way in (write_dense, to_storage,
// round_values); the reference reads the stored values back (read_dense, from_storage), so it computes
// in float64 from exactly what the library sees.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "coo.hpp"
#include "reference.hpp"
#include "sddmm.h"

namespace sddmm::testkit {

size_t size_of(sddmm_dtype_t t);       // bytes of one element
const char* name_of(sddmm_dtype_t t);  // "float32", "float64", "float16", "bfloat16"

// v as stored in t: rounded once, to nearest even; beyond the format's range, Inf.
double round_to(sddmm_dtype_t t, double v);

// The unit roundoff of t: 2^-24 (float32), 2^-53 (float64), 2^-11 (float16), 2^-8 (bfloat16).
double unit_roundoff(sddmm_dtype_t t);
// The smallest positive (subnormal) value of t: the spacing of t's values near zero.
double smallest_subnormal(sddmm_dtype_t t);

// One element of type t at `at` (any alignment).
void store(sddmm_dtype_t t, double v, void* at);
double load(sddmm_dtype_t t, const void* at);

// A vector as storage of type t (at least one element's bytes, so that .data() is never NULL), and back.
std::vector<unsigned char> to_storage(const std::vector<double>& v, sddmm_dtype_t t);
std::vector<double> from_storage(const std::vector<unsigned char>& bytes, sddmm_dtype_t t);

// Rounds A's values to t, as a caller holding them in t would have them.
void round_values(CooMatrix& a, sddmm_dtype_t t);

// m as storage of type t in `layout` with leading dimension ld (elements); the padding beyond each row
// (or column) holds `padding` (NaN, to catch reads of it).
std::vector<unsigned char> write_dense(const DenseMatrix& m, sddmm_dtype_t t, sddmm_layout_t layout, int64_t ld,
                                       double padding);
// The rows x cols operand of type t stored at `data` in `layout` with leading dimension ld.
DenseMatrix read_dense(const void* data, sddmm_dtype_t t, int64_t rows, int64_t cols, sddmm_layout_t layout,
                       int64_t ld);

}  // namespace sddmm::testkit
