// The CUDA backend's plan data: the pattern sorted by row (CSR plus per-entry rows, for SDDMM and
// SpMM) and by column (CSC, for transposed SpMM), all on the device, built once at creation and
// held in one allocation (cuda/carved.cuh).
#pragma once

#include <cstdint>
#include <initializer_list>

#include "core/matrix.hpp"
#include "cuda/carved.cuh"
#include "cuda/panels.cuh"
#include "cuda/runtime.cuh"
#include "cuda/spmm/l2_hint_rule.hpp"
#include "cuda/tile_entries.cuh"
#include "cuda/tiles.cuh"
#include "cuda/tuning.hpp"

namespace sddmm::cuda {

// The outer indices (rows of CSR, columns of CSC) in one array of two parts: first, ascending, those
// with at most the heavy-row threshold of entries (neighbouring rows stay neighbours: locality in X
// and Y is kept); then the rest, longest first by the bit width of their lengths (the SpMM kernel
// starts them in this order, so the longest does not start last; equal widths in descending index
// order). A heavy row's result does not depend on when it runs.
template <typename I>
struct OuterSplit {
  DeviceSpan<I> order;               // (outer)
  int64_t light_count = 0;           // outer indices in the first part
  int64_t light_entries = 0;         // entries they hold
  DeviceSpan<I> light() const { return order.subspan(0, light_count); }
  DeviceSpan<I> heavy() const { return order.subspan(light_count, order.size() - light_count); }
};

// T: value type; I: index type of the plan (int32 when rows, cols and nnz fit, else int64).
template <typename T, typename I>
struct DevicePattern {
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t nnz = 0;
  DeviceArray<unsigned char> storage;  // every array below but caller_position and the tiles' (those
                                       // have their own), and creation's read-back words (preprocess/compress.cu)
  DeviceSpan<int64_t> row_offsets;   // (rows + 1) CSR offsets
  DeviceSpan<I> entry_row;           // (nnz) row of each entry, sorted by row (stable)
  DeviceSpan<I> entry_col;           // (nnz) column of each entry, same order
  DeviceSpan<T> entry_value;         // (nnz) value of each entry, same order; empty: all ones
  DeviceSpan<I> caller_position;     // (nnz) where each sorted entry stood in the caller's order; empty: identity
  DeviceArray<I> caller_position_storage;  // its own allocation: only plans of COO entries not in row order have it
  DeviceSpan<int64_t> col_offsets;   // (cols + 1) CSC offsets
  DeviceSpan<I> csc_row;             // (nnz) row of each entry, sorted by column (stable)
  DeviceSpan<T> csc_value;           // (nnz) or empty
  OuterSplit<I> row_split;           // rows by length, for SpMM
  OuterSplit<I> col_split;           // columns by length, for transposed SpMM
  int64_t entries_per_slice = 0;     // SpMM: mean light-row entries per lane group for a warp per row
  bool spmm_shared_indices = true;   // SpMM: wide lane groups share their index loads (tuning.hpp)
  int64_t spmm_deep_rows_min_mean = 0;  // SpMM: narrow lane groups take the deep-rows kernel from this mean (0: never)
  int spmm_few_rows = -1;            // SDDMM_SPMM_FEW_ROWS: 1 deep rows unsliced with registers unbounded wherever deep, 0 never, -1 by rule
  int64_t spmm_few_long_rows_min_mean = 0;  // SpMM: the few-rows form for long rows from this mean (0: never)
  int spmm_tiles_outer = -1;         // SDDMM_SPMM_TILES_OUTER: 1 whole-warp rows' column tiles share-major wherever N allows, 0 never, -1 by rule
  int spmm_split_tiles = -1;         // SDDMM_SPMM_SPLIT_TILES: 1 whole-warp rows' column tiles over several warps wherever N allows, 0 never, -1 by rule
  bool rows_ascending = false;       // every row's columns ascend (CSC's rows always do): the SpMM slab kernel's need
  int spmm_slabs = -1;               // SDDMM_SPMM_SLABS: 1 slabs wherever they run, 0 never, -1 by rule
  SlabMinReuse spmm_slab_min_reuse;  // ... the rule's thresholds by the length of X's rows (tuning.hpp)
  // SpMM's L2 hints (cuda/l2_hints.cuh; the rule in spmm/l2_hint_rule.hpp): where X's rows may
  // exceed the L2, its rows by class of their entry counts (read back at creation), and where the
  // rule may turn hints on, the class of each entry's column (row order: the rows of X that
  // forward SpMM gathers).
  int spmm_l2_hints = -1;            // SDDMM_SPMM_L2_HINTS: 1 wherever the kernel has them, 0 never, -1 by rule
  RowClasses x_classes;              // X's rows (A's columns) and their entries by class
  DeviceArray<uint8_t> entry_x_class;  // (nnz) or empty: no hints (an allocation of its own)
  int resident_blocks = 1;           // 256-thread blocks the device holds at once (SpMM's slicing test)
  int compute_capability = 0;        // the device's, 10 x major + minor (the SpMM slab kernel's test)
  int64_t shared_optin = 0;          // shared memory a block may take on the device (the slab kernel's slabs)
  int sddmm_grid_max_waves = 1;      // SDDMM's CUDA-core grid: waves of resident blocks (tuning.hpp) ...
  int64_t sddmm_wave_min_products = 0;  // ... each giving every warp at least this many entries x K
  bool sddmm_line_kernel = true;     // SDDMM: K of one 64- or 128-byte line takes the line kernel (tuning.hpp)
  bool sddmm_line_interleave = true;  // ... whose warps take its iterations in turn (tuning.hpp)
  int sddmm_row_shares = -1;         // SDDMM, CUDA cores, whole rows per warp: 1 where allowed, 0 never, -1 by rule
  int sddmm_sm_blocks = -1;          // SDDMM, entry kernel in blocks of a whole multiprocessor: 1 always, 0 never, -1 by rule
  int sddmm_k_parts = 0;             // SDDMM, launches over parts of K: n >= 1 that many where allowed, 0 by rule
  int64_t l2_bytes = 0;              // the device's L2 (the SDDMM row-share rule: sddmm.cu)
  PanelOrder<T, I> panels;           // SDDMM panel kernel's order (cuda/panels.cuh), where it pays
  int sddmm_panels = -1;             // SDDMM_SDDMM_PANELS: 1 panels wherever they fit, 0 never, -1 by rule
  int64_t sddmm_panel_block_entries = 0;  // the panel kernel's grid: waves giving each block this many entries
  int64_t sddmm_panel_block_entries_half = 0;  // ... where the features are 16-bit
  TileEntries<T, I> tile_entries;    // SDDMM tile kernel's (cuda/tile_entries.cuh), where it pays and the rows ascend
  TensorTiles<T, I> tiles;           // dense units for the tensor-core SDDMM (sm_80+; half and float32 values)
                                     // and, where full enough (16-bit), SpMM
  bool allow_tf32 = false;           // created with SDDMM_CREATE_ALLOW_TF32: float32 units in TF32
  bool wgmma_squares = false;        // SDDMM: indexed cells take the wgmma square kernel (sm_90; tuning.hpp)
  bool wgmma_walk = false;           // ... by the walk kernel instead of by squares (tuning.hpp)
};

// Validates the caller's device arrays (indices in range, CSR offsets monotone from 0 to nnz) on the
// GPU and builds the pattern with CUB radix sorts. Runs on `stream` and synchronises it.
template <typename T, typename I>
DevicePattern<T, I> build_device_pattern(const MatrixInfo& info, const SparseInput& input, cudaStream_t stream);

// Fills the light/heavy split of rows and that of columns (their order arrays allocated, sized rows
// and cols) from the CSR and CSC offsets: a partition each, then one synchronisation reads all the
// counts, then a sort of each heavy part by the bit width of its lengths is queued on `stream`. An
// outer index is heavy above spmm_heavy_row_entries() entries and above
// spmm_heavy_row_mean_factor() times its dimension's mean (tuning.hpp); or above the lower
// spmm_heavy_row_entries_few() where at most resident_blocks indices of its dimension are (then
// partitioned again, queued). Temporaries are carved from `scratch`, at least
// split_scratch_bytes<I>(rows, cols, nnz) bytes, which must outlive the queued work.
// `also`: device words read back with the split's counts, in the same synchronisation (those of
// no bytes left out).
struct ReadBack {
  const void* device = nullptr;
  void* host = nullptr;
  size_t bytes = 0;
};
template <typename I>
void split_by_length(OuterSplit<I>& rows, const int64_t* row_offsets, OuterSplit<I>& cols, const int64_t* col_offsets,
                     int64_t nnz, int64_t resident_blocks, void* scratch, size_t scratch_bytes, cudaStream_t stream,
                     std::initializer_list<ReadBack> also = {});
template <typename I>
size_t split_scratch_bytes(int64_t rows, int64_t cols, int64_t nnz, cudaStream_t stream);

// Validates the caller's arrays on the device (indices in range, CSR offsets monotone from 0 to
// nnz) in two steps: queue_validation queues the checks on `stream`, writing kValidationFlags
// device words at `flags`, which the caller has set to all ones (bytes 0xFF) before, in stream
// order; finish_validation reads them back (synchronising the stream), throws
// INDEX_OUT_OF_RANGE with the first bad position and value, and returns whether the entries are in
// row order (CSR always; COO when no row index is below the one before it). Work queued between
// the two runs before the read-back, on arrays not yet known to be valid.
constexpr int kValidationFlags = 3;
void queue_validation(const MatrixInfo& info, const SparseInput& input, unsigned long long* flags, cudaStream_t stream);
bool finish_validation(const MatrixInfo& info, const SparseInput& input, const unsigned long long* flags,
                       cudaStream_t stream);

// The L2 hints' classes (preprocess/x_classes.cu). queue_x_class_counts: the columns and entries
// of each class of column entry counts (col_offsets: CSC), in `counts` (kXClassCounts device words:
// columns by class, then entries), queued; row_classes reads them as read back.
// queue_entry_x_classes: classes[e] the class of entry e's column (entry_col: row order), queued.
constexpr int kXClassCounts = 2 * kCountClasses;
void queue_x_class_counts(const int64_t* col_offsets, int64_t cols, unsigned long long* counts, cudaStream_t stream);
RowClasses row_classes(const unsigned long long (&counts)[kXClassCounts]);
template <typename I>
void queue_entry_x_classes(const int64_t* col_offsets, const I* entry_col, int64_t nnz, uint8_t* classes,
                           cudaStream_t stream);

}  // namespace sddmm::cuda
