// Plan creation on the GPU: validate, convert indices to the plan's index type, stable radix sort by
// row (skipped when the caller's entries are already in row order) and by column, offsets from the
// sorted keys, the permutation that returns SDDMM results in the caller's entry order, the light/
// heavy split of rows and columns and, for plans that use tensor cores, the dense units.
//
// Two allocations, whatever the size: the plan's arrays (one piece each, cuda/carved.cuh) and one
// creation scratch that every phase in turn carves its temporaries from, sized for the largest
// (up to a bound, from a pool the library keeps: cuda/creation_scratch.cuh), beside validation's
// few bytes of flags from that pool; a third, caller_position, only for COO entries not in row
// order (its size is known after validation). (With an allocation per array
// and per temporary, cudaMalloc/cudaFree and the syncs they imply were most of the plan's time: 0.6
// of uniform-8000-1.28M's 1.0 ms, measured with a traced build.)
//
// Device memory at the peak of creation, per entry, besides the caller's arrays (i: bytes of a plan
// index, 4 or 8; k: bytes of a sort key; v: bytes of a value, 0 without values). The plan's arrays
// are 3i + 2v (entry_row, entry_col, csc_row, two copies of the values), + i for caller_position
// when the caller's entries were not in row order. A sort takes 2k + 2i of scratch (CUB's
// double-buffer mode: keys and positions in two buffers each, and only a small storage of its own).
// Sort keys are 32-bit whenever the dimension sorted by fits int32, also in int64 plans: nnz >= 2^31
// needs 64-bit positions, not 64-bit keys. So, without the tensor-core listing:
//   int32 plan (i = k = 4):                  3i + 2v + 2k + 2i = 28 + 2v bytes per entry
//   int64 plan, dimension < 2^31 (k = 4):    3i + 2v + 2k + 2i = 48 + 2v
//   int64 plan, dimension >= 2^31 (k = 8):   3i + 2v + 2k + 2i = 56 + 2v
// (+ i when sorted by row; + 3i + v where the plan has a panel order, cuda/panels.cuh, and + i of
// scratch for its sort, which takes the sort by column's buffers and one more; + 4 + i + v for the
// tile entries, cuda/tile_entries.cuh, where the plan has them, gone without where creation runs
// out of memory with them). For the
// 2^31 + 2^20 entries of tests/huge (CSR without values, plus the caller's 8-byte col_idx) that is
// 56 x 2.15e9 = 120 GB of the H200's 141. The tensor-core listing takes 2u + 2i + 1 bytes per
// entry of the scratch (u: bytes of a unit key, 4 or 8), about what the
// sort by column takes already, and 40 bytes per unit holding an entry, within that where they fit,
// else in an allocation of its own (preprocess/tiles.cu): when that memory is not free, the plan
// goes without units (every entry on the CUDA cores).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include "cuda/creation_scratch.cuh"
#include "cuda/pattern.cuh"
#include "cuda/preprocess/launch.cuh"
#include "cuda/preprocess/radix_sort.cuh"
#include "cuda/preprocess/sorted.cuh"
#include "cuda/sddmm/sddmm_hopper.cuh"
#include "cuda/sddmm/walk_rule.hpp"
#include "cuda/spmm/spmm_slab.cuh"
#include "cuda/tiles.cuh"
#include "cuda/tuning.hpp"

