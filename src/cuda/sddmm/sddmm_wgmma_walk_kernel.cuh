// SDDMM on Hopper's warpgroup tensor-core instructions, walking tiles with the X1 rows held
// (SddmmWgmmaWalkConfig; sm_90a, 16-bit features, the plans the square kernels take:
// TensorTiles::cell_entries). A tile is 8 strips x 1 chunk (128 x 64 cells); tiles are numbered
// row-major (row tile r = strips 8 r .. 8 r + 7, chunk c: tile r * chunks + c) and each block, one a
// multiprocessor, takes a run of consecutive ones. The block stages its row tile's 128 X1 rows once
// (whole K) and keeps them while it walks the row's chunks; per tile only the chunk's 64 X2 columns
// are copied, by cp.async in the 128-byte swizzle wgmma reads, kColumnStages - 1 tiles ahead.
// Warpgroup g multiplies rows 64 g .. + 63 by the 64 columns (wgmma.m64n64k16, K / 16 of them), so
// that warp w holds unit (strip w, chunk) in the unit kernel's accumulator layout. Each warp stages
// tile j - 1's float32 results in shared memory of its own before tile j's products start into
// the same registers, and writes out tile j - 1's entries from there while they run (staged
// first, so that no instruction reads a register the tensor cores are writing: ptxas otherwise
// waits for them): the cell's run of the unit-ordered arrays, empty where the plan left the unit
// to the CUDA cores (computed, dropped) or past the matrix (zeros staged). Its first kEntryBatch x
// 32 entries were loaded while tile j - 1 was multiplied, its run looked up two steps before that.
#pragma once

#include <cstdint>

#include "cuda/sddmm/sddmm_tensor_kernel.cuh"
#include "cuda/sddmm/sddmm_tensor_square_kernel.cuh"
#include "cuda/sddmm/sddmm_wgmma.cuh"

namespace sddmm::cuda {

// A unit's run of entries: [begin, end) of the unit-ordered arrays.
struct WalkRun {
  int64_t begin = 0;
  int64_t end = 0;
};

// What a lane writes of kEntryBatch x 32 entries of a unit's run (entries base + 32 j + lane): the
// arrays' elements as loaded, nothing computed from them, so that the loads stay in flight until
// the next tile's step writes them out (a value used at once would wait out the load's latency in
// every step: the first form of this kernel computed the staged place here, and each of its tiles
// took 2.1-2.4 us, two round trips, against about 0.5 us of products).
template <typename Config, typename I>
struct WalkBatch {
  using V = typename Config::Types::Value;
  static constexpr int kBatch = Config::kEntryBatch;
  static constexpr int kNone = 0x10000;  // no entry: beyond any 16-bit place
  int local[kBatch];
  I position[kBatch];
  V value[kBatch];

  __device__ __forceinline__ void load(const WalkRun& run, int64_t base,
                                       const SddmmTensorArgs<typename Config::Types, I>& a, int lane) {
    const int64_t start = run.begin + base + lane;
    const int64_t left = run.end - start;  // entries from this lane's first on
    const uint16_t* const local_at = a.local + start;
    const I* const position_at = a.out_position + start;
    const V* const value_at = a.value != nullptr ? a.value + start : a.value;
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      local[j] = kNone;
      if (32 * j < left) {
        local[j] = local_at[32 * j];
        position[j] = position_at[32 * j];
        if (value_at != nullptr) value[j] = value_at[32 * j];
      }
    }
  }

  // Writes each loaded entry: A's value (1 without values) times its staged result. The staged
  // result is read for every slot (place 0 where there is no entry) so that only the store is
  // predicated.
  __device__ __forceinline__ void store(const float* results,
                                        const SddmmTensorArgs<typename Config::Types, I>& a) const {
    using O = typename Config::Types::Output;
    constexpr int kPitch = Config::Unit::kResultPitch;
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      const bool entry = local[j] != kNone;
      const int place = entry ? local[j] : 0;
      const float result = results[(place % kUnitRows) * kPitch + place / kUnitRows];
      const float scale = a.value != nullptr ? widen(value[j]) : 1.0f;
      if (entry) a.out[static_cast<int64_t>(position[j])] = narrow<O>(scale * result);
    }
  }
};

// Warp-level: writes out a unit's run of entries from its staged results: `first`, the first
// batch, loaded a step before, then the rest a batch at a time.
template <typename Config, typename I>
__device__ __forceinline__ void write_walk_entries(const WalkRun& run, const WalkBatch<Config, I>& first,
                                                   const float* results,
                                                   const SddmmTensorArgs<typename Config::Types, I>& a, int lane) {
  using Batch = WalkBatch<Config, I>;
  __syncwarp();  // the staged results are in
  first.store(results, a);
  for (int64_t base = 32 * Batch::kBatch; run.begin + base < run.end; base += 32 * Batch::kBatch) {
    Batch more;
    more.load(run, base, a, lane);
    more.store(results, a);
  }
  __syncwarp();  // every lane is done reading them before the next tile's are staged
}

