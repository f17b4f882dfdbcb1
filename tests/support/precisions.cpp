#include "precisions.hpp"

#include <cmath>

#include "storage.hpp"

namespace sddmm::test {

Precision uniform(sddmm_dtype_t t) {
  return Precision{t, t, t};
}

std::vector<Precision> supported_precisions() {
  const auto f32 = SDDMM_DTYPE_FLOAT32;
  return {uniform(f32),
          uniform(SDDMM_DTYPE_FLOAT64),
          uniform(SDDMM_DTYPE_FLOAT16),
          uniform(SDDMM_DTYPE_BFLOAT16),
          Precision{f32, SDDMM_DTYPE_FLOAT16, f32},
          Precision{f32, SDDMM_DTYPE_BFLOAT16, f32}};
}

bool is_supported(const Precision& p) {
  for (const Precision& s : supported_precisions()) {
    if (s.values == p.values && s.features == p.features && s.output == p.output) return true;
  }
  return false;
}

const std::vector<sddmm_dtype_t>& all_dtypes() {
  static const std::vector<sddmm_dtype_t> dtypes{SDDMM_DTYPE_FLOAT32, SDDMM_DTYPE_FLOAT64, SDDMM_DTYPE_FLOAT16,
                                                 SDDMM_DTYPE_BFLOAT16};
  return dtypes;
}

std::string describe(const Precision& p) {
  return std::string("values ") + testkit::name_of(p.values) + ", features " + testkit::name_of(p.features) +
         ", output " + testkit::name_of(p.output);
}

Tolerance::Tolerance(sddmm_backend_t backend, const Precision& p)
    : output_unit_(testkit::unit_roundoff(p.output)),
      output_floor_(testkit::smallest_subnormal(p.output) / 2),
      accumulator_unit_(backend == SDDMM_BACKEND_CUDA && p.features != SDDMM_DTYPE_FLOAT64 ? 0x1p-24 : 0x1p-53) {}

double Tolerance::bound(double ref, double magnitude, int64_t terms) const {
  return output_unit_ * std::fabs(ref) + output_floor_ +
         4.0 * static_cast<double>(terms + 2) * accumulator_unit_ * magnitude;
}

}  // namespace sddmm::test
