/* C wrappers of the API calls that take enums, for the C++ harness (see c_calls.c). */
#ifndef SDDMM_FUZZ_C_CALLS_H
#define SDDMM_FUZZ_C_CALLS_H

#include "sddmm.h"

#ifdef __cplusplus
extern "C" {
#endif

sddmm_status_t fuzz_create(int csr, sddmm_matrix_t* matrix, int64_t rows, int64_t cols, int64_t nnz,
                           const void* row_arg, const void* col_idx, int index_type, const void* values,
                           int value_dtype, int backend, int32_t device_id, uint32_t flags);
sddmm_status_t fuzz_sddmm_execute(sddmm_matrix_t matrix, const sddmm_dense_t* x1, const sddmm_dense_t* x2, void* out,
                                  int out_dtype);
sddmm_status_t fuzz_spmm_execute(sddmm_matrix_t matrix, const sddmm_dense_t* x, const sddmm_dense_t* y, int operation);
/* Writes a descriptor's enum fields from any int. */
void fuzz_set_enums(sddmm_dense_t* desc, int layout, int dtype);

#ifdef __cplusplus
}
#endif

#endif
