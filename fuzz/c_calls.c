/* The calls as a C caller makes them. In C an enum argument is a plain int and may hold any value; a
 * C++ caller cannot even form an out-of-range enum without undefined behaviour, so the harness
 * passes its hostile enum values through here. */
#include "c_calls.h"

sddmm_status_t fuzz_create(int csr, sddmm_matrix_t* matrix, int64_t rows, int64_t cols, int64_t nnz,
                           const void* row_arg, const void* col_idx, int index_type, const void* values,
                           int value_dtype, int backend, int32_t device_id, uint32_t flags) {
  if (csr) {
    return sddmm_create_csr(matrix, rows, cols, nnz, row_arg, col_idx, index_type, values, value_dtype, backend,
                            device_id, flags, 0);
  }
  return sddmm_create_coo(matrix, rows, cols, nnz, row_arg, col_idx, index_type, values, value_dtype, backend,
                          device_id, flags, 0);
}

sddmm_status_t fuzz_sddmm_execute(sddmm_matrix_t matrix, const sddmm_dense_t* x1, const sddmm_dense_t* x2, void* out,
                                  int out_dtype) {
  return sddmm_execute(matrix, x1, x2, out, out_dtype, 0);
}

sddmm_status_t fuzz_spmm_execute(sddmm_matrix_t matrix, const sddmm_dense_t* x, const sddmm_dense_t* y, int operation) {
  return spmm_execute(matrix, x, y, operation, 0);
}

void fuzz_set_enums(sddmm_dense_t* desc, int layout, int dtype) {
  desc->layout = layout;
  desc->dtype = dtype;
}
