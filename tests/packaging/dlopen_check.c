/* Loads libsddmm at run time with dlopen, as a language binding without a C compiler would, and
 * checks the C API through symbols found with dlsym: the version, one SDDMM on the CPU backend, and
 * that asking for a CUDA handle returns SDDMM_STATUS_NO_DEVICE when there is no GPU (or the build
 * has no CUDA backend) instead of crashing. SUCCESS is accepted only when the build has CUDA and
 * the CUDA driver reports a device.
 *
 * Last, dlclose must leave the library loaded: once an SDDMM has run, OpenMP's worker threads live
 * in libgomp, and unloading libsddmm (and libgomp with it) under them crashed the process in 24 of
 * 300 runs. libsddmm.so is linked with -z nodelete for that; dlopen(RTLD_NOLOAD) checks it
 * deterministically, where the crash itself is a race.
 *
 * Usage: sddmm-dlopen-check <path to libsddmm.so> <1 if built with CUDA, else 0> */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sddmm.h"

/* Function pointers typed from the header's own declarations, so they cannot drift from it. */
static __typeof__(&sddmm_version) p_version;
static __typeof__(&sddmm_status_string) p_status_string;
static __typeof__(&sddmm_last_error) p_last_error;
static __typeof__(&sddmm_create_coo) p_create_coo;
static __typeof__(&sddmm_destroy) p_destroy;
static __typeof__(&sddmm_execute) p_execute;

/* dlsym returns an object pointer; ISO C has no conversion to a function pointer, so copy bytes. */
static int lookup(void* library, const char* name, void* function_pointer, size_t size) {
  void* symbol = dlsym(library, name);
  if (symbol == NULL) {
    fprintf(stderr, "dlsym(%s): %s\n", name, dlerror());
    return 1;
  }
  memcpy(function_pointer, &symbol, size);
  return 0;
}
#define LOOKUP(library, name, pointer) lookup((library), (name), &(pointer), sizeof(pointer))

/* How many CUDA devices the driver reports: 0 when libcuda is absent or fails to initialise. */
static int cuda_device_count(void) {
  typedef int (*cu_init_fn)(unsigned int);
  typedef int (*cu_device_get_count_fn)(int*);
  cu_init_fn cu_init = NULL;
  cu_device_get_count_fn cu_device_get_count = NULL;
  int count = 0;
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver == NULL) {
    return 0;
  }
  if (LOOKUP(driver, "cuInit", cu_init) != 0 || LOOKUP(driver, "cuDeviceGetCount", cu_device_get_count) != 0 ||
      cu_init(0) != 0 || cu_device_get_count(&count) != 0) {
    count = 0;
  }
  dlclose(driver);
  return count;
}

static int run_cpu_sddmm(void) {
  /* A (2 x 2) = [[0, 2], [3, 0]]; X1 (2 x 1) = [1, 2]; X2 (1 x 2) = [10, 20].
   * out = [2 * 1 * 20, 3 * 2 * 10] = [40, 60]. */
  const int32_t row_idx[] = {0, 1};
  const int32_t col_idx[] = {1, 0};
  const float values[] = {2.0f, 3.0f};
  float x1_data[] = {1.0f, 2.0f};
  float x2_data[] = {10.0f, 20.0f};
  float out[2] = {-1.0f, -1.0f};
  const sddmm_dense_t x1 = {x1_data, 2, 1, 1, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
  const sddmm_dense_t x2 = {x2_data, 1, 2, 2, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
  sddmm_matrix_t a = NULL;
  sddmm_status_t status = p_create_coo(&a, 2, 2, 2, row_idx, col_idx, SDDMM_INDEX_INT32, values, SDDMM_DTYPE_FLOAT32,
                                       SDDMM_BACKEND_CPU, 0, 0, NULL);
  if (status == SDDMM_STATUS_SUCCESS) {
    status = p_execute(a, &x1, &x2, out, SDDMM_DTYPE_FLOAT32, NULL);
  }
  if (status != SDDMM_STATUS_SUCCESS) {
    fprintf(stderr, "CPU SDDMM: %s: %s\n", p_status_string(status), p_last_error());
    p_destroy(a);
    return 1;
  }
  p_destroy(a);
  if (out[0] != 40.0f || out[1] != 60.0f) {
    fprintf(stderr, "CPU SDDMM: got [%g, %g], expected [40, 60]\n", out[0], out[1]);
    return 1;
  }
  return 0;
}

/* nnz = 0, so no array is needed on the device: only the backend's availability decides. */
static int check_cuda_handle(int built_with_cuda) {
  const int devices = cuda_device_count();
  const sddmm_status_t expected = built_with_cuda && devices > 0 ? SDDMM_STATUS_SUCCESS : SDDMM_STATUS_NO_DEVICE;
  sddmm_matrix_t a = NULL;
  const sddmm_status_t status = p_create_coo(&a, 2, 2, 0, NULL, NULL, SDDMM_INDEX_INT32, NULL, SDDMM_DTYPE_FLOAT32,
                                             SDDMM_BACKEND_CUDA, 0, 0, NULL);
  printf("CUDA handle (build has CUDA: %d, driver devices: %d): %s%s%s\n", built_with_cuda, devices,
         p_status_string(status), status == SDDMM_STATUS_SUCCESS ? "" : ": ",
         status == SDDMM_STATUS_SUCCESS ? "" : p_last_error());
  p_destroy(a);
  if (status != expected) {
    fprintf(stderr, "CUDA handle: expected %s\n", p_status_string(expected));
    return 1;
  }
  return 0;
}

int main(int argc, char** argv) {
  void* library;
  int failures;
  if (argc != 3) {
    fprintf(stderr, "usage: %s <path to libsddmm.so> <built with CUDA: 0|1>\n", argv[0]);
    return 2;
  }
  library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    fprintf(stderr, "dlopen(%s): %s\n", argv[1], dlerror());
    return 1;
  }
  if (LOOKUP(library, "sddmm_version", p_version) || LOOKUP(library, "sddmm_status_string", p_status_string) ||
      LOOKUP(library, "sddmm_last_error", p_last_error) || LOOKUP(library, "sddmm_create_coo", p_create_coo) ||
      LOOKUP(library, "sddmm_destroy", p_destroy) || LOOKUP(library, "sddmm_execute", p_execute)) {
    return 1;
  }
  if (p_version() != SDDMM_VERSION_NUMBER) {
    fprintf(stderr, "loaded version %d, header version %d\n", (int)p_version(), SDDMM_VERSION_NUMBER);
    return 1;
  }
  failures = run_cpu_sddmm() + check_cuda_handle(atoi(argv[2]) != 0);
  dlclose(library);
  if (dlopen(argv[1], RTLD_NOW | RTLD_NOLOAD) == NULL) {
    fprintf(stderr, "dlclose unloaded libsddmm: link it with -Wl,-z,nodelete (OpenMP threads outlive it)\n");
    ++failures;
  }
  if (failures == 0) {
    printf("dlopen check: ok\n");
  }
  return failures == 0 ? 0 : 1;
}
