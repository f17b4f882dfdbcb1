// The tensor-core part of a plan: the 16-row x 64-column blocks ("units") of the matrix that hold
// enough entries for mma.sync to beat gathering them one by one, with their entries listed unit by
// unit. Only stored entries are kept; no dense rows x cols array exists. Built at creation for
// float16/bfloat16 and float32 values (the tensor-core kernel takes features of the values' type;
// which plans: lists_tensor_core_units in preprocess/compress.cu); float64 plans never pay for it.
// 16-bit plans whose units are full enough for SpMM also list them strip by strip (build_strip_order).
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "core/matrix.hpp"
#include "cuda/carved.cuh"
#include "cuda/runtime.cuh"

namespace sddmm::cuda {

constexpr int kUnitRows = 16;  // rows of an mma.m16n8k16 tile
constexpr int kUnitCols = 64;  // columns of X2 a block stages at once: 8 tiles of 8 columns
constexpr int kUnitsPerItem = 8;  // units of one chunk per work item: one per warp of a block

// Dense units in ascending (chunk, strip) order, chunk = col / 64 and strip = row / 16. A block of
// the kernel takes one work item: up to 8 consecutive dense units of one chunk, which share the
// staged columns. The entries of unit u are positions [unit_entries[u], unit_entries[u + 1]) of the
// unit-ordered entry arrays; every other entry is listed, in plan order, in cuda_core_entries.
template <typename V, typename I>
struct TensorTiles {
  DeviceArray<unsigned char> storage;  // every array below, in one allocation (cuda/carved.cuh)
  DeviceSpan<int64_t> unit_key;        // (units) chunk * strips + strip
  DeviceSpan<int64_t> unit_entries;    // (units + 1)
  DeviceSpan<int64_t> item_units;      // (items + 1) first unit of each work item
  DeviceSpan<I> out_position;          // (entries) where each entry's result goes in the caller's order
  DeviceSpan<uint16_t> local;          // (entries) col % 64 * 16 + row % 16
  DeviceSpan<V> value;                 // (entries) or empty: ones
  DeviceSpan<I> cuda_core_entries;     // plan-order entries of the other units
  // (chunks x strips + 1) for each cell (chunk, strip) at chunk * strips + strip, the position of
  // its first entry in the unit-ordered arrays if it is a dense unit, else of the next dense unit's:
  // cell x's entries are [cell_entries[x], cell_entries[x + 1]). Only where the dense units cover at
  // least min_cover of the matrix's units: the square and walk kernels'
  // (sddmm_tensor_square_kernel.cuh, sddmm_wgmma_walk_kernel.cuh and _entry_warps_kernel.cuh).
  // Then kCellPad more, all the entry count: the walk kernel at K = 128 copies a tile's 9 offsets
  // as 10 from the even cell at or before its first (bulk copies move whole 16-byte pieces), which
  // reaches up to 8 past the last cell.
  static constexpr int64_t kCellPad = 8;
  DeviceSpan<int64_t> cell_entries;
  // SpMM's order of the same units (spmm_tensor_kernel.cuh), in an allocation of its own, made only
  // where SpMM takes them (build_strip_order): strip by strip, chunks ascending.
  DeviceArray<unsigned char> strip_storage;
  DeviceSpan<int64_t> strip_units;       // (units) the units in (strip, chunk) order, as indices of unit_key
  DeviceSpan<int64_t> strip_unit_begin;  // (strips + 1) strip s's units: strip_units[begin[s], begin[s + 1])
  DeviceSpan<int64_t> strip_rest_begin;  // (strips + 1) strip s's other entries:
                                         // cuda_core_entries[begin[s], begin[s + 1])
  int64_t strips = 0;                  // ceil(rows / 16)
  int64_t chunks = 0;                  // ceil(cols / 64)
  int64_t entries = 0;                 // entries in dense units
  int64_t items = 0;
  bool empty() const { return items == 0; }
  // Share of the dense units' cells that hold an entry.
  double density() const {
    return unit_key.empty() ? 0.0 : static_cast<double>(entries) / (static_cast<double>(unit_key.size()) * kUnitRows * kUnitCols);
  }
};

// min_density: a unit goes to the tensor cores when its entries fill at least this share of its
// 16 x 64 cells; min_share: no unit does unless the dense ones hold at least this share of the
// entries; min_cover: the plan indexes the cells (cell_entries) where the dense units are at
// least this share of all units (tuning.hpp). Arguments are the plan's row-ordered arrays
// (caller_position and value may be empty). The listing's temporaries are carved from `scratch`,
// at least tensor_tile_scratch_bytes<V, I>(rows, cols, nnz) bytes. Reads counts back (synchronises
// `stream`) but leaves the last kernels queued: the plan synchronises once at its end.
template <typename V, typename I>
TensorTiles<V, I> build_tensor_tiles(int64_t rows, int64_t cols, int64_t nnz, const DeviceSpan<I>& entry_row,
                                     const DeviceSpan<I>& entry_col, const DeviceSpan<V>& entry_value,
                                     const DeviceSpan<I>& caller_position, double min_density, double min_share,
                                     double min_cover, void* scratch, size_t scratch_bytes, cudaStream_t stream);
template <typename V, typename I>
size_t tensor_tile_scratch_bytes(int64_t rows, int64_t cols, int64_t nnz, cudaStream_t stream);

// Lists the dense units strip by strip for SpMM (strip_units, strip_unit_begin) and where each
// strip's other entries start among cuda_core_entries (strip_rest_begin, from the plan's CSR
// offsets): a radix sort of the units by (strip, chunk), temporaries carved from `scratch`. False,
// and nothing listed, when they do not fit there or when a unit holds two entries of one cell
// (duplicate COO entries: found on the device, read back, synchronising `stream`). Queued on
// `stream` after the listing, whose scratch it reuses; the plan synchronises once at its end.
template <typename V, typename I>
bool build_strip_order(TensorTiles<V, I>& t, const int64_t* row_offsets, int64_t rows, void* scratch,
                       size_t scratch_bytes, cudaStream_t stream);

// Whether a plan's float32 units run in the TF32 split (three mma per step, float32 accuracy:
// sddmm_config.cuh): float32 values without SDDMM_CREATE_ALLOW_TF32.
template <typename V>
constexpr bool units_in_tf32_split(bool allow_tf32) {
  return std::is_same_v<V, float> && !allow_tf32;
}

// Strips of 16 rows and chunks of 64 columns (the last ones partial) of a rows x cols matrix.
inline int64_t unit_strips(int64_t rows) { return (rows + kUnitRows - 1) / kUnitRows; }
inline int64_t unit_chunks(int64_t cols) { return (cols + kUnitCols - 1) / kUnitCols; }

// The plan-wide rule: dense units kept only when they hold at least min_share of the nnz entries.
inline bool dense_units_hold_enough(int64_t dense_entries, int64_t nnz, double min_share) {
  return static_cast<double>(dense_entries) >= min_share * static_cast<double>(nnz);
}

// The entries a unit must hold to fill min_density of its cells (at least 1).
inline int64_t unit_min_entries(double min_density) {
  const double wanted = std::ceil(min_density * kUnitRows * kUnitCols);
  constexpr int64_t kCap = 2 * kUnitRows * kUnitCols;  // past any unit's count (no overflow from huge densities)
  return wanted < 1.0 ? 1 : wanted > double(kCap) ? kCap : static_cast<int64_t>(wanted);
}

// The census (preprocess/census.cu): the entries that lie in units of at least min_entries, counted
// from the caller's validated input (COO or CSR) with one counter per unit in `counters`, device
// memory of counter_bytes that nothing else uses meanwhile; -1 when the units' counters do not fit
// there. The number build_tensor_tiles compares with min_share, without its sort. Synchronises
// `stream`.
int64_t count_dense_unit_entries(const SparseInput& input, int64_t rows, int64_t cols, int64_t nnz,
                                 int64_t min_entries, void* counters, size_t counter_bytes, cudaStream_t stream);

}  // namespace sddmm::cuda