// A tile of the walk and where it lies, advanced one tile at a time: the kernel divides by the
// chunk count once, not in every step (a 64-bit division is a call of some 70 instructions; with
// four of them a step the third form of this kernel took 1.85 us a tile at K = 128, against 1.55
// without them).
struct WalkCursor {
  int64_t tile;
  int64_t row_tile;
  int64_t chunk;
  int stage;  // (tile - first) % stages: the tile's place among the staged column tiles

  __device__ __forceinline__ void advance(int64_t chunks, int stages) {
    ++tile;
    if (++chunk == chunks) {
      chunk = 0;
      ++row_tile;
    }
    if (++stage == stages) stage = 0;
  }
};

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreadsPerBlock, Config::kMinBlocksPerSm)
    sddmm_wgmma_walk_kernel(const SddmmTensorArgs<typename Config::Types, I> a) {
  using F = typename Config::Feature;
  constexpr int kSlices = Config::kSlices;
  constexpr int kStages = Config::kColumnStages;
  constexpr int kPieces = kSwizzleLineBytes / 16;                  // 16-byte pieces of a staged line
  constexpr int kPieceElements = 16 / static_cast<int>(sizeof(F));
  constexpr int kLineStep = Config::kThreadsPerBlock / kPieces;    // lines between a thread's copies
  constexpr int kRowCopies = kSlices * Config::kTileRows / kLineStep;
  constexpr int kColumnCopies = kSlices * kUnitCols / kLineStep;
  static_assert(kLineStep % 8 == 0, "a thread's lines share their place in the swizzle atom");
  static_assert(Config::kTileRows % kLineStep == 0 && kUnitCols % kLineStep == 0, "whole copies");
  extern __shared__ __align__(16) unsigned char shared_raw[];
  const unsigned raw = shared_address(shared_raw);
  const unsigned aligned = (raw + kSwizzleAtomBytes - 1) & ~unsigned{kSwizzleAtomBytes - 1};
  float* const results = reinterpret_cast<float*>(shared_raw + (aligned - raw) + Config::kResultOffset) +
                         (threadIdx.x / 32) * (kUnitRows * Config::Unit::kResultPitch);
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x & 31;
  const int64_t row_tiles = (a.strips + Config::kTileStrips - 1) / Config::kTileStrips;
  const int64_t tiles = row_tiles * a.chunks;
  const int64_t first = tiles * blockIdx.x / gridDim.x;
  const int64_t last = tiles * (blockIdx.x + 1) / gridDim.x;
  if (first >= last) return;

  // This thread copies piece `piece` of staged lines `line` + m * kLineStep; each of them sits at
  // the same place of its swizzle atom. Rows and columns past the matrix read as zeros.
  const int piece = threadIdx.x % kPieces;
  const int line = threadIdx.x / kPieces;
  const unsigned offset = static_cast<unsigned>(swizzled_offset(line, piece));
  const auto copy_rows = [&](int64_t row_tile) {  // the row tile's X1 lines, slice-major
#pragma unroll
    for (int m = 0; m < kRowCopies; ++m) {
      const int staged = line + m * kLineStep;
      const int64_t row = row_tile * Config::kTileRows + staged % Config::kTileRows;
      const bool inside = row < a.rows;
      const F* const from =
          inside ? a.x1 + row * a.x1_ld + (staged / Config::kTileRows) * Config::kSliceElements + piece * kPieceElements
                 : a.x1;
      copy_16_async(aligned + offset + static_cast<unsigned>(m * kLineStep * kSwizzleLineBytes), from, inside);
    }
  };
  // Where this thread's column copies read, from the chunk's first column (elements): a chunk's 64
  // columns are two steps of lines, so copy m takes column line + (m % 2) kLineStep of the chunk
  // and slice m / 2; per tile only the chunk's start is added.
  static_assert(kUnitCols == 2 * kLineStep, "a chunk's columns in two steps of lines");
  const int64_t column_offset[2] = {line * a.x2_ld + piece * kPieceElements,
                                    (line + kLineStep) * a.x2_ld + piece * kPieceElements};
  const auto copy_columns = [&](const WalkCursor& at) {  // one group of copies, empty past the run
    if (at.tile < last) {
      const unsigned stage = aligned + static_cast<unsigned>(Config::kColumnOffset + at.stage * Config::kColumnBytes);
      const int64_t first_col = at.chunk * kUnitCols;
      const F* const chunk_x2 = a.x2 + first_col * a.x2_ld;
#pragma unroll
      for (int m = 0; m < kColumnCopies; ++m) {
        const bool inside = first_col + line + (m % 2) * kLineStep < a.cols;
        const F* const from = inside ? chunk_x2 + column_offset[m % 2] + (m / 2) * Config::kSliceElements : a.x2;
        copy_16_async(stage + offset + static_cast<unsigned>(m * kLineStep * kSwizzleLineBytes), from, inside);
      }
    }
    commit_copies();
  };
  const auto find_run = [&](const WalkCursor& at) {  // the warp's unit of a tile (none past the run)
    WalkRun run;
    if (at.tile < last) cell_run(a, at.row_tile * Config::kTileStrips + warp, at.chunk, run.begin, run.end);
    return run;
  };

  // Tile j (`now`), the one whose run is looked up (j + 2) and the one whose columns are copied
  // (j + kStages - 1).
  WalkCursor now{first, first / a.chunks, first % a.chunks, 0};
  WalkCursor look = now;
  WalkCursor copy = now;
  // The first row tile's X1 lines join the first tile's group; kStages - 1 groups in flight.
  copy_rows(now.row_tile);
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    copy_columns(copy);
    copy.advance(a.chunks, kStages);
  }

  // The wgmma descriptors of warpgroup g's 64 rows of the held X1 lines and of the first stage's
  // columns; a step of the products adds its offset (bytes / 16) to them instead of building each
  // descriptor from its address. With the copies' offsets computed once, the first product setting
  // d (no zeroing) and the entries' loads from one pointer each, this took the kernel from about
  // 610 to 460 warp instructions a tile (K = 256) and 1.55 to 1.43 us a tile at K = 128.
  const uint64_t a_descriptor =
      wgmma_descriptor(aligned + static_cast<unsigned>((warp / 4) * 64 * kSwizzleLineBytes));
  const uint64_t b_descriptor = wgmma_descriptor(aligned + static_cast<unsigned>(Config::kColumnOffset));
  float d[32];
  // What a step keeps of a tile: its run, looked up two tiles ahead, then (`written`) kept for its
  // writes, and its first entries, loaded during its products. The loop runs two steps at a time,
  // one slot each, so that no step copies a register whose load is still in flight (a copy waits
  // for it: the second form of this kernel, one slot copied forward each step, took 1.9 us a tile).
  struct Slot {
    WalkRun run;
    WalkRun written;
    WalkBatch<Config, I> batch;
  };
  Slot even, odd;  // tiles first, first + 2, ... and first + 1, first + 3, ...
  even.run = find_run(look);
  look.advance(a.chunks, kStages);
  odd.run = find_run(look);
  look.advance(a.chunks, kStages);
  // Step of tile j (`now`): multiplies it (into d) while the warps write out tile j - 1 (`before`);
  // `mine` is tile j's slot.
  const auto step = [&](Slot& mine, Slot& before) {
    const bool first_step = now.tile == first;
    if (!first_step && now.chunk == 0) {
      // A new row tile: every warpgroup is done with the X1 lines (each waited for its products
      // before this barrier); the columns in flight land first, so that the groups stay in order.
      wait_copies<0>();
      __syncthreads();
      copy_rows(now.row_tile);
      commit_copies();
      wait_copies<0>();
    }
    // This tile's columns are in (this thread's copies, made visible to the tensor cores' reads,
    // then everyone's), and every warpgroup is done with tile j - 1, whose stage the copies below
    // overwrite.
    wait_copies<kStages - 2>();
    fence_proxy_async();
    __syncthreads();
    copy_columns(copy);
    copy.advance(a.chunks, kStages);
    if (!first_step) stage_unit_sums<Config::Unit::kResultPitch>(d, results, lane);
    const uint64_t b_stage = b_descriptor + static_cast<uint64_t>(now.stage * (Config::kColumnBytes >> 4));
    wgmma_fence();
#pragma unroll
    for (int s = 0; s < kSlices; ++s) {
#pragma unroll
      for (int k = 0; k < Config::kStepsPerSlice; ++k) {
        constexpr int kStepBytes = 32;  // 16 elements of K
        const uint64_t a_step = a_descriptor + ((s * Config::kTileRows * kSwizzleLineBytes + k * kStepBytes) >> 4);
        const uint64_t b_step = b_stage + ((s * kUnitCols * kSwizzleLineBytes + k * kStepBytes) >> 4);
        wgmma_64x64x16<F>(d, a_step, b_step, s + k > 0);
      }
    }
    wgmma_commit();
    // While the products run: this tile's first entries, tile j - 1's writes, the run of j + 2.
    mine.batch.load(mine.run, 0, a, lane);
    if (!first_step) write_walk_entries<Config, I>(before.written, before.batch, results, a, lane);
    mine.written = mine.run;
    mine.run = find_run(look);
    look.advance(a.chunks, kStages);
    now.advance(a.chunks, kStages);
    wgmma_wait<0>(d);
  };
  while (now.tile + 1 < last) {
    step(even, odd);
    step(odd, even);
  }
  const auto finish = [&](const Slot& last_tile) {  // written out after the loop
    stage_unit_sums<Config::Unit::kResultPitch>(d, results, lane);
    write_walk_entries<Config, I>(last_tile.written, last_tile.batch, results, a, lane);
  };
  if (now.tile < last) {
    step(even, odd);
    finish(even);
  } else {
    finish(odd);
  }
}

}  // namespace sddmm::cuda
