// SDDMM on tensor cores for the dense 16 x 64 units of a plan (cuda/tiles.cuh). A block takes one
// work item: up to kWarps dense units of one 64-column chunk, a warp per unit. K is taken a slice at
// a time (SddmmTensorConfig): the block copies the chunk's 64 columns of X2 and each warp its unit's
// 16 rows of X1 into shared memory by cp.async, the next slice while it multiplies this one, and
// each warp reads its mma fragments from there with ldmatrix (four 8 x 8 matrices per instruction,
// already in the registers mma takes) and computes its 16 x 64 block as 8 independent accumulator
// tiles. It then stages the float32 results in shared memory and writes out only the unit's stored
// entries. Units too sparse for this stay on the CUDA-core kernel. The arithmetic
// (TensorArithmetic, sddmm_config.cuh):
//  - kHalf: float16/bfloat16 features, mma.m16n8k16, float32 sums;
//  - kTf32: float32 features rounded to TF32 (10-bit significand), mma.m16n8k8; opt-in only;
//  - kTf32Split: float32 features as big + small TF32 parts, three mma per step (big x big, big x
//    small, small x big): each product carries about 2^-21 relative error, below float32's own
//    summation error for K >= 8, at 3x the tensor-core work of kTf32.
// Both take 32 bytes of K per mma step, so the fragments' addresses are the same: for m16n8k16 an
// 8 x 8 matrix of 16-bit elements is 8 rows x 8 elements of K, for m16n8k8 (TF32) 8 rows x 4.
#pragma once

#include <cstdint>

#include "cuda/mma.cuh"
#include "cuda/precision.cuh"
#include "cuda/sddmm/sddmm_config.cuh"
#include "cuda/tiles.cuh"

namespace sddmm::cuda {

// One mma step (kStepBytes of K) of the warp's 16 x 64 unit: acc[t] += A(the unit's rows; this
// step) * B(tile t). a_address: this lane's ldmatrix row of the staged X1 rows (row l % 16, bytes
// 16 (l / 16) of the step); b_address: of the staged X2 columns (column l % 8 + 8 (l / 16), bytes
// 16 ((l / 8) % 2)), already TF32 for the TF32 arithmetics (their small parts kSmallPartOffset
// further on for the split). A's matrices are (rows 0-7, low half of the step), (8-15, low), (0-7,
// high), (8-15, high): a0..a3 of mma; each B load holds two tiles' (low, high) halves: b0, b1 of
// tile 2p, then of 2p + 1.
template <typename Config>
__device__ __forceinline__ void mma_step(float (&acc)[Config::kTiles][4], unsigned a_address, unsigned b_address) {
  using F = typename Config::Feature;
  uint32_t a[4];
  load_matrices(a, a_address);
  if constexpr (Config::kArithmetic != TensorArithmetic::kTf32Split) {
    // One mma per B fragment pair: m16n8k16 on 16-bit features, m16n8k8 in TF32 on float32 ones.
    const auto mma = [&](float(&c)[4], uint32_t b0, uint32_t b1) {
      if constexpr (Config::kArithmetic == TensorArithmetic::kHalf) {
        mma_16x8x16<F>(c, a, b0, b1);
      } else {
        mma_16x8x8_tf32(c, a, b0, b1);
      }
    };
    if constexpr (Config::kArithmetic == TensorArithmetic::kTf32) {
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = to_tf32(__uint_as_float(a[i]));
    }
#pragma unroll
    for (int p = 0; p < Config::kTiles / 2; ++p) {
      uint32_t b[4];
      load_matrices(b, b_address + p * 16 * Config::kPitchBytes);
      mma(acc[2 * p], b[0], b[1]);
      mma(acc[2 * p + 1], b[2], b[3]);
    }
  } else {
    uint32_t big[4], small[4];
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      const Tf32Parts part = split_tf32(__uint_as_float(a[i]));
      big[i] = part.big;
      small[i] = part.small;
    }
#pragma unroll
    for (int p = 0; p < Config::kTiles / 2; ++p) {
      uint32_t b_big[4], b_small[4];
      load_matrices(b_big, b_address + p * 16 * Config::kPitchBytes);
      load_matrices(b_small, b_address + p * 16 * Config::kPitchBytes + static_cast<unsigned>(Config::kSmallPartOffset));
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        float(&c)[4] = acc[2 * p + h];
        mma_16x8x8_tf32(c, small, b_big[2 * h], b_big[2 * h + 1]);  // the small products first, the big one last
        mma_16x8x8_tf32(c, big, b_small[2 * h], b_small[2 * h + 1]);
        mma_16x8x8_tf32(c, big, b_big[2 * h], b_big[2 * h + 1]);
      }
    }
  }
}

