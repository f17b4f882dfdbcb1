// The SDDMM kernel family's compile-time configuration and run-time arguments.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "cuda/panels.cuh"
#include "cuda/sddmm/sddmm_wgmma.cuh"
#include "cuda/tile_entries.cuh"
#include "cuda/tiles.cuh"

namespace sddmm::cuda {

// P: the call's element types (cuda/precision.cuh). kVectorBytes: bytes each lane loads per step
// along K from X1 and X2 (16 = one 128-bit load; 0 = scalar loads with arbitrary strides, for
// layouts or alignments the vector path cannot take).
template <typename P, int kVectorBytes>
struct SddmmConfig {
  using Types = P;
  using Feature = typename P::Feature;
  using Accumulator = typename P::Accumulator;
  static constexpr int kVec = kVectorBytes == 0 ? 1 : kVectorBytes / static_cast<int>(sizeof(Feature));
  static constexpr bool kStrided = kVectorBytes == 0;
  static constexpr int kThreadsPerBlock = 256;
  // Vector path: 16-byte steps along K each lane takes per entry in one pass, all loads issued
  // before any arithmetic, one entry per lane group at a time (its X1 row cached in registers).
  // The group is then the fewest lanes that cover K in kStepsPerLane steps (sddmm.cu). Measured
  // (H200, 2026-11-21, float32, CUDA cores only, ms at K = 32 / 128 / 256), steps x entries per
  // group: uniform 8000^2 1.28M 2 x 4 without the cached row (the earlier kernel) 0.043 / 0.133 /
  // 0.271; 4 x 1 0.043 / 0.130 / 0.264; 4 x 1 cached 0.041 / 0.100 / 0.186; 8 x 1 cached 0.054 /
  // 0.101 / 0.177. R-MAT: 0.536 / 1.745 / 3.503 (2 x 4), 0.468 / 1.335 / 2.605 (4 x 1 cached),
  // 0.643 / 1.810 / 3.175 (8 x 1 cached). Without the cache, more steps per lane only cost
  // registers (8 x 1: 90, a quarter of the warps resident); 4 entries of 2 steps held 115.
  // Strided path: 2 scalar steps per lane, kEntriesPerGroup entries per group at once for
  // memory-level parallelism (c3858c3, then for both paths: 1 step and 1 entry 0.274 ms, 2 steps
  // and 4 entries 0.074 ms, uniform 8000^2 640k K = 128).
  static constexpr int kStepsPerLane = kVectorBytes == 0 ? 2 : 4;
  static constexpr int kEntriesPerGroup = kVectorBytes == 0 ? 4 : 1;
  // The vector path sums each group in straight-line code (five shuffles, the levels past the group
  // not added: cuda/vector.cuh) instead of a loop of log2(group) shuffles with its counter and
  // branch. ncu (H200, 2026-11-21, float32): uniform-8000-640k K = 256 52.2M -> 44.2M warp
  // instructions, R-MAT K = 128 615M -> 547M; side by side (14 matrices x K = 32/128/256, two
  // rounds) float32 geomean time 0.991 / 0.993 (uniform 8000^2 K = 256 -2.6 %; R-MAT K = 32 0.423 ->
  // 0.400 ms), K = 32 up to 1 % slower where the group is 2 lanes. The strided path, whose groups of
  // up to 4 entries would shuffle five times each, keeps the loop.
  static constexpr bool kStraightLineSum = !kStrided;
  // Blocks per multiprocessor the registers must allow (__launch_bounds__): 4 on the vector path,
  // 64 registers, for every feature type since 16-bit features are held as 32-bit words
  // (cuda/precision.cuh): no spill with 32-bit indices (4 bytes with 64-bit ones, 16-bit
  // features); unbounded, ptxas takes 76 with float32 and fits 3 blocks. bfloat16 had needed 80 (3
  // blocks, 34 bytes spilled) before; at 64 now its geomean time is 0.912 of 80's, measured side by
  // side (H200, 2026-11-21, 5 matrices x K = 32/128/256; uniform 685000^2 K = 256 1.108 -> 1.034
  // ms). The strided path has no bound (it spills at 64 and 80).
  static constexpr int kMinBlocksPerSm = kVectorBytes == 0 ? 1 : 4;
  // Whether each entry's sum is added to the output's before it is scaled (SddmmAddsPartialConfig).
  static constexpr bool kAddsPartial = false;
  static_assert(kVectorBytes == 0 || kVectorBytes == 16, "vector loads are 16 bytes or none");
  static_assert(kEntriesPerGroup >= 1 && kEntriesPerGroup <= 8, "entries in flight per group");
  static_assert(kVec >= 1 && (kVec & (kVec - 1)) == 0, "vector width must be a power of two");
  static_assert(kThreadsPerBlock % 32 == 0, "blocks hold whole warps");
};

// The vector path's entry kernel in blocks of 1024 threads, one a multiprocessor (64 registers, as
// 4 blocks of 256): the multiprocessor's 32 warps then take 32 neighbouring shares of the entries,
// one part of the matrix, instead of 4 blocks' shares from 4 parts of it.
template <typename Base>
struct SddmmSmBlockConfig : Base {
  static constexpr int kThreadsPerBlock = 1024;
  static constexpr int kMinBlocksPerSm = 1;
};

// The entry kernel as a launch after the first over parts of K (sddmm.cu, run_k_parts; float32
// output): each entry's sum over this launch's part of K is added to what the launches before
// stored (their sum, unscaled: they run without values), then scaled by A's value (the last
// launch) or by one. An instantiation of its own, so that the one-launch kernels read no output.
template <typename Base>
struct SddmmAddsPartialConfig : Base {
  static constexpr bool kAddsPartial = true;
};

// log2(n) for a power of two n >= 1 (a compile-time shape's).
constexpr int exact_log2(int n) {
  return n <= 1 ? 0 : 1 + exact_log2(n / 2);
}

// The line kernel (sddmm_line_kernel.cuh): for K whose row of X1 and column of X2 are one 64- or
// 128-byte line (kLineBytes = K * sizeof(Feature): float32 K = 16 / 32, float16 and bfloat16 K = 32 /
// 64, float64 K = 8 / 16) on the vector path's layout. Each lane of a group of kLanes loads one
// 16-byte piece of each of kEntriesPerGroup entries, so that one warp load instruction reads 32 /
// kLanes whole lines, where the entry kernel's groups (the fewest lanes covering K in 4 steps: 1 or 2
// lanes here) read one piece of 16 or 32 lines per instruction, each line again in each of its 4
// steps. The group then sums its entries by halving: each lane ends with one entry's sum, so that a
// warp's 16 or 32 entries cost log2(kLanes) + 1 shuffles per lane rather than five per entry.
// ncu had found the entry kernel at float32 K = 32 reading 844 MB from L2 with 16 % L1 hits on
// uniform-8000-6.4M (cuSPARSE 619 MB, 32 %) and bound by neither L2 nor issue slots on 1.28M
// (bench/RESULTS.md). Whole lines per instruction were the prediction for that gap (4x fewer lines
// touched per entry), not a counter reading: no ncu run on the line kernel yet. Side by side it takes
// 0.832 of the entry kernel's time over the suite at float32 K = 32 (tuning.hpp has the numbers).
template <typename P, int kLineBytes>
struct SddmmLineConfig {
  using Types = P;
  using Feature = typename P::Feature;
  using Accumulator = typename P::Accumulator;
  static constexpr int kVec = 16 / static_cast<int>(sizeof(Feature));
  static constexpr int kK = kLineBytes / static_cast<int>(sizeof(Feature));
  static constexpr int kLanes = kLineBytes / 16;  // lanes per entry: one 16-byte piece each
  static constexpr int kThreadsPerBlock = 256;
  // Entries per group in one iteration, all loads (X1's piece and X2's of each) issued first: 4, so
  // that a lane holds 8 vectors in flight (32 registers) as the entry kernel's 4 steps do with its
  // cached X1 row. A warp then takes 16 entries per iteration (128-byte lines) or 32 (64-byte).
  static constexpr int kEntriesPerGroup = 4;
  static constexpr int kEntriesPerWarp = 32 / kLanes * kEntriesPerGroup;
  // The halving leaves each entry's sum in kLanes / kEntriesPerGroup lanes (1 or 2): log2 of that.
  static constexpr int kSumShift = exact_log2(kLanes / kEntriesPerGroup);
  // Blocks per multiprocessor the registers must allow (__launch_bounds__): 5, 48 registers with
  // 32-bit plan indices, no spill (the compiler took 56-60 when allowed 64: 4 blocks); 64-bit ones
  // would spill 24-52 bytes at 48, and take 4. Measured in the run of tuning.hpp's
  // kSddmmLineInterleave (contiguous shares at 48 registers against 6c29a9a's 60): float16 K = 64
  // 0.984 (SBM 244.1 -> 233.4 us, R-MAT 366.2 -> 341.8), float32 K = 32 1.008, float16 K = 32 0.978.
  // 6 blocks (40 registers, 24 bytes spilled) lost 17 %, 8 blocks (32, 60 bytes) 75 %.
  static constexpr int kMinBlocksPerSm = 5;
  static constexpr int kMinBlocksPerSmWideIndex = 4;
  static_assert(kLineBytes == 64 || kLineBytes == 128, "one 64- or 128-byte line per entry");
  static_assert(kLanes / kEntriesPerGroup == 1 || kLanes / kEntriesPerGroup == 2, "one or two lanes per entry's sum");
  static_assert(kEntriesPerWarp <= 32, "a lane holds the coordinates of one entry of the iteration");
};

// The panel kernel (sddmm_panel_kernel.cuh): for K whose X1 row and X2 column are kRowBytes = 512,
// 1024 or 2048 bytes (float32 K = 128 / 256 / 512, 16-bit K = 256 / 512 / 1024, float64 K = 64 /
// 128 / 256) on the vector path's layout, over a plan's panel order (cuda/panels.cuh). A block
// stages its panel's X1 rows in shared memory (kPanelRows x kRowBytes: 32, 64 or 128 KB), each
// lane group walks a contiguous run of the panel's column-sorted entries, keeping the X2 column in
// registers while the column repeats. A group is the fewest lanes covering K in 4 steps of 16
// bytes, as on the entry kernel's vector path (8, 16 or 32 lanes: every 8 lanes read 128
// contiguous bytes of one staged row, free of bank conflicts). 512 threads and 2 blocks per
// multiprocessor: measured against 1024 threads in one block in the probe of cuda/panels.cuh (64
// rows, float32 K = 256, 1 / 2 / 5 / 10 % density: 0.0692 / 0.1157 / 0.2510 / 0.4564 ms against
// 0.0673 / 0.1153 / 0.2687 / 0.4825). 2048-byte rows fit one block a multiprocessor (128 KB): of
// 1024 threads (64 registers, no spill), which beat 512 (71-78 registers) and the entry kernel that
// took those calls before (H200, 2026-11-27, one build, two rounds, float32 K = 512, uniform 8000^2
// 640k / 1.28M / 1.92M / 2.56M / 3.2M / 6.4M, ms, entry kernel / 512 threads / 1024 threads:
// 0.1558 / 0.1450 / 0.1268, 0.3003 / 0.2606 / 0.2399, 0.4449 / 0.3717 / 0.3428, 0.5884 / 0.4827 /
// 0.4418, 0.7323 / 0.5928 / 0.5381, 1.4509 / 1.1281 / 1.0112; cuSPARSE 0.1336-1.1889: 0.86-0.92x
// -> 1.06-1.19x; float16 K = 1024, one round: 1.28M 0.3793 -> 0.2943, 6.4M 1.8448 -> 1.3555).
template <typename P, int kRowBytesValue>
struct SddmmPanelConfig {
  using Types = P;
  using Feature = typename P::Feature;
  using Accumulator = typename P::Accumulator;
  static constexpr int kRowBytes = kRowBytesValue;
  static constexpr int kVec = 16 / static_cast<int>(sizeof(Feature));
  static constexpr int kK = kRowBytes / static_cast<int>(sizeof(Feature));
  static constexpr int kStepsPerLane = 4;
  static constexpr int kLanes = kRowBytes / 16 / kStepsPerLane;  // lanes per entry
  // Entries a group takes per iteration, summed together by halving (scatter_sum): each lane ends
  // with the sum of entry group_lane >> kSumShift, and each entry's first such lane stores it.
  // float32: 4, whose halving costs a 1-KB row's group 5 shuffles per 4 entries instead of 4 an
  // entry, and a lane one value and output position load an iteration instead of one an entry.
  // Measured (H200, 2026-12-02, side by side, three rounds, float32, uniform 8000^2 640k / 1.28M /
  // 1.92M / 2.56M / 3.2M / 6.4M, medians, us; bench/RESULTS.md): K = 256 66.7 / 114.9 / 163.9 /
  // 210.4 / 256.9 / 467.1 -> 67.6 / 103.9 / 144.8 / 182.4 / 221.4 / 399.2, K = 128 38.7 / 64.9 /
  // 90.5 / 116.1 / 140.4 / 255.1 -> 39.1 / 61.6 / 84.8 / 107.3 / 134.8 / 240.9 (cuSPARSE at 1.28M
  // K = 256: 141.7). A lane's own loads of the iteration's coordinates beat shuffles from the lane
  // holding each: 1-4 % faster to 2.56M, 2-5 % slower at 3.2M K = 128 and 6.4M, and no spill where
  // the shuffles spilled 16-24 bytes. 8 entries (shuffles, 24-48 bytes spilled) led from 3.2M (6.4M
  // 383.0 at K = 256, 227.3 at 128) and lost below; 2 (shuffles) lost to 4 from 1.92M at K = 256.
  // 640k is 1 % slower at both widths. 16-bit and float64 features keep one entry an iteration (not
  // measured at more; bfloat16 spilled 80-200 bytes at 4 and at 2).
  static constexpr int kEntriesPerGroup = sizeof(Feature) == 4 ? 4 : 1;
  static constexpr int kSumShift = exact_log2(kLanes / kEntriesPerGroup);
  // 1024 threads a multiprocessor either way: two blocks of 512 where two panels fit its shared
  // memory (512- and 1024-byte rows), else one of 1024 (the measurements above).
  static constexpr int kMinBlocksPerSm = kRowBytes == 2048 ? 1 : 2;
  static constexpr int kThreadsPerBlock = 1024 / kMinBlocksPerSm;
  static constexpr size_t kSharedBytes = size_t{kPanelRows} * kRowBytes;
  static_assert(kRowBytes == 512 || kRowBytes == 1024 || kRowBytes == 2048, "rows of 512 to 2048 bytes");
};

// One launch of the panel kernel: every plan entry, in panel order, gets out[position[e]] = value[e] *
// dot(x1[row[e], :], x2[:, col[e]]).
template <typename P, typename I>
struct SddmmPanelArgs {
  using F = typename P::Feature;
  using V = typename P::Value;
  using O = typename P::Output;
  int64_t nnz = 0;
  int64_t rows = 0;
  const int64_t* panel_offsets = nullptr;  // (panels + 1)
  const I* row = nullptr;                  // (nnz) panel order
  const I* col = nullptr;
  const I* position = nullptr;
  const V* value = nullptr;                // or nullptr: ones
  const F* x1 = nullptr;                   // x1(i, k) = x1[i * x1_ld + k]
  int64_t x1_ld = 0;
  const F* x2 = nullptr;                   // x2(k, j) = x2[j * x2_ld + k]
  int64_t x2_ld = 0;
  O* out = nullptr;                        // caller order
};

// The tile kernel (sddmm_tile_kernel.cuh): float32 K = 32, whose X1 rows and X2 columns are one
// 128-byte line, on the vector path's layout, over a plan's tile entries (cuda/tile_entries.cuh: a
// tile is kTileRows rows by kTileCols columns). A block a tile: its X2 columns and X1 rows in
// shared memory (48 KB), then the tile's entries in row order, lane groups of 8 (a 16-byte piece of
// each line a lane), kEntriesPerGroup entries a group a step. Measured in the stand-alone
// prototype (bench/experiments/sddmm-tile-k32.cu; H200, 2026-12-02, uniform 8000^2 float32 K = 32,
// us, 3.2M / 6.4M entries): 8 entries a group against 4 at 64 x 512 tiles 44.8 / 70.6 against
// 56.0 / 94.5; at 128 x 256 tiles 39.8 / 67.1; loading coordinates two steps ahead instead of one
// did not help (e69: 40.3 / 68.3). In the library the kernel takes four blocks a multiprocessor
// (ncu, e73).
template <typename P>
struct SddmmTileConfig {
  using Types = P;
  using Feature = typename P::Feature;
  using Accumulator = typename P::Accumulator;
  static constexpr int kLineBytes = 128;
  static constexpr int kVec = 16 / static_cast<int>(sizeof(Feature));
  static constexpr int kLanes = kLineBytes / 16;  // lanes per entry: one 16-byte piece each
  static constexpr int kEntriesPerGroup = 8;
  static constexpr int kEntriesPerWarp = 32 / kLanes * kEntriesPerGroup;
  // The halving leaves each entry's sum in kLanes / kEntriesPerGroup lanes (one): log2 of that.
  static constexpr int kSumShift = exact_log2(kLanes / kEntriesPerGroup);
  static constexpr int kThreadsPerBlock = 256;
  static constexpr int kMinBlocksPerSm = 3;
  // Steps whose coordinates a lane holds loaded ahead: 1. Measured in the prototype (e69, us, 1.92M
  // / 2.56M / 3.2M / 6.4M): 1 step 29.5 / 34.6 / 39.8 / 67.1, 2 steps 30.1 / 35.0 / 40.3 / 68.3; and
  // in the library's kernels over per-row bounds before the tile entries (e73, e76: 2 and 4 steps
  // slower there too, bench/RESULTS.md). Staging X2 alone, X1's pieces read from the L2 where the row
  // changes (37 KB a block), lost by half there (e76), and so did a grid of resident blocks taking
  // tile after tile (e77).
  static constexpr int kStepsAhead = 1;
  static constexpr int kTileRows = static_cast<int>(sddmm::cuda::kTileRows);
  static constexpr int kTileCols = static_cast<int>(sddmm::cuda::kTileCols);
  static constexpr size_t kLinesBytes = size_t{kTileRows + kTileCols} * kLineBytes;
  static_assert(kEntriesPerWarp == 32, "a lane holds the coordinates of one entry of the step");
};

// One launch of the tile kernel: every plan entry, a block per tile of the plan's tile entries
// (tile order), gets out[place[j]] = value[j] * dot(x1[row, :], x2[:, column]).
template <typename P, typename I>
struct SddmmTileArgs {
  using F = typename P::Feature;
  using V = typename P::Value;
  using O = typename P::Output;
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t slabs = 0;                // tiles a row of tiles
  const I* begin = nullptr;         // (tiles + 1) cuda/tile_entries.cuh
  const uint32_t* local = nullptr;  // (plan entries) tile order: row << 8 | column, in the tile
  const V* value = nullptr;         // (plan entries) or nullptr: ones
  const I* place = nullptr;         // (plan entries) the output's place in the caller's order
  const F* x1 = nullptr;            // x1(i, k) = x1[i * x1_ld + k]
  int64_t x1_ld = 0;
  const F* x2 = nullptr;  // x2(k, j) = x2[j * x2_ld + k]
  int64_t x2_ld = 0;
  O* out = nullptr;  // caller order
};

// One launch: every stored entry e (in plan order, or those of entry_list) gets out[caller_position[e]] =
// value[e] * dot(x1[entry_row[e], :], x2[:, entry_col[e]]), computed by `group` lanes.
template <typename P, typename I>
struct SddmmArgs {
  using F = typename P::Feature;
  using V = typename P::Value;
  using O = typename P::Output;
  int64_t nnz = 0;                     // entries this launch computes
  int64_t k = 0;
  const I* entry_list = nullptr;       // (nnz) the plan entries to compute, or nullptr: all of them
  const I* entry_row = nullptr;        // (plan entries)
  const I* entry_col = nullptr;        // (plan entries)
  const V* entry_value = nullptr;      // (plan entries) or nullptr: ones
  const I* caller_position = nullptr;  // (plan entries) or nullptr: identity
  const F* x1 = nullptr;               // x1(i, k) = x1[i * x1_row_stride + k * x1_k_stride]
  int64_t x1_row_stride = 0;
  int64_t x1_k_stride = 0;
  const F* x2 = nullptr;               // x2(k, j) = x2[k * x2_k_stride + j * x2_col_stride]
  int64_t x2_k_stride = 0;
  int64_t x2_col_stride = 0;
  O* out = nullptr;                    // (plan entries) caller order
  int group = 32;                      // lanes per entry: a power of two <= 32
  // Or, where the launch computes every plan entry (no entry_list): the plan's CSR offsets, and
  // then each warp takes whole rows (an even split of the rows) instead of an equal share of the
  // entries: warps that start their rows together sweep the columns together (sddmm_kernel.cuh).
  const int64_t* row_offsets = nullptr;
  int64_t rows = 0;
  // Or the warps take the launch's iterations in turn (warp_turns), the grid one wave of resident
  // blocks: the line kernel's at K <= 32 (sddmm.cu).
  bool interleaved = false;
  // The line kernel with 32-bit plan indices: bytes from one X1 row to the next and from one X2
  // column to the next (sddmm.cu takes that kernel only where both fit 32 bits). A line's address
  // is then one 32 x 32 -> 64-bit multiply-add (sddmm_line_kernel.cuh).
  uint32_t x1_row_bytes = 0;
  uint32_t x2_col_bytes = 0;
};

}  // namespace sddmm::cuda