namespace sddmm::cuda {
namespace {

template <typename In, typename Out>
__global__ void convert_kernel(const In* in, Out* out, int64_t n) {
  batched_loop(
      n, [&](int64_t i) { return in[i]; }, [&](int64_t i, In v) { out[i] = static_cast<Out>(v); });
}

// dst_index[i] = src_index[perm[i]], dst_value[i] = src_value[perm[i]] (values optional).
template <typename In, typename T, typename I>
__global__ void gather_kernel(const I* perm, const In* src_index, I* dst_index, const T* src_value, T* dst_value,
                              int64_t n) {
  struct Entry {
    In index;
    T value;
  };
  batched_loop(
      n,
      [&](int64_t i) {
        const I from = perm[i];
        return Entry{src_index[from], dst_value != nullptr ? src_value[from] : T{}};
      },
      [&](int64_t i, Entry e) {
        dst_index[i] = static_cast<I>(e.index);
        if (dst_value != nullptr) dst_value[i] = e.value;
      });
}

// Clears *ascending where an entry's column is below the one before it in the same row, over
// row-ordered entries (a plain store, as validation's row-order check): for COO entries that
// validation found out of row order, once they are sorted by row.
template <typename I>
__global__ void check_columns_ascending_kernel(const I* entry_row, const I* entry_col, int64_t nnz,
                                               unsigned long long* ascending) {
  batched_loop(
      nnz,
      [&](int64_t p) {
        const int64_t q = p > 0 ? p - 1 : 0;  // p = 0: compared with itself, never out of order
        return entry_row[p] == entry_row[q] && entry_col[p] < entry_col[q];
      },
      [&](int64_t, bool descends) {
        if (descends) *ascending = 0;
      });
}

// The plan's row-ordered arrays from the caller's entries, which are in row order, in one pass:
// each entry's row (COO: the caller's row index; CSR: by binary search in the plan's offsets,
// coo_row null), its column converted, its value copied (entry_value null without values) and,
// where `ascending` is given, that word cleared where a column is below the one before it in the
// same row (check_columns_ascending_kernel's test, on the caller's arrays). One launch instead of
// a conversion per array, the values' copy and the check's own pass over the plan's arrays.
template <typename In, typename T, typename I>
__global__ void copy_row_ordered_kernel(const In* coo_row, const int64_t* offsets, int64_t rows, const In* col,
                                        const T* value, I* entry_row, I* entry_col, T* entry_value, int64_t nnz,
                                        unsigned long long* ascending) {
  struct Entry {
    int64_t row;
    In col;
    T value;
    bool descends;  // its column is below the one before it in the same row
  };
  batched_loop(
      nnz,
      [&](int64_t e) {
        int64_t row = 0;
        bool row_start = false;  // e is the first entry of its row
        if (coo_row != nullptr) {
          row = static_cast<int64_t>(coo_row[e]);
          row_start = e == 0 || static_cast<int64_t>(coo_row[e - 1]) != row;
        } else {
          row = row_holding(offsets, rows, e);
          row_start = offsets[row] == e;
        }
        const In c = col[e];
        const bool descends = ascending != nullptr && !row_start && c < col[e - 1];
        return Entry{row, c, entry_value != nullptr ? value[e] : T{}, descends};
      },
      [&](int64_t e, const Entry& x) {
        entry_row[e] = static_cast<I>(x.row);
        entry_col[e] = static_cast<I>(x.col);
        if (entry_value != nullptr) entry_value[e] = x.value;
        if (x.descends) *ascending = 0;
      });
}

template <typename In, typename Out>
void convert(const In* in, Out* out, int64_t n, cudaStream_t stream) {
  if (n == 0) return;
  convert_kernel<<<batched_blocks(n), kPreprocessThreads, 0, stream>>>(in, out, n);
  check_launch("convert_kernel");
}

// The caller's indices (int32 or int64) into an array of J: a plan index type or a sort key type.
template <typename J>
void convert_index(const void* in, sddmm_index_type_t type, J* out, int64_t n, cudaStream_t stream) {
  if (type == SDDMM_INDEX_INT64) {
    convert(static_cast<const int64_t*>(in), out, n, stream);
  } else {
    convert(static_cast<const int32_t*>(in), out, n, stream);
  }
}

// Sort keys are int32 when the dimension sorted by fits, whatever the plan's index type (see the
// memory note at the top); an int32 plan's keys are int32 anyway.
bool fits_int32(int64_t outer) { return outer <= std::numeric_limits<int32_t>::max(); }

// Scratch bytes of sorting n entries by a dimension of size outer.
template <typename I>
size_t sort_scratch_bytes(int64_t n, int64_t outer, cudaStream_t stream) {
  if (n == 0) return 0;
  Carver c;
  if (fits_int32(outer)) {
    (void)RadixSort<int32_t, I>(c, n, outer, stream);
  } else {
    (void)RadixSort<I, I>(c, n, outer, stream);
  }
  return c.used();
}

template <typename K>
void offsets_from_sorted(const K* keys, int64_t n, int64_t outer, int64_t* offsets, cudaStream_t stream) {
  offsets_from_sorted_kernel<<<preprocess_blocks(outer + 1), kPreprocessThreads, 0, stream>>>(keys, n, outer, offsets);
  check_launch("offsets_from_sorted_kernel");
}

// Blocks of 256 threads that the device runs at once: multiprocessors x (threads per SM / 256).
int resident_blocks(int device) {
  int sms = 0, threads = 0;
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  check(cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, device), "cudaDeviceGetAttribute");
  return sms * (threads / 256 > 0 ? threads / 256 : 1);
}

int device_attribute(cudaDeviceAttr attribute, int device) {
  int value = 0;
  check(cudaDeviceGetAttribute(&value, attribute, device), "cudaDeviceGetAttribute");
  return value;
}

int multiprocessors(int device) { return device_attribute(cudaDevAttrMultiProcessorCount, device); }

int64_t l2_bytes(int device) {
  int bytes = 0;
  check(cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, device), "cudaDeviceGetAttribute");
  return bytes;
}

// The plan's arrays, carved from its one allocation.
template <typename T, typename I>
void lay_out_plan(DevicePattern<T, I>& p, Carver& c, bool has_values, bool with_panels, bool with_tile_entries) {
  const int64_t value_count = has_values ? p.nnz : 0;
  p.row_offsets = c.span<int64_t>(p.rows + 1);
  p.entry_row = c.span<I>(p.nnz);
  p.entry_col = c.span<I>(p.nnz);
  p.entry_value = c.span<T>(value_count);
  p.col_offsets = c.span<int64_t>(p.cols + 1);
  p.csc_row = c.span<I>(p.nnz);
  p.csc_value = c.span<T>(value_count);
  p.row_split.order = c.span<I>(p.rows);
  p.col_split.order = c.span<I>(p.cols);
  if (with_panels) lay_out_panel_order(p.panels, c, p.rows, p.nnz, has_values);
  if (with_tile_entries) lay_out_tile_entries(p.tile_entries, c, p.rows, p.cols, p.nnz, has_values);
}

