/* A consumer of the installed library: builds against the installed header and links through
 * pkg-config or find_package(sddmm), then runs one SDDMM and one SpMM on the CPU backend and checks
 * the numbers worked out by hand below. Exit status 0 only if every number is right. */
#include <sddmm.h>
#include <stdio.h>

static int check_status(sddmm_status_t status, const char* what) {
  if (status != SDDMM_STATUS_SUCCESS) {
    fprintf(stderr, "%s: %s: %s\n", what, sddmm_status_string(status), sddmm_last_error());
    return 1;
  }
  return 0;
}

int main(void) {
  /* A (2 x 3) = [[0, 2, 0], [1, 0, 3]]: entries (0,1)=2, (1,0)=1, (1,2)=3. */
  const int64_t row_idx[] = {0, 1, 1};
  const int64_t col_idx[] = {1, 0, 2};
  const double values[] = {2.0, 1.0, 3.0};
  /* X1 (2 x 2) row-major = [[1, 2], [3, 4]]; X2 (2 x 3) row-major = [[1, 0, 1], [0, 1, 2]]. */
  double x1_data[] = {1.0, 2.0, 3.0, 4.0};
  double x2_data[] = {1.0, 0.0, 1.0, 0.0, 1.0, 2.0};
  /* out[p] = A.val[p] * dot(X1[row_p, :], X2[:, col_p]):
   *   (0,1): dot([1,2], [0,1]) = 2, times 2 = 4
   *   (1,0): dot([3,4], [1,0]) = 3, times 1 = 3
   *   (1,2): dot([3,4], [1,2]) = 11, times 3 = 33 */
  const double expected_sddmm[] = {4.0, 3.0, 33.0};
  /* Y = A @ X with X (3 x 1) = [1, 2, 3]: [2*2, 1*1 + 3*3] = [4, 10]. */
  double x_data[] = {1.0, 2.0, 3.0};
  const double expected_spmm[] = {4.0, 10.0};
  double out[3] = {-1.0, -1.0, -1.0};
  double y_data[2] = {-1.0, -1.0};
  sddmm_matrix_t a = NULL;
  int failures = 0;
  int i;

  if (sddmm_version() != SDDMM_VERSION_NUMBER) {
    fprintf(stderr, "library version %d, header version %d\n", (int)sddmm_version(), SDDMM_VERSION_NUMBER);
    return 1;
  }
  if (check_status(sddmm_create_coo(&a, 2, 3, 3, row_idx, col_idx, SDDMM_INDEX_INT64, values, SDDMM_DTYPE_FLOAT64,
                                    SDDMM_BACKEND_CPU, 0, SDDMM_CREATE_DEFAULT, NULL),
                   "sddmm_create_coo")) {
    return 1;
  }
  {
    const sddmm_dense_t x1 = {x1_data, 2, 2, 2, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT64};
    const sddmm_dense_t x2 = {x2_data, 2, 3, 3, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT64};
    const sddmm_dense_t x = {x_data, 3, 1, 1, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT64};
    const sddmm_dense_t y = {y_data, 2, 1, 1, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT64};
    failures += check_status(sddmm_execute(a, &x1, &x2, out, SDDMM_DTYPE_FLOAT64, NULL), "sddmm_execute");
    failures += check_status(spmm_execute(a, &x, &y, SDDMM_OPERATION_NON_TRANSPOSE, NULL), "spmm_execute");
  }
  failures += check_status(sddmm_destroy(a), "sddmm_destroy");
  for (i = 0; i < 3; ++i) {
    if (out[i] != expected_sddmm[i]) {
      fprintf(stderr, "sddmm out[%d] = %g, expected %g\n", i, out[i], expected_sddmm[i]);
      ++failures;
    }
  }
  for (i = 0; i < 2; ++i) {
    if (y_data[i] != expected_spmm[i]) {
      fprintf(stderr, "spmm y[%d] = %g, expected %g\n", i, y_data[i], expected_spmm[i]);
      ++failures;
    }
  }
  if (failures == 0) {
    printf("consumer: libsddmm %d: sddmm and spmm match\n", (int)sddmm_version());
  }
  return failures == 0 ? 0 : 1;
}
