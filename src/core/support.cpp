#include "core/support.hpp"

#include "core/dtype.hpp"
#include "core/error.hpp"

namespace sddmm {
namespace {

bool is_full_precision(sddmm_dtype_t t) { return t == SDDMM_DTYPE_FLOAT32 || t == SDDMM_DTYPE_FLOAT64; }

void require_same(sddmm_dtype_t values, sddmm_dtype_t operand, const char* what) {
  if (operand != values) {
    fail(SDDMM_STATUS_NOT_SUPPORTED, what, " is ", name_of(operand), " but A's values are ", name_of(values),
         ": mixed precisions are not supported yet");
  }
}

}  // namespace

void require_supported_values(sddmm_dtype_t value_dtype, sddmm_backend_t /*backend*/) {
  if (!is_full_precision(value_dtype)) {
    fail(SDDMM_STATUS_NOT_SUPPORTED, "value_dtype ", name_of(value_dtype), " is not supported yet (float32 and float64 are)");
  }
}

void require_supported_sddmm(const MatrixInfo& a, const DenseView& x1, const DenseView& x2, sddmm_dtype_t out_dtype) {
  require_same(a.value_dtype, x1.dtype, "x1.dtype");
  require_same(a.value_dtype, x2.dtype, "x2.dtype");
  require_same(a.value_dtype, out_dtype, "out_dtype");
}

void require_supported_spmm(const MatrixInfo& a, const DenseView& x, const DenseView& y) {
  require_same(a.value_dtype, x.dtype, "x.dtype");
  require_same(a.value_dtype, y.dtype, "y.dtype");
}

}  // namespace sddmm