// Row-ordered entries from entries already in row order: CSR (rows from the offsets) or sorted COO,
// with the check that every row's columns ascend where `ascending` is given (else null).
template <typename T, typename I>
void copy_in_row_order(DevicePattern<T, I>& p, const SparseInput& input, unsigned long long* ascending,
                       cudaStream_t stream) {
  const bool csr = input.format == SparseInput::Format::kCsr;
  if (csr && p.rows > 0) {
    convert_index(input.rows, input.index_type, p.row_offsets.get(), p.rows + 1, stream);
  } else if (csr) {
    check(cudaMemsetAsync(p.row_offsets.get(), 0, sizeof(int64_t), stream), "cudaMemsetAsync");
  }
  const auto copy = [&](const auto* caller_row, const auto* caller_col) {
    if (!csr) offsets_from_sorted(caller_row, p.nnz, p.rows, p.row_offsets.get(), stream);
    if (p.nnz == 0) return;
    copy_row_ordered_kernel<<<batched_blocks(p.nnz), kPreprocessThreads, 0, stream>>>(
        csr ? nullptr : caller_row, p.row_offsets.get(), p.rows, caller_col, static_cast<const T*>(input.values),
        p.entry_row.get(), p.entry_col.get(), p.entry_value.get(), p.nnz, ascending);
    check_launch("copy_row_ordered_kernel");
  };
  if (input.index_type == SDDMM_INDEX_INT64) {
    copy(static_cast<const int64_t*>(input.rows), static_cast<const int64_t*>(input.cols));
  } else {
    copy(static_cast<const int32_t*>(input.rows), static_cast<const int32_t*>(input.cols));
  }
}

// Row-ordered entries from COO entries that are not in row order: a stable sort by row, then
// columns and values gathered into that order; the sort's positions are kept to return SDDMM
// results in the caller's order.
template <typename K, typename T, typename I>
void sort_rows(DevicePattern<T, I>& p, const SparseInput& input, Carver scratch, cudaStream_t stream) {
  RadixSort<K, I> sort(scratch, p.nnz, p.rows, stream);
  convert_index(input.rows, input.index_type, sort.keys[0], p.nnz, stream);
  const auto sorted = sort.run();
  offsets_from_sorted(sorted.keys, p.nnz, p.rows, p.row_offsets.get(), stream);
  convert(sorted.keys, p.entry_row.get(), p.nnz, stream);
  convert(sorted.positions, p.caller_position.get(), p.nnz, stream);
  const T* values = p.entry_value.empty() ? nullptr : static_cast<const T*>(input.values);
  const auto gather = [&](const auto* caller_col) {
    gather_kernel<<<batched_blocks(p.nnz), kPreprocessThreads, 0, stream>>>(
        p.caller_position.get(), caller_col, p.entry_col.get(), values, p.entry_value.get(), p.nnz);
    check_launch("gather_kernel");
  };
  if (input.index_type == SDDMM_INDEX_INT64) {
    gather(static_cast<const int64_t*>(input.cols));
  } else {
    gather(static_cast<const int32_t*>(input.cols));
  }
}

// Column-ordered entries (CSC), from the row-ordered ones: a stable sort by column keeps row order
// within a column, so transposed SpMM sums in a fixed order; and, where the plan has one, the
// panel order's sort of that order (cuda/panels.cuh). In two steps, so that creation can queue the
// sorts before the plan's allocation exists (build_pattern): they need only the scratch and each
// row-ordered entry's column and row, from the caller's arrays or the plan's entry_col and
// entry_row.
//
// The scratch, in this order: the sort by column (its buffers and CUB's storage); with a panel
// order, the column offsets (computed there, so that the sort by panel can take both key buffers;
// copied into the plan after), one more buffer of entries and CUB's storage of the sort by panel,
// whose entries are that buffer and the positions buffer the sort by column's result leaves free.
template <typename K, typename I>
struct ColumnSort {
  std::optional<RadixSort<K, I>> sort;  // none without entries
  typename RadixSort<K, I>::Sorted sorted = {};
  int64_t* col_offsets = nullptr;  // with a panel order: cols + 1, in the scratch
  PanelSortBuffers<I> panel_sort = {};
  const I* panel_entries = nullptr;  // with a panel order: its entries, as row-order indices, once sorted

  // Lays the pieces out on `c` (a measuring Carver measures them).
  ColumnSort(Carver& c, int64_t nnz, int64_t rows, int64_t cols, bool with_panels, cudaStream_t stream) {
    if (nnz == 0) return;
    sort.emplace(c, nnz, cols, stream);
    if (!with_panels) return;
    col_offsets = c.take<int64_t>(cols + 1);
    panel_sort.entries[1] = c.take<I>(nnz);
    panel_sort.temp_bytes = panel_sort_bytes<I>(rows, nnz, stream);
    panel_sort.temp = c.take<unsigned char>(static_cast<int64_t>(panel_sort.temp_bytes));
  }
};

template <typename K, typename I>
size_t column_sort_scratch_bytes(int64_t nnz, int64_t rows, int64_t cols, bool with_panels, cudaStream_t stream) {
  Carver c;
  (void)ColumnSort<K, I>(c, nnz, rows, cols, with_panels, stream);
  return c.used();
}

