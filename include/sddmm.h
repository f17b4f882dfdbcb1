/*
 * sddmm.h - the whole public surface of libsddmm.
 *
 * Two sparse kernels over one fixed sparse pattern A (rows x cols, nnz stored entries):
 *   SDDMM  out[p] = A.val[p] * sum_k X1[row_p, k] * X2[k, col_p]   for every stored entry p
 *   SpMM   Y = A @ X   or   Y = A^T @ X
 *
 * Create once, execute many: sddmm_create_coo / sddmm_create_csr validate the pattern, sort it and
 * build a plan on the backend that will run it (this may allocate and synchronise). sddmm_execute and
 * spmm_execute are asynchronous on the caller's stream, allocate nothing and never synchronise, so they
 * can be captured in a CUDA graph.
 *
 * Memory: every pointer given for a handle lives where the handle runs - host memory for
 * SDDMM_BACKEND_CPU, device (or managed) memory of that device for SDDMM_BACKEND_CUDA.
 *
 * Errors: every function returns an sddmm_status_t. Nothing here prints, exits, aborts or throws. On
 * failure, sddmm_last_error() returns a message for the calling thread naming the offending argument,
 * and outputs are left untouched.
 *
 * Threads: a created handle is immutable. Any number of threads may call sddmm_execute and
 * spmm_execute on one handle at once, on the same or different streams, as long as each call has its
 * own output. sddmm_destroy must not race with an execute on the same handle.
 *
 * Plain C99; needs no CUDA header (a cudaStream_t is passed as void*; NULL is the default stream).
 */
#ifndef SDDMM_H
#define SDDMM_H

#include <stdint.h>

#define SDDMM_VERSION_MAJOR 0
#define SDDMM_VERSION_MINOR 1
#define SDDMM_VERSION_PATCH 0
/* MAJOR * 10000 + MINOR * 100 + PATCH, as sddmm_version() returns it. */
#define SDDMM_VERSION_NUMBER (SDDMM_VERSION_MAJOR * 10000 + SDDMM_VERSION_MINOR * 100 + SDDMM_VERSION_PATCH)

#if defined(SDDMM_STATIC_DEFINE)
#define SDDMM_API
#elif defined(_WIN32)
#if defined(SDDMM_BUILDING_SHARED)
#define SDDMM_API __declspec(dllexport)
#else
#define SDDMM_API __declspec(dllimport)
#endif
#elif defined(__GNUC__) || defined(__clang__)
#define SDDMM_API __attribute__((visibility("default")))
#else
#define SDDMM_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. Values are pinned: they are part of the ABI and never renumbered. */
typedef enum sddmm_status_t {
  SDDMM_STATUS_SUCCESS = 0,
  SDDMM_STATUS_NULL_POINTER = 1,      /* a required pointer is NULL (handle, descriptor, array with size > 0) */
  SDDMM_STATUS_INVALID_ARGUMENT = 2,  /* negative size, unknown enum value, leading dimension too small, ... */
  SDDMM_STATUS_INDEX_OUT_OF_RANGE = 3, /* a row/col index or a CSR offset outside its range */
  SDDMM_STATUS_SHAPE_MISMATCH = 4,    /* dense operand shapes do not agree with A or with each other */
  SDDMM_STATUS_SIZE_OVERFLOW = 5,     /* a size product overflows int64, or nnz/dims exceed the index type */
  SDDMM_STATUS_NOT_SUPPORTED = 6,     /* valid request this build or backend does not offer (e.g. a dtype mix) */
  SDDMM_STATUS_OUT_OF_MEMORY = 7,     /* host or device allocation failed during creation */
  SDDMM_STATUS_NO_DEVICE = 8,         /* CUDA backend asked for, but no usable device/driver, or not built */
  SDDMM_STATUS_INVALID_POINTER = 9,   /* pointer in the wrong memory (host vs device, other device), or (CUDA)
                                         its allocation ends before the extent its descriptor claims */
  SDDMM_STATUS_CUDA_ERROR = 10,       /* the CUDA runtime reported an error (message names it) */
  SDDMM_STATUS_INTERNAL_ERROR = 11    /* a bug in this library; please report the message */
} sddmm_status_t;

/* Element types of values, dense operands and outputs. float16 is IEEE binary16, bfloat16 the upper
 * 16 bits of a float32; both are 2-byte elements. The dtypes of a call (A's values, the features X1 and
 * X2 or X, the output) must be one of: one dtype throughout (each of the four), or float16 or bfloat16
 * features with float32 values and output. Others return SDDMM_STATUS_NOT_SUPPORTED. */
typedef enum sddmm_dtype_t {
  SDDMM_DTYPE_FLOAT32 = 0,
  SDDMM_DTYPE_FLOAT64 = 1,
  SDDMM_DTYPE_FLOAT16 = 2,
  SDDMM_DTYPE_BFLOAT16 = 3
} sddmm_dtype_t;

/* Element type of the caller's index arrays (row/col indices and CSR row offsets). */
typedef enum sddmm_index_type_t {
  SDDMM_INDEX_INT32 = 0,
  SDDMM_INDEX_INT64 = 1
} sddmm_index_type_t;

/* Dense layouts. Row-major: element (i, j) at data[i * ld + j]; column-major: at data[j * ld + i]. */
typedef enum sddmm_layout_t {
  SDDMM_LAYOUT_ROW_MAJOR = 0,
  SDDMM_LAYOUT_COL_MAJOR = 1
} sddmm_layout_t;

