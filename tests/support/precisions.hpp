// The dtype combinations of the tests and the rounding tolerance each one is held to. The supported
// list is the README's table, written out here on its own, not read from the library: the tests check
// the library against it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sddmm.h"

namespace sddmm::test {

// A call's dtypes: A's values, the dense operands (features: x1 and x2, or x), the output (out or y).
struct Precision {
  sddmm_dtype_t values = SDDMM_DTYPE_FLOAT32;
  sddmm_dtype_t features = SDDMM_DTYPE_FLOAT32;
  sddmm_dtype_t output = SDDMM_DTYPE_FLOAT32;
};

// One dtype throughout.
Precision uniform(sddmm_dtype_t t);

// V = F = O for each of the four dtypes, then float16 and bfloat16 features with float32 values and output.
std::vector<Precision> supported_precisions();
bool is_supported(const Precision& p);

// The four dtypes, for loops over every combination.
const std::vector<sddmm_dtype_t>& all_dtypes();

std::string describe(const Precision& p);  // "values float32, features float16, output float32"

// The bound on |out - ref| for an output whose float64 reference is ref, a sum of `terms` products
// whose magnitudes add up to `magnitude`:
//   u_O |ref| + s_O / 2 + 4 (terms + 2) u_acc magnitude
// u_O is the output's unit roundoff and s_O its smallest subnormal (one rounding to the output, which
// is absolute below its normal range); the last term bounds the accumulation's rounding, at the unit
// roundoff u_acc of the accumulator: float64 on the CPU; on the GPU float32, or float64 for float64
// features. The reference's own float64 error is far inside it.
class Tolerance {
 public:
  Tolerance(sddmm_backend_t backend, const Precision& p);
  double bound(double ref, double magnitude, int64_t terms) const;

 private:
  double output_unit_;
  double output_floor_;
  double accumulator_unit_;
};

}  // namespace sddmm::test
