#include "cuda/sddmm/sddmm.cuh"

#include <type_traits>

#include "cuda/line_address.cuh"
#include "cuda/occupancy.cuh"
#include "cuda/sddmm/k_parts_rule.hpp"
#include "cuda/sddmm/sddmm_hopper.cuh"
#include "cuda/sddmm/sddmm_kernel.cuh"
#include "cuda/sddmm/sddmm_line_kernel.cuh"
#include "cuda/sddmm/sddmm_panel_kernel.cuh"
#include "cuda/sddmm/sddmm_tensor_square_kernel.cuh"
#include "cuda/sddmm/sddmm_tensor_kernel.cuh"
#include "cuda/sddmm/sddmm_tile_kernel.cuh"
#include "cuda/tuning.hpp"

namespace sddmm::cuda {
namespace {

enum class SddmmKernel { kVector16, kLine64, kLine128, kTile128, kPanel512, kPanel1024, kPanel2048, kStrided };

struct SddmmChoice {
  SddmmKernel kernel;
  int group;        // lanes per entry
  bool tensor;      // the plan's dense units go to the tensor-core kernel, the other entries to `kernel`
  bool row_shares;  // each warp of `kernel` takes whole rows (SddmmArgs::row_offsets), not an equal share
  bool interleaved;  // the warps of `kernel` take its iterations in turn (SddmmArgs::interleaved)
  bool sm_blocks;    // kVector16 in blocks of a whole multiprocessor (SddmmSmBlockConfig), float32 only
  int k_parts;       // kVector16 as this many launches over equal parts of K (run_k_parts), float32 output only
};

// The one place that picks the SDDMM kernels for a call.
//  - kVector16 when K is contiguous in both operands (x1 row-major, x2 column-major), 16-byte
//    aligned, and K a multiple of the vector width: every lane loads 16 bytes per step.
//  - kLine64 / kLine128 instead where K's row and column are one 64- or 128-byte line (float32
//    K = 16 / 32, 16-bit K = 32 / 64) and the plan allows it (line_kernel, tuning.hpp has the
//    measurement): a lane per 16-byte piece of the line, so that each load reads whole lines. With
//    32-bit plan indices only where X1's row pitch and X2's column pitch are under 4 GiB (the
//    kernel multiplies indices by them in 32 bits); other calls take kVector16.
//  - kTile128 instead of kLine128 for float32 throughout where the plan has tile entries
//    (cuda/tile_entries.cuh: float32 plans whose 128 x 256 tiles hold enough entries and whose rows'
//    columns ascend; tuning.hpp, kSddmmTileMinEntries) and every entry is the CUDA cores': a block
//    a tile, its X2 columns and X1 rows staged in shared memory, its entries in tile order.
//  - kPanel512 / kPanel1024 / kPanel2048 instead where K's row and column are 512, 1024 or 2048
//    bytes (float32 K = 128 / 256 / 512, 16-bit K = 256 / 512 / 1024), the plan has a panel order
//    (cuda/panels.cuh: built where its X2 column reads serve enough entries each; tuning.hpp) and X2
//    fits the L2 (beyond it the panel kernel lost; SDDMM_SDDMM_PANELS=1 lifts this): X1's rows
//    staged per panel in shared memory, X2's columns read once per (panel, column) pair. Float32
//    plans with a panel order list no units for the TF32 split, which the panel kernel outran
//    (preprocess/compress.cu, tuning.hpp); where 16-bit and TF32 plans' dense units pay, they keep
//    the tensor cores.
//  - kStrided otherwise (any layout, odd K, offset pointers): scalar loads, correct everywhere.
//  - group: the fewest lanes that cover K in the path's kStepsPerLane steps (sddmm_config.cuh, with
//    the measurements), capped at a warp: short K packs several entries into a warp instead of
//    idling lanes (K = 32 float: 2 lanes x 4 float4 steps; K = 256: 16 lanes), and few shuffles
//    per entry.
//  - tensor: a plan may list its dense 16 x 64 units at creation (float16/bfloat16 values, and
//    float32 values: cuda/tiles.cuh; which units: tuning.hpp). They take the tensor-core kernel when
//    the features are of the values' type or float16/bfloat16 with float32 values (tensor_core_entries:
//    the half arithmetic, not the TF32 split), the operands suit it (the vector path's layout and
//    alignment) and tensor_cores_pay; the CUDA-core kernel takes the rest of the entries. Otherwise
//    every entry takes the CUDA-core kernel. The tensor-core kernel is, where the plan indexed its
//    cells (16-bit values whose dense units cover kTensorSquareMinCover of the matrix, tuning.hpp),
//    a square kernel (a block per 8 x 2 units, every unit computed): on sm_90 devices the wgmma one
//    at K = 128 / 256 (DevicePattern::wgmma_squares; tuning.hpp, kTensorWgmmaSquares), else the
//    mma.sync one at K = 256; otherwise the unit kernel (a block per work item of up to 8 dense
//    units of one chunk).
//  - row_shares: the CUDA-core kernel's warps take whole rows instead of equal shares of the entries
//    where the plan has no heavy row (the SpMM split's, cuda/pattern.cuh: whole rows cannot
//    unbalance the warps by much), no tensor-core split, rows of at least kSddmmRowSharesMinMeanRow
//    entries on average, and X2's columns more bytes than the L2 holds: warps in phase then sweep a
//    window of X2 at a time instead of all of it (tuning.hpp has the measurement; where X2 fits the
//    L2 the row shares were slower). SDDMM_SDDMM_ROW_SHARES=1 / 0 forces them on / off.
//  - interleaved: otherwise the line kernel's warps take its iterations in turn at K <= 32, on a
//    grid of one wave, so that the entries in flight are one band of the plan order (tuning.hpp,
//    kSddmmLineInterleave, has the measurement; 16-bit K = 64, the other line K, was slower so on
//    the clustered graphs). The entry kernel keeps contiguous shares: its lane groups hold their
//    X1 row across iterations, which in turn would each be another row.
//  - sm_blocks: float32's entry kernel (kVector16) in blocks of a whole multiprocessor
//    (SddmmSmBlockConfig) where X2's columns exceed the L2 and the warps take equal shares: the
//    multiprocessor's warps then work on one part of the matrix, and clustered graphs' gathers hit
//    L1 (tuning.hpp, kSddmmSmBlocksPastL2, has the measurement; where X2 fits the L2 they lost).
//  - k_parts: kVector16 with float32 output (partial sums are stored unrounded), no tensor-core
//    split and K a multiple of parts x the vector, as launches over 2, 4 or 8 equal parts of K
//    where X2 exceeds the L2: the fewest of which one fits it, each at least 128 of K, at K = 256
//    only where a half about fits (sddmm/k_parts_rule.hpp; tuning.hpp has the measurements;
//    SDDMM_SDDMM_K_PARTS forces a count): the warps in flight then gather from one part of X2.
//    Each launch takes the choice of a call at K / parts (its group, row shares and
//    whole-multiprocessor blocks), on the entry kernel.
// K = 32 .. 256 fit the tensor-core kernel's registers; the dense units must be full enough on
// average to beat the CUDA-core kernel, fuller below K = 128, and fuller still there (`strict`) for
// float32's TF32 split, whose three mma per step cost more than the CUDA-core kernel saves at short
// K, and for 16-bit features on a float32 plan, whose CUDA-core line kernel is the 16-bit one
// (tuning.hpp has the measurements).
bool tensor_cores_pay(int64_t k, double dense_density, bool strict) {
  if (k == 128 || k == 256) return dense_density >= kTensorCoreMinDensityLargeK;
  if (k == 32 || k == 64) {
    return dense_density >= (strict ? kTensorCoreMinDensitySmallKStrict : kTensorCoreMinDensitySmallK);
  }
  return false;
}

// Whether a plan's dense units run in the TF32 split (float32 values without SDDMM_CREATE_ALLOW_TF32).
template <typename V, typename I>
bool tensor_split(const DevicePattern<V, I>& a) {
  return units_in_tf32_split<V>(a.allow_tf32);
}

// Whether the panel kernel takes a call on the vector path whose X1 rows are line_bytes long.
template <typename V, typename I>
bool panel_kernel_takes(const DevicePattern<V, I>& a, int64_t line_bytes) {
  return !a.panels.empty() && (line_bytes == 512 || line_bytes == 1024 || line_bytes == 2048) &&
         (a.sddmm_panels == 1 || a.cols * line_bytes <= a.l2_bytes);
}

// Whether the tile kernel has a build for these types: float32 throughout only, the one precision
// measured (tuning.hpp, kSddmmTileMinEntries).
template <typename P>
constexpr bool has_tile_kernel() {
  return std::is_same_v<P, Precision<float, float, float>>;
}

// Whether the entry kernel has a whole-multiprocessor build (SddmmSmBlockConfig) for these types:
// float32 throughout only, the one precision measured (tuning.hpp, kSddmmSmBlocksPastL2).
template <typename P>
constexpr bool has_sm_blocks() {
  return std::is_same_v<P, Precision<float, float, float>>;
}

template <typename P, typename I>
SddmmChoice choose_sddmm_kernel(const DevicePattern<typename P::Value, I>& a, const DenseView& x1,
                                const DenseView& x2) {
  using F = typename P::Feature;
  constexpr int kVec = 16 / static_cast<int>(sizeof(F));
  const int64_t k = x1.cols;
  const bool contiguous_k = x1.col_stride() == 1 && x2.row_stride() == 1;
  const bool aligned = is_aligned(x1.data, 16) && is_aligned(x2.data, 16) && (x1.ld * int64_t{sizeof(F)}) % 16 == 0 &&
                       (x2.ld * int64_t{sizeof(F)}) % 16 == 0;
  const bool vector = contiguous_k && aligned && k % kVec == 0;
  const int64_t per_lane = vector ? SddmmConfig<P, 16>::kStepsPerLane : SddmmConfig<P, 0>::kStepsPerLane;
  const int64_t steps = ((vector ? k / kVec : k) + per_lane - 1) / per_lane;
  const int group = lanes_covering(steps);
  const int64_t line_bytes = k * int64_t{sizeof(F)};
  const bool panels = vector && panel_kernel_takes(a, line_bytes);
  const bool tensor = vector && tensor_core_entries(a, k, dtype_of<F>()) > 0;
  // The line kernel with 32-bit plan indices multiplies them by the pitches in 32 bits.
  const bool pitches_fit = sizeof(I) == 8 || (pitch_fits_32(x1.row_stride() * int64_t{sizeof(F)}) &&
                                              pitch_fits_32(x2.col_stride() * int64_t{sizeof(F)}));
  const bool lines = vector && a.sddmm_line_kernel && pitches_fit;
  const bool tiles = has_tile_kernel<P>() && lines && line_bytes == 128 && !a.tile_entries.empty() && !tensor;
  const SddmmKernel kernel = !vector                                   ? SddmmKernel::kStrided
                             : lines && line_bytes == 64                ? SddmmKernel::kLine64
                             : tiles                                    ? SddmmKernel::kTile128
                             : lines && line_bytes == 128               ? SddmmKernel::kLine128
                             : panels && !tensor && line_bytes == 512   ? SddmmKernel::kPanel512
                             : panels && !tensor && line_bytes == 1024  ? SddmmKernel::kPanel1024
                             : panels && !tensor && line_bytes == 2048  ? SddmmKernel::kPanel2048
                                                                        : SddmmKernel::kVector16;
  // Whole rows per warp: only where every plan entry is the CUDA-core kernel's and no row is heavy.
  const bool rows_even_enough = a.row_split.heavy().size() == 0 && !tensor;
  const bool gathers_past_l2 = a.cols * k * int64_t{sizeof(F)} > a.l2_bytes;
  const bool long_rows = a.nnz >= kSddmmRowSharesMinMeanRow * a.rows;
  const bool row_shares =
      rows_even_enough && (a.sddmm_row_shares == 1 || (a.sddmm_row_shares < 0 && gathers_past_l2 && long_rows));
  const bool line = kernel == SddmmKernel::kLine64 || kernel == SddmmKernel::kLine128;
  const bool interleaved = line && !row_shares && a.sddmm_line_interleave && k <= kSddmmLineInterleaveMaxK;
  const bool sm_blocks = has_sm_blocks<P>() && kernel == SddmmKernel::kVector16 &&
                         (a.sddmm_sm_blocks == 1 ||
                          (a.sddmm_sm_blocks < 0 && kSddmmSmBlocksPastL2 && gathers_past_l2 && !row_shares));
  const int parts = std::is_same_v<typename P::Output, float> && kernel == SddmmKernel::kVector16 && !tensor
                        ? sddmm_k_parts(k, a.cols * k * int64_t{sizeof(F)}, a.l2_bytes, a.sddmm_k_parts)
                        : 1;
  const int k_parts = parts > 1 && k % (parts * kVec) == 0 ? parts : 1;
  return {kernel, group, tensor, row_shares, interleaved, sm_blocks, k_parts};
}

// Waves of `resident` blocks, from 1 to max_waves, that give each block at least warps x
// min_per_warp of the nnz entries (warps = 1: min_per_warp a block; min_per_warp = 0: max_waves).
// Divided in turn: the same floor as one division by the product, which a large override could
// overflow.
int64_t grid_waves(int64_t nnz, int64_t resident, int64_t warps, int64_t min_per_warp, int64_t max_waves) {
  const int64_t fill = min_per_warp > 0 ? nnz / resident / warps / min_per_warp : max_waves;
  return fill < 1 ? 1 : fill < max_waves ? fill : max_waves;
}

// A grid of whole waves of the blocks that run on the GPU at once (cuda/occupancy.cuh): up to
// max_waves of them while each warp still gets min_products products (entries x K) per wave
// (tuning.hpp), and fewer blocks for small problems. Each block loops over its warps' shares;
// millions of short-lived blocks cost more in scheduling than they do.
// per_warp: the entries a warp takes per iteration of its loop. Where warps take whole rows
// (args.row_offsets), the grid has at most one warp per row; where they take the iterations in turn
// (args.interleaved), at most one wave, so that all of them start together.
template <auto kKernel, int kThreads, typename Args>
void launch(const Args& args, int64_t per_warp, int64_t max_waves, int64_t min_products, cudaStream_t stream) {
  constexpr int64_t kWarps = kThreads / 32;
  const int64_t resident = resident_grid<kKernel>(kThreads, 0);
  const int64_t k = args.k > 0 ? args.k : 1;  // K = 0 is a valid call (zeros)
  const int64_t min_entries = min_products / k + (min_products % k != 0);  // per warp and wave, rounded up
  const int64_t waves = args.interleaved ? 1 : grid_waves(args.nnz, resident, kWarps, min_entries, max_waves);
  const int64_t per_block = kWarps * per_warp;  // entries per iteration
  // Whole rows per warp (row_offsets): no more warps than rows.
  const int64_t needed =
      args.row_offsets != nullptr ? (args.rows + kWarps - 1) / kWarps : (args.nnz + per_block - 1) / per_block;
  const int grid = static_cast<int>(needed < resident * waves ? needed : resident * waves);
  kKernel<<<grid, kThreads, 0, stream>>>(args);
  check_launch("SDDMM CUDA-core kernel");
}

template <typename Config, typename I>
void launch_entries(const SddmmArgs<typename Config::Types, I>& args,
                    const DevicePattern<typename Config::Types::Value, I>& a, cudaStream_t stream) {
  const int64_t per_warp = (32 / args.group) * Config::kEntriesPerGroup;
  launch<sddmm_entry_kernel<Config, I>, Config::kThreadsPerBlock>(args, per_warp, a.sddmm_grid_max_waves,
                                                                   a.sddmm_wave_min_products, stream);
}

template <typename Config, typename I>
void launch_lines(const SddmmArgs<typename Config::Types, I>& args,
                  const DevicePattern<typename Config::Types::Value, I>& a, cudaStream_t stream) {
  launch<sddmm_line_kernel<Config, I>, Config::kThreadsPerBlock>(args, Config::kEntriesPerWarp, a.sddmm_grid_max_waves,
                                                                 a.sddmm_wave_min_products, stream);
}

// Every entry in the plan's panel order (sddmm_panel_kernel.cuh): as many waves of blocks as give
// each block the plan's sddmm_panel_block_entries (tuning.hpp, kSddmmPanelBlockEntries; for 16-bit
// features sddmm_panel_block_entries_half), from one to sddmm_grid_max_waves, and fewer blocks
// where they would get under 4 entries per lane group. The kernel's shared memory (64 KB for 1-KB
// rows, 128 KB for 2-KB rows) is past the default limit: resident_grid allows it, once per device.
template <typename Config, typename I>
void launch_panels(const DevicePattern<typename Config::Types::Value, I>& a, const DenseView& x1, const DenseView& x2,
                   void* out, cudaStream_t stream) {
  using P = typename Config::Types;
  SddmmPanelArgs<P, I> args;
  args.nnz = a.nnz;
  args.rows = a.rows;
  args.panel_offsets = a.panels.offsets.get();
  args.row = a.panels.row.get();
  args.col = a.panels.col.get();
  args.position = a.panels.position.get();
  args.value = a.panels.value.get();
  args.x1 = static_cast<const typename P::Feature*>(x1.data);
  args.x1_ld = x1.ld;
  args.x2 = static_cast<const typename P::Feature*>(x2.data);
  args.x2_ld = x2.ld;
  args.out = static_cast<typename P::Output*>(out);
  constexpr auto kKernel = sddmm_panel_kernel<Config, I>;
  const int64_t resident = resident_grid<kKernel>(Config::kThreadsPerBlock, Config::kSharedBytes);
  const int64_t block_entries =
      sizeof(typename P::Feature) == 2 ? a.sddmm_panel_block_entries_half : a.sddmm_panel_block_entries;
  const int64_t waves = grid_waves(a.nnz, resident, 1, block_entries, a.sddmm_grid_max_waves);
  constexpr int64_t kMinBlockEntries = Config::kThreadsPerBlock / Config::kLanes * 4;
  const int64_t wanted = (a.nnz + kMinBlockEntries - 1) / kMinBlockEntries;
  const int grid = static_cast<int>(wanted < resident * waves ? wanted : resident * waves);
  kKernel<<<grid, Config::kThreadsPerBlock, Config::kSharedBytes, stream>>>(args);
  check_launch("sddmm_panel_kernel");
}

// Every tile of the plan's tile entries (sddmm_tile_kernel.cuh), a block each (fewer than 2^31:
// tile_count, by the plan's rule); those without entries return at once.
// resident_grid allows the kernel's shared memory, past the default, once per device.
template <typename Config, typename I>
void launch_tiles(const DevicePattern<typename Config::Types::Value, I>& a, const DenseView& x1, const DenseView& x2,
                  void* out, cudaStream_t stream) {
  using P = typename Config::Types;
  const TileEntries<typename P::Value, I>& t = a.tile_entries;
  SddmmTileArgs<P, I> args;
  args.rows = a.rows;
  args.cols = a.cols;
  args.slabs = tile_slabs(a.cols);
  args.begin = t.begin.get();
  args.local = t.local.get();
  args.value = t.value.get();
  args.place = t.place.get();
  args.x1 = static_cast<const typename P::Feature*>(x1.data);
  args.x1_ld = x1.ld;
  args.x2 = static_cast<const typename P::Feature*>(x2.data);
  args.x2_ld = x2.ld;
  args.out = static_cast<typename P::Output*>(out);
  constexpr auto kKernel = sddmm_tile_kernel<Config, I>;
  constexpr size_t kShared = tile_kernel_shared_bytes<Config>();
  (void)resident_grid<kKernel>(Config::kThreadsPerBlock, kShared);
  const int64_t tiles = tile_count(a.rows, a.cols);
  kKernel<<<static_cast<unsigned>(tiles), Config::kThreadsPerBlock, kShared, stream>>>(args);
  check_launch("sddmm_tile_kernel");
}

// The kernels' arguments for the plan's dense units (cuda/tiles.cuh).
template <typename P, typename I>
SddmmTensorArgs<P, I> tensor_args(const DevicePattern<typename P::Value, I>& a, const DenseView& x1,
                                  const DenseView& x2, void* out) {
  const TensorTiles<typename P::Value, I>& tiles = a.tiles;
  SddmmTensorArgs<P, I> args;
  args.rows = a.rows;
  args.cols = a.cols;
  args.strips = tiles.strips;
  args.chunks = tiles.chunks;
  args.unit_key = tiles.unit_key.get();
  args.unit_entries = tiles.unit_entries.get();
  args.item_units = tiles.item_units.get();
  args.cell_entries = tiles.cell_entries.get();
  args.out_position = tiles.out_position.get();
  args.local = tiles.local.get();
  args.value = tiles.value.get();
  args.x1 = static_cast<const typename P::Feature*>(x1.data);
  args.x1_ld = x1.ld;
  args.x2 = static_cast<const typename P::Feature*>(x2.data);
  args.x2_ld = x2.ld;
  args.out = static_cast<typename P::Output*>(out);
  return args;
}

// One launch of a tensor-core kernel over the plan's dense units, `blocks` blocks. The kernel's
// shared-memory size was allowed at plan creation (prepare_tensor_cores).
template <auto kKernel, typename Config, typename I>
void launch_tensor_kernel(const DevicePattern<typename Config::Types::Value, I>& a, const DenseView& x1,
                          const DenseView& x2, void* out, int64_t blocks, const char* name, cudaStream_t stream) {
  if (blocks >= (int64_t{1} << 31)) fail(SDDMM_STATUS_NOT_SUPPORTED, "SDDMM: too many blocks for one launch of ", name);
  kKernel<<<static_cast<unsigned>(blocks), Config::kThreadsPerBlock, Config::kSharedBytes, stream>>>(
      tensor_args<typename Config::Types, I>(a, x1, x2, out));
  check_launch(name);
}

// The unit kernel: a block per work item (cuda/tiles.cuh) ...
template <typename Config, typename I>
void launch_tensor(const DevicePattern<typename Config::Types::Value, I>& a, const DenseView& x1, const DenseView& x2,
                   void* out, cudaStream_t stream) {
  launch_tensor_kernel<sddmm_tensor_kernel<Config, I>, Config, I>(a, x1, x2, out, a.tiles.items, "sddmm_tensor_kernel",
                                                                  stream);
}

// ... or, where the plan indexes its cells, the square kernel (sddmm_tensor_square_kernel.cuh): a
// block per square of 8 strips x 2 chunks of the matrix (those without an entry return at once).
template <typename Config, typename I>
void launch_tensor_squares(const DevicePattern<typename Config::Types::Value, I>& a, const DenseView& x1,
                           const DenseView& x2, void* out, cudaStream_t stream) {
  launch_tensor_kernel<sddmm_tensor_square_kernel<Config, I>, Config, I>(
      a, x1, x2, out, square_blocks<Config>(a.tiles.strips, a.tiles.chunks), "sddmm_tensor_square_kernel", stream);
}

// Calls fn(SddmmTensorSquareConfig<Precision<V, V, V>, 256>{}) at K = 256; false when there is no
// such kernel (float32 and float64 values, other K). At K = 128 the square kernel was slower than
// the unit kernel (tuning.hpp, kTensorSquareMinCover): two slices, too short to hide its start.
template <typename V, typename Fn>
bool with_tensor_square_config(int64_t k, Fn&& fn) {
  if constexpr (sizeof(V) == 2) {
    if (k == 256) {
      fn(SddmmTensorSquareConfig<Precision<V, V, V>, 256>{});
      return true;
    }
  }
  return false;
}

// Calls fn(SddmmTensorConfig<P, K, arithmetic>{}) for the call's precision P and K, and the
// arithmetic: kHalf for float16/bfloat16 features (whose products float32 holds exactly, whether
// values and output are of their type or float32); for float32 features, kTf32 in plans made with
// SDDMM_CREATE_ALLOW_TF32, else kTf32Split (float32 accuracy); false when there is no such kernel.
template <typename P, typename Fn>
bool with_tensor_config(int64_t k, bool allow_tf32, Fn&& fn) {
  using F = typename P::Feature;
  const auto for_arithmetic = [&](auto arithmetic) {
    constexpr TensorArithmetic kArith = decltype(arithmetic)::value;
    switch (k) {
      case 32: fn(SddmmTensorConfig<P, 32, kArith>{}); return true;
      case 64: fn(SddmmTensorConfig<P, 64, kArith>{}); return true;
      case 128: fn(SddmmTensorConfig<P, 128, kArith>{}); return true;
      case 256: fn(SddmmTensorConfig<P, 256, kArith>{}); return true;
      default: return false;
    }
  };
  using Half = std::integral_constant<TensorArithmetic, TensorArithmetic::kHalf>;
  using Tf32 = std::integral_constant<TensorArithmetic, TensorArithmetic::kTf32>;
  using Split = std::integral_constant<TensorArithmetic, TensorArithmetic::kTf32Split>;
  if constexpr (sizeof(F) == 2) {
    return for_arithmetic(Half{});
  } else if constexpr (std::is_same_v<F, float>) {
    return allow_tf32 ? for_arithmetic(Tf32{}) : for_arithmetic(Split{});
  } else {
    return false;
  }
}

// The call precisions whose features the tensor-core kernels take, given the plan's value type V:
// features of the values' type, and float16/bfloat16 features with float32 values and output.
template <typename V, typename Fn>
void for_each_tensor_precision(Fn&& fn) {
  if constexpr (std::is_same_v<V, float>) {
    fn(Precision<float, float, float>{});
    fn(Precision<__half, float, float>{});
    fn(Precision<__nv_bfloat16, float, float>{});
  } else if constexpr (sizeof(V) == 2) {
    fn(Precision<V, V, V>{});
  }
}

// Whether a call of the plan's own 16-bit precision at this K, on its indexed cells, takes the wgmma
// square kernel (sddmm_hopper.cuh): built, on an sm_90 device, allowed (tuning.hpp; only 16-bit
// plans set wgmma_squares), and K one it has.
template <typename V, typename I>
bool wgmma_squares_run(const DevicePattern<V, I>& a, int64_t k) {
  return a.wgmma_squares && !a.tiles.cell_entries.empty() && wgmma_squares_take(k);
}

template <typename P, typename I>
void run_tensor(const DevicePattern<typename P::Value, I>& a, const DenseView& x1, const DenseView& x2, void* out,
                cudaStream_t stream) {
  using V = typename P::Value;
  bool launched = false;
  if constexpr (std::is_same_v<P, Precision<V, V, V>>) {
    if constexpr (sizeof(V) == 2 && kHaveHopperKernels) {
      if (wgmma_squares_run(a, x1.cols)) {
        launched = launch_wgmma_squares<V, I>(tensor_args<P, I>(a, x1, x2, out), x1.cols, a.wgmma_walk, stream);
      }
    }
    if (!launched && !a.tiles.cell_entries.empty()) {  // the plan indexed its cells: the square kernel where K has one
      launched = with_tensor_square_config<V>(x1.cols, [&](auto config) {
        launch_tensor_squares<decltype(config), I>(a, x1, x2, out, stream);
      });
    }
  }
  if (!launched) {
    launched = with_tensor_config<P>(x1.cols, a.allow_tf32, [&](auto config) {
      launch_tensor<decltype(config), I>(a, x1, x2, out, stream);
    });
  }
  if (!launched) fail(SDDMM_STATUS_INTERNAL_ERROR, "SDDMM: no tensor-core kernel for K = ", x1.cols);
}

// The call as launches of the entry kernel over equal parts of K (SddmmChoice::k_parts; float32
// output): the first, without values, stores each entry's sum over K's first part; each next one
// (SddmmAddsPartialConfig) adds its sum over its part to the stored one, and the last scales the
// whole sum by A's value. The launches take the choice of a call on one part of X1 and X2 (group,
// row shares, whole-multiprocessor blocks); `args` holds the rest of the call's arguments.
template <typename P, typename I>
void run_k_parts(const DevicePattern<typename P::Value, I>& a, const DenseView& x1, const DenseView& x2, int parts,
                 SddmmArgs<P, I> args, cudaStream_t stream) {
  using F = typename P::Feature;
  using Entries = SddmmConfig<P, 16>;
  const int64_t width = x1.cols / parts;
  DenseView x1_part = x1, x2_part = x2;
  x1_part.cols = width;
  x2_part.rows = width;
  const SddmmChoice choice = choose_sddmm_kernel<P, I>(a, x1_part, x2_part);
  args.k = width;
  args.group = choice.group;
  args.row_offsets = choice.row_shares ? a.row_offsets.get() : nullptr;
  args.rows = choice.row_shares ? a.rows : 0;
  for (int part = 0; part < parts; ++part) {
    args.x1 = static_cast<const F*>(x1.data) + part * width * x1.col_stride();
    args.x2 = static_cast<const F*>(x2.data) + part * width * x2.row_stride();
    args.entry_value = part == parts - 1 ? a.entry_value.get() : nullptr;  // the sums unscaled until the last
    const bool adds = part > 0;
    if constexpr (has_sm_blocks<P>()) {
      if (choice.sm_blocks) {
        if (adds) launch_entries<SddmmAddsPartialConfig<SddmmSmBlockConfig<Entries>>, I>(args, a, stream);
        else launch_entries<SddmmSmBlockConfig<Entries>, I>(args, a, stream);
        continue;
      }
    }
    if (adds) launch_entries<SddmmAddsPartialConfig<Entries>, I>(args, a, stream);
    else launch_entries<Entries, I>(args, a, stream);
  }
}

template <typename P, typename I>
void run_typed(const DevicePattern<typename P::Value, I>& a, const DenseView& x1, const DenseView& x2, void* out,
               cudaStream_t stream) {
  using F = typename P::Feature;
  SddmmArgs<P, I> args;
  args.nnz = a.nnz;
  args.k = x1.cols;
  args.entry_row = a.entry_row.get();
  args.entry_col = a.entry_col.get();
  args.entry_value = a.entry_value.get();
  args.caller_position = a.caller_position.get();
  args.x1 = static_cast<const F*>(x1.data);
  args.x1_row_stride = x1.row_stride();
  args.x1_k_stride = x1.col_stride();
  args.x2 = static_cast<const F*>(x2.data);
  args.x2_k_stride = x2.row_stride();
  args.x2_col_stride = x2.col_stride();
  args.x1_row_bytes = static_cast<uint32_t>(x1.row_stride() * int64_t{sizeof(F)});  // read where they fit
  args.x2_col_bytes = static_cast<uint32_t>(x2.col_stride() * int64_t{sizeof(F)});
  args.out = static_cast<typename P::Output*>(out);
  const SddmmChoice choice = choose_sddmm_kernel<P, I>(a, x1, x2);
  if constexpr (std::is_same_v<typename P::Output, float>) {  // choice.k_parts: float32 output only
    if (choice.k_parts > 1) {
      run_k_parts<P, I>(a, x1, x2, choice.k_parts, args, stream);
      return;
    }
  }
  args.group = choice.group;
  args.interleaved = choice.interleaved;
  if (choice.row_shares) {
    args.row_offsets = a.row_offsets.get();
    args.rows = a.rows;
  }
  if (choice.tensor) {
    run_tensor<P, I>(a, x1, x2, out, stream);
    args.entry_list = a.tiles.cuda_core_entries.get();
    args.nnz = a.tiles.cuda_core_entries.size();
    if (args.nnz == 0) return;
  }
  switch (choice.kernel) {
    case SddmmKernel::kVector16:
      if constexpr (has_sm_blocks<P>()) {
        if (choice.sm_blocks) {
          launch_entries<SddmmSmBlockConfig<SddmmConfig<P, 16>>, I>(args, a, stream);
          return;
        }
      }
      launch_entries<SddmmConfig<P, 16>, I>(args, a, stream);
      return;
    case SddmmKernel::kLine64: launch_lines<SddmmLineConfig<P, 64>, I>(args, a, stream); return;
    case SddmmKernel::kLine128: launch_lines<SddmmLineConfig<P, 128>, I>(args, a, stream); return;
    case SddmmKernel::kTile128:
      if constexpr (has_tile_kernel<P>()) {
        launch_tiles<SddmmTileConfig<P>, I>(a, x1, x2, out, stream);
        return;
      }
      break;
    case SddmmKernel::kPanel512: launch_panels<SddmmPanelConfig<P, 512>, I>(a, x1, x2, out, stream); return;
    case SddmmKernel::kPanel1024: launch_panels<SddmmPanelConfig<P, 1024>, I>(a, x1, x2, out, stream); return;
    case SddmmKernel::kPanel2048: launch_panels<SddmmPanelConfig<P, 2048>, I>(a, x1, x2, out, stream); return;
    case SddmmKernel::kStrided: launch_entries<SddmmConfig<P, 0>, I>(args, a, stream); return;
  }
  fail(SDDMM_STATUS_NOT_SUPPORTED, "no SDDMM kernel for this call");
}

}  // namespace

template <typename V, typename I>
void run_sddmm(const DevicePattern<V, I>& a, const DenseView& x1, const DenseView& x2, void* out, sddmm_dtype_t out_dtype,
               cudaStream_t stream) {
  dispatch_precision<V>(x1.dtype, out_dtype, [&](auto precision) {
    run_typed<decltype(precision), I>(a, x1, x2, out, stream);
  });
}

namespace {

// Whether a plan of values V has kernels for features of this dtype (dispatch_precision's set):
// the values' own, and float16/bfloat16 on float32 plans.
template <typename V>
bool has_kernels_for(sddmm_dtype_t features) {
  const bool half_features = features == SDDMM_DTYPE_FLOAT16 || features == SDDMM_DTYPE_BFLOAT16;
  return features == dtype_of<V>() || (half_features && std::is_same_v<V, float>);
}

}  // namespace

template <typename V, typename I>
int64_t tensor_core_entries(const DevicePattern<V, I>& a, int64_t k, sddmm_dtype_t features) {
  const bool half_features = features == SDDMM_DTYPE_FLOAT16 || features == SDDMM_DTYPE_BFLOAT16;
  const bool has_kernel = has_kernels_for<V>(features);
  const bool split = features == SDDMM_DTYPE_FLOAT32 && tensor_split(a);
  const bool strict = split || (half_features && std::is_same_v<V, float>);
  // The wgmma squares pay wherever the plan indexed its cells (units cover the matrix): they compute
  // every cell at nearly GEMM speed, so the units' mean fill does not decide (tuning.hpp).
  const bool squares = features == dtype_of<V>() && wgmma_squares_run(a, k);
  return has_kernel && !a.tiles.empty() && (squares || tensor_cores_pay(k, a.tiles.density(), strict)) ? a.tiles.entries
                                                                                                          : 0;
}

template <typename V, typename I>
const char* tensor_core_kernel(const DevicePattern<V, I>& a, int64_t k, sddmm_dtype_t features) {
  if (tensor_core_entries(a, k, features) == 0) return "";
  const bool own_precision = features == dtype_of<V>();  // run_tensor's squares take only those
  if (own_precision && wgmma_squares_run(a, k)) return a.wgmma_walk ? "wgmma-walk" : "wgmma-squares";
  if (own_precision && !a.tiles.cell_entries.empty() && with_tensor_square_config<V>(k, [](auto) {})) return "squares";
  return "units";
}

// The plan-stats name of each kernel (core/plan_stats.hpp).
const char* kernel_name(SddmmKernel kernel) {
  switch (kernel) {
    case SddmmKernel::kVector16: return "entries";
    case SddmmKernel::kLine64:
    case SddmmKernel::kLine128: return "line";
    case SddmmKernel::kTile128: return "tile";
    case SddmmKernel::kPanel512:
    case SddmmKernel::kPanel1024:
    case SddmmKernel::kPanel2048: return "panel";
    case SddmmKernel::kStrided: return "strided";
  }
  return "";
}

template <typename V, typename I>
const char* cuda_core_kernel(const DevicePattern<V, I>& a, int64_t k, sddmm_dtype_t features) {
  if (k <= 0 || !has_kernels_for<V>(features)) return "";
  // A call of this K on the vector path's layout: X1 row-major and X2 column-major, pitches K, at
  // an aligned address that choose_sddmm_kernel only tests, never reads.
  DenseView x1, x2;
  x1.data = x2.data = reinterpret_cast<void*>(uintptr_t{256});
  x1.rows = a.rows, x1.cols = k, x1.ld = k, x1.layout = SDDMM_LAYOUT_ROW_MAJOR, x1.dtype = features;
  x2.rows = k, x2.cols = a.cols, x2.ld = k, x2.layout = SDDMM_LAYOUT_COL_MAJOR, x2.dtype = features;
  const char* name = "";
  dispatch_precision<V>(features, std::is_same_v<V, float> ? SDDMM_DTYPE_FLOAT32 : dtype_of<V>(), [&](auto precision) {
    const SddmmChoice choice = choose_sddmm_kernel<decltype(precision), I>(a, x1, x2);
    name = choice.k_parts > 1 ? "entries-k-parts" : kernel_name(choice.kernel);
  });
  return name;
}

template <typename V, typename I>
void prepare_tensor_cores(const DevicePattern<V, I>& a) {
  const bool allow_tf32 = a.allow_tf32;
  for (const int64_t k : {32, 64, 128, 256}) {
    for_each_tensor_precision<V>([&](auto precision) {
      with_tensor_config<decltype(precision)>(k, allow_tf32, [&](auto config) {
        using Config = decltype(config);
        check(cudaFuncSetAttribute(sddmm_tensor_kernel<Config, I>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(Config::kSharedBytes)),
              "cudaFuncSetAttribute (sddmm_tensor_kernel)");
      });
    });
    with_tensor_square_config<V>(k, [&](auto config) {
      using Config = decltype(config);
      check(cudaFuncSetAttribute(sddmm_tensor_square_kernel<Config, I>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 static_cast<int>(Config::kSharedBytes)),
            "cudaFuncSetAttribute (sddmm_tensor_square_kernel)");
    });
  }
  if constexpr (sizeof(V) == 2 && kHaveHopperKernels) {
    if (a.wgmma_squares) prepare_wgmma_squares<V, I>();  // sm_90 devices only: no sm_90a code runs elsewhere
  }
}

#define SDDMM_INSTANTIATE_RUN_SDDMM(V, I)                                                                                  \
  template void run_sddmm<V, I>(const DevicePattern<V, I>&, const DenseView&, const DenseView&, void*, sddmm_dtype_t, \
                                cudaStream_t);                                                                         \
  template int64_t tensor_core_entries<V, I>(const DevicePattern<V, I>&, int64_t, sddmm_dtype_t);                     \
  template const char* tensor_core_kernel<V, I>(const DevicePattern<V, I>&, int64_t, sddmm_dtype_t);                  \
  template const char* cuda_core_kernel<V, I>(const DevicePattern<V, I>&, int64_t, sddmm_dtype_t);                    \
  template void prepare_tensor_cores<V, I>(const DevicePattern<V, I>&);
SDDMM_INSTANTIATE_RUN_SDDMM(float, int32_t)
SDDMM_INSTANTIATE_RUN_SDDMM(float, int64_t)
SDDMM_INSTANTIATE_RUN_SDDMM(double, int32_t)
SDDMM_INSTANTIATE_RUN_SDDMM(double, int64_t)
SDDMM_INSTANTIATE_RUN_SDDMM(__half, int32_t)
SDDMM_INSTANTIATE_RUN_SDDMM(__half, int64_t)
SDDMM_INSTANTIATE_RUN_SDDMM(__nv_bfloat16, int32_t)
SDDMM_INSTANTIATE_RUN_SDDMM(__nv_bfloat16, int64_t)
#undef SDDMM_INSTANTIATE_RUN_SDDMM

}  // namespace sddmm::cuda
