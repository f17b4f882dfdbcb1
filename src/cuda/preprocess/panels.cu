// The panel order (cuda/panels.cuh) from the plan's column order: the entries that the sort by
// column left in (column, row) order, sorted again, stably, by panel alone (a key of a few bits: one
// radix pass where the 8000-row matrices have 125 panels; the CSC gather writes the keys beside
// the rows, preprocess/compress.cu), come out in (panel, column, row) order; their rows, columns,
// caller positions and values are gathered into that order. (A sort of every
// entry by panel * cols + column took three passes and an iota: uniform-8000-1.92M, ncu, 165 us of
// the plan's 382 us of kernels.)
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cub/device/device_radix_sort.cuh>
#include <type_traits>

#include "cuda/panels.cuh"
#include "cuda/preprocess/launch.cuh"
#include "cuda/preprocess/radix_sort.cuh"
#include "cuda/preprocess/sorted.cuh"

namespace sddmm::cuda {
namespace {

// Panel q starts where its first row does in the CSR order: the sort keeps each panel's entries together.
__global__ void panel_offsets_kernel(const int64_t* row_offsets, int64_t rows, int64_t panels, int64_t* offsets) {
  SDDMM_GRID_STRIDE(q, panels + 1) {
    const int64_t row = q * kPanelRows;
    offsets[q] = row_offsets[row < rows ? row : rows];
  }
}

template <typename V, typename I>
__global__ void gather_panel_kernel(const I* from, const I* entry_row, const I* entry_col, const V* entry_value,
                                    const I* caller_position, int64_t nnz, I* row, I* col, I* position, V* value) {
  SDDMM_GRID_STRIDE(i, nnz) {
    const I e = from[i];
    row[i] = entry_row[e];
    col[i] = entry_col[e];
    position[i] = caller_position != nullptr ? caller_position[e] : e;
    if (value != nullptr) value[i] = entry_value[e];
  }
}

}  // namespace

// CUB's storage for the sort by panel (its keys and values are buffers of the sort by column).
template <typename I>
size_t panel_sort_bytes(int64_t rows, int64_t nnz, cudaStream_t stream) {
  return nnz == 0 ? 0 : radix_sort_storage_bytes<uint32_t, I>(nnz, significant_bits(panel_count(rows)), stream);
}

template <typename V, typename I>
void fill_panel_order(PanelOrder<V, I>& order, int64_t rows, int64_t nnz, const int64_t* row_offsets,
                      PanelSortBuffers<I> buffers, const I* entry_row, const I* entry_col, const V* entry_value,
                      const I* caller_position, cudaStream_t stream) {
  const int64_t panels = panel_count(rows);
  cub::DoubleBuffer<uint32_t> keys(buffers.keys[0], buffers.keys[1]);
  cub::DoubleBuffer<I> entries(buffers.column_order, buffers.spare);
  size_t bytes = buffers.temp_bytes;
  check(cub::DeviceRadixSort::SortPairs(buffers.temp, bytes, keys, entries, nnz, 0, significant_bits(panels), stream),
        "cub::DeviceRadixSort::SortPairs (panels)");
  gather_panel_kernel<V, I><<<preprocess_blocks(nnz), kPreprocessThreads, 0, stream>>>(
      entries.Current(), entry_row, entry_col, entry_value, caller_position, nnz, order.row.get(), order.col.get(),
      order.position.get(), order.value.get());
  check_launch("gather_panel_kernel");
  panel_offsets_kernel<<<preprocess_blocks(panels + 1), kPreprocessThreads, 0, stream>>>(row_offsets, rows, panels,
                                                                                         order.offsets.get());
  check_launch("panel_offsets_kernel");
}

template size_t panel_sort_bytes<int32_t>(int64_t, int64_t, cudaStream_t);
template size_t panel_sort_bytes<int64_t>(int64_t, int64_t, cudaStream_t);

#define SDDMM_INSTANTIATE_PANELS(V, I)                                                                           \
  template void fill_panel_order<V, I>(PanelOrder<V, I>&, int64_t, int64_t, const int64_t*, PanelSortBuffers<I>, \
                                       const I*, const I*, const V*, const I*, cudaStream_t);
SDDMM_INSTANTIATE_PANELS(float, int32_t)
SDDMM_INSTANTIATE_PANELS(float, int64_t)
SDDMM_INSTANTIATE_PANELS(double, int32_t)
SDDMM_INSTANTIATE_PANELS(double, int64_t)
SDDMM_INSTANTIATE_PANELS(__half, int32_t)
SDDMM_INSTANTIATE_PANELS(__half, int64_t)
SDDMM_INSTANTIATE_PANELS(__nv_bfloat16, int32_t)
SDDMM_INSTANTIATE_PANELS(__nv_bfloat16, int64_t)
#undef SDDMM_INSTANTIATE_PANELS

}  // namespace sddmm::cuda
