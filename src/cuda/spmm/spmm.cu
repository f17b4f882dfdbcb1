#include "cuda/spmm/spmm.cuh"

#include <limits>
#include <type_traits>

#include "cuda/carved.cuh"
#include "cuda/occupancy.cuh"
#include "cuda/spmm/l2_hint_rule.hpp"
#include "cuda/spmm/spmm_kernel.cuh"
#include "cuda/spmm/spmm_slab.cuh"
#include "cuda/spmm/spmm_tensor_kernel.cuh"
#include "cuda/spmm/split_tiles_rule.hpp"
#include "cuda/tuning.hpp"

namespace sddmm::cuda {
namespace {

enum class SpmmKernel {
  kVector16,
  kVector16Deep,
  kVector16DeepFewRows,
  kVector16DeepFewLongRows,
  kVector16WholeWarp,
  kVector16WholeWarpShared,
  kStrided,
  kTensorUnits,
  kSlabs
};

struct SpmmChoice {
  SpmmKernel kernel;
  int group;   // lanes per column tile of an output row
  int slices;  // lane groups per light row
};

// Whether the tensor-core kernel (spmm_tensor_kernel.cuh) is built for precision P: 16-bit
// features, values and output alike.
template <typename P>
constexpr bool has_tensor_spmm() {
  using F = typename P::Feature;
  return sizeof(F) == 2 && std::is_same_v<F, typename P::Value> && std::is_same_v<F, typename P::Output>;
}

// What the slab kernel's rule asks of a plan and a call (choose_spmm_kernel).
struct SlabFacts {
  int mode = 0;                  // the plan's spmm_slabs: 1 wherever the kernel runs, 0 never, -1 the rule
  double min_reuse = 0.0;        // the rule's threshold for this call's rows of X (tuning.hpp)
  bool inner_ascending = false;  // every outer index's inner indices ascend
  bool any_heavy = true;         // the split has heavy outer indices
  int64_t outer = 0, inner = 0, nnz = 0;
  SlabGeometry geometry;  // the kernel's shape for this call's rows of X (blocks 0: it cannot run)
};

// What the deep configuration's rule asks of a plan and a call (choose_spmm_kernel).
struct DeepFacts {
  int64_t min_mean = 0;          // the plan's spmm_deep_rows_min_mean (0: never)
  int few_rows = -1;             // the plan's spmm_few_rows: 1 wherever deep rows run, 0 never, -1 the rule
  int64_t few_rows_threads = 0;  // threads the few-rows kernel runs at once on this device
  int64_t few_long_rows_min_mean = 0;  // the plan's spmm_few_long_rows_min_mean (0: never)
};

// The deep configuration's few-rows form (SpmmFewRowsConfig), for float32 features.
template <typename P>
using SpmmDeepFewRowsConfig = SpmmFewRowsConfig<SpmmConfig<P, 16, false, false, true>>;
// ... and its form for long rows (16-byte index and value loads).
template <typename P>
using SpmmDeepFewLongRowsConfig = SpmmFewRowsConfig<SpmmConfig<P, 16, false, false, true>, true>;

template <typename P>
constexpr bool is_float32_throughout() {
  return std::is_same_v<typename P::Feature, float> && std::is_same_v<typename P::Value, float> &&
         std::is_same_v<typename P::Output, float>;
}

// The one place that picks an SpMM kernel for a call.
//  - kSlabs for float32 calls whose X and Y rows are contiguous, 16-byte aligned and 128, 256, 512
//    or 1024 bytes long, on plans whose inner indices ascend within each outer index and with no
//    heavy outer index, where the outer indices fit the kernel's warps (two each), X's rows fit
//    int, and (the rule; tuning.hpp has the measurement) the entries are at least slab min_reuse
//    x blocks x rows of X: every block reads all of X once into shared memory, the light-row
//    kernel an X row per entry from L1 or L2. With SDDMM_SPMM_SLABS=1, wherever it runs.
//  - kTensorUnits where the plan lists its dense units strip by strip (16-bit plans whose units are
//    full enough: tuning.hpp, kSpmmTensorMinFill; never transposed), the call is 16-bit throughout,
//    X and Y are row-major with 16-byte aligned rows, and N is a multiple of a warp's 32 columns.
//  - kVector16 when rows of X and Y are contiguous (both row-major), 16-byte aligned, and N a
//    multiple of the vector width; kStrided otherwise (column-major operands, odd N, offsets).
//    kVector16WholeWarp instead for float32 features where the group is a whole warp (more than
//    16 vectors: N > 64): 8 entries in flight instead of 4 (SpmmConfig has the measurement, at N =
//    128 and 256; 16- and 64-bit features keep 4, not measured).
//    Both whole-warp forms gather X with L2 eviction priorities where l2_hot_class
//    (l2_hint_rule.hpp) says so: float32 calls whose X exceeds the L2 and a few of whose rows
//    serve most entries.
//    kVector16WholeWarpShared instead where the light rows are long (at least
//    kSpmmSharedIndicesMinMean entries on average, tuning.hpp with the measurement) and the plan
//    allows it: the warp loads its row's indices and values 32 at a time, one per lane, and hands
//    them round by shuffles instead of every lane loading each one.
//    kVector16Deep instead for float32 features in narrower groups (N <= 64) where the light rows
//    average at least deep_min_mean entries (tuning.hpp, kSpmmDeepRowsMinMean, with the
//    measurement; 0: never): 16 entries' indices and values loaded at once; slices as below.
//    kVector16DeepFewRows instead where the light rows are few (the rule below; tuning.hpp,
//    kSpmmFewRowsMaxWaves, has the measurement): the same configuration with up to 128 registers
//    (SpmmFewRowsConfig: all 16 X rows in flight, each round's indices loaded a round ahead) and
//    never sliced, one lane group per row, as cuSPARSE's CSR_ALG3 runs a block's 32 rows side by
//    side. Taken where the rows' lane groups fill at most kSpmmFewRowsMaxWaves waves of that
//    kernel, and, where the rule below would slice the rows, at least kSpmmFewRowsMinWavesSliced
//    of one (fewer would leave multiprocessors idle that slices keep busy: not measured there, so
//    such rows stay sliced). kVector16DeepFewLongRows instead where those rows average at least
//    few_long_rows_min_mean entries and the groups are at most kSpmmFewLongRowsMaxGroup lanes
//    (tuning.hpp, with the measurement): whole rounds' indices and values in 16-byte loads.
//  - group: the fewest lanes covering N in one step, capped at a warp, so narrow N packs several
//    rows into one warp.
//  - slices: a whole warp takes each light row (32 / group slices) when one lane group per row
//    would not fill the GPU once (light rows x group < resident threads) and the rows are long
//    enough to share (at least entries_per_slice entries per slice on average, tuning.hpp): narrow
//    N then no longer leaves most of the GPU idle on a few thousand long rows. Measured (H200,
//    N = 32, sweep of entries_per_slice 8/16/32/64 on 779877e): slicing pays where the rows are
//    few (uniform 8000^2: 0.018 vs 0.024 ms at 640k, 0.091 vs 0.135 ms at 2.56M) and costs 7-16 %
//    where they already fill the GPU (36000^2 4M, block-diagonal 262144, SBM 200000).
//  - Which rows are heavy was decided at plan time (tuning.hpp, plan's split); they take a block
//    per column tile of group * kVec columns. Narrower groups there (4 lanes: more groups per long
//    row, more tiles) lost everywhere they were tried (H200: uniform 8000^2 1.28M N = 256 0.464 vs
//    0.178 ms, R-MAT N = 128 2.03 vs 1.60 ms): the row's indices are read once per tile.
template <typename P>
SpmmChoice choose_spmm_kernel(const DenseView& x, const DenseView& y, int64_t light_entries, int64_t light_rows,
                              int64_t entries_per_slice, int64_t resident_threads, bool shared_indices,
                              const DeepFacts& deep_facts, bool tensor_units, const SlabFacts& slab) {
  using F = typename P::Feature;
  using O = typename P::Output;
  constexpr int kVec = 16 / static_cast<int>(sizeof(F));
  const int64_t n = y.cols;
  const bool contiguous = x.col_stride() == 1 && y.col_stride() == 1;
  const bool aligned = is_aligned(x.data, 16) && is_aligned(y.data, 16) && (x.ld * int64_t{sizeof(F)}) % 16 == 0 &&
                       (y.ld * int64_t{sizeof(O)}) % 16 == 0;
  const bool vector = contiguous && aligned && n % kVec == 0;
  if (is_float32_throughout<P>() && vector && slab.mode != 0 && slab.inner_ascending && !slab.any_heavy &&
      slab.geometry.blocks > 0 && slab.outer <= slab_outer_capacity(slab.geometry.blocks) &&
      slab.inner < std::numeric_limits<int>::max()) {
    const double reuse = static_cast<double>(slab.nnz) / (static_cast<double>(slab.geometry.blocks) *
                                                          static_cast<double>(slab.inner > 0 ? slab.inner : 1));
    if (slab.mode == 1 || reuse >= slab.min_reuse) return {SpmmKernel::kSlabs, 32, 1};
  }
  if (has_tensor_spmm<P>() && tensor_units && vector && n % kSpmmTensorWarpCols == 0) {
    return {SpmmKernel::kTensorUnits, 32, 1};
  }
  const int64_t steps = vector ? n / kVec : n;
  const int group = lanes_covering(steps);
  const int64_t mean = light_rows > 0 ? light_entries / light_rows : 0;
  const bool underfilled = light_rows * group < resident_threads;
  const bool whole_warp = vector && group == 32 && std::is_same_v<F, float>;
  const bool deep =
      vector && group < 32 && std::is_same_v<F, float> && deep_facts.min_mean > 0 && mean >= deep_facts.min_mean;
  const bool sliced = underfilled && mean >= entries_per_slice * (32 / group);
  const double few_waves = static_cast<double>(light_rows * group) /
                           static_cast<double>(deep_facts.few_rows_threads > 0 ? deep_facts.few_rows_threads : 1);
  const bool few = deep && deep_facts.few_rows != 0 && deep_facts.few_rows_threads > 0 &&
                   (deep_facts.few_rows == 1 ||
                    (few_waves <= kSpmmFewRowsMaxWaves && (!sliced || few_waves >= kSpmmFewRowsMinWavesSliced)));
  // The long-rows form: narrow groups on long rows (tuning.hpp); a mean of 1 (the variable set
  // so) takes it wherever few-rows runs.
  const bool few_long = few && deep_facts.few_long_rows_min_mean > 0 && mean >= deep_facts.few_long_rows_min_mean &&
                        (group <= kSpmmFewLongRowsMaxGroup || deep_facts.few_long_rows_min_mean == 1);
  const int slices = sliced && !few ? 32 / group : 1;
  const bool shared = whole_warp && shared_indices && mean >= kSpmmSharedIndicesMinMean;
  const SpmmKernel kernel = !vector      ? SpmmKernel::kStrided
                            : few_long   ? SpmmKernel::kVector16DeepFewLongRows
                            : few        ? SpmmKernel::kVector16DeepFewRows
                            : deep       ? SpmmKernel::kVector16Deep
                            : shared     ? SpmmKernel::kVector16WholeWarpShared
                            : whole_warp ? SpmmKernel::kVector16WholeWarp
                                         : SpmmKernel::kVector16;
  return {kernel, group, slices};
}

// One launch: a block per heavy row and column tile first (in the split's order), then the light rows:
// one lane group per row (or warp, sliced) when that is at most kSpmmScheduledWaves waves of blocks,
// left to the hardware's block scheduler (tuning.hpp, with the measurement), else a persistent grid
// of what the device runs at once (cuda/occupancy.cuh) looping over the list.
template <typename Config, typename I>
void launch(SpmmArgs<typename Config::Types, I> args, const OuterSplit<I>& split, cudaStream_t stream) {
  constexpr int kThreads = Config::kThreadsPerBlock;
  // Whole-warp groups leave no room for slices (32 / group = 1), and the few-rows configuration is
  // taken unsliced only (choose_spmm_kernel): no sliced instantiation.
  constexpr bool kMaySlice = !Config::kWholeWarp && !Config::kFewRows;
  const bool sliced = kMaySlice && args.slices > 1;
  const bool tiles_split = Config::kWholeWarp && args.light_tile_shift > 0;
  const int resident_blocks = sliced ? resident_grid<spmm_kernel<Config, I, kMaySlice>>(kThreads, 0)
                              : tiles_split
                                  ? resident_grid<spmm_kernel<Config, I, false, Config::kWholeWarp>>(kThreads, 0)
                                  : resident_grid<spmm_kernel<Config, I, false>>(kThreads, 0);
  args.light = split.light().get();
  args.light_count = split.light().size();
  args.heavy = split.heavy().get();
  args.heavy_count = split.heavy().size();
  const int64_t tile_width = int64_t{args.group} * Config::kVec;
  const int64_t tiles = (args.n + tile_width - 1) / tile_width;
  constexpr int64_t kMaxGrid = (int64_t{1} << 31) - 1;
  const int64_t light_needed =
      ((args.light_count << args.light_tile_shift) * args.group * args.slices + kThreads - 1) / kThreads;
  int64_t light_blocks =
      light_needed <= kSpmmScheduledWaves * resident_blocks ? light_needed : int64_t{resident_blocks};
  if constexpr (Config::kFewRows) {
    // Few rows are spread evenly over the blocks of the waves they need, where full blocks would
    // leave some multiprocessors a block short: uniform 8000^2 at N = 32 fills 250 of the H200's
    // 264 slots, so 118 multiprocessors sum 64 rows each and 14 sum 32; 31 rows a block make 259
    // blocks and at most 62 rows a multiprocessor. Measured (H200, 2026-11-27, against full blocks
    // in one call, two rounds, best, ms, N = 32): uniform 8000^2 640k 0.0146 -> 0.0145, 1.28M
    // 0.0219 -> 0.0214, 1.92M 0.0287 -> 0.0283, 2.56M 0.0356 -> 0.0353, 3.2M 0.0424 -> 0.0421, 6.4M
    // 0.0755 -> 0.0750 (at most the 3 % that 64 -> 62 rows bounds); N = 64 takes the same blocks
    // (8000 rows need 2 waves of 16-row blocks either way) and did not move.
    const int64_t full = kThreads / args.group;
    args.light_per_block = static_cast<int>(full);
    if (light_needed > 0 && light_needed <= kSpmmScheduledWaves * resident_blocks) {
      const int64_t slots = (light_needed + resident_blocks - 1) / resident_blocks * resident_blocks;
      args.light_per_block = static_cast<int>((args.light_count + slots - 1) / slots);  // <= full
      light_blocks = (args.light_count + args.light_per_block - 1) / args.light_per_block;
    }
  }
  if (args.heavy_count > 0 && tiles > (kMaxGrid - light_blocks) / args.heavy_count)
    fail(SDDMM_STATUS_NOT_SUPPORTED, "SpMM: too many heavy rows x column tiles for one launch");
  args.heavy_tiles = static_cast<int>(tiles);
  args.heavy_blocks = args.heavy_count * tiles;
  const int64_t grid = args.heavy_blocks + light_blocks;
  if (grid == 0) return;
  if (sliced) {
    spmm_kernel<Config, I, kMaySlice><<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(args);
  } else if (tiles_split) {
    spmm_kernel<Config, I, false, Config::kWholeWarp><<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(args);
  } else {
    spmm_kernel<Config, I, false><<<static_cast<unsigned>(grid), kThreads, 0, stream>>>(args);
  }
  check_launch("spmm_kernel");
}

// The whole-warp configurations (float32 features), plain or shared indices, in their L2-hinted
// forms where `hints` (float32 throughout only: l2_hot_class).
template <typename P, typename I, bool kSharedIndices>
void launch_whole_warp(const SpmmArgs<P, I>& args, const OuterSplit<I>& split, bool hints, cudaStream_t stream) {
  if constexpr (is_float32_throughout<P>()) {
    if (hints) {
      launch<SpmmConfig<P, 16, true, kSharedIndices, false, true>, I>(args, split, stream);
      return;
    }
  }
  launch<SpmmConfig<P, 16, true, kSharedIndices>, I>(args, split, stream);
}

// One launch of the tensor-core kernel: a warp per strip and 32 columns of Y.
template <typename P, typename I>
void launch_tensor(const DevicePattern<typename P::Value, I>& a, const DenseView& x, const DenseView& y,
                   cudaStream_t stream) {
  using Config = SpmmTensorConfig<P>;
  using F = typename P::Feature;
  const TensorTiles<F, I>& t = a.tiles;
  SpmmTensorArgs<P, I> args;
  args.rows = a.rows;
  args.n = y.cols;
  args.strips = t.strips;
  args.strip_unit_begin = t.strip_unit_begin.get();
  args.strip_units = t.strip_units.get();
  args.unit_key = t.unit_key.get();
  args.unit_entries = t.unit_entries.get();
  args.local = t.local.get();
  args.unit_value = t.value.get();
  args.strip_rest_begin = t.strip_rest_begin.get();
  args.rest = t.cuda_core_entries.get();
  args.entry_row = a.entry_row.get();
  args.entry_col = a.entry_col.get();
  args.entry_value = a.entry_value.get();
  args.x = static_cast<const F*>(x.data);
  args.x_ld = x.row_stride();
  args.x_rows = x.rows;
  args.y = static_cast<F*>(y.data);
  args.y_ld = y.row_stride();
  const int64_t warps = t.strips * (args.n / Config::kWarpCols);
  const int64_t blocks = (warps + Config::kWarps - 1) / Config::kWarps;
  if (blocks == 0) return;
  if (blocks > (int64_t{1} << 31) - 1) {
    fail(SDDMM_STATUS_NOT_SUPPORTED, "SpMM: too many strips x column tiles for one launch");
  }
  spmm_tensor_kernel<Config, I><<<static_cast<unsigned>(blocks), Config::kThreads, 0, stream>>>(args);
  check_launch("spmm_tensor_kernel");
}

template <typename P, typename I>
void run_typed(const DevicePattern<typename P::Value, I>& a, const DenseView& x, const DenseView& y, bool transpose,
               cudaStream_t stream) {
  SpmmArgs<P, I> args;
  args.n = y.cols;
  args.offsets = transpose ? a.col_offsets.get() : a.row_offsets.get();
  args.index = transpose ? a.csc_row.get() : a.entry_col.get();
  args.value = transpose ? a.csc_value.get() : a.entry_value.get();
  // The few-rows form for long rows loads whole rounds of indices and values in 16-byte pieces
  // (accumulate_entries_vector): the plan's arrays are carved from one allocation, each piece aligned.
  static_assert(Carver::kPieceAlignment % 16 == 0, "plan arrays 16-byte aligned");
  args.x = static_cast<const typename P::Feature*>(x.data);
  args.x_row_stride = x.row_stride();
  const int64_t x_pitch = x.row_stride() * int64_t{sizeof(typename P::Feature)};
  args.x_row_pitch = pitch_fits_32(x_pitch) ? static_cast<uint32_t>(x_pitch) : 0u;
  args.x_col_stride = x.col_stride();
  args.y = static_cast<typename P::Output*>(y.data);
  args.y_row_stride = y.row_stride();
  args.y_col_stride = y.col_stride();
  const OuterSplit<I>& split = transpose ? a.col_split : a.row_split;
  SlabFacts slab;
  if (is_float32_throughout<P>() && a.spmm_slabs != 0) {
    slab.mode = a.spmm_slabs;
    slab.min_reuse = a.spmm_slab_min_reuse.for_row_bytes(y.cols * int64_t{sizeof(float)});
    slab.inner_ascending = transpose || a.rows_ascending;  // CSC's rows ascend within each column
    slab.any_heavy = !split.heavy().empty();
    slab.outer = split.order.size();
    slab.inner = x.rows;
    slab.nnz = a.nnz;
    // The kernel's shape (an occupancy query, cached per device) only where the plan allows it at all.
    if (slab.inner_ascending && !slab.any_heavy) {
      slab.geometry = slab_geometry<I>(y.cols * int64_t{sizeof(float)}, a.compute_capability, a.shared_optin);
    }
  }
  DeepFacts deep;
  // The deep configurations address X's rows in 32-bit pitches with 32-bit plan indices (load_x):
  // rows 4 GB or more apart keep them off.
  deep.min_mean = sizeof(I) == 4 && args.x_row_pitch == 0 ? 0 : a.spmm_deep_rows_min_mean;
  deep.few_rows = a.spmm_few_rows;
  deep.few_long_rows_min_mean = a.spmm_few_long_rows_min_mean;
  if constexpr (std::is_same_v<typename P::Feature, float>) {
    if (deep.min_mean > 0 && deep.few_rows != 0) {  // an occupancy query, cached per device
      using FewRows = SpmmDeepFewRowsConfig<P>;
      deep.few_rows_threads = int64_t{resident_grid<spmm_kernel<FewRows, I, false>>(FewRows::kThreadsPerBlock, 0)} *
                              FewRows::kThreadsPerBlock;
    }
  }
  const SpmmChoice choice =
      choose_spmm_kernel<P>(x, y, split.light_entries, split.light().size(), a.entries_per_slice,
                            int64_t{a.resident_blocks} * SpmmConfig<P, 16>::kThreadsPerBlock, a.spmm_shared_indices,
                            deep, !transpose && !a.tiles.strip_units.empty(), slab);
  args.group = choice.group;
  args.slices = choice.slices;
  // The whole-warp configurations with L2 hints where the rule turns them on (float32 only).
  const int hot_class =
      is_float32_throughout<P>() && !transpose && !a.entry_x_class.empty()
          ? l2_hot_class(a.x_classes, a.cols, a.nnz, a.l2_bytes, y.cols * int64_t{sizeof(float)}, a.spmm_l2_hints)
          : -1;
  if (hot_class >= 0) {
    args.x_class = a.entry_x_class.get();
    args.hot_class = hot_class;
  }
  // Whole-warp light rows with N > 128: their column tiles share-major where X and Y exceed the L2
  // and one share of X about fits it (light_tiles_outer), else dealt over warps by the split rule
  // or not at all (light_tile_shift; spmm/split_tiles_rule.hpp, tuning.hpp has the measurements).
  if (choice.kernel == SpmmKernel::kVector16WholeWarp || choice.kernel == SpmmKernel::kVector16WholeWarpShared) {
    constexpr int64_t kTileColumns = 32 * SpmmConfig<P, 16>::kVec;  // a whole warp's vectors
    const LightTileSplit tiles = light_tile_split(
        (y.cols + kTileColumns - 1) / kTileColumns, split.light_entries, split.light().size(),
        int64_t{a.resident_blocks} * SpmmConfig<P, 16>::kThreadsPerBlock, x.rows * y.cols * int64_t{sizeof(float)},
        y.rows * y.cols * int64_t{sizeof(float)}, a.l2_bytes, a.spmm_split_tiles, a.spmm_tiles_outer);
    args.light_tile_shift = tiles.shift;
    args.light_tiles_outer = tiles.outer ? 1 : 0;
  }
  switch (choice.kernel) {
    case SpmmKernel::kVector16:
      launch<SpmmConfig<P, 16>, I>(args, split, stream);
      return;
    case SpmmKernel::kVector16Deep:
      if constexpr (std::is_same_v<typename P::Feature, float>) {
        launch<SpmmConfig<P, 16, false, false, true>, I>(args, split, stream);
        return;
      }
      break;
    case SpmmKernel::kVector16DeepFewRows:
      if constexpr (std::is_same_v<typename P::Feature, float>) {
        launch<SpmmDeepFewRowsConfig<P>, I>(args, split, stream);
        return;
      }
      break;
    case SpmmKernel::kVector16DeepFewLongRows:
      if constexpr (std::is_same_v<typename P::Feature, float>) {
        launch<SpmmDeepFewLongRowsConfig<P>, I>(args, split, stream);
        return;
      }
      break;
    case SpmmKernel::kVector16WholeWarp:
      if constexpr (std::is_same_v<typename P::Feature, float>) {
        launch_whole_warp<P, I, false>(args, split, hot_class >= 0, stream);
        return;
      }
      break;
    case SpmmKernel::kVector16WholeWarpShared:
      if constexpr (std::is_same_v<typename P::Feature, float>) {
        launch_whole_warp<P, I, true>(args, split, hot_class >= 0, stream);
        return;
      }
      break;
    case SpmmKernel::kStrided:
      launch<SpmmConfig<P, 0>, I>(args, split, stream);
      return;
    case SpmmKernel::kSlabs:
      if constexpr (is_float32_throughout<P>()) {
        SpmmSlabArgs<I> slab_args;
        slab_args.outer = slab.outer;
        slab_args.inner = slab.inner;
        slab_args.offsets = args.offsets;
        slab_args.index = args.index;
        slab_args.value = args.value;
        slab_args.x = args.x;
        slab_args.x_ld = args.x_row_stride;
        slab_args.y = args.y;
        slab_args.y_ld = args.y_row_stride;
        launch_spmm_slabs<I>(slab_args, y.cols * int64_t{sizeof(float)}, slab.geometry, stream);
        return;
      }
      break;
    case SpmmKernel::kTensorUnits:
      if constexpr (has_tensor_spmm<P>()) {
        launch_tensor<P, I>(a, x, y, stream);
        return;
      }
      break;
  }
  fail(SDDMM_STATUS_NOT_SUPPORTED, "no SpMM kernel for this call");
}

}  // namespace

template <typename V, typename I>
void run_spmm(const DevicePattern<V, I>& a, const DenseView& x, const DenseView& y, bool transpose,
              cudaStream_t stream) {
  dispatch_precision<V>(x.dtype, y.dtype,
                        [&](auto precision) { run_typed<decltype(precision), I>(a, x, y, transpose, stream); });
}

template <typename V, typename I>
int64_t spmm_tensor_core_entries(const DevicePattern<V, I>& a, int64_t n, sddmm_dtype_t features) {
  const bool taken =
      sizeof(V) == 2 && features == dtype_of<V>() && !a.tiles.strip_units.empty() && n % kSpmmTensorWarpCols == 0;
  return taken ? a.tiles.entries : 0;
}

#define SDDMM_INSTANTIATE_RUN_SPMM(V, I)                                                                            \
  template void run_spmm<V, I>(const DevicePattern<V, I>&, const DenseView&, const DenseView&, bool, cudaStream_t); \
  template int64_t spmm_tensor_core_entries<V, I>(const DevicePattern<V, I>&, int64_t, sddmm_dtype_t);
SDDMM_INSTANTIATE_RUN_SPMM(float, int32_t)
SDDMM_INSTANTIATE_RUN_SPMM(float, int64_t)
SDDMM_INSTANTIATE_RUN_SPMM(double, int32_t)
SDDMM_INSTANTIATE_RUN_SPMM(double, int64_t)
SDDMM_INSTANTIATE_RUN_SPMM(__half, int32_t)
SDDMM_INSTANTIATE_RUN_SPMM(__half, int64_t)
SDDMM_INSTANTIATE_RUN_SPMM(__nv_bfloat16, int32_t)
SDDMM_INSTANTIATE_RUN_SPMM(__nv_bfloat16, int64_t)
#undef SDDMM_INSTANTIATE_RUN_SPMM

}  // namespace sddmm::cuda
