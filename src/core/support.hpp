// Which dtype combinations are offered (the table is in support.cpp). One place, so that adding a
// precision is one edit there plus its kernels; everything else returns NOT_SUPPORTED with a message
// that names the argument and lists what is offered, never a wrong result.
#pragma once

#include "core/dense.hpp"
#include "core/matrix.hpp"

namespace sddmm {

// Every dtype and backend argument is a valid enum value (checked by the caller).
void require_supported_values(sddmm_dtype_t value_dtype, sddmm_backend_t backend);
void require_supported_sddmm(const MatrixInfo& a, const DenseView& x1, const DenseView& x2, sddmm_dtype_t out_dtype);
void require_supported_spmm(const MatrixInfo& a, const DenseView& x, const DenseView& y);

}  // namespace sddmm
