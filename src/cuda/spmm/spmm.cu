#include "cuda/spmm/spmm.cuh"

#include "cuda/spmm/spmm_kernel.cuh"
#include "cuda/tuning.hpp"

namespace sddmm::cuda {
namespace {

enum class SpmmKernel { kVector16, kStrided };

struct SpmmChoice {
  SpmmKernel kernel;
  int group;   // lanes per column tile of an output row
  int slices;  // lane groups per light row
};

// The one place that picks an SpMM kernel for a call.
//  - kVector16 when rows of X and Y are contiguous (both row-major), 16-byte aligned, and N a
//    multiple of the vector width; kStrided otherwise (column-major operands, odd N, offsets).
//  - group: the fewest lanes covering N in one step, capped at a warp, so narrow N packs several
//    rows into one warp.
//  - slices: when the light rows hold at least kSpmmEntriesPerSlice entries per lane group on
//    average, a whole warp takes each row (32 / group slices): narrow N no longer leaves most of the
//    GPU idle on a few thousand long rows.
//  - Which rows go to the heavy-row kernel was decided at plan time (tuning.hpp, plan's split).
template <typename T>
SpmmChoice choose_spmm_kernel(const DenseView& x, const DenseView& y, int64_t light_entries, int64_t light_rows) {
  constexpr int kVec = 16 / static_cast<int>(sizeof(T));
  const int64_t n = y.cols;
  const bool contiguous = x.col_stride() == 1 && y.col_stride() == 1;
  const bool aligned = is_aligned(x.data, 16) && is_aligned(y.data, 16) && (x.ld * int64_t{sizeof(T)}) % 16 == 0 &&
                       (y.ld * int64_t{sizeof(T)}) % 16 == 0;
  const bool vector = contiguous && aligned && n % kVec == 0;
  const int64_t steps = vector ? n / kVec : n;
  const int group = lanes_covering(steps);
  const int64_t mean = light_rows > 0 ? light_entries / light_rows : 0;
  const int slices = mean >= kSpmmEntriesPerSlice * (32 / group) ? 32 / group : 1;
  return {vector ? SpmmKernel::kVector16 : SpmmKernel::kStrided, group, slices};
}

template <typename Config, typename I>
void launch(SpmmArgs<typename Config::Scalar, I> args, const OuterSplit<I>& split, int resident_blocks, cudaStream_t stream) {
  constexpr int kThreads = Config::kThreadsPerBlock;
  if (!split.light.empty()) {
    // Light rows: a persistent grid (at most what the device holds at once) looping over the list.
    args.outer_list = split.light.get();
    args.outer_count = split.light.size();
    const int64_t blocks = (args.outer_count * args.group * args.slices + kThreads - 1) / kThreads;
    const int grid = static_cast<int>(blocks < resident_blocks ? blocks : resident_blocks);
    if (args.slices > 1) {
      spmm_row_kernel<Config, I, true><<<grid, kThreads, 0, stream>>>(args);
    } else {
      spmm_row_kernel<Config, I, false><<<grid, kThreads, 0, stream>>>(args);
    }
    check_launch("spmm_row_kernel");
  }
  if (!split.heavy.empty()) {
    args.outer_list = split.heavy.get();
    args.outer_count = split.heavy.size();
    const int64_t tile_width = int64_t{args.group} * Config::kVec;
    const int64_t blocks = args.outer_count * ((args.n + tile_width - 1) / tile_width);
    if (blocks >= (int64_t{1} << 31)) fail(SDDMM_STATUS_NOT_SUPPORTED, "SpMM: too many heavy rows x column tiles for one launch");
    spmm_heavy_row_kernel<Config, I><<<static_cast<int>(blocks), kThreads, 0, stream>>>(args);
    check_launch("spmm_heavy_row_kernel");
  }
}

}  // namespace

template <typename T, typename I>
void run_spmm(const DevicePattern<T, I>& a, const DenseView& x, const DenseView& y, bool transpose, cudaStream_t stream) {
  SpmmArgs<T, I> args;
  args.n = y.cols;
  args.offsets = transpose ? a.col_offsets.get() : a.row_offsets.get();
  args.index = transpose ? a.csc_row.get() : a.entry_col.get();
  args.value = transpose ? a.csc_value.get() : a.entry_value.get();
  args.x = static_cast<const T*>(x.data);
  args.x_row_stride = x.row_stride();
  args.x_col_stride = x.col_stride();
  args.y = static_cast<T*>(y.data);
  args.y_row_stride = y.row_stride();
  args.y_col_stride = y.col_stride();
  const OuterSplit<I>& split = transpose ? a.col_split : a.row_split;
  const SpmmChoice choice = choose_spmm_kernel<T>(x, y, split.light_entries, split.light.size());
  args.group = choice.group;
  args.slices = choice.slices;
  switch (choice.kernel) {
    case SpmmKernel::kVector16: launch<SpmmConfig<T, 16>, I>(args, split, a.resident_blocks, stream); return;
    case SpmmKernel::kStrided: launch<SpmmConfig<T, 0>, I>(args, split, a.resident_blocks, stream); return;
  }
  fail(SDDMM_STATUS_NOT_SUPPORTED, "no SpMM kernel for this call");
}

template void run_spmm<float, int32_t>(const DevicePattern<float, int32_t>&, const DenseView&, const DenseView&, bool, cudaStream_t);
template void run_spmm<float, int64_t>(const DevicePattern<float, int64_t>&, const DenseView&, const DenseView&, bool, cudaStream_t);
template void run_spmm<double, int32_t>(const DevicePattern<double, int32_t>&, const DenseView&, const DenseView&, bool, cudaStream_t);
template void run_spmm<double, int64_t>(const DevicePattern<double, int64_t>&, const DenseView&, const DenseView&, bool, cudaStream_t);

}  // namespace sddmm::cuda