// Queues the sort by column of the row-ordered entries, on the scratch's start (`whole`), and the
// sort by panel where `with_panels`; fill_keys(keys) writes the entries' columns, `rows` says where
// their rows are.
template <typename K, typename I, typename R, typename FillKeys>
ColumnSort<K, I> queue_column_sort(Carver whole, int64_t nnz, int64_t cols, bool with_panels, EntryRows<R> rows,
                                   FillKeys&& fill_keys, cudaStream_t stream) {
  ColumnSort<K, I> c(whole, nnz, rows.rows, cols, with_panels, stream);
  if (nnz == 0) return c;
  RadixSort<K, I>& sort = *c.sort;
  fill_keys(sort.keys[0]);
  c.sorted = sort.run();
  if (!with_panels) return c;
  offsets_from_sorted(c.sorted.keys, nnz, cols, c.col_offsets, stream);
  // Both key buffers are free once the offsets are read (stream order); the sort by column's
  // result stays in its positions buffer for the CSC's gather.
  c.panel_sort.keys[0] = reinterpret_cast<uint32_t*>(sort.keys[0]);
  c.panel_sort.keys[1] = reinterpret_cast<uint32_t*>(sort.keys[1]);
  c.panel_sort.entries[0] = c.sorted.positions == sort.positions[0] ? sort.positions[1] : sort.positions[0];
  c.panel_entries = queue_panel_sort(c.panel_sort, c.sorted.positions, rows, nnz, stream);
  return c;
}

// The same from the caller's arrays (taken to be in row order: validation has not answered yet).
template <typename K, typename I>
ColumnSort<K, I> queue_column_sort_of_caller(Carver whole, const MatrixInfo& info, const SparseInput& input,
                                             bool with_panels, cudaStream_t stream) {
  const bool csr = input.format == SparseInput::Format::kCsr;
  const auto queue = [&](const auto* caller_rows) {
    using R = std::remove_cv_t<std::remove_pointer_t<decltype(caller_rows)>>;
    const EntryRows<R> rows{csr ? nullptr : caller_rows, csr ? caller_rows : nullptr, info.rows};
    return queue_column_sort<K, I>(
        whole, info.nnz, info.cols, with_panels, rows,
        [&](K* keys) { convert_index(input.cols, input.index_type, keys, info.nnz, stream); }, stream);
  };
  if (input.index_type == SDDMM_INDEX_INT64) return queue(static_cast<const int64_t*>(input.rows));
  return queue(static_cast<const int32_t*>(input.rows));
}

// The rest of the CSC from the sort: column offsets, the rows and values gathered into column order
// and, where the plan has one, the panel order.
template <typename K, typename T, typename I>
void finish_csc(DevicePattern<T, I>& p, const ColumnSort<K, I>& c, cudaStream_t stream) {
  if (!c.sort) {
    offsets_from_sorted<K>(nullptr, 0, p.cols, p.col_offsets.get(), stream);
    return;
  }
  if (c.col_offsets != nullptr) {
    check(cudaMemcpyAsync(p.col_offsets.get(), c.col_offsets, static_cast<size_t>(p.cols + 1) * sizeof(int64_t),
                          cudaMemcpyDeviceToDevice, stream),
          "cudaMemcpyAsync (column offsets)");
  } else {
    offsets_from_sorted(c.sorted.keys, p.nnz, p.cols, p.col_offsets.get(), stream);
  }
  gather_kernel<<<batched_blocks(p.nnz), kPreprocessThreads, 0, stream>>>(
      c.sorted.positions, p.entry_row.get(), p.csc_row.get(), p.entry_value.get(), p.csc_value.get(), p.nnz);
  check_launch("gather_kernel (CSC)");
  if (p.panels.empty()) return;
  fill_panel_order(p.panels, p.rows, p.nnz, p.row_offsets.get(), c.panel_entries, p.entry_row.get(), p.entry_col.get(),
                   p.entry_value.get(), p.caller_position.get(), stream);
}

// Creation's flag words: validation's, then whether every row's columns ascend (cleared by the
// check, where the plan makes it).
constexpr int kCreationFlags = kValidationFlags + 1;

// Value types with a tensor-core SDDMM: float16, bfloat16 and float32 (float64 has none).
template <typename T>
constexpr bool kHasTensorCorePath = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16> || std::is_same_v<T, float>;

// Which plans list dense units: those of a type with a tensor-core path; float32 ones (TF32
// arithmetic when allowed, else the float32-accurate split: sddmm_config.cuh) unless
// float32_tensor_cores() is off.
template <typename T>
bool lists_tensor_core_units(bool allow_tf32) {
  if constexpr (!kHasTensorCorePath<T>) return false;
  if constexpr (std::is_same_v<T, float>) return allow_tf32 || float32_tensor_cores();
  return true;
}

// The device's compute capability as 10 x major + minor (90: Hopper).
int compute_capability(int device) {
  return 10 * device_attribute(cudaDevAttrComputeCapabilityMajor, device) +
         device_attribute(cudaDevAttrComputeCapabilityMinor, device);
}

