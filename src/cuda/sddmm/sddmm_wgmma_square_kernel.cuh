// SDDMM on Hopper's warpgroup tensor-core instructions, by squares (SddmmWgmmaSquareConfig; sm_90a,
// 16-bit features, plans whose dense units cover nearly the whole matrix: TensorTiles::cell_entries).
// A block takes a square of 8 strips x 2 chunks (128 x 128 cells, 16 units), as the square kernel
// does, and multiplies it as one GEMM tile: the block stages the square's 128 X1 rows and 128 X2
// columns a 128-byte slice of K at a time by cp.async, in the 128-byte swizzle wgmma reads, the
// next slices while it multiplies this one; warpgroup g multiplies rows 64 g .. + 63 by all 128
// columns, four wgmma.m64n128k16 per slice. Each warp then holds its strip's two units in the unit
// kernel's accumulator layout and writes their entries out (write_square_entries): the cells' runs
// of the unit-ordered arrays, empty where the plan left the unit to the CUDA cores (computed,
// dropped) or past the matrix (zeros staged). A square without an entry returns once its first
// copies have landed.
#pragma once

#include <cstdint>

#include "cuda/sddmm/sddmm_tensor_kernel.cuh"
#include "cuda/sddmm/sddmm_tensor_square_kernel.cuh"
#include "cuda/sddmm/sddmm_wgmma.cuh"

namespace sddmm::cuda {

// A warp's entries, as one run: its strip's two units' runs of the unit-ordered arrays,
// [begin[0], end[0]) then [begin[1], end[1]).
struct SquareEntries {
  int64_t begin[2];
  int64_t end[2];
  __device__ int64_t first() const { return end[0] - begin[0]; }  // unit 0's; then unit 1's
  __device__ int64_t count() const { return first() + end[1] - begin[1]; }
};

// What a lane writes of kBatch entries of its warp's run (entries base + 32 j + lane): where each
// result lies in the warp's staged results (-1: none), its output position and its value. Loaded
// before any is stored, so that a warp waits on one round trip per 32 x kBatch entries.
template <typename Config, typename I>
struct EntryBatch {
  static constexpr int kBatch = Config::kEntryBatch;
  static constexpr int kPitch = Config::Unit::kResultPitch;
  static constexpr int kUnitFloats = kUnitRows * kPitch;  // a unit's staged results
  int offset[kBatch];
  I position[kBatch];
  float scale[kBatch];

  __device__ __forceinline__ void load(const SquareEntries& run, int64_t base,
                                       const SddmmTensorArgs<typename Config::Types, I>& a, int lane) {
    const int64_t first = run.first();
    const int64_t count = run.count();
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      const int64_t i = base + j * 32 + lane;
      offset[j] = -1;
      if (i < count) {
        const bool second = i >= first;
        const int64_t e = second ? run.begin[1] + (i - first) : run.begin[0] + i;
        const int local = a.local[e];
        offset[j] = (second ? kUnitFloats : 0) + (local % kUnitRows) * kPitch + local / kUnitRows;
        position[j] = a.out_position[e];
        scale[j] = a.value != nullptr ? widen(a.value[e]) : 1.0f;
      }
    }
  }

  __device__ __forceinline__ void store(const float* results,
                                        const SddmmTensorArgs<typename Config::Types, I>& a) const {
    using O = typename Config::Types::Output;
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      if (offset[j] >= 0) a.out[static_cast<int64_t>(position[j])] = narrow<O>(scale[j] * results[offset[j]]);
    }
  }
};

