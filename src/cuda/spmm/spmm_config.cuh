// The SpMM kernel family's compile-time configuration and run-time arguments.
#pragma once

#include <cstdint>
#include <type_traits>

namespace sddmm::cuda {

// P: the call's element types (cuda/precision.cuh). kVectorBytes: bytes each lane loads from a row
// of X per step (16 = 128-bit; 0 = scalar with arbitrary strides); Y is stored in 16-byte pieces.
// kWholeWarpRows: for calls whose lane groups are whole warps (a column tile of 32 lanes, so light
// rows are never sliced), with more entries in flight. kShareIndices: the group loads its row's
// indices and values a batch at a time, one per lane, and hands them round by shuffles.
// kDeepRows: for narrow groups (N <= 64) on long rows (sliced where the rows are few, unless
// SpmmFewRowsConfig below takes them unsliced), with 16 entries' indices and values loaded at once
// (tuning.hpp has the rule and its measurement).
// ptxas keeps 48 registers there and so only 3-4 of the 16 X rows in flight; allowed 2 blocks per
// multiprocessor it takes 110-128 and issues them all, which lost where the rows fill
// the GPU (H200, N = 32: 106000-3M 0.0565 -> 0.0723, SBM 0.1468 -> 0.1744) and won where they are
// few: SpmmFewRowsConfig below, taken by the rule in spmm.cu (tuning.hpp, kSpmmFewRowsMaxWaves).
// kL2HintRows: the gathers of X carry L2 eviction priorities (cuda/l2_hints.cuh; float32
// whole-warp configurations, taken where spmm/l2_hint_rule.hpp's rule turns the hints on: a
// configuration of its own, so that every other call runs the kernels it ran before).
template <typename P, int kVectorBytes, bool kWholeWarpRows = false, bool kShareIndices = false, bool kDeepRows = false,
          bool kL2HintRows = false>
struct SpmmConfig {
  using Types = P;
  using Feature = typename P::Feature;
  using Accumulator = typename P::Accumulator;
  static constexpr int kVec = kVectorBytes == 0 ? 1 : kVectorBytes / static_cast<int>(sizeof(Feature));
  static constexpr bool kStrided = kVectorBytes == 0;
  static constexpr bool kWholeWarp = kWholeWarpRows;
  static constexpr int kThreadsPerBlock = 256;
  // Entries whose X rows each lane loads before accumulating them (memory-level parallelism): 8 for
  // whole-warp groups (float32 features only: spmm.cu), else 4. Measured (H200, float32, 16
  // matrices x N = 32/128/256, side by side): 8 for every call against 4, geomean time 0.979,
  // gaining where groups are whole warps (N = 128: R-MAT 1.468 -> 1.327 ms, uniform-8000-6.4M
  // 0.269 -> 0.249, block-diagonal 0.742 -> 0.706; N = 256: block-diagonal 1.413 -> 1.326, SBM
  // 1.35 -> 1.29) and losing at N = 32 (groups of 8 lanes, 4 rows a warp: ca-CondMat 0.0147 ->
  // 0.0172, R-MAT 0.487 -> 0.529); 2 lost nearly everywhere (1.043). 8 for whole-warp groups only,
  // against 4 everywhere: 0.969 (two rounds). It costs registers: 48 instead of 40 (sm_90), 5
  // blocks per multiprocessor instead of 6.
  static constexpr int kEntriesInFlight = kDeepRows ? 16 : kWholeWarpRows ? 8 : 4;
  static constexpr bool kDeep = kDeepRows;
  // Shared index loads (spmm_kernel.cuh; spmm.cu says when): a configuration of its own, because
  // the path costs registers wherever it is compiled in, taken or not (sm_90: the float32 kernels
  // 40 -> 48 registers with 20 bytes spilled, whole-warp 48 -> 64; the strided and 16-bit ones
  // spilled 4-64 bytes), and calls that do not take it ran up to 8 % slower in that kernel.
  static constexpr bool kSharedIndices = kShareIndices;
  // __launch_bounds__'s blocks per multiprocessor (0: none asked; SpmmFewRowsConfig asks 2). The
  // L2-hinted configurations ask for the blocks their plain forms get unasked (sm_90: 48 registers,
  // 5 blocks; with shared indices 64, 4, where up to 16 bytes spill): unbounded, the hints took 52 and
  // 64-72 registers.
  static constexpr int kMinBlocks = kL2HintRows ? (kShareIndices ? 4 : 5) : 0;
  // The few-rows form (SpmmFewRowsConfig): taken unsliced only, so it has no sliced instantiation.
  static constexpr bool kFewRows = false;
  // X's rows addressed from the lane's column and, with 32-bit plan indices, by one 32 x 32 -> 64
  // multiply-add with a 32-bit row pitch (load_x, line_address.cuh): the deep configurations.
  // sm_90 SASS of their 16-entry round with int32 indices: 252 -> 156 instructions, registers the
  // same (unsliced; sliced 60 -> 58, few-rows 110). Measured (H200, 2026-11-27, side by side with
  // 64-bit addresses, best of two rounds, ms): few-rows cells 2-5 % faster (uniform 8000^2 N = 32
  // 1.92M 0.0309 -> 0.0297, 3.2M 0.0453 -> 0.0434; N = 64 3.2M 0.0732 -> 0.0692), then the deep
  // kernel's own 0.5-2 % (N = 32: 300000 x 103000 1.035 -> 1.026, uniform-36000-4M 0.0626 -> 0.0618,
  // banded 0.1508 -> 0.1478, SBM 0.1468 -> 0.1448), every other N = 32 / 64 cell within 1.5 %.
  // The 4- and 8-in-flight configurations keep 64-bit addresses: the light-row kernel lost with
  // them (line_address.cuh has the measurement).
  static constexpr bool kLineAddresses = kDeepRows;
  // Each round's successor's indices loaded ahead (spmm_kernel.cuh, add_rounds_prefetched;
  // SpmmFewRowsConfig turns it on).
  static constexpr bool kPrefetchIndices = false;
  // X's rows loaded evict_last where their class is hot, else evict_first; Y stored evict_first.
  static constexpr bool kL2Hints = kL2HintRows;
  // Whole rounds' indices and values in 16-byte loads (spmm_kernel.cuh, accumulate_entries_vector;
  // SpmmFewRowsConfig<..., true> turns it on).
  static constexpr bool kVectorRounds = false;
  static_assert(kVectorBytes == 0 || kVectorBytes == 16, "vector loads are 16 bytes or none");
  static_assert(kEntriesInFlight >= 1 && kEntriesInFlight <= 16, "entries in flight per lane");
  static_assert(!kDeepRows || (!kWholeWarpRows && !kStrided), "deep rows in narrow vector groups");
  static_assert(kVec >= 1 && (kVec & (kVec - 1)) == 0, "vector width must be a power of two");
  static_assert(kThreadsPerBlock % 32 == 0, "blocks hold whole warps");
  static_assert(!kShareIndices || (kWholeWarpRows && !kStrided), "shared index loads by whole-warp groups");
  static_assert(!kL2HintRows || (kWholeWarpRows && !kStrided && std::is_same_v<Feature, float> &&
                                 std::is_same_v<typename P::Output, float>),
                "L2 hints in float32 whole-warp configurations");
};

// A configuration for calls whose light rows do not fill the GPU (spmm.cu says when): the same
// kernel with __launch_bounds__(threads, 2), so that ptxas may use the registers a full GPU would
// have shared out (up to 128: the rows fill about one wave of 2 blocks per multiprocessor); the
// deep configuration then keeps all of its 16 X rows in flight instead of 3-4, and loads each
// round's successor's indices ahead (kPrefetchIndices: 110 -> 124 registers with int32 indices,
// 128 with int64). Measured (H200, 2026-11-27, side by side with the indices loaded in their own
// round, two rounds, best, ms): uniform 8000^2 at N = 32 640k 0.0154 -> 0.0149, 1.28M 0.0230 ->
// 0.0221, 2.56M 0.0372 -> 0.0359, 3.2M 0.0438 -> 0.0426 (0.98 -> 1.01x cuSPARSE), 6.4M the same
// (0.0751 / 0.0756); at N = 64 5-8 % (1.28M 0.0356 -> 0.0327, 3.2M 0.0699 -> 0.0667);
// uniform-4000-88k 0.0087 -> 0.0084; every other cell within 2 %.
//
// kLongRows: its form for long rows (spmm.cu, kSpmmFewLongRowsMinMean), whose whole rounds load
// their indices and values in 16-byte pieces (kVectorRounds).
template <typename Base, bool kLongRows = false>
struct SpmmFewRowsConfig : Base {
  static constexpr int kMinBlocks = 2;
  static constexpr bool kFewRows = true;
  static constexpr bool kPrefetchIndices = Base::kDeep;
  static constexpr bool kVectorRounds = kLongRows;
  static_assert(!kLongRows || Base::kDeep, "the long-rows form is the deep configuration's");
};

// One launch: y(o, :) = sum over entries e of o of value[e] * x(index[e], :) for every outer index o
// of the light and the heavy list. Light rows: `group` lanes share one output row, each lane kVec
// columns per step (a column tile is group * kVec columns), `slices` groups per row. Heavy rows:
// heavy_tiles column tiles, a block each.
template <typename P, typename I>
struct SpmmArgs {
  using F = typename P::Feature;
  using V = typename P::Value;
  using O = typename P::Output;
  int64_t n = 0;
  const I* light = nullptr;          // (light_count) light outer indices
  int64_t light_count = 0;
  const I* heavy = nullptr;          // (heavy_count) heavy outer indices, longest first
  int64_t heavy_count = 0;
  const int64_t* offsets = nullptr;  // (outer + 1)
  const I* index = nullptr;          // (nnz) inner index of each entry
  const V* value = nullptr;          // (nnz) or nullptr: ones
  const F* x = nullptr;              // x(i, j) = x[i * x_row_stride + j * x_col_stride]
  int64_t x_row_stride = 0;
  int64_t x_col_stride = 0;
  O* y = nullptr;                    // y(o, j) = y[o * y_row_stride + j * y_col_stride]
  int64_t y_row_stride = 0;
  int64_t y_col_stride = 0;
  int group = 32;
  int slices = 1;            // lane groups per light row: 1, or 32 / group (a warp per row)
  int heavy_tiles = 1;       // column tiles per heavy row
  int64_t heavy_blocks = 0;  // heavy_count * heavy_tiles: the launch's first blocks
  uint32_t x_row_pitch = 0;          // x_row_stride in bytes if it fits 32 bits, else 0 (kLineAddresses)
  int light_per_block = 0;           // the few-rows configuration's light rows per block (launch(), spmm.cu)
  const uint8_t* x_class = nullptr;  // (nnz) the class of each entry's X row (kL2Hints configurations only)
  int hot_class = 0;                 // ... from which class a row is loaded evict_last
  int light_tile_shift = 0;          // whole-warp light rows: log2 of the warps their column tiles are dealt to
  int light_tiles_outer = 0;         // ... 1: items taken share-major (every row's first share, then the next)
};

// The slab kernel (spmm_slab_kernel.cuh): float32 throughout, X and Y row-major with 16-byte
// aligned rows of kRowBytes (N = kRowBytes / 4), each outer index's inner indices ascending. One
// block of kThreads per multiprocessor streams X through shared memory in slabs of consecutive rows
// (two buffers: the next slab is copied while this one is read); each warp owns up to kRowsPerWarp
// outer indices of its block's range and, slab by slab, adds the entries whose inner index lies in
// the slab, reading X's rows from shared memory instead of gathering them from L2 per entry.
template <int kXRowBytes>
struct SpmmSlabConfig {
  static constexpr int kRowBytes = kXRowBytes;
  static constexpr int kThreads = 1024;
  static constexpr int kWarps = kThreads / 32;
  static constexpr int kRowVectors = kRowBytes / 16;                      // 16-byte pieces per row of X
  static constexpr int kGroup = kRowVectors < 32 ? kRowVectors : 32;      // lanes per entry
  static constexpr int kVectorsPerLane = kRowVectors / kGroup;            // 1, or 2 for 1-KB rows
  static constexpr int kEntriesPerStep = 32 / kGroup;                     // entries a warp instruction reads
  static constexpr int kRowsPerWarp = 2;
  static constexpr int kStageEntries = 32 + kEntriesPerStep;                // a warp's entry stage
  static constexpr int kStaticSharedBytes = kWarps * kStageEntries * 8 + 64;  // the stages and two barriers
  static_assert(kRowBytes >= 128 && kRowBytes <= 1024 && (kRowBytes & (kRowBytes - 1)) == 0,
                "slab rows of 128 to 1024 bytes");
};

// One launch of the slab kernel: y(o, :) = sum over entries e of o of value[e] * x(index[e], :) for
// every outer index o < outer (no heavy list: the rule takes the kernel only without one).
template <typename I>
struct SpmmSlabArgs {
  int64_t outer = 0;                 // rows of y
  int64_t inner = 0;                 // rows of x
  int64_t rows_per_block = 0;        // outer indices per block: at most kWarps * kRowsPerWarp
  int64_t slab_rows = 0;             // rows of x per slab
  const int64_t* offsets = nullptr;  // (outer + 1)
  const I* index = nullptr;          // (nnz) inner index of each entry, ascending within each outer index
  const float* value = nullptr;      // (nnz) or nullptr: ones
  const float* x = nullptr;          // x(i, j) = x[i * x_ld + j]
  int64_t x_ld = 0;
  float* y = nullptr;                // y(o, j) = y[o * y_ld + j]
  int64_t y_ld = 0;
};

// The tensor-core SpMM kernel (spmm_tensor_kernel.cuh): 16-bit features, values and output
// (P = Precision<F, F, F>, F float16 or bfloat16), float32 sums. A warp takes one strip of 16
// output rows and kWarpCols columns of Y: per dense unit of its strip, the unit's entries scattered
// into a 16 x 64 tile A and X's 64 rows of the unit's chunk (kWarpCols columns of them) staged by
// cp.async, then 4 k-steps of mma.m16n8k16 on kTiles tiles of 8 columns; the next unit's rows are
// copied while this one's A is built. Both tiles are kept in 16-byte pieces XOR-swizzled by row so
// that the 8 rows an ldmatrix reads lie in distinct banks.
constexpr int kSpmmTensorWarpCols = 32;  // columns of Y per warp: 4 mma tiles of 8 (N must be a multiple)

template <typename P>
struct SpmmTensorConfig {
  using Types = P;
  using Feature = typename P::Feature;
  static_assert(sizeof(Feature) == 2 && std::is_same_v<Feature, typename P::Value> &&
                    std::is_same_v<Feature, typename P::Output>,
                "tensor-core SpMM: 16-bit features, values and output alike");
  static constexpr int kWarps = 4;          // warps per block, each on its own (strip, column tile)
  static constexpr int kThreads = 32 * kWarps;
  static constexpr int kWarpCols = kSpmmTensorWarpCols;
  static constexpr int kTiles = kWarpCols / 8;
  static constexpr int kUnitK = 64;         // a unit's columns: K of its product
  static constexpr int kXRowBytes = kWarpCols * 2;        // one staged row of X: 4 pieces of 16 bytes
  static constexpr int kXStageBytes = kUnitK * kXRowBytes;  // 4 KB
  static constexpr int kARowBytes = kUnitK * 2;           // one row of A: 8 pieces
  static constexpr int kABytes = 16 * kARowBytes;         // 2 KB
  static constexpr int kWarpBytes = 2 * kXStageBytes + kABytes;  // two stages of X and A: 10 KB
  static constexpr int kResultPitch = kWarpCols + 1;      // floats per row of the results staged for the writes
  // Groups of 8 entries each lane loads (16-byte loads) before it stores any into the tile, and
  // the blocks per multiprocessor the registers are held to (shared memory allows 5). Measured
  // (H100, 2026-11-26, float16, `sddmm-bench --suite fill`, four builds in one call, two rounds,
  // us at N = 32 / 128 / 256), against the first kernel's 4 entries a lane, one 2-byte load each
  // (84 registers, 5 blocks): 1 group at 5 blocks (88 registers) full blocks 70.5 / 241 / 455 ->
  // 62.0 / 206 / 388, half-full 52.8 / 179 / 339 -> 51.5 / 176 / 335, quarter-full 42.8 / 147 / 278
  // -> 43.8 / 150 / 287; 2 groups at 5 blocks (96 registers, 24 bytes spilled) 1-4 % slower than 1;
  // 2 groups at 4 blocks (102 registers) 3-20 % slower than the first kernel but on full blocks.
  static constexpr int kTileGroups = 1;
  static constexpr int kMinBlocks = 5;
  static_assert(16 * kResultPitch * 4 <= kXStageBytes, "the results are staged over a stage of X");
};

// One launch: y(r, :) = sum over entries e of row r of value[e] * x(col[e], :), every row written.
// Rows whose strip has dense units sum them first (in chunk order), then their other entries (in
// plan order): a fixed order, deterministic.
template <typename P, typename I>
struct SpmmTensorArgs {
  using F = typename P::Feature;
  int64_t rows = 0;
  int64_t n = 0;                              // multiple of kWarpCols
  int64_t strips = 0;
  const int64_t* strip_unit_begin = nullptr;  // (strips + 1) TensorTiles' strip order
  const int64_t* strip_units = nullptr;
  const int64_t* unit_key = nullptr;          // chunk * strips + strip
  const int64_t* unit_entries = nullptr;      // (units + 1)
  const uint16_t* local = nullptr;            // col % 64 * 16 + row % 16 of each unit entry
  const F* unit_value = nullptr;              // or nullptr: ones
  const int64_t* strip_rest_begin = nullptr;  // (strips + 1) into rest
  const I* rest = nullptr;                    // plan positions of the entries outside dense units
  const I* entry_row = nullptr;
  const I* entry_col = nullptr;
  const F* entry_value = nullptr;             // or nullptr: ones
  const F* x = nullptr;                       // x(i, j) = x[i * x_ld + j], 16-byte aligned rows
  int64_t x_ld = 0;
  int64_t x_rows = 0;
  F* y = nullptr;                             // y(r, j) = y[r * y_ld + j], 16-byte aligned rows
  int64_t y_ld = 0;
};

}  // namespace sddmm::cuda