namespace sddmm::cuda {

// How the tensor-core SDDMM multiplies (sddmm_tensor_kernel.cuh): kHalf for float16/bfloat16
// features (mma.m16n8k16); for float32 features, kTf32Split (three TF32 mma per step, about float32
// accuracy: the default) or kTf32 (one, TF32 accuracy: only for plans created with
// SDDMM_CREATE_ALLOW_TF32).
enum class TensorArithmetic { kHalf, kTf32, kTf32Split };

// The tensor-core SDDMM's configuration (sddmm_tensor_kernel.cuh). K is a compile-time constant:
// 32, 64, 128 or 256; other K take the CUDA-core kernel. A block stages its item's X2 columns and
// each warp its unit's X1 rows in shared memory, a slice of K at a time, and reads both as mma
// fragments with ldmatrix. Measured against the kernel before (X1's fragments loaded from global
// memory into registers, re-paired with MOVs; X2's whole chunk staged at once; H200, 2026-11-21,
// side by side, two rounds): float32 (TF32 split) K = 256 banded 1.335 -> 0.858 ms, block-diagonal
// 0.491 -> 0.348, uniform-8000-6.4M 0.737 -> 0.560 (K = 128 0.395 -> 0.307); float16 K = 256
// banded 0.504 -> 0.405, uniform-8000-3.2M 0.169 -> 0.162, SBM 0.677 -> 0.631. ncu (float16,
// uniform-8000-3.2M, K = 256): 86M -> 55M warp instructions, issue slots 56 % -> 38 % busy, L2 51 %
// -> 71 % of its throughput, L1 81 % -> 77 %, tensor pipe 32 % -> 33 %. What bounds it is latency
// that 4 blocks per multiprocessor hide only in part (34 % of a warp's cycles wait on ldmatrix
// results), not bytes: two units per warp (40 % fewer shared-memory and 17 % fewer L2 bytes per
// unit at 2 blocks per multiprocessor) and 3 blocks with each step's fragments loaded a step ahead
// were 1.33x and 1.16x slower (float16 geomean; RESULTS.md).
template <typename P, int kKValue, TensorArithmetic kArith>
struct SddmmTensorConfig {
  using Types = P;
  using Feature = typename P::Feature;
  static constexpr TensorArithmetic kArithmetic = kArith;
  static constexpr int kK = kKValue;
  static constexpr int kWarps = kUnitsPerItem;  // a warp per unit of the block's work item
  static constexpr int kThreadsPerBlock = 32 * kWarps;
  static constexpr int kTiles = kUnitCols / 8;  // 8-column mma tiles of a unit
  // Bytes of K per mma step, for both arithmetics: m16n8k16 on 16-bit features, m16n8k8 on float32;
  // an 8 x 8 ldmatrix matrix holds half of it (16 bytes per row).
  static constexpr int kStepBytes = 32;
  static constexpr int kRowBytes = kK * static_cast<int>(sizeof(Feature));
  // Bytes of each row and column staged per slice of K, and the slices in flight at once: slice s
  // loads while the block multiplies slice s - 1. Each staged row is padded by 16 bytes: an odd
  // number of 16-byte pieces per row puts the 8 rows an ldmatrix reads at once in distinct banks.
  // 128-byte slices in 2 stages (55 KB: 4 blocks per multiprocessor) measured against 64-byte
  // slices in 3 (46 KB): geomean time 0.962 against 0.982 of the kernel before (float32; 16-bit
  // 0.979 against 1.014), uniform 8000^2 and block-diagonal, banded, SBM at K = 32/128/256.
  static constexpr int kSliceBytes = kRowBytes < 128 ? kRowBytes : 128;
  static constexpr int kSlices = kRowBytes / kSliceBytes;
  static constexpr int kStages = kSlices < 2 ? kSlices : 2;
  static constexpr int kPitchBytes = kSliceBytes + 16;
  static constexpr int kStepsPerSlice = kSliceBytes / kStepBytes;
  // Unrolled: all of a 16-bit kernel's slices and steps; the TF32 ones loop over slices (unrolled,
  // their copy addresses spill at 64 and 80 registers), the split also over steps (80 registers).
  static constexpr int kUnrollSlices = kArith == TensorArithmetic::kHalf ? kSlices : 1;
  static constexpr int kUnrollSteps = kArith == TensorArithmetic::kTf32Split ? 1 : kStepsPerSlice;
  // Shared memory: the staged X2 columns of every stage, then each warp's staged X1 rows of every
  // stage (a warp's together). A warp's 16 x 64 float32 results (kResultPitch floats per row: 72
  // keeps each half-warp's 8-byte stores in distinct banks) take its own rows' memory once its last
  // slice is multiplied where they fit (two stages of 128-byte slices: no barrier, only the warp
  // reads and writes there); else (one slice) every warp's take the whole staging memory after one
  // more barrier, which needs less memory than placing them beside it.
  static constexpr int kResultPitch = kUnitCols + 8;
  // TF32 arithmetics: each thread rounds the columns it copied to TF32 in place once they land (the
  // split also stores the small parts, in a second copy of the stages), so that the 8 warps that
  // read a column do not each convert it again. The split ran issue-bound without it (ncu,
  // uniform-8000-6.4M K = 256: 437M warp instructions, issue slots 61 % busy, 0.754 ms; with it the
  // 0.560 above).
  static constexpr bool kRoundedColumns = kArith != TensorArithmetic::kHalf;
  static constexpr int kColumnParts = kArith == TensorArithmetic::kTf32Split ? 2 : 1;
  static constexpr size_t kSmallPartOffset = size_t{kStages} * kUnitCols * kPitchBytes;
  static constexpr size_t kColumnBytes = size_t{kColumnParts} * kSmallPartOffset;
  static constexpr size_t kWarpRowBytes = size_t{kStages} * kUnitRows * kPitchBytes;
  static constexpr size_t kWarpResultBytes = size_t{kUnitRows} * kResultPitch * sizeof(float);
  static constexpr size_t kStagingBytes = kColumnBytes + size_t{kWarps} * kWarpRowBytes;
  static constexpr bool kResultsOverRows = kWarpRowBytes >= kWarpResultBytes;
  static constexpr size_t kSharedBytes =
      kResultsOverRows || kStagingBytes >= kWarps * kWarpResultBytes ? kStagingBytes : kWarps * kWarpResultBytes;
  // Blocks per multiprocessor the registers must allow (__launch_bounds__): 4 (64 registers) in
  // general; 3 for the split (79; at 64 it spills 16-32 bytes); 5 for 16-bit features in one slice
  // (K = 32, 64: 48 registers, 16 and 4 bytes spilled), where a block has no slice to overlap its
  // copies with and more blocks must: against 4, K = 64 banded 0.215 -> 0.190 ms, uniform-8000-6.4M
  // 0.105 -> 0.094; K = 32 0.191 -> 0.166 and 0.096 -> 0.086 (the kernel before: 0.166, 0.085).
  static constexpr int kMinBlocksPerSm = kArith == TensorArithmetic::kTf32Split ? 3
                                         : kSlices == 1 && sizeof(Feature) == 2 ? 5
                                                                                : 4;
  // Entries each lane of a warp loads (place, output position, value) before it stores any, when it
  // writes its unit out (write_unit_entries): up to 1024 entries a unit, 32 x 8 a round trip. 8
  // against 4 and 1 (the loop before; H200, 2026-12-04, e106, side by side, two rounds, us, 1 / 4 /
  // 8): block-diagonal float32 K = 32 232.4 / 124.1 / 105.6, K = 256 350.0 / 251.8 / 233.5, float16
  // K = 32 147.9 / 76.9 / 66.0; banded float32 K = 128 530.4 / 481.4 / 463.5, float16 K = 32 166.2
  // / 129.0 / 117.9; geomean time over 1, 18 cells (3 matrices, float32 / float16, K = 32 / 128 /
  // 256): 0.802 with 4, 0.758 with 8.
  // 8 spills 20-36 bytes in half of the 48-register one-slice 16-bit builds (K = 32 / 64; 4 at most
  // 8, the loop before 4-16) and was still faster there but on uniform-8000-6.4M float16 K = 32
  // (85.8 / 63.6 / 64.6).
  static constexpr int kEntryBatch = 8;
  static_assert(kK == 32 || kK == 64 || kK == 128 || kK == 256, "K = 32, 64, 128 or 256");
  static_assert(kRowBytes % kSliceBytes == 0 && kSliceBytes % kStepBytes == 0, "whole slices of whole steps");
  static_assert((kPitchBytes / 16) % 2 == 1, "an odd number of 16-byte pieces per staged row");
  static_assert((kArith == TensorArithmetic::kHalf) == (sizeof(Feature) == 2), "half arithmetic for half features");
  static_assert(kArith == TensorArithmetic::kHalf || std::is_same_v<Feature, float>, "TF32 for float32 features");
};

// The tensor-core SDDMM for plans whose dense units cover nearly the whole matrix
// (sddmm_tensor_square_kernel.cuh; 16-bit features, K = 256: sddmm.cu): a block per square of 8
// strips x 2 chunks (128 x 128 cells), a warp per unit as in the unit kernel (Unit: its
// configuration, whose per-warp arithmetic, slices, stages and row pitch this one keeps), 16 warps.
// The block stages the square's 128 X1 rows and 128 X2 columns once for its 16 units, where the
// unit kernel's work item stages 128 rows and 64 columns for 8: (128 + 128) x K elements per 16
// units instead of 2 x (128 + 64) x K, a third fewer bytes from L2 at the same 32 warps per
// multiprocessor (2 blocks of 512 threads at 64 registers). Measured against the unit kernel:
// tuning.hpp, kTensorSquareMinCover.
template <typename P, int kKValue>
struct SddmmTensorSquareConfig {
  using Types = P;
  using Feature = typename P::Feature;
  using Unit = SddmmTensorConfig<P, kKValue, TensorArithmetic::kHalf>;
  static constexpr int kSquareStrips = 8;
  static constexpr int kSquareChunks = 2;
  static constexpr int kWarps = kSquareStrips * kSquareChunks;  // warp w: strip w % 8, chunk w / 8
  static constexpr int kThreadsPerBlock = 32 * kWarps;
  static constexpr int kMinBlocksPerSm = 2;
  static constexpr int kSquareRows = kSquareStrips * kUnitRows;
  static constexpr int kSquareCols = kSquareChunks * kUnitCols;
  static constexpr int kLines = kSquareRows + kSquareCols;  // staged per stage: X1 rows, then X2 columns
  static constexpr size_t kStageBytes = size_t{kLines} * Unit::kPitchBytes;
  // The unit kernel's slices, up to 3 stages (2 slices in flight): 111 KB at K = 256, 2 blocks per
  // multiprocessor.
  static constexpr int kStages = Unit::kSlices < 3 ? Unit::kSlices : 3;
  static constexpr size_t kStagingBytes = size_t{kStages} * kStageBytes;
  // Each warp's 16 x 64 float32 results over the staging memory once every warp is done with it.
  static constexpr size_t kResultBytes = size_t{kWarps} * Unit::kWarpResultBytes;
  static constexpr size_t kSharedBytes = kStagingBytes > kResultBytes ? kStagingBytes : kResultBytes;
  static_assert(sizeof(Feature) == 2, "float16 / bfloat16 features");
  static_assert(Unit::kSlices >= 2, "K = 128 or 256: at least two slices");
};

// The square kernel on Hopper's warpgroup instructions (sddmm_wgmma_square_kernel.cuh; sm_90a,
// 16-bit features, K = 128 / 256: sddmm.cu): the square kernel's squares of 8 strips x 2 chunks
// (128 x 128 cells, 16 units) and its cell index, but the block multiplies the square as one GEMM
// tile: two warpgroups, each 64 rows x 128 columns by wgmma.m64n128k16 from operands staged in
// shared memory with the 128-byte swizzle (cuda/sddmm/sddmm_wgmma.cuh), one 128-byte line of K per
// row and column and stage. The mma.sync kernels read every fragment through ldmatrix (5 per 8 mma:
// the bound the square kernel found, RESULTS.md); wgmma reads its operands from shared memory
// itself. A warp then holds two units' results in the unit kernel's accumulator layout and writes
// their entries out, kEntryBatch per lane at a time.
template <typename P, int kKValue>
struct SddmmWgmmaSquareConfig {
  using Types = P;
  using Feature = typename P::Feature;
  using Unit = SddmmTensorConfig<P, kKValue, TensorArithmetic::kHalf>;  // its result pitch and epilogue
  static constexpr int kK = kKValue;
  // 8 strips: 4 (a block of one warpgroup, 64 x 128, 3 blocks per multiprocessor) was 2-3 % faster
  // at K = 128 and 15-18 % slower at K = 256 (H100, 2026-11-26, float16, uniform 8000^2 1.92M-6.4M,
  // us: K = 128 3.2M 82.3 -> 80.7, 6.4M 108.6 -> 105.7; K = 256 3.2M 102.9 -> 120.4, 6.4M 127.7 ->
  // 148.4): each X1 row staged serves half the columns.
  static constexpr int kSquareStrips = 8;
  static constexpr int kSquareChunks = 2;
  static constexpr int kSquareRows = kSquareStrips * kUnitRows;  // 128
  static constexpr int kSquareCols = kSquareChunks * kUnitCols;  // 128
  static constexpr int kWarpgroups = kSquareRows / 64;           // 64 rows each
  static constexpr int kWarps = 4 * kWarpgroups;                 // warp w: strip w of the square
  static constexpr int kThreadsPerBlock = 32 * kWarps;
  static constexpr int kSliceElements = kSwizzleLineBytes / static_cast<int>(sizeof(Feature));  // 64
  static constexpr int kSlices = kK / kSliceElements;
  static constexpr int kStepsPerSlice = kSliceElements / 16;  // wgmma k16 steps
  static constexpr int kOperandBytes = kSquareRows * kSwizzleLineBytes;  // one slice of X1 rows; X2's after
  static constexpr size_t kStageBytes = size_t{kSquareRows + kSquareCols} * kSwizzleLineBytes;  // 32 KB
  // 3 stages (96 KB, 2 blocks per multiprocessor) where K has more than 2 slices.
  static constexpr int kStages = kSlices < 3 ? kSlices : 3;
  static constexpr size_t kStagingBytes = size_t{kStages} * kStageBytes;
  // Each warp's two units of float32 results (the unit kernel's pitch), over the staging memory once
  // every warpgroup is done with it.
  static constexpr size_t kResultBytes = size_t{kWarps} * kSquareChunks * Unit::kWarpResultBytes;
  // The dynamic shared memory's start is aligned up to a swizzle atom: up to one atom more.
  static constexpr size_t kSharedBytes =
      (kStagingBytes > kResultBytes ? kStagingBytes : kResultBytes) + kSwizzleAtomBytes;
  static constexpr int kMinBlocksPerSm = 2;
  // Entries each lane of a warp loads (place, output position, value) before it stores any.
  // 4 against 1 (H200, 2026-11-26, float16, two rounds, us): uniform 8000^2 K = 256 2.56M 113.1 ->
  // 110.4, 3.2M 109.2 -> 107.0, 6.4M 131.3 -> 126.4; K = 128 6.4M 114.4 -> 108.0.
  static constexpr int kEntryBatch = 4;
  static_assert(sizeof(Feature) == 2, "float16 / bfloat16 features");
  static_assert(kK % kSliceElements == 0 && kSlices >= 1, "whole 128-byte slices of K");
  static_assert(kOperandBytes % kSwizzleAtomBytes == 0, "operands start on swizzle atoms");
};

// The wgmma kernels that walk tiles with their X1 rows held (sm_90a, 16-bit features, K = 128 /
// 256, the plans the square kernels take): what both forms share. A tile is 8 strips x 1 chunk
// (128 x 64 cells, 8 units: a multiplying warp each); a block takes a run of consecutive tiles of
// the row-major tile order, one block a multiprocessor. It stages a row tile's 128 X1 rows once,
// whole K, and keeps them while it walks that row's chunks, so that only X2's 64 columns move per
// tile: 128 multiply-adds per X2 byte against 64 for the square kernel, which stages both per
// square. The two forms differ in who writes the entries out: the multiplying warps themselves
// (SddmmWgmmaWalkConfig, sddmm_wgmma_walk_kernel.cuh: K = 128) or warps of their own
// (SddmmWgmmaWalkEntryWarpsConfig, sddmm_wgmma_walk_entry_warps_kernel.cuh: K = 256); the choice
// and its measurement are in sddmm_hopper.cu (launch_walk).
template <typename P, int kKValue>
struct SddmmWgmmaWalkShape {
  using Types = P;
  using Feature = typename P::Feature;
  using Unit = SddmmTensorConfig<P, kKValue, TensorArithmetic::kHalf>;  // its result pitch and epilogue
  static constexpr int kK = kKValue;
  static constexpr int kTileStrips = 8;
  static constexpr int kTileRows = kTileStrips * kUnitRows;  // 128: two warpgroups of 64
  static constexpr int kWarps = kTileStrips;                 // multiplying warp w: strip w of the tile
  // Then a copy warpgroup (setmaxnreg moves registers a warpgroup at a time), warps kCopyWarp ..
  // + 3: its lane 0 issues every copy as tensor and bulk copies, its other threads leave at once.
  // (When the copies were cp.async, four copy warps, each copying a share of every tile's lines,
  // were faster than one or two: H200, float16, uniform 8000^2 at 5 / 10 %, K = 256, us: 1 copy
  // warp 89.7 / 94.1, 2: 81.4 / 86.0, 4: 77.0 / 84.5.)
  static constexpr int kCopyWarp = kWarps;
  static constexpr int kCopyWarps = 4;
  static constexpr int kMultiprocessorRegisters = 65536;  // sm_90's register file, 32-bit registers
  // Two sets of sums at K = 256: tile j's products go to one while tile j - 1's, in the other, are
  // staged, instead of staging them before the products start. Measured with X1 in registers
  // (H200, float16, uniform 8000^2 at 3 / 5 / 10 %, medians of two rounds, us): K = 256 71.45 /
  // 73.15 / 77.35 -> 69.6 / 71.65 / 76.6; K = 128 53.95 / 56.0 / 63.25 -> 55.05 / 57.65 / 64.15,
  // so one set there.
  static constexpr bool kDoubleSums = kKValue >= 256;
  static constexpr int kSliceElements = kSwizzleLineBytes / static_cast<int>(sizeof(Feature));  // 64
  static constexpr int kSlices = kK / kSliceElements;
  static constexpr int kStepsPerSlice = kSliceElements / 16;  // wgmma k16 steps
  // Shared memory: the row tile's X1 lines (slice-major: slice s holds the 128 rows' 128-byte
  // lines), then kColumnStages tiles of X2 lines (slice-major, 64 columns each), then each
  // multiplying warp's 16 x 64 float32 results. 3 stages at K = 256 (197 KB; a fourth does not fit
  // the 227 KB a block may take): a tile's columns load while the two before it are multiplied and
  // written out; 4 at K = 128, where a stage is half the size (133 KB). Neither count was swept.
  static constexpr size_t kRowBytes = size_t{kSlices} * kTileRows * kSwizzleLineBytes;
  static constexpr size_t kColumnBytes = size_t{kSlices} * kUnitCols * kSwizzleLineBytes;
  static constexpr int kColumnStages = kK >= 256 ? 3 : 4;
  static constexpr size_t kResultBytes = size_t{kWarps} * Unit::kWarpResultBytes;
  static constexpr size_t kColumnOffset = kRowBytes;
  static constexpr size_t kResultOffset = kRowBytes + size_t{kColumnStages} * kColumnBytes;
  static constexpr size_t kBarrierBytes = 8;
  static constexpr int kMinBlocksPerSm = 1;
  // Entries each lane of a writing warp loads (place, output position, value) a tile ahead of
  // writing them: 4, the fewest that hold a unit's entries at 10 % (about 102 of 1,024 cells; a
  // run longer than the batch is loaded and written a batch at a time, waiting out each load).
  // H200, 2026-12-01, float16, uniform 8000^2 at 3 / 4 / 5 / 10 %, K = 256, means of three rounds,
  // us: 4: 61.8 / 63.5 / 64.3 / 70.1; 3: 59.6 / 61.4 / 62.1 / 85.2; 5: 65.8 / 67.5 / 68.5 / 73.9
  // (K = 128 alike); bench/RESULTS.md.
  static constexpr int kEntryBatch = 4;
  static_assert(sizeof(Feature) == 2, "float16 / bfloat16 features");
  static_assert(kK % kSliceElements == 0 && kSlices >= 1, "whole 128-byte slices of K");
  static_assert(kColumnOffset % kSwizzleAtomBytes == 0 && kColumnBytes % kSwizzleAtomBytes == 0, "atoms aligned");
};

// The walk whose multiplying warps write the entries out (sddmm_wgmma_walk_kernel.cuh): 8
// multiplying warps and the copy warpgroup.
template <typename P, int kKValue>
struct SddmmWgmmaWalkConfig : SddmmWgmmaWalkShape<P, kKValue> {
  using Shape = SddmmWgmmaWalkShape<P, kKValue>;
  static constexpr int kThreadsPerBlock = 32 * (Shape::kWarps + Shape::kCopyWarps);
  // Registers a thread: the block starts with 168 (65,536 / 384, rounded down to 8); the copy
  // warpgroup gives all but kCopyRegisters back and the multiplying warpgroups take them
  // (setmaxnreg), so that each warp holds its 16 X1 rows (whole K: 64 registers at K = 256) beside
  // its sums and the entries in flight: ptxas's highest register is R182 at K = 256 (32-bit
  // indices; R198 with 64-bit ones), R144 at K = 128, none spilled. At 168 the rows spilled and
  // cost their gain (1.34x slower at K = 256, bench/RESULTS.md's log).
  static constexpr int kCopyRegisters = 56;
  static constexpr int kMultiplyRegisters = 224;
  static constexpr int kStartRegisters = Shape::kMultiprocessorRegisters / kThreadsPerBlock / 8 * 8;  // 168
  static_assert(Shape::kCopyWarps == 4, "the copy warps are one warpgroup");
  static_assert(32 * Shape::kCopyWarps * kCopyRegisters + 32 * Shape::kWarps * kMultiplyRegisters <=
                    kThreadsPerBlock * kStartRegisters,
                "within the registers the block starts with");
  // After the results, for each stage, where the tile's 8 units' runs start and end: 9 cell
  // offsets (int64), copied with the tile's columns by a bulk copy of 10 from the even cell at or
  // before the tile's first (whole 16-byte pieces: TensorTiles::kCellPad).
  static constexpr const char* kKernelName = "sddmm_wgmma_walk_kernel";
  static constexpr size_t kRunSlotBytes = (Shape::kTileStrips + 2) * sizeof(int64_t);
  static constexpr size_t kRunOffset = Shape::kResultOffset + Shape::kResultBytes;
  // Then the mbarriers: each stage's "full" (its columns and offsets landed), each stage's "empty"
  // (every multiplying warp done with it), and the X1 lines' "full". Copied by one lane in tensor
  // and bulk copies and handed over by these, instead of four copy warps' cp.async and a block
  // barrier a tile (H200, float16, uniform 8000^2 at 3 / 4 / 5 / 10 %, medians of two rounds, us):
  // K = 256 68.7 / 69.6 / 69.85 / 74.8 -> 66.3 / 66.85 / 67.4 / 71.95 (bfloat16 alike); then with
  // the X1 lines a row tile ahead (walk_copy_lane), in another call: K = 256 66.1 / 66.85 / 67.55 /
  // 73.15 -> 65.15 / 66.15 / 66.55 / 71.2; K = 128, against its cp.async copy warps, 54.0 / 55.8 /
  // 56.75 / 64.4 -> 53.3 / 54.8 / 55.55 / 63.2.
  static constexpr size_t kBarrierOffset = kRunOffset + size_t{Shape::kColumnStages} * kRunSlotBytes;
  static constexpr size_t kEmptyOffset = kBarrierOffset + size_t{Shape::kColumnStages} * Shape::kBarrierBytes;
  static constexpr size_t kRowsFullOffset = kEmptyOffset + size_t{Shape::kColumnStages} * Shape::kBarrierBytes;
  // The dynamic shared memory's start is aligned up to a swizzle atom: up to one atom more.
  static constexpr size_t kSharedBytes = kRowsFullOffset + Shape::kBarrierBytes + kSwizzleAtomBytes;
  static_assert(kRunOffset % 16 == 0 && kRunSlotBytes % 16 == 0, "bulk copies' 16 bytes");
  static_assert(kSharedBytes <= 227 * 1024, "a block's shared memory on sm_90");
};

// The walk with warps of its own that write the entries out
// (sddmm_wgmma_walk_entry_warps_kernel.cuh): 8 multiplying warps, the copy warpgroup, and two
// warpgroups of entry warps, entry warp w (warp kEntryWarp + w, on multiplying warp w's scheduler)
// writing out unit w's entries, so that a multiplying warp's instructions a tile are its products'
// and its staging's alone. (Where the multiplying warps wrote the entries themselves while the next
// tile's products ran, a tile took about 2,000 cycles at K = 256 against the products' 1,024, and
// ncu put most of the warps' samples outside the products on the entries. With entry warps, ncu
// (H200, uniform 8000^2 at 10 %, K = 256, float16) has 1,920 cycles a tile and the entry warps'
// first use of their loaded batch as the most sampled instruction, 13 % of all samples, with the
// multiplying warps waiting for "read": the batch, loaded a tile ahead, lands too late. Since the
// tile's writes are computed before the wait and the next batch is loaded before the writes
// (WalkWrites), 1.05x the float16 GEMM at 10 %, K = 256: bench/RESULTS.md.)
template <typename P, int kKValue>
struct SddmmWgmmaWalkEntryWarpsConfig : SddmmWgmmaWalkShape<P, kKValue> {
  using Shape = SddmmWgmmaWalkShape<P, kKValue>;
  static constexpr int kEntryWarp = Shape::kCopyWarp + Shape::kCopyWarps;
  static constexpr int kEntryWarps = Shape::kWarps;
  static constexpr int kThreadsPerBlock = 32 * (Shape::kWarps + Shape::kCopyWarps + kEntryWarps);
  // Registers a thread: the block starts with 96 (65,536 / 640, rounded down to 8); the copy and
  // entry warpgroups give some back and the multiplying warpgroups take them (setmaxnreg), so that
  // each multiplying warp holds its 16 X1 rows (whole K: 64 registers at K = 256) beside its two
  // sets of sums: ptxas's highest register is R148 at K = 256, none spilled (an entry warp at 48
  // spilled 64-196 bytes; at 72, with the multiplying warps at 152, those spilled).
  static constexpr int kCopyRegisters = 32;
  static constexpr int kEntryRegisters = 64;
  static constexpr int kMultiplyRegisters = 160;
  static constexpr int kStartRegisters = Shape::kMultiprocessorRegisters / kThreadsPerBlock / 8 * 8;  // 96
  static_assert(Shape::kCopyWarps == 4 && kEntryWarps % 4 == 0, "the copy and entry warps are whole warpgroups");
  static_assert(32 * Shape::kCopyWarps * kCopyRegisters + 32 * kEntryWarps * kEntryRegisters +
                        32 * Shape::kWarps * kMultiplyRegisters <=
                    kThreadsPerBlock * kStartRegisters,
                "within the registers the block starts with");
  static constexpr const char* kKernelName = "sddmm_wgmma_walk_entry_warps_kernel";
  // The entry warps read each unit's run in the plan's cell index (TensorTiles::cell_entries)
  // themselves: the copy lane copies no cell offsets (a slot of none).
  static constexpr size_t kRunSlotBytes = 0;
  // After the results, the mbarriers (sddmm_wgmma_walk_entry_warps_kernel.cuh): each stage's "full"
  // and "empty", the X1 lines' "full", each multiplying warp's "staged" and "read".
  static constexpr size_t kBarrierOffset = Shape::kResultOffset + Shape::kResultBytes;
  static constexpr int kBarriers = 2 * Shape::kColumnStages + 1 + 2 * Shape::kWarps;
  // The dynamic shared memory's start is aligned up to a swizzle atom: up to one atom more.
  static constexpr size_t kSharedBytes = kBarrierOffset + kBarriers * Shape::kBarrierBytes + kSwizzleAtomBytes;
  static_assert(kBarrierOffset % 8 == 0, "mbarriers 8-byte aligned");
  static_assert(kSharedBytes <= 227 * 1024, "a block's shared memory on sm_90");
};

// Blocks of a square kernel (SddmmTensorSquareConfig, SddmmWgmmaSquareConfig): one per square of
// Config::kSquareStrips strips x kSquareChunks chunks, the last ones partial; block b is square
// (b / column squares, b % column squares).
template <typename Config>
inline int64_t square_blocks(int64_t strips, int64_t chunks) {
  const int64_t row_squares = (strips + Config::kSquareStrips - 1) / Config::kSquareStrips;
  const int64_t col_squares = (chunks + Config::kSquareChunks - 1) / Config::kSquareChunks;
  return row_squares * col_squares;
}

// One launch over the plan's work items (cuda/tiles.cuh): block b computes item b.
template <typename P, typename I>
struct SddmmTensorArgs {
  using F = typename P::Feature;
  using V = typename P::Value;
  using O = typename P::Output;
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t strips = 0;
  const int64_t* unit_key = nullptr;      // chunk * strips + strip
  const int64_t* unit_entries = nullptr;  // (units + 1)
  const int64_t* item_units = nullptr;    // (items + 1)
  const int64_t* cell_entries = nullptr;  // the square kernel's (cuda/tiles.cuh)
  int64_t chunks = 0;
  const I* out_position = nullptr;        // per unit-ordered entry
  const uint16_t* local = nullptr;        // col % 64 * 16 + row % 16
  const V* value = nullptr;               // or nullptr: ones
  const F* x1 = nullptr;                  // row-major: x1(i, k) = x1[i * x1_ld + k]
  int64_t x1_ld = 0;
  const F* x2 = nullptr;                  // column-major: x2(k, j) = x2[j * x2_ld + k]
  int64_t x2_ld = 0;
  O* out = nullptr;
};

}  // namespace sddmm::cuda
