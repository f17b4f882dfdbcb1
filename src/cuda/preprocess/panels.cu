// The panel order (cuda/panels.cuh) from the plan's column order: the entries that the sort by
// column left in (column, row) order, sorted again, stably, by panel alone (a key of a few bits: one
// radix pass where the 8000-row matrices have 125 panels), come out in (panel, column, row) order;
// their rows, columns, caller positions and values are gathered into that order. The sort needs
// only the column order and each entry's row, so creation queues it before the plan's allocation
// exists (preprocess/compress.cu); the gather writes the plan's arrays after it. (A sort of every
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
  struct Entry {
    I row, col, position;
    V value;
  };
  batched_loop(
      nnz,
      [&](int64_t i) {
        const I e = from[i];
        return Entry{entry_row[e], entry_col[e], caller_position != nullptr ? caller_position[e] : e,
                     value != nullptr ? entry_value[e] : V{}};
      },
      [&](int64_t i, const Entry& x) {
        row[i] = x.row;
        col[i] = x.col;
        position[i] = x.position;
        if (value != nullptr) value[i] = x.value;
      });
}

// The sort by panel's input: the panel of column-ordered entry j (its row / kPanelRows) and its
// row-order index.
template <typename R, typename I>
__global__ void panel_keys_kernel(const I* column_order, EntryRows<R> rows, int64_t nnz, uint32_t* keys, I* entries) {
  struct Entry {
    I e;
    int64_t row;
  };
  batched_loop(
      nnz,
      [&](int64_t j) {
        const I e = column_order[j];
        return Entry{e, rows.coo_row != nullptr ? static_cast<int64_t>(rows.coo_row[e])
                                                : row_holding(rows.offsets, rows.rows, static_cast<int64_t>(e))};
      },
      [&](int64_t j, Entry x) {
        keys[j] = static_cast<uint32_t>(x.row / kPanelRows);
        entries[j] = x.e;
      });
}

}  // namespace

// CUB's storage for the sort by panel (its keys and values are buffers of the sort by column).
template <typename I>
size_t panel_sort_bytes(int64_t rows, int64_t nnz, cudaStream_t stream) {
  return nnz == 0 ? 0 : radix_sort_storage_bytes<uint32_t, I>(nnz, significant_bits(panel_count(rows)), stream);
}

template <typename R, typename I>
const I* queue_panel_sort(const PanelSortBuffers<I>& buffers, const I* column_order, EntryRows<R> rows, int64_t nnz,
                          cudaStream_t stream) {
  panel_keys_kernel<R, I><<<batched_blocks(nnz), kPreprocessThreads, 0, stream>>>(column_order, rows, nnz,
                                                                                  buffers.keys[0], buffers.entries[0]);
  check_launch("panel_keys_kernel");
  cub::DoubleBuffer<uint32_t> keys(buffers.keys[0], buffers.keys[1]);
  cub::DoubleBuffer<I> entries(buffers.entries[0], buffers.entries[1]);
  size_t bytes = buffers.temp_bytes;
  check(cub::DeviceRadixSort::SortPairs(buffers.temp, bytes, keys, entries, nnz, 0,
                                        significant_bits(panel_count(rows.rows)), stream),
        "cub::DeviceRadixSort::SortPairs (panels)");
  return entries.Current();
}

template <typename V, typename I>
void fill_panel_order(PanelOrder<V, I>& order, int64_t rows, int64_t nnz, const int64_t* row_offsets,
                      const I* panel_entries, const I* entry_row, const I* entry_col, const V* entry_value,
                      const I* caller_position, cudaStream_t stream) {
  const int64_t panels = panel_count(rows);
  gather_panel_kernel<V, I><<<batched_blocks(nnz), kPreprocessThreads, 0, stream>>>(
      panel_entries, entry_row, entry_col, entry_value, caller_position, nnz, order.row.get(), order.col.get(),
      order.position.get(), order.value.get());
  check_launch("gather_panel_kernel");
  panel_offsets_kernel<<<preprocess_blocks(panels + 1), kPreprocessThreads, 0, stream>>>(row_offsets, rows, panels,
                                                                                         order.offsets.get());
  check_launch("panel_offsets_kernel");
}

template size_t panel_sort_bytes<int32_t>(int64_t, int64_t, cudaStream_t);
template size_t panel_sort_bytes<int64_t>(int64_t, int64_t, cudaStream_t);

#define SDDMM_INSTANTIATE_PANEL_SORT(R, I) \
  template const I* queue_panel_sort<R, I>(const PanelSortBuffers<I>&, const I*, EntryRows<R>, int64_t, cudaStream_t);
SDDMM_INSTANTIATE_PANEL_SORT(int32_t, int32_t)
SDDMM_INSTANTIATE_PANEL_SORT(int32_t, int64_t)
SDDMM_INSTANTIATE_PANEL_SORT(int64_t, int32_t)
SDDMM_INSTANTIATE_PANEL_SORT(int64_t, int64_t)
#undef SDDMM_INSTANTIATE_PANEL_SORT

#define SDDMM_INSTANTIATE_PANELS(V, I)                                                                          \
  template void fill_panel_order<V, I>(PanelOrder<V, I>&, int64_t, int64_t, const int64_t*, const I*, const I*, \
                                       const I*, const V*, const I*, cudaStream_t);
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
