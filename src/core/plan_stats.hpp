// Facts about a handle's plan for the project's own tools (the benchmark links the static library):
// not part of the C ABI, and not exported from the shared library (src/exports.map).
#pragma once

#include <cstdint>

#include "sddmm.h"

struct sddmm_matrix_s;

namespace sddmm {

// Entries that an SDDMM with this K and features of this dtype sends to the tensor-core kernels,
// given 16-byte aligned, K-contiguous operands (choose_sddmm_kernel in src/cuda/sddmm/sddmm.cu); 0
// for float64 plans, the CPU backend and a null handle.
int64_t tensor_core_entries(const sddmm_matrix_s* a, int64_t k, sddmm_dtype_t features);

// Which tensor-core kernel takes those entries: "units" (a block per work item of dense units of
// one chunk), "squares" (a block per 8 x 2 units: src/cuda/sddmm/sddmm_tensor_square_kernel.cuh)
// "wgmma-squares" (the same squares by Hopper's wgmma: sddmm_wgmma_square_kernel.cuh) or
// "wgmma-walk" (tiles of 8 units walked with their X1 rows held: sddmm_wgmma_walk_kernel.cuh); ""
// where none go to tensor cores.
const char* tensor_core_kernel(const sddmm_matrix_s* a, int64_t k, sddmm_dtype_t features);

// Which CUDA-core kernel an SDDMM with this K and features of this dtype (output of the values'
// type) runs, given 16-byte aligned, K-contiguous operands (choose_sddmm_kernel): "entries" (the
// entry kernel, sddmm_kernel.cuh; "entries-k-parts" over parts of K), "line", "tile", "panel" or
// "strided"; where tensor_core_entries is not 0, the kernel of the other entries. "" for the CPU
// backend, a null handle and features the plan has no kernel for.
const char* cuda_core_kernel(const sddmm_matrix_s* a, int64_t k, sddmm_dtype_t features);

// Entries that an SpMM (y = A x, not transposed) with N columns and features of this dtype sends to
// the tensor-core kernel (src/cuda/spmm/spmm_tensor_kernel.cuh), given row-major, 16-byte aligned
// operands (choose_spmm_kernel in src/cuda/spmm/spmm.cu); 0 where it takes none.
int64_t spmm_tensor_core_entries(const sddmm_matrix_s* a, int64_t n, sddmm_dtype_t features);

}  // namespace sddmm