// mma.sync with float16/bfloat16/TF32 inputs and float32 sums needs compute capability 8.0.
bool has_tensor_cores(int device) { return compute_capability(device) >= 80; }

// wgmma (the Hopper kernels, built for sm_90a) runs on compute capability 9.0 exactly.
bool is_sm90(int device) { return compute_capability(device) == 90; }

// The dense units of a plan that lists them (float16/bfloat16/float32 values, sm_80+). They are an
// optimisation: when their arrays find no memory, the plan goes without and every entry stays on
// the CUDA cores.
// 16-bit plans for the wgmma squares list units from a lower fill where the matrix is dense enough
// for the squares to pay (tuning.hpp, kTensorWgmmaMinMatrixDensity); SDDMM_TC_MIN_DENSITY above 1
// still lists none.
template <typename T, typename I>
double unit_min_density(const DevicePattern<T, I>& p) {
  if constexpr (std::is_same_v<T, float>) {
    return tensor_core_min_density_float32();
  } else {
    const double general = tensor_core_min_density();
    const double cells = static_cast<double>(p.rows) * static_cast<double>(p.cols);
    const double matrix_density = static_cast<double>(p.nnz) / cells;
    const bool squares_pay = p.wgmma_squares && matrix_density >= kTensorWgmmaMinMatrixDensity && general <= 1.0;
    return squares_pay ? std::min(general, tensor_wgmma_min_density()) : general;
  }
}

// The square kernel takes 16-bit features only: float32 plans never index their cells.
template <typename T>
double unit_min_cover() {
  return sizeof(T) == 2 ? tensor_square_min_cover() : std::numeric_limits<double>::infinity();
}

template <typename T, typename I>
void add_tensor_core_units(DevicePattern<T, I>& p, const CreationScratch& scratch, cudaStream_t stream) {
  try {
    p.tiles = build_tensor_tiles<T, I>(p.rows, p.cols, p.nnz, p.entry_row, p.entry_col, p.entry_value, p.caller_position,
                                       unit_min_density(p), tensor_core_min_share(), unit_min_cover<T>(),
                                       scratch.get(), scratch.size(), stream);
  } catch (const Error& e) {
    if (e.status() != SDDMM_STATUS_OUT_OF_MEMORY) throw;
    p.tiles = TensorTiles<T, I>();
    return;
  }
  // 16-bit plans whose units are full enough for SpMM's tensor-core kernel list them strip by strip
  // too (tuning.hpp); without the memory for it SpMM stays on the CUDA cores.
  if constexpr (sizeof(T) == 2) {
    if (p.tiles.empty() || p.tiles.density() < spmm_tensor_min_fill()) return;
    try {
      (void)build_strip_order(p.tiles, p.row_offsets.get(), p.rows, scratch.get(), scratch.size(), stream);
    } catch (const Error& e) {
      if (e.status() != SDDMM_STATUS_OUT_OF_MEMORY) throw;
      p.tiles.strip_storage = DeviceArray<unsigned char>();
      p.tiles.strip_units = p.tiles.strip_unit_begin = p.tiles.strip_rest_begin = DeviceSpan<int64_t>();
    }
  }
}

// Whether the plan carries a panel order for the SDDMM panel kernel (cuda/panels.cuh): forced by
// SDDMM_SDDMM_PANELS (`forced`, the plan's copy of it: 1 wherever panels_fit, 0 never), else where
// X2 at the kernel's shortest rows fits the L2 (where it exceeds the L2 the panel kernel lost: SBM,
// uniform 106000^2 and 300000 x 103000; tuning.hpp) and each X2 column read would serve enough
// entries of a random pattern.
bool wants_panel_order(int64_t rows, int64_t cols, int64_t nnz, int64_t l2, int forced) {
  if (forced == 0 || nnz == 0 || !panels_fit(rows, cols)) return false;
  return forced == 1 || (cols * kPanelMinRowBytes <= l2 &&
                         uniform_panel_column_reuse(rows, cols, nnz) >= sddmm_panel_min_reuse());
}

// Whether a plan carries tile entries for the SDDMM tile kernel (cuda/tile_entries.cuh; the kernel
// and its threshold: tuning.hpp, kSddmmTileMinEntries): float32 plans whose tiles hold enough
// entries on average, or any float32 plan with SDDMM_SDDMM_TILES=1 (`forced`) whose tiles (a plan
// index each in the list's starts) are not far more than its entries; never with 0. The list is
// right, and kept, only where every row's columns ascend, which creation learns at its end
// (build_device_pattern).
template <typename T>
bool wants_tile_entries(int64_t rows, int64_t cols, int64_t nnz, int forced) {
  const int64_t tiles = tile_count(rows, cols);
  if (!std::is_same_v<T, float> || forced == 0 || nnz == 0 || tiles <= 0) return false;
  if (tiles > nnz + kTileRows * kTileCols) return false;
  return forced == 1 || nnz / tiles >= sddmm_tile_min_entries();
}

