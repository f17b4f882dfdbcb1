/* The README's C example: SDDMM and SpMM of a 3 x 4 matrix on the CPU backend. */
#include <stdio.h>

#include "sddmm.h"

int main(void) {
  /* A (3 x 4) with entries (1,2)=1, (1,3)=2, (2,3)=3 - the DGL documentation's example. */
  const int32_t row[] = {1, 1, 2};
  const int32_t col[] = {2, 3, 3};
  const float val[] = {1.0f, 2.0f, 3.0f};
  sddmm_matrix_t a = NULL;
  if (sddmm_create_coo(&a, 3, 4, 3, row, col, SDDMM_INDEX_INT32, val, SDDMM_DTYPE_FLOAT32, SDDMM_BACKEND_CPU, 0, 0,
                       NULL) != SDDMM_STATUS_SUCCESS) {
    fprintf(stderr, "create: %s\n", sddmm_last_error());
    return 1;
  }
  /* X1: 3 x 2 row-major; X2: 2 x 4 column-major (K = 2). */
  float x1[] = {1, 1, 1, 2, 3, 4};
  float x2[] = {1, 0, 1, 1, 2, 0, 0, 5};
  const sddmm_dense_t d1 = {x1, 3, 2, 2, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
  const sddmm_dense_t d2 = {x2, 2, 4, 2, SDDMM_LAYOUT_COL_MAJOR, SDDMM_DTYPE_FLOAT32};
  float out[3];
  if (sddmm_execute(a, &d1, &d2, out, SDDMM_DTYPE_FLOAT32, NULL) != SDDMM_STATUS_SUCCESS) {
    fprintf(stderr, "sddmm: %s\n", sddmm_last_error());
    return 1;
  }
  /* out[0] = 1 * (1*2 + 2*0) = 2, out[1] = 2 * (1*0 + 2*5) = 20, out[2] = 3 * (3*0 + 4*5) = 60 */
  printf("sddmm: %g %g %g\n", out[0], out[1], out[2]);

  float x[] = {1, 2, 3, 4}; /* 4 x 1 */
  float y[3];
  const sddmm_dense_t dx = {x, 4, 1, 1, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
  const sddmm_dense_t dy = {y, 3, 1, 1, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
  if (spmm_execute(a, &dx, &dy, SDDMM_OPERATION_NON_TRANSPOSE, NULL) != SDDMM_STATUS_SUCCESS) {
    fprintf(stderr, "spmm: %s\n", sddmm_last_error());
    return 1;
  }
  printf("spmm: %g %g %g\n", y[0], y[1], y[2]); /* 0, 1*3 + 2*4 = 11, 3*4 = 12 */
  sddmm_destroy(a);
  return (out[0] == 2.0f && out[1] == 20.0f && out[2] == 60.0f && y[1] == 11.0f && y[2] == 12.0f) ? 0 : 1;
}
