// The panel order of a plan, for the SDDMM panel kernel (sddmm/sddmm_panel_kernel.cuh): the entries
// of each panel of kPanelRows consecutive rows, sorted by column (rows ascending within a column).
// A block of that kernel stages its panel's X1 rows in shared memory once, and each lane group keeps
// an X2 column in registers for as long as its entries stay in that column: X2 columns are read
// once per (panel, column) pair instead of once per entry. Built at creation only where that saves
// enough (uniform_panel_column_reuse below; the rule is in preprocess/compress.cu, the threshold and
// its measurement in tuning.hpp). Its arrays are part of the plan's allocation.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "cuda/carved.cuh"
#include "cuda/runtime.cuh"

namespace sddmm::cuda {

// Rows per panel. A panel of 1-KB rows (float32 K = 256) is 64 KB of shared memory: two blocks of
// 512 threads per multiprocessor. Measured (H200, 2026-11-25, a probe kernel of this design, float32,
// uniform 8000^2 at 1 / 2 / 5 / 10 % density, ms at K = 256): 32 rows 0.0736 / 0.1230 / 0.2663 /
// 0.4862 (512 threads, 2 blocks per multiprocessor), 64 rows 0.0692 / 0.1157 / 0.2510 / 0.4564 (the
// same), 128 rows 0.0664 / 0.1191 / 0.2641 / 0.4655 (1024 threads, one block); cuSPARSE 0.0697 /
// 0.1411 / 0.3129 / 0.5590. At K = 128 64 rows 0.0388 / 0.0640 / 0.1368 / 0.2502, 128 rows (2
// blocks) 0.0396 / 0.0633 / 0.1332 / 0.2360.
constexpr int64_t kPanelRows = 64;

template <typename V, typename I>
struct PanelOrder {
  DeviceSpan<int64_t> offsets;  // (panels + 1) first entry of each panel
  DeviceSpan<I> row;            // (nnz) row of each entry, in panel order
  DeviceSpan<I> col;            // (nnz) its column
  DeviceSpan<I> position;       // (nnz) where its result goes in the caller's order
  DeviceSpan<V> value;          // (nnz) or empty: ones
  bool empty() const { return offsets.empty(); }
};

inline int64_t panel_count(int64_t rows) {
  return (rows + kPanelRows - 1) / kPanelRows;
}

// Whether a rows x cols pattern may have a panel order: its panel numbers, the sort keys, fit 32 bits.
inline bool panels_fit(int64_t rows, int64_t cols) {
  return rows > 0 && cols > 0 && panel_count(rows) <= (int64_t{1} << 32);
}

// The smallest X1 row, in bytes, that the panel kernel takes (sddmm_config.cuh: 512, 1024 or 2048).
constexpr int64_t kPanelMinRowBytes = 512;

// Entries per distinct (panel, column) pair that a rows x cols pattern of nnz entries spread at
// random would have: how many entries each X2 column read serves in the panel kernel. With density
// d, a column holds an entry in a panel with probability 1 - (1 - d)^kPanelRows, so that
// reuse = kPanelRows d / (1 - (1 - d)^kPanelRows). Patterns whose neighbouring rows share columns
// (clustered, banded) reach more, so the rule errs towards the entry kernel there. Computed on the
// host from the sizes alone, so that the plan's arrays are laid out with the panel order's at once
// (an exact count from the sorted pattern cost a synchronisation and an allocation of its own).
inline double uniform_panel_column_reuse(int64_t rows, int64_t cols, int64_t nnz) {
  if (rows <= 0 || cols <= 0 || nnz <= 0) return 0.0;
  const double d = std::min(1.0, static_cast<double>(nnz) / (static_cast<double>(rows) * static_cast<double>(cols)));
  const double panel_rows = static_cast<double>(std::min(rows, kPanelRows));
  const double hit = -std::expm1(panel_rows * std::log1p(-std::min(d, 1.0 - 1e-12)));  // 1 - (1 - d)^rows
  return hit > 0.0 ? panel_rows * d / hit : 0.0;
}

// Lays out a panel order of nnz entries (values when has_values) on `c`: in the plan's allocation.
template <typename V, typename I>
void lay_out_panel_order(PanelOrder<V, I>& order, Carver& c, int64_t rows, int64_t nnz, bool has_values) {
  order.offsets = c.span<int64_t>(panel_count(rows) + 1);
  order.row = c.span<I>(nnz);
  order.col = c.span<I>(nnz);
  order.position = c.span<I>(nnz);
  order.value = c.span<V>(has_values ? nnz : 0);
}

// The sort by panel's buffers, nnz elements each, in the creation scratch (preprocess/compress.cu:
// the keys' two are the sort by column's, free once its keys have been read), and CUB's storage
// of panel_sort_bytes.
template <typename I>
struct PanelSortBuffers {
  uint32_t* keys[2];
  I* entries[2];
  void* temp;
  size_t temp_bytes;
};

// Where each entry's row comes from when the sort by panel is queued: row indices in row order
// (the caller's COO rows, or the plan's entry_row once sorted by row), or CSR offsets (the row
// found by binary search). R: the index type of that array. The caller's arrays may not be
// validated yet: the keys made from them are then wrong, never read out of bounds, and not kept.
template <typename R>
struct EntryRows {
  const R* coo_row = nullptr;
  const R* offsets = nullptr;  // rows + 1 of them, where coo_row is null
  int64_t rows = 0;
};

// Queues the sort by panel, stable, of the entries in column order (column_order: the row-order
// index of each; read, not changed): the panel order's entries, as row-order indices, in (panel,
// column, row) order, returned (one of buffers.entries; the work is queued on `stream`).
template <typename R, typename I>
const I* queue_panel_sort(const PanelSortBuffers<I>& buffers, const I* column_order, EntryRows<R> rows, int64_t nnz,
                          cudaStream_t stream);

// Fills a laid-out panel order from that sort (panel_entries): gathers the row-ordered arrays into
// it (caller_position and entry_value may be null: identity, ones) and the panels' offsets. The
// work is queued on `stream`, not synchronised. Requires panels_fit(rows, cols).
template <typename V, typename I>
void fill_panel_order(PanelOrder<V, I>& order, int64_t rows, int64_t nnz, const int64_t* row_offsets,
                      const I* panel_entries, const I* entry_row, const I* entry_col, const V* entry_value,
                      const I* caller_position, cudaStream_t stream);
template <typename I>
size_t panel_sort_bytes(int64_t rows, int64_t nnz, cudaStream_t stream);

}  // namespace sddmm::cuda
