// SDDMM on tensor cores by squares, for plans whose dense units cover nearly the whole matrix
// (TensorTiles::cell_entries; 16-bit features, K = 256). A block takes a square of 8 strips
// x 2 chunks (128 x 128 cells, 16 units) and a warp each unit, computed exactly as the unit kernel
// computes it (mma_step: the same fragments, the same mma in the same order, so the same bits),
// but the block stages the square's 128 X1 rows and 128 X2 columns once for all 16 units, a slice
// of K at a time by cp.async, the next ones while it multiplies this one. Each warp then stages
// its float32 results in shared memory and writes out its unit's entries: the cell's run of the
// unit-ordered arrays, empty where the plan left the unit to the CUDA cores (computed, dropped) or
// past the matrix (zeros staged). A square without an entry returns at once.
#pragma once

#include <cstdint>

#include "cuda/sddmm/sddmm_tensor_kernel.cuh"

namespace sddmm::cuda {

// The run [begin, end) of the unit-ordered arrays that holds cell (strip, chunk)'s entries: empty
// past the matrix and where the plan left the unit to the CUDA cores.
template <typename Args>
__device__ __forceinline__ void cell_run(const Args& a, int64_t strip, int64_t chunk, int64_t& begin, int64_t& end) {
  begin = end = 0;
  if (strip < a.strips && chunk < a.chunks) {
    const int64_t cell = chunk * a.strips + strip;
    begin = a.cell_entries[cell];
    end = a.cell_entries[cell + 1];
  }
}

// Where a thread's copies of a square's staged lines come from: 16-byte piece `piece` of lines
// line + m * kLineStep, the square's kSquareRows X1 rows, then its X2 columns. A line past the
// matrix reads as zeros (inside false; its source stays a valid global address).
template <typename Config, int kLineStep, int kCopies, typename Args, typename F>
__device__ __forceinline__ void square_line_sources(const Args& a, int64_t first_strip, int64_t first_chunk, int line,
                                                    int piece, const F* (&source)[kCopies], bool (&inside)[kCopies]) {
  constexpr int kPieceElements = 16 / static_cast<int>(sizeof(F));
#pragma unroll
  for (int m = 0; m < kCopies; ++m) {
    const int staged = line + m * kLineStep;
    if (staged < Config::kSquareRows) {
      const int64_t row = first_strip * kUnitRows + staged;
      inside[m] = row < a.rows;
      source[m] = inside[m] ? a.x1 + row * a.x1_ld + piece * kPieceElements : a.x1;
    } else {
      const int64_t col = first_chunk * kUnitCols + (staged - Config::kSquareRows);
      inside[m] = col < a.cols;
      source[m] = inside[m] ? a.x2 + col * a.x2_ld + piece * kPieceElements : a.x2;
    }
  }
}

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreadsPerBlock, Config::kMinBlocksPerSm)
    sddmm_tensor_square_kernel(const SddmmTensorArgs<typename Config::Types, I> a) {
  using Unit = typename Config::Unit;
  using F = typename Config::Feature;
  constexpr int kPitch = Unit::kPitchBytes;
  constexpr int kSlices = Unit::kSlices;
  constexpr int kStages = Config::kStages;
  constexpr int kPieces = Unit::kSliceBytes / 16;  // 16-byte copies per staged line and slice
  constexpr int kSliceElements = Unit::kSliceBytes / static_cast<int>(sizeof(F));
  constexpr int kLineStep = Config::kThreadsPerBlock / kPieces;  // lines between a thread's copies
  constexpr int kCopies = Config::kLines / kLineStep;            // per thread and slice
  static_assert(Config::kSquareRows % kLineStep == 0 && Config::kLines % kLineStep == 0, "whole copies");
  extern __shared__ __align__(16) unsigned char shared[];
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x & 31;
  const int64_t col_squares = (a.chunks + Config::kSquareChunks - 1) / Config::kSquareChunks;
  const int64_t first_strip = blockIdx.x / col_squares * Config::kSquareStrips;
  const int64_t first_chunk = blockIdx.x % col_squares * Config::kSquareChunks;

  // The warp's unit: its cell's run of entries (none past the matrix).
  const int64_t strip = first_strip + warp % Config::kSquareStrips;
  const int64_t chunk = first_chunk + warp / Config::kSquareStrips;
  int64_t begin, end;
  cell_run(a, strip, chunk, begin, end);
  if (!__syncthreads_or(end > begin)) return;

  // What this thread copies of each slice: piece threadIdx.x % kPieces of staged lines
  // threadIdx.x / kPieces + m * kLineStep: the square's X1 rows (lines 0-127), then its X2 columns.
  // Rows and columns past the matrix read as zeros.
  const int piece = threadIdx.x % kPieces;
  const int line = threadIdx.x / kPieces;
  const unsigned staging = shared_address(shared);
  const F* source[kCopies];
  bool inside[kCopies];
  square_line_sources<Config, kLineStep>(a, first_strip, first_chunk, line, piece, source, inside);
  const unsigned target = staging + line * kPitch + piece * 16;
  const auto copy_slice = [&](int slice) {  // one group of copies, empty past the last slice
    if (slice < kSlices) {
      const unsigned stage = static_cast<unsigned>((slice % kStages) * Config::kStageBytes);
#pragma unroll
      for (int m = 0; m < kCopies; ++m) {
        const F* const from = inside[m] ? source[m] + slice * kSliceElements : source[m];
        copy_16_async(target + stage + m * kLineStep * kPitch, from, inside[m]);
      }
    }
    commit_copies();
  };

  // The unit kernel's ldmatrix rows (mma_step): the warp's strip of the staged rows, its chunk's
  // 64 of the staged columns.
  const unsigned a_lane =
      staging + ((warp % Config::kSquareStrips) * kUnitRows + (lane & 15)) * kPitch + (lane >> 4) * 16;
  const unsigned b_lane = staging +
                          (Config::kSquareRows + (warp / Config::kSquareStrips) * kUnitCols + (lane & 7) +
                           ((lane >> 4) << 3)) * kPitch +
                          ((lane >> 3) & 1) * 16;
  float acc[Unit::kTiles][4] = {};
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) copy_slice(s);
#pragma unroll
  for (int slice = 0; slice < kSlices; ++slice) {
    // This slice is in (this thread's copies, then everyone's), and every warp is done with the
    // slice before it, whose stage the next copies overwrite while this one is multiplied.
    wait_copies<kStages - 2>();
    __syncthreads();
    copy_slice(slice + kStages - 1);
    const unsigned stage = static_cast<unsigned>((slice % kStages) * Config::kStageBytes);
#pragma unroll
    for (int s = 0; s < Unit::kStepsPerSlice; ++s) {
      mma_step<Unit>(acc, a_lane + stage + s * Unit::kStepBytes, b_lane + stage + s * Unit::kStepBytes);
    }
  }
  __syncthreads();  // every warp is done with the staging memory the results take
  if (end == begin) return;
  float* const results = reinterpret_cast<float*>(shared) + warp * (kUnitRows * Unit::kResultPitch);
  write_unit_entries<Unit, I>(acc, results, begin, end, a, lane);
}

}  // namespace sddmm::cuda