// Whether plan creation counts X's rows by class for the SpMM L2 hints (cuda/l2_hints.cuh): where
// X's rows, at the narrowest that a hinted configuration takes, could exceed the L2, or wherever
// SDDMM_SPMM_L2_HINTS=1; never with SDDMM_SPMM_L2_HINTS=0.
bool wants_x_classes(int64_t cols, int64_t l2, int forced) {
  if (forced >= 0) return forced == 1;
  return cols > l2 / kSpmmL2HintsMinRowBytes;
}

// Whether the tensor-core listing could keep its units: not when the census finds the dense ones
// holding less than the plan-wide minimum share of the entries (the listing would sort every entry
// by unit to find just that; tuning.hpp has the measurement, from when its scratch was 3x the size:
// the scratch now has room for it before the census answers). The census's counters borrow the
// plan's CSC row array, which finish_csc fills later.
template <typename T, typename I>
bool units_may_pay(const DevicePattern<T, I>& p, const SparseInput& input, cudaStream_t stream) {
  if (!unit_census()) return true;
  const int64_t dense = count_dense_unit_entries(input, p.rows, p.cols, p.nnz, unit_min_entries(unit_min_density(p)),
                                                 p.csc_row.get(), static_cast<size_t>(p.csc_row.size()) * sizeof(I),
                                                 stream);
  return dense < 0 || dense_units_hold_enough(dense, p.nnz, tensor_core_min_share());
}

// The creation scratch: `wanted` bytes, or `needed` when that much is not free (the difference is
// the tensor-core listing's, which is an optimisation: `with_units` then turns false).
CreationScratch allocate_scratch(size_t needed, size_t wanted, bool& with_units, int device, cudaStream_t stream) {
  if (wanted > needed) {
    try {
      return CreationScratch(wanted, device, stream);
    } catch (const Error& e) {
      if (e.status() != SDDMM_STATUS_OUT_OF_MEMORY) throw;
      with_units = false;
    }
  }
  return CreationScratch(needed, device, stream);
}

