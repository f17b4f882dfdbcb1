// The tensor-core part of a plan: row strips of 16 rows dense enough for mma.sync, and their entries
// regrouped by 8-column tile. Only stored entries are listed; no dense rows x cols array exists.
// Built at creation for float16/bfloat16 values only (the tensor-core kernels need half features and
// half values; float32 and float64 plans never pay for it).
#pragma once

#include <cstdint>

#include "cuda/runtime.cuh"

namespace sddmm::cuda {

constexpr int kStripRows = 16;  // rows of an mma.m16n8k16 tile
constexpr int kTileCols = 8;    // columns of one

// S strips (ascending row order) go to the tensor cores; T = ceil(cols / 8) tiles per strip. The
// entries of strip list index i, column tile t are positions [tile_offsets[i*T + t], [i*T + t + 1])
// of the tile-ordered arrays. Every other entry is listed, in plan order, in cuda_core_entries.
template <typename V, typename I>
struct TensorTiles {
  DeviceArray<I> strips;                // (S) strip numbers: rows [16 s, 16 s + 16)
  DeviceArray<int64_t> tile_offsets;    // (S * T + 1)
  DeviceArray<I> out_position;          // (entries) where each entry's result goes in the caller's order
  DeviceArray<uint8_t> local;           // (entries) row % 16 * 8 + col % 8
  DeviceArray<V> value;                 // (entries) or empty: ones
  DeviceArray<I> cuda_core_entries;     // plan-order entries of the other strips
  int64_t tiles_per_strip = 0;          // T
  int64_t entries = 0;                  // entries in the tensor-core strips
  bool empty() const { return strips.empty(); }
};

// min_density: a strip goes to the tensor cores when its entries are at least this share of its
// 16 x cols cells. Arguments are the plan's row-ordered arrays (caller_position and value may be
// empty). Synchronises `stream`.
template <typename V, typename I>
TensorTiles<V, I> build_tensor_tiles(int64_t rows, int64_t cols, int64_t nnz, const DeviceArray<int64_t>& row_offsets,
                                     const DeviceArray<I>& entry_row, const DeviceArray<I>& entry_col,
                                     const DeviceArray<V>& entry_value, const DeviceArray<I>& caller_position,
                                     double min_density, cudaStream_t stream);

}  // namespace sddmm::cuda
