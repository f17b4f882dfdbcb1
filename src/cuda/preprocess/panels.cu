// The panel order (cuda/panels.cuh): the entries sorted by panel and column (a radix sort of
// panel * cols + col), their rows, columns, caller positions and values gathered into that order.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "cuda/panels.cuh"
#include "cuda/preprocess/launch.cuh"
#include "cuda/preprocess/radix_sort.cuh"

namespace sddmm::cuda {
namespace {

template <typename I>
__global__ void panel_keys_kernel(const I* entry_row, const I* entry_col, int64_t cols, int64_t nnz, int32_t* keys) {
  SDDMM_GRID_STRIDE(i, nnz) {
    keys[i] = static_cast<int32_t>(static_cast<int64_t>(entry_row[i]) / kPanelRows * cols + entry_col[i]);
  }
}

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

template <typename I>
size_t panel_scratch_bytes(int64_t rows, int64_t cols, int64_t nnz, cudaStream_t stream) {
  if (nnz == 0 || !panels_fit(rows, cols)) return 0;
  Carver c;
  (void)RadixSort<int32_t, I>(c, nnz, panel_count(rows) * cols, stream);
  return c.used();
}

template <typename V, typename I>
void fill_panel_order(PanelOrder<V, I>& order, int64_t rows, int64_t cols, int64_t nnz, const int64_t* row_offsets,
                      const I* entry_row, const I* entry_col, const V* entry_value, const I* caller_position,
                      void* scratch, size_t scratch_bytes, cudaStream_t stream) {
  const int64_t panels = panel_count(rows);
  Carver pieces(scratch, scratch_bytes);
  RadixSort<int32_t, I> sort(pieces, nnz, panels * cols, stream);
  panel_keys_kernel<I>
      <<<preprocess_blocks(nnz), kPreprocessThreads, 0, stream>>>(entry_row, entry_col, cols, nnz, sort.keys[0]);
  check_launch("panel_keys_kernel");
  const auto sorted = sort.run();
  gather_panel_kernel<V, I><<<preprocess_blocks(nnz), kPreprocessThreads, 0, stream>>>(
      sorted.positions, entry_row, entry_col, entry_value, caller_position, nnz, order.row.get(), order.col.get(),
      order.position.get(), order.value.get());
  check_launch("gather_panel_kernel");
  panel_offsets_kernel<<<preprocess_blocks(panels + 1), kPreprocessThreads, 0, stream>>>(row_offsets, rows, panels,
                                                                                         order.offsets.get());
  check_launch("panel_offsets_kernel");
}

template size_t panel_scratch_bytes<int32_t>(int64_t, int64_t, int64_t, cudaStream_t);
template size_t panel_scratch_bytes<int64_t>(int64_t, int64_t, int64_t, cudaStream_t);

#define SDDMM_INSTANTIATE_PANELS(V, I)                                                                         \
  template void fill_panel_order<V, I>(PanelOrder<V, I>&, int64_t, int64_t, int64_t, const int64_t*, const I*, \
                                       const I*, const V*, const I*, void*, size_t, cudaStream_t);
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