// The order of creation: validation queued first (its flags in the creation pool), then the scratch
// (from the pool: ~10 us) and the sorts by column and by panel of the caller's entries, taken to be
// in row order, so that the device validates and sorts while the host makes the plan's allocation
// (a cudaMalloc does not wait for the device: 46 MB 66-71 us idle, 71-93 us beside a 300 us kernel,
// H200, e89). Where validation then finds COO entries out of row order (CSR is in row order by
// definition), those sorts were for nothing: the entries are sorted by row, and by column (and
// panel) again after. After the allocation, each phase writes the plan's arrays.
// with_tile_entries, with_panels: the plan lists its tile entries, its panel order (wants_tile_entries,
// wants_panel_order said so, and memory allowed: build_device_pattern).
// K: the sort-by-column's key type (int32 where the columns fit it).
template <typename T, typename I, typename K>
DevicePattern<T, I> build_pattern(const MatrixInfo& info, const SparseInput& input, cudaStream_t stream,
                                  bool with_tile_entries, bool with_panels) {
  const int64_t nnz = info.nnz;
  DevicePattern<T, I> p;
  p.rows = info.rows;
  p.cols = info.cols;
  p.nnz = nnz;
  p.l2_bytes = l2_bytes(info.device_id);
  p.sddmm_panels = sddmm_panels();
  p.sddmm_panel_block_entries = sddmm_panel_block_entries(false);
  p.sddmm_panel_block_entries_half = sddmm_panel_block_entries(true);
  p.spmm_l2_hints = spmm_l2_hints();
  const bool with_x_classes = wants_x_classes(info.cols, p.l2_bytes, p.spmm_l2_hints);
  // Validation's flags and the word that says whether every row's columns ascend, in a small
  // block of the creation pool, not the plan's allocation, so that validation is queued first;
  // every word starts all ones (validation's "none" and "ascending").
  const CreationScratch flags(kCreationFlags * sizeof(unsigned long long), info.device_id, stream);
  auto* const validation_flags = reinterpret_cast<unsigned long long*>(flags.get());
  unsigned long long* const columns_ascending = validation_flags + kValidationFlags;
  check(cudaMemsetAsync(validation_flags, 0xFF, kCreationFlags * sizeof(unsigned long long), stream),
        "cudaMemsetAsync");
  queue_validation(info, input, validation_flags, stream);

  p.entries_per_slice = spmm_entries_per_slice();
  p.spmm_shared_indices = spmm_shared_indices();
  p.spmm_deep_rows_min_mean = spmm_deep_rows_min_mean();
  p.spmm_few_rows = spmm_few_rows();
  p.spmm_few_long_rows_min_mean = spmm_few_long_rows_min_mean();
  p.spmm_split_tiles = spmm_split_tiles();
  p.spmm_tiles_outer = spmm_tiles_outer();
  p.spmm_slabs = spmm_slabs();
  p.spmm_slab_min_reuse = spmm_slab_min_reuse();
  p.resident_blocks = resident_blocks(info.device_id);
  p.compute_capability = compute_capability(info.device_id);
  p.shared_optin = device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, info.device_id);
  p.sddmm_grid_max_waves = static_cast<int>(sddmm_grid_max_waves());
  p.sddmm_wave_min_products = sddmm_wave_min_products();
  p.sddmm_line_kernel = sddmm_line_kernel();
  p.sddmm_line_interleave = sddmm_line_interleave();
  p.sddmm_row_shares = sddmm_row_shares();
  p.sddmm_sm_blocks = sddmm_sm_blocks();
  p.sddmm_k_parts = sddmm_k_parts();
  p.allow_tf32 = (info.flags & SDDMM_CREATE_ALLOW_TF32) != 0;
  p.wgmma_squares = kHaveHopperKernels && sizeof(T) == 2 && tensor_wgmma_squares() && is_sm90(info.device_id);
  p.wgmma_walk = wgmma_walk_pays(info.rows, info.cols, info.nnz, tensor_wgmma_walk());

  // One scratch for every phase below, sized for the largest. COO entries may need the sort by row,
  // which validation has not answered yet: it is counted in (about the sort by column's size).
  // The sort by column takes the sort by panel's pieces after its own (ColumnSort).
  const bool may_sort_rows = input.format != SparseInput::Format::kCsr;
  const size_t needed = std::max({may_sort_rows ? sort_scratch_bytes<I>(nnz, info.rows, stream) : 0,
                                  column_sort_scratch_bytes<K, I>(nnz, info.rows, info.cols, with_panels, stream),
                                  split_scratch_bytes<I>(info.rows, info.cols, nnz, stream)});
  // A plan with a panel order lists no float32 units for the split: the panel kernel takes the
  // split's K = 128 / 256 (sddmm.cu; it ran faster), and at K = 32 / 64 the split pays only for units
  // at least 20 % full (tuning.hpp), which patterns whose X2 fits the L2 and whose random entries
  // would share 1.3 a panel column rarely have. The listing, a sort of every entry by unit, is saved.
  // Where the plan may list units, the scratch has room for the listing (about the sort's size)
  // before the census below says whether it will.
  bool with_units = lists_tensor_core_units<T>(p.allow_tf32) && has_tensor_cores(info.device_id) &&
                    !(with_panels && units_in_tf32_split<T>(p.allow_tf32));
  size_t wanted = needed;
  if constexpr (kHasTensorCorePath<T>) {
    if (with_units) wanted = std::max(needed, tensor_tile_scratch_bytes<T, I>(info.rows, info.cols, nnz, stream));
  }
  const CreationScratch scratch = allocate_scratch(needed, wanted, with_units, info.device_id, stream);
  const Carver whole(scratch.get(), scratch.size());
  ColumnSort<K, I> by_column = queue_column_sort_of_caller<K, I>(whole, info, input, with_panels, stream);

  // Whether every row's columns ascend: the float32 SpMM slab kernel asks (spmm.cu), by its rule
  // only where the entries are at least its lower threshold x cols x its blocks (one a
  // multiprocessor) and the rows fit its warps, and the tile entries need it: elsewhere the check's
  // pass (0.02-0.08 ms of plan time, H100, when it was a pass of its own with a memset and a
  // read-back) would buy nothing.
  const double slab_reads = static_cast<double>(multiprocessors(info.device_id)) * static_cast<double>(info.cols);
  const bool slab_rule_may_take = static_cast<double>(nnz) >= p.spmm_slab_min_reuse.lowest() * slab_reads &&
                                  info.rows <= slab_outer_capacity(multiprocessors(info.device_id));
  const bool check_columns = std::is_same_v<T, float> &&
                             (p.spmm_slabs == 1 || (p.spmm_slabs == -1 && slab_rule_may_take) || with_tile_entries);
  unsigned long long* x_class_counts = nullptr;  // the L2 hints' histograms, read with the split's counts
  p.storage = carve([&](Carver& c) {
    lay_out_plan(p, c, info.has_values, with_panels, with_tile_entries);
    if (with_x_classes) x_class_counts = c.take<unsigned long long>(kXClassCounts);
  });
  const bool in_row_order = finish_validation(info, input, validation_flags, stream);
  if (in_row_order) {
    copy_in_row_order(p, input, check_columns ? columns_ascending : nullptr, stream);
  } else {
    p.caller_position_storage = DeviceArray<I>(nnz);
    p.caller_position = DeviceSpan<I>(p.caller_position_storage.get(), nnz);
    if (fits_int32(info.rows)) {
      sort_rows<int32_t>(p, input, whole, stream);
    } else {
      sort_rows<I>(p, input, whole, stream);
    }
    // The sort by row took the scratch's first buffers: the sort by column again, of the sorted entries.
    const EntryRows<I> sorted_rows{p.entry_row.get(), nullptr, info.rows};
    by_column = queue_column_sort<K, I>(
        whole, nnz, info.cols, with_panels, sorted_rows,
        [&](K* keys) { convert(p.entry_col.get(), keys, nnz, stream); }, stream);
    if (check_columns && nnz > 1) {
      check_columns_ascending_kernel<<<batched_blocks(nnz), kPreprocessThreads, 0, stream>>>(
          p.entry_row.get(), p.entry_col.get(), nnz, columns_ascending);
      check_launch("check_columns_ascending_kernel");
    }
  }
  if constexpr (kHasTensorCorePath<T>) {
    with_units = with_units && units_may_pay(p, input, stream);
  }
  if constexpr (std::is_same_v<T, float>) {
    if (with_tile_entries) {
      fill_tile_entries(p.tile_entries, info.rows, info.cols, p.row_offsets.get(), p.entry_col.get(),
                        p.entry_value.get(), p.caller_position.get(), stream);
    }
  }
  finish_csc(p, by_column, stream);
  // The hints' histogram and the columns' order are read back with the split's counts; only plans
  // the rule may give hints keep each entry's class (an allocation of their own).
  unsigned long long class_counts[kXClassCounts] = {};
  ReadBack class_read_back;
  if (with_x_classes) {
    queue_x_class_counts(p.col_offsets.get(), info.cols, x_class_counts, stream);
    class_read_back = ReadBack{x_class_counts, class_counts, sizeof(class_counts)};
  }
  unsigned long long ascending = 0;
  ReadBack ascending_read_back;
  if (check_columns) ascending_read_back = ReadBack{columns_ascending, &ascending, sizeof(ascending)};
  split_by_length(p.row_split, p.row_offsets.get(), p.col_split, p.col_offsets.get(), nnz, p.resident_blocks,
                  scratch.get(), scratch.size(), stream, {class_read_back, ascending_read_back});
  if (with_x_classes) {
    p.x_classes = row_classes(class_counts);
    if (l2_hints_may_pay(p.x_classes, info.cols, nnz, p.l2_bytes, p.spmm_l2_hints)) {
      p.entry_x_class = DeviceArray<uint8_t>(nnz);
      queue_entry_x_classes(p.col_offsets.get(), p.entry_col.get(), nnz, p.entry_x_class.get(), stream);
    }
  }
  if constexpr (kHasTensorCorePath<T>) {
    if (with_units) add_tensor_core_units(p, scratch, stream);
  }
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (plan creation)");
  p.rows_ascending = ascending != 0;
  // Tile entries of rows whose columns do not ascend are wrong: the plan drops them (their bytes stay
  // in its allocation) and K = 32 takes the line kernel.
  if (!p.rows_ascending) p.tile_entries = TileEntries<T, I>();
  return p;  // the scratch goes back (cuda/creation_scratch.cuh) after the synchronisation above
}