// TF32 arithmetics: rounds the 4 floats of a staged 16-byte piece to TF32 in place (kTf32), or
// splits them into big parts in place and small parts kSmallPartOffset further on (kTf32Split).
template <typename Config>
__device__ __forceinline__ void round_piece(unsigned char* piece) {
  const float4 x = *reinterpret_cast<const float4*>(piece);
  if constexpr (Config::kArithmetic == TensorArithmetic::kTf32) {
    *reinterpret_cast<uint4*>(piece) = make_uint4(to_tf32(x.x), to_tf32(x.y), to_tf32(x.z), to_tf32(x.w));
  } else {
    const Tf32Parts p0 = split_tf32(x.x), p1 = split_tf32(x.y), p2 = split_tf32(x.z), p3 = split_tf32(x.w);
    *reinterpret_cast<uint4*>(piece) = make_uint4(p0.big, p1.big, p2.big, p3.big);
    *reinterpret_cast<uint4*>(piece + Config::kSmallPartOffset) = make_uint4(p0.small, p1.small, p2.small, p3.small);
  }
}

// A warp's last step: stages its 16 x 64 unit's float32 results (acc in mma's accumulator layout:
// acc[t] holds (row g, cols 8t + 2q, + 1) and (row g + 8, the same columns), g = lane / 4, q = lane
// % 4) at `results` (kResultPitch floats per row, the warp's own) and writes out the unit's entries,
// [begin, end) of the unit-ordered arrays, Config::kEntryBatch per lane at a time: a batch's loads
// (place, output position, value: entries base + 32 j) all issued before any of its stores, so
// that a warp waits on one round trip per 32 x kEntryBatch entries, not one per 32 (the loop
// before waited 32 times on a full unit, a cost that did not shrink with K: block-diagonal took
// 0.226 ms at K = 32 against 0.281 at 128).
template <typename Config, typename I>
__device__ __forceinline__ void write_unit_entries(const float (&acc)[Config::kTiles][4], float* results, int64_t begin,
                                                   int64_t end, const SddmmTensorArgs<typename Config::Types, I>& a,
                                                   int lane) {
  using O = typename Config::Types::Output;
  using V = typename Config::Types::Value;
  constexpr int kPitch = Config::kResultPitch;
  constexpr int kBatch = Config::kEntryBatch;
  const int g = lane >> 2;
  const int q = lane & 3;
#pragma unroll
  for (int t = 0; t < Config::kTiles; ++t) {
    *reinterpret_cast<float2*>(results + g * kPitch + t * 8 + 2 * q) = make_float2(acc[t][0], acc[t][1]);
    *reinterpret_cast<float2*>(results + (g + 8) * kPitch + t * 8 + 2 * q) = make_float2(acc[t][2], acc[t][3]);
  }
  __syncwarp();
  const bool values = a.value != nullptr;
  for (int64_t base = begin + lane; base < end; base += 32 * kBatch) {
    // This lane's entries of the batch, counted in 32 bits (one comparison a slot).
    const int left = end - base < 32 * kBatch ? static_cast<int>(end - base) : 32 * kBatch;
    unsigned place[kBatch];
    I position[kBatch];
    V value[kBatch];
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      const bool here = 32 * j < left;
      place[j] = here ? a.local[base + 32 * j] : 0u;
      if (here) position[j] = a.out_position[base + 32 * j];
      if (here && values) value[j] = a.value[base + 32 * j];
    }
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      if (32 * j < left) {
        const float dot = results[(place[j] % kUnitRows) * kPitch + place[j] / kUnitRows];
        const float scale = values ? widen(value[j]) : 1.0f;
        a.out[static_cast<int64_t>(position[j])] = narrow<O>(scale * dot);
      }
    }
  }
}

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreadsPerBlock, Config::kMinBlocksPerSm) sddmm_tensor_kernel(const SddmmTensorArgs<typename Config::Types, I> a) {
  using F = typename Config::Feature;
  constexpr int kTiles = Config::kTiles;
  constexpr int kPitch = Config::kPitchBytes;
  constexpr int kSlices = Config::kSlices;
  constexpr int kStages = Config::kStages;
  constexpr int kPieces = Config::kSliceBytes / 16;  // 16-byte copies per staged row and slice
  constexpr int kSliceElements = Config::kSliceBytes / static_cast<int>(sizeof(F));
  constexpr int kResultPitch = Config::kResultPitch;
  extern __shared__ __align__(16) unsigned char shared[];
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x & 31;
  // Staged X2 columns (stage s: column c at s * 64 * kPitch + c * kPitch) and this warp's X1 rows
  // (stage s: row r at s * 16 * kPitch + r * kPitch).
  const unsigned columns = shared_address(shared);
  unsigned char* const rows = shared + Config::kColumnBytes + warp * Config::kWarpRowBytes;

  const int64_t first_unit = a.item_units[blockIdx.x];
  const int64_t unit = first_unit + warp;
  const bool active = unit < a.item_units[blockIdx.x + 1];
  const int64_t chunk = a.unit_key[first_unit] / a.strips;
  const int64_t strip_row = active ? (a.unit_key[unit] % a.strips) * kUnitRows : a.rows;

  // What this thread copies of each slice: kColumnCopies 16-byte pieces of the staged columns
  // (piece c % kPieces of columns c / kPieces + m * kColumnStep, c = threadIdx.x) and, for its warp,
  // kRowCopies of the staged rows (piece l % kPieces of rows l / kPieces + m * kRowStep, l = lane).
  // Columns and rows past the matrix read as zeros.
  constexpr int kColumnCopies = kUnitCols * kPieces / Config::kThreadsPerBlock;
  constexpr int kColumnStep = Config::kThreadsPerBlock / kPieces;
  constexpr int kRowCopies = kUnitRows * kPieces / 32;
  constexpr int kRowStep = 32 / kPieces;
  static_assert(kColumnCopies >= 1 && kRowCopies >= 1, "every thread copies whole pieces");
  constexpr int kPieceElements = 16 / static_cast<int>(sizeof(F));
  const int piece = threadIdx.x % kPieces;
  const int64_t first_col = chunk * kUnitCols + threadIdx.x / kPieces;
  const int64_t first_row = strip_row + lane / kPieces;
  const F* const column_source = a.x2 + first_col * a.x2_ld + piece * kPieceElements;
  const F* const row_source = a.x1 + first_row * a.x1_ld + piece * kPieceElements;
  const int column_piece = (threadIdx.x / kPieces) * kPitch + piece * 16;  // in a stage's columns
  const unsigned column_target = columns + column_piece;
  const unsigned row_target = shared_address(rows) + (lane / kPieces) * kPitch + piece * 16;

  // Slice `slice` into stage slice % kStages, closed as one group of copies (empty past the last
  // slice, so that every thread counts the same groups).
  const auto copy_slice = [&](int slice) {
    if (slice < kSlices) {
      const int stage = slice % kStages;
      const int64_t offset = int64_t{slice} * kSliceElements;
#pragma unroll
      for (int m = 0; m < kColumnCopies; ++m) {
        const bool inside = first_col + m * kColumnStep < a.cols;
        copy_16_async(column_target + (stage * kUnitCols + m * kColumnStep) * kPitch,
                      inside ? column_source + m * kColumnStep * a.x2_ld + offset : a.x2, inside);
      }
      if (active) {
#pragma unroll
        for (int m = 0; m < kRowCopies; ++m) {
          const bool inside = first_row + m * kRowStep < a.rows;
          copy_16_async(row_target + (stage * kUnitRows + m * kRowStep) * kPitch,
                        inside ? row_source + m * kRowStep * a.x1_ld + offset : a.x1, inside);
        }
      }
    }
    commit_copies();
  };

  const unsigned a_lane = shared_address(rows) + (lane & 15) * kPitch + (lane >> 4) * 16;
  const unsigned b_lane = columns + ((lane & 7) + ((lane >> 4) << 3)) * kPitch + ((lane >> 3) & 1) * 16;
  float acc[kTiles][4] = {};
  constexpr int kAhead = kStages > 1 ? kStages - 1 : 1;  // slices in flight when the loop starts
#pragma unroll
  for (int s = 0; s < kAhead; ++s) copy_slice(s);
#pragma unroll(Config::kUnrollSlices)
  for (int slice = 0; slice < kSlices; ++slice) {
    // This slice is in (this thread's copies, then everyone's), and every warp is done with the
    // slice before it, whose stage the next copies overwrite while this one is multiplied.
    wait_copies<kAhead - 1>();
    if constexpr (Config::kRoundedColumns) {  // this thread's own pieces: they are in
#pragma unroll
      for (int m = 0; m < kColumnCopies; ++m) {
        round_piece<Config>(shared + ((slice % kStages) * kUnitCols + m * kColumnStep) * kPitch + column_piece);
      }
    }
    __syncthreads();
    if constexpr (kStages > 1) copy_slice(slice + kStages - 1);
    if (active) {
      const int stage = slice % kStages;
#pragma unroll(Config::kUnrollSteps)
      for (int s = 0; s < Config::kStepsPerSlice; ++s) {
        mma_step<Config>(acc, a_lane + stage * kUnitRows * kPitch + s * Config::kStepBytes,
                         b_lane + stage * kUnitCols * kPitch + s * Config::kStepBytes);
      }
    }
  }
  float* results;
  if constexpr (Config::kResultsOverRows) {
    results = reinterpret_cast<float*>(rows);  // only this warp copied and read its rows
    __syncwarp();
  } else {
    __syncthreads();  // every warp is done with the staged columns
    results = reinterpret_cast<float*>(shared) + warp * (kUnitRows * kResultPitch);
  }
  if (!active) return;
  write_unit_entries<Config, I>(acc, results, a.unit_entries[unit], a.unit_entries[unit + 1], a, lane);
}

}  // namespace sddmm::cuda