// A warp's last step: stages its strip's two units of float32 results (d in wgmma's accumulator
// layout, the mma.sync tiles' layout repeated: unit c in d[32 c .. 32 c + 31]) at `results`, its
// own memory, and writes out its run of entries: `ahead`, the first batch, already loaded, then the
// rest a batch at a time.
template <typename Config, typename I>
__device__ __forceinline__ void write_square_entries(const float (&d)[64], float* results, const SquareEntries& run,
                                                     const EntryBatch<Config, I>& ahead,
                                                     const SddmmTensorArgs<typename Config::Types, I>& a, int lane) {
  using Batch = EntryBatch<Config, I>;
  static_assert(Config::kSquareChunks == 2, "two units a warp");
  static_assert(Config::Unit::kTiles == 8, "16 x 64 units");
#pragma unroll
  for (int c = 0; c < 2; ++c) stage_unit_sums<Batch::kPitch>(d + 32 * c, results + c * Batch::kUnitFloats, lane);
  __syncwarp();
  ahead.store(results, a);
  for (int64_t base = 32 * Batch::kBatch; base < run.count(); base += 32 * Batch::kBatch) {
    Batch batch;
    batch.load(run, base, a, lane);
    batch.store(results, a);
  }
}

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreadsPerBlock, Config::kMinBlocksPerSm)
    sddmm_wgmma_square_kernel(const SddmmTensorArgs<typename Config::Types, I> a) {
  using F = typename Config::Feature;
  using Unit = typename Config::Unit;
  constexpr int kSlices = Config::kSlices;
  constexpr int kStages = Config::kStages;
  constexpr int kPieces = kSwizzleLineBytes / 16;  // 16-byte pieces of a staged line
  constexpr int kLines = Config::kSquareRows + Config::kSquareCols;  // X1 rows, then X2 columns
  constexpr int kLineStep = Config::kThreadsPerBlock / kPieces;     // lines between a thread's copies
  constexpr int kCopies = kLines / kLineStep;
  static_assert(kLines % kLineStep == 0 && Config::kSquareRows % kLineStep == 0, "whole copies");
  static_assert(kLineStep % 8 == 0, "a thread's lines share their place in the swizzle atom");
  extern __shared__ __align__(16) unsigned char shared_raw[];
  // The staging memory starts on a swizzle atom (kSharedBytes allows for the step up).
  const unsigned raw = shared_address(shared_raw);
  const unsigned aligned = (raw + kSwizzleAtomBytes - 1) & ~unsigned{kSwizzleAtomBytes - 1};
  unsigned char* const shared = shared_raw + (aligned - raw);
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x & 31;
  const int64_t col_squares = (a.chunks + Config::kSquareChunks - 1) / Config::kSquareChunks;
  const int64_t first_strip = blockIdx.x / col_squares * Config::kSquareStrips;
  const int64_t first_chunk = blockIdx.x % col_squares * Config::kSquareChunks;

  // What this thread copies of each slice: piece threadIdx.x % kPieces of staged lines
  // threadIdx.x / kPieces + m * kLineStep. Rows and columns past the matrix read as zeros.
  const int piece = threadIdx.x % kPieces;
  const int line = threadIdx.x / kPieces;
  const F* source[kCopies];
  bool inside[kCopies];
  square_line_sources<Config, kLineStep>(a, first_strip, first_chunk, line, piece, source, inside);
  // Every line of this thread is at the same place of its swizzle atom (kLineStep % 8 == 0).
  const unsigned target = aligned + static_cast<unsigned>(swizzled_offset(line, piece));
  const auto copy_slice = [&](int slice) {  // one group of copies, empty past the last slice
    if (slice < kSlices) {
      const unsigned stage = static_cast<unsigned>((slice % kStages) * Config::kStageBytes);
#pragma unroll
      for (int m = 0; m < kCopies; ++m) {
        const F* const from = inside[m] ? source[m] + slice * Config::kSliceElements : source[m];
        copy_16_async(target + stage + static_cast<unsigned>(m * kLineStep * kSwizzleLineBytes), from, inside[m]);
      }
    }
    commit_copies();
  };

  // Warpgroup g's 64 X1 rows and all 128 X2 columns of a stage.
  const unsigned a_operand = aligned + static_cast<unsigned>((warp / 4) * 64 * kSwizzleLineBytes);
  const unsigned b_operand = aligned + static_cast<unsigned>(Config::kOperandBytes);
  float d[64];
#pragma unroll
  for (int i = 0; i < 64; ++i) d[i] = 0.0f;
  constexpr int kAhead = kStages > 1 ? kStages - 1 : 1;  // slices in flight when the loop starts
#pragma unroll
  for (int s = 0; s < kAhead; ++s) copy_slice(s);

  // The warp's two units, strip first_strip + warp of both chunks: their cells' runs of entries,
  // looked up while the first slices load (a square without entries waits for its copies, which
  // write to its shared memory, and returns).
  SquareEntries run;
  cell_run(a, first_strip + warp, first_chunk, run.begin[0], run.end[0]);
  cell_run(a, first_strip + warp, first_chunk + 1, run.begin[1], run.end[1]);
  if (!__syncthreads_or(run.count() > 0)) {
    wait_copies<0>();
    return;
  }
  EntryBatch<Config, I> ahead;  // the first batch of entries, loaded while the last slice multiplies
#pragma unroll
  for (int slice = 0; slice < kSlices; ++slice) {
    // This slice is in (this thread's copies, made visible to the tensor cores' reads, then
    // everyone's), and both warpgroups are done with the slice before it (wgmma_wait below), whose
    // stage the next copies overwrite while this one is multiplied.
    wait_copies<kAhead - 1>();
    fence_proxy_async();
    __syncthreads();
    if constexpr (kStages > 1) copy_slice(slice + kStages - 1);
    const unsigned stage = static_cast<unsigned>((slice % kStages) * Config::kStageBytes);
    wgmma_fence();
#pragma unroll
    for (int s = 0; s < Config::kStepsPerSlice; ++s) {
      const unsigned step = stage + static_cast<unsigned>(s * 16 * sizeof(F));
      wgmma_64x128x16<F>(d, wgmma_descriptor(a_operand + step), wgmma_descriptor(b_operand + step));
    }
    wgmma_commit();
    if (slice + 1 == kSlices) ahead.load(run, 0, a, lane);
    wgmma_wait<0>(d);
  }
  __syncthreads();  // both warpgroups are done with the staging memory the results take
  float* const results =
      reinterpret_cast<float*>(shared) + warp * Config::kSquareChunks * (kUnitRows * Unit::kResultPitch);
  write_square_entries<Config, I>(d, results, run, ahead, a, lane);
}

}  // namespace sddmm::cuda