/* What runs a handle, and where its arrays live. */
typedef enum sddmm_backend_t {
  SDDMM_BACKEND_CPU = 0,
  SDDMM_BACKEND_CUDA = 1
} sddmm_backend_t;

/* SpMM operation on A. */
typedef enum sddmm_operation_t {
  SDDMM_OPERATION_NON_TRANSPOSE = 0, /* Y = A @ X,   X is cols x N, Y is rows x N */
  SDDMM_OPERATION_TRANSPOSE = 1      /* Y = A^T @ X, X is rows x N, Y is cols x N */
} sddmm_operation_t;

/* Bits of the flags argument of the create functions. Unknown bits are rejected. */
typedef enum sddmm_create_flag_t {
  SDDMM_CREATE_DEFAULT = 0,
  /* Allow reduced-precision tensor-core arithmetic (TF32) for float32 operands. Off by default. */
  SDDMM_CREATE_ALLOW_TF32 = 1
} sddmm_create_flag_t;

/* A dense matrix operand: rows x cols elements of dtype, with leading dimension ld (in elements,
 * ld >= cols for row-major, ld >= rows for column-major). A 1-D vector of length n is n x 1 (X1)
 * or 1 x n (X2). */
typedef struct sddmm_dense_t {
  void *data;
  int64_t rows;
  int64_t cols;
  int64_t ld;
  sddmm_layout_t layout;
  sddmm_dtype_t dtype;
} sddmm_dense_t;

/* Opaque handle: a sparse matrix's pattern, values and execution plan. */
typedef struct sddmm_matrix_s *sddmm_matrix_t;

/* Runtime version, SDDMM_VERSION_NUMBER of the library actually loaded. */
SDDMM_API int32_t sddmm_version(void);

/* A static, never-NULL English name of a status ("SDDMM_STATUS_SUCCESS", ...; "unknown status"). */
SDDMM_API const char *sddmm_status_string(sddmm_status_t status);

/* The message of the calling thread's last failed call ("" if none). Valid until this thread's next
 * call into the library. */
SDDMM_API const char *sddmm_last_error(void);

/*
 * Create a handle from COO arrays: entry p is (row_idx[p], col_idx[p]) with value values[p].
 * Unsorted and duplicate entries are allowed: SDDMM computes each one, SpMM sums them.
 * values may be NULL (every value is 1). value_dtype names values' type (any sddmm_dtype_t); the
 * dense operands and outputs of each execute must form a supported combination with it (see
 * sddmm_dtype_t). device_id selects the CUDA device (ignored for the CPU).
 * stream orders creation after the caller's writes to the arrays (CUDA); creation synchronises it.
 * The arrays are copied: the caller may free them after return.
 */
SDDMM_API sddmm_status_t sddmm_create_coo(sddmm_matrix_t *matrix, int64_t rows, int64_t cols, int64_t nnz,
                                          const void *row_idx, const void *col_idx, sddmm_index_type_t index_type,
                                          const void *values, sddmm_dtype_t value_dtype, sddmm_backend_t backend,
                                          int32_t device_id, uint32_t flags, void *stream);

/*
 * Create a handle from CSR arrays: row_offsets has rows + 1 entries, starts at 0, never decreases and
 * ends at nnz; entries of row r are row_offsets[r] .. row_offsets[r+1]-1 of col_idx and values.
 * Otherwise as sddmm_create_coo; "entry order" for SDDMM output is the CSR storage order.
 */
SDDMM_API sddmm_status_t sddmm_create_csr(sddmm_matrix_t *matrix, int64_t rows, int64_t cols, int64_t nnz,
                                          const void *row_offsets, const void *col_idx, sddmm_index_type_t index_type,
                                          const void *values, sddmm_dtype_t value_dtype, sddmm_backend_t backend,
                                          int32_t device_id, uint32_t flags, void *stream);

/* Destroy a handle; NULL is accepted and ignored. Waits for nothing: the caller makes sure no
 * execute on this handle is still running. */
SDDMM_API sddmm_status_t sddmm_destroy(sddmm_matrix_t matrix);

/* Shape of a handle; any output pointer may be NULL. */
SDDMM_API sddmm_status_t sddmm_get_shape(sddmm_matrix_t matrix, int64_t *rows, int64_t *cols, int64_t *nnz);

/*
 * SDDMM: out[p] = A.val[p] * sum_k X1[row_p, k] * X2[k, col_p] for p in 0 .. nnz-1, in the caller's
 * own entry order. X1 is rows x K, X2 is K x cols (K may be 0: out is all zeros), both of one dtype.
 * out has nnz elements of out_dtype. Fastest with X1 row-major and X2 column-major.
 */
SDDMM_API sddmm_status_t sddmm_execute(sddmm_matrix_t matrix, const sddmm_dense_t *x1, const sddmm_dense_t *x2,
                                       void *out, sddmm_dtype_t out_dtype, void *stream);

/*
 * SpMM: Y = op(A) @ X, overwriting Y (rows of Y that A leaves empty become 0). Non-transpose: X is
 * cols x N, Y is rows x N; transpose: X is rows x N, Y is cols x N. Fastest with X and Y row-major.
 * Y must not overlap X.
 */
SDDMM_API sddmm_status_t spmm_execute(sddmm_matrix_t matrix, const sddmm_dense_t *x, const sddmm_dense_t *y,
                                      sddmm_operation_t operation, void *stream);

#ifdef __cplusplus
}
#endif

#endif /* SDDMM_H */
