// The CUDA backend's plan data: the pattern sorted by row (CSR plus per-entry rows, for SDDMM and
// SpMM) and by column (CSC, for transposed SpMM), all on the device, built once at creation.
#pragma once

#include <cstdint>

#include "core/matrix.hpp"
#include "cuda/runtime.cuh"
#include "cuda/tiles.cuh"

namespace sddmm::cuda {

// The outer indices (rows of CSR, columns of CSC) in two ascending lists: those with at most the
// heavy-row threshold of entries, and the rest.
template <typename I>
struct OuterSplit {
  DeviceArray<I> light;
  DeviceArray<I> heavy;
  int64_t light_entries = 0;  // entries held by the light outer indices
};

// T: value type; I: index type of the plan (int32 when rows, cols and nnz fit, else int64).
template <typename T, typename I>
struct DevicePattern {
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t nnz = 0;
  DeviceArray<int64_t> row_offsets;  // (rows + 1) CSR offsets
  DeviceArray<I> entry_row;          // (nnz) row of each entry, sorted by row (stable)
  DeviceArray<I> entry_col;          // (nnz) column of each entry, same order
  DeviceArray<T> entry_value;        // (nnz) value of each entry, same order; empty: all ones
  DeviceArray<I> caller_position;    // (nnz) where each sorted entry stood in the caller's order; empty: identity
  DeviceArray<int64_t> col_offsets;  // (cols + 1) CSC offsets
  DeviceArray<I> csc_row;            // (nnz) row of each entry, sorted by column (stable)
  DeviceArray<T> csc_value;          // (nnz) or empty
  OuterSplit<I> row_split;           // rows by length, for SpMM
  OuterSplit<I> col_split;           // columns by length, for transposed SpMM
  int64_t heavy_threshold = 0;       // entries above which an outer index is heavy
  int64_t entries_per_slice = 0;     // SpMM: mean light-row entries per lane group for a warp per row
  int resident_blocks = 1;           // 256-thread blocks the device holds at once (persistent grids)
  TensorTiles<T, I> tiles;           // dense units for the tensor-core SDDMM (sm_80+; half and float32 values)
  bool allow_tf32 = false;           // created with SDDMM_CREATE_ALLOW_TF32: float32 units in TF32
};

// Validates the caller's device arrays (indices in range, CSR offsets monotone from 0 to nnz) on the
// GPU and builds the pattern with CUB radix sorts. Runs on `stream` and synchronises it.
template <typename T, typename I>
DevicePattern<T, I> build_device_pattern(const MatrixInfo& info, const SparseInput& input, cudaStream_t stream);

// Light/heavy lists of a compressed pattern's outer indices (threshold: entries per outer index).
template <typename I>
OuterSplit<I> split_by_length(const DeviceArray<int64_t>& offsets, int64_t outer, int64_t nnz, int64_t threshold,
                              cudaStream_t stream);

// Validation on the device; each throws INDEX_OUT_OF_RANGE with the first bad position and value.
void validate_indices(const void* indices, sddmm_index_type_t type, int64_t n, int64_t bound, const char* name,
                      cudaStream_t stream);
void validate_row_offsets(const void* offsets, sddmm_index_type_t type, int64_t rows, int64_t nnz, cudaStream_t stream);

}  // namespace sddmm::cuda
