// The SDDMM kernel family's compile-time configuration and run-time arguments.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

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
  static_assert(kVectorBytes == 0 || kVectorBytes == 16, "vector loads are 16 bytes or none");
  static_assert(kEntriesPerGroup >= 1 && kEntriesPerGroup <= 8, "entries in flight per group");
  static_assert(kVec >= 1 && (kVec & (kVec - 1)) == 0, "vector width must be a power of two");
  static_assert(kThreadsPerBlock % 32 == 0, "blocks hold whole warps");
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
};

}  // namespace sddmm::cuda

namespace sddmm::cuda {

// How the tensor-core SDDMM multiplies (sddmm_tensor_kernel.cuh): kHalf for float16/bfloat16
// features (mma.m16n8k16); for float32 features, kTf32Split (three TF32 mma per step, about float32
// accuracy: the default) or kTf32 (one, TF32 accuracy: only for plans created with
// SDDMM_CREATE_ALLOW_TF32).
enum class TensorArithmetic { kHalf, kTf32, kTf32Split };

// The tensor-core SDDMM's configuration. K lives in registers as mma A fragments, one K step at a
// time, so it is a compile-time constant: 32, 64, 128 or 256; other K take the CUDA-core kernel.
template <typename P, int kKValue, TensorArithmetic kArith>
struct SddmmTensorConfig {
  using Types = P;
  using Feature = typename P::Feature;
  static constexpr TensorArithmetic kArithmetic = kArith;
  static constexpr int kK = kKValue;
  static constexpr int kMmaK = kArith == TensorArithmetic::kHalf ? 16 : 8;  // K of one mma.sync
  static constexpr int kWarps = kUnitsPerItem;  // a warp per unit of the block's work item
  static constexpr int kThreadsPerBlock = 32 * kWarps;
  static constexpr int kTiles = kUnitCols / 8;  // 8-column mma tiles of a unit
  static constexpr int kPerVector = 16 / static_cast<int>(sizeof(Feature));  // elements per 16 bytes
  // 16-bit features from K = 128 on: each lane loads 16 bytes of K per row and column at a time,
  // its fragments of two mma steps (sddmm_tensor_kernel.cuh, mma_two_steps), kStepK elements per
  // loop step; the next step's X1 rows load while a step multiplies (64 registers, 4 blocks). The
  // rest load one step's fragments at a time (mma_step: 4 or 8 bytes each): measured (H200,
  // 2026-11-21, ms, against that loop), float16 K = 256 uniform-8000-6.4M 0.290 -> 0.182,
  // blockdiag 0.296 -> 0.228, SBM 1.10 -> 0.76; but K = 32 0.084 -> 0.091 (64 registers against 48:
  // 4 blocks instead of 5), and the float32 split in two steps needs 80 registers and spills.
  static constexpr bool kTwoSteps = kArith == TensorArithmetic::kHalf && kK >= 128;
  static constexpr int kStepK = kTwoSteps ? 2 * kMmaK : kMmaK;
  // Elements per staged X2 column. Two steps: a pitch of 16 words modulo 32 puts each 8 lanes'
  // 16-byte B fragments (two columns, four k pieces: one shared-memory phase) in distinct banks.
  // One step: K + 8 puts the B fragments a warp reads at once in distinct banks: 4-byte pairs of
  // halves (a pitch of K/2 + 4 words) and 8-byte pairs of floats (K + 8 words, half a warp at a time).
  static constexpr int kColumnWords = kK * static_cast<int>(sizeof(Feature)) / 4;
  static constexpr int kPitch = kTwoSteps ? (kColumnWords + (48 - kColumnWords % 32) % 32) * 4 / static_cast<int>(sizeof(Feature))
                                          : kK + 8;
  // Floats per row of a warp's staged 16 x 64 results: 72 keeps each half-warp's 8-byte stores of
  // an accumulator fragment in distinct banks.
  static constexpr int kResultPitch = kUnitCols + 8;
  // K steps unrolled: all of them, except the three-mma float32 split at large K (code size).
  static constexpr int kUnrollSteps = kArith == TensorArithmetic::kTf32Split && kK > 64 ? 4 : kK / kStepK;
  static constexpr size_t kColumnBytes = size_t{kUnitCols} * kPitch * sizeof(Feature);
  static constexpr size_t kResultBytes = size_t{kWarps} * kUnitRows * kResultPitch * sizeof(float);
  // The results reuse the staged columns' memory once every warp of the block is done with its
  // products (one more barrier) where that lets more blocks run: 16-bit features from K = 128 on
  // (36.9 KB per block instead of 57 or 74: 4 blocks per multiprocessor, the register bound,
  // instead of 3) and float32 at K = 256 (69.6 KB instead of 104.5: 3 blocks instead of 2,
  // uniform-8000-6.4M 0.831 -> 0.745 ms, blockdiag 0.684 -> 0.498). Float32 at K = 128 runs 3
  // blocks either way (registers); there the barrier cost up to 2 % (0.397 -> 0.405 ms).
  static constexpr bool kResultsOverColumns = sizeof(Feature) == 2 ? kK >= 128 : kK == 256;
  static constexpr size_t kResultOffset = kResultsOverColumns ? 0 : kColumnBytes;
  static constexpr size_t kSharedBytes =
      kResultsOverColumns ? (kColumnBytes > kResultBytes ? kColumnBytes : kResultBytes) : kColumnBytes + kResultBytes;
  // Blocks per multiprocessor the registers must allow (__launch_bounds__): 4 with two steps (64
  // registers; unbounded they take 70, 3 blocks); 0 (no bound) for the others, which take 48-70
  // registers that way (a bound of 1 block lets ptxas take 60-100).
  static constexpr int kMinBlocksPerSm = kTwoSteps ? 4 : 0;
  static_assert(kK == 32 || kK == 64 || kK == 128 || kK == 256, "K = 32, 64, 128 or 256");
  static_assert(!kTwoSteps || (kStepK == 4 * kPerVector && (kPitch * sizeof(Feature) / 4) % 32 == 16),
                "two steps: a lane's 16 bytes hold its part of both, column pitch 16 words modulo 32");
  static_assert((kArith == TensorArithmetic::kHalf) == (sizeof(Feature) == 2), "half arithmetic for half features");
  static_assert(kArith == TensorArithmetic::kHalf || std::is_same_v<Feature, float>, "TF32 for float32 features");
};

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