// build_pattern with the sort-by-column's keys in 32 bits where the columns fit (the memory note
// at the top).
template <typename T, typename I>
DevicePattern<T, I> build_pattern_with_keys(const MatrixInfo& info, const SparseInput& input, cudaStream_t stream,
                                            bool with_tile_entries, bool with_panels) {
  if (fits_int32(info.cols)) return build_pattern<T, I, int32_t>(info, input, stream, with_tile_entries, with_panels);
  return build_pattern<T, I, I>(info, input, stream, with_tile_entries, with_panels);
}

}  // namespace

// The tile entries and the panel order are optimisations: where creation with them runs out of
// device memory, at the scratch's or the plan's allocation (the two together are the peak) or at
// any after, it starts again without the tile entries, then without the panel order too (its sort
// takes one more buffer of the scratch and its arrays 3i + v bytes an entry of the plan: the memory
// note at the top). The failed attempt's memory goes back as it unwinds (its frees wait for the
// work queued on it); the caller's arrays are only read, so the next attempt validates and sorts
// them again: time spent only where memory ran out.
template <typename T, typename I>
DevicePattern<T, I> build_device_pattern(const MatrixInfo& info, const SparseInput& input, cudaStream_t stream) {
  bool tiles = wants_tile_entries<T>(info.rows, info.cols, info.nnz, sddmm_tiles());
  bool panels = wants_panel_order(info.rows, info.cols, info.nnz, l2_bytes(info.device_id), sddmm_panels());
  for (;;) {
    try {
      return build_pattern_with_keys<T, I>(info, input, stream, tiles, panels);
    } catch (const Error& e) {
      if (e.status() != SDDMM_STATUS_OUT_OF_MEMORY || (!tiles && !panels)) throw;
      (tiles ? tiles : panels) = false;
    }
  }
}

template DevicePattern<float, int32_t> build_device_pattern<float, int32_t>(const MatrixInfo&, const SparseInput&, cudaStream_t);
template DevicePattern<float, int64_t> build_device_pattern<float, int64_t>(const MatrixInfo&, const SparseInput&, cudaStream_t);
template DevicePattern<double, int32_t> build_device_pattern<double, int32_t>(const MatrixInfo&, const SparseInput&, cudaStream_t);
template DevicePattern<double, int64_t> build_device_pattern<double, int64_t>(const MatrixInfo&, const SparseInput&, cudaStream_t);
template DevicePattern<__half, int32_t> build_device_pattern<__half, int32_t>(const MatrixInfo&, const SparseInput&, cudaStream_t);
template DevicePattern<__half, int64_t> build_device_pattern<__half, int64_t>(const MatrixInfo&, const SparseInput&, cudaStream_t);
template DevicePattern<__nv_bfloat16, int32_t> build_device_pattern<__nv_bfloat16, int32_t>(const MatrixInfo&, const SparseInput&,
                                                                                         cudaStream_t);
template DevicePattern<__nv_bfloat16, int64_t> build_device_pattern<__nv_bfloat16, int64_t>(const MatrixInfo&, const SparseInput&,
                                                                                         cudaStream_t);

}  // namespace sddmm::cuda
