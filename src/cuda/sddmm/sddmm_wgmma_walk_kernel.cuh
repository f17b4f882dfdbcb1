// SDDMM on Hopper's warpgroup tensor-core instructions, walking tiles with the X1 rows held, the
// multiplying warps writing the entries out themselves (SddmmWgmmaWalkConfig; sm_90a, 16-bit
// features, the plans the square kernels take: TensorTiles::cell_entries; taken at K = 128, K =
// 256 takes sddmm_wgmma_walk_entry_warps_kernel.cuh: sddmm_hopper.cu, WalkConfig; the walk's
// tiles, runs and copy lane: sddmm_wgmma_walk_parts.cuh). A block is 8 multiplying warps and a
// copy warpgroup, one lane of which (walk_copy_lane) stages each row tile's 128 X1 rows (whole K)
// and per tile its units' runs and the chunk's 64 X2 columns, in the 128-byte swizzle wgmma reads,
// by tensor and bulk copies, ahead of the products; each stage of columns is handed over by a
// "full" and an "empty" mbarrier, the X1 lines by a third (WalkBarriers), and no warp waits at a
// block barrier. The copy warpgroup keeps few registers (setmaxnreg), and the multiplying warps
// take the rest. Each multiplying warp reads its 16 X1 rows into registers once a row tile and
// keeps them while the block walks the row's chunks. Warpgroup g multiplies rows 64 g .. + 63 by
// the 64 columns (wgmma.m64n64k16, A from registers, K / 16 of them), so that warp w holds unit
// (strip w, chunk) in the unit kernel's accumulator layout. Each warp stages tile j - 1's float32
// results in shared memory of its own (after tile j's products start, from a second set of
// registers, with Config::kDoubleSums; before, from the same registers, otherwise) and writes out
// tile j - 1's entries from there while they run (no instruction reads a register the tensor cores
// are writing: ptxas otherwise waits for them): the cell's run of the unit-ordered arrays, empty
// where the plan left the unit to the CUDA cores (computed, dropped) or past the matrix (zeros
// staged). Its first kEntryBatch x 32 entries were loaded while tile j - 1 was multiplied.
#pragma once

#include <cuda.h>  // CUtensorMap, the type alone (the map is encoded on the host)

#include <cstdint>

#include "cuda/sddmm/sddmm_wgmma_walk_parts.cuh"

namespace sddmm::cuda {

// Warp-level: writes out a unit's run of entries from its staged results: `first`, the first
// batch, loaded a step before, then the rest of the run a batch at a time.
template <typename Config, typename I>
__device__ __forceinline__ void write_walk_entries(const WalkBatch<Config, I>& first, const float* results,
                                                   const SddmmTensorArgs<typename Config::Types, I>& a, int lane) {
  using Batch = WalkBatch<Config, I>;
  __syncwarp();  // the staged results are in
  first.store(results, a);
  for (int64_t base = 0; first.rest.begin + base < first.rest.end; base += 32 * Batch::kBatch) {
    Batch more;
    more.load(first.rest, base, a, lane);
    more.store(results, a);
  }
  __syncwarp();  // every lane is done reading them before the next tile's are staged
}

// The walk's mbarriers, at their shared addresses, the layout starting at `aligned`: stage s's
// "full" (one arrival, the copy lane's, and the bytes of the tile's columns and cell offsets: they
// have landed) and "empty" (an arrival of each of the multiplying warps' threads once its products
// have read the stage and it has read the offsets), and the X1 lines' "full" (one arrival and
// their bytes).
template <typename Config>
struct WalkBarriers {
  unsigned aligned;
  __device__ __forceinline__ unsigned full(int stage) const {
    return aligned + static_cast<unsigned>(Config::kBarrierOffset + stage * Config::kBarrierBytes);
  }
  __device__ __forceinline__ unsigned empty(int stage) const {
    return aligned + static_cast<unsigned>(Config::kEmptyOffset + stage * Config::kBarrierBytes);
  }
  __device__ __forceinline__ unsigned rows() const {
    return aligned + static_cast<unsigned>(Config::kRowsFullOffset);
  }
  // By one thread, before a block barrier.
  __device__ __forceinline__ void init() const {
    for (int s = 0; s < Config::kColumnStages; ++s) {
      barrier_init(full(s), 1);
      barrier_init(empty(s), 32 * Config::kWarps);
    }
    barrier_init(rows(), 1);
  }
};

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreadsPerBlock, Config::kMinBlocksPerSm)
    sddmm_wgmma_walk_kernel(const SddmmTensorArgs<typename Config::Types, I> a,
                            const __grid_constant__ CUtensorMap x1_map, const __grid_constant__ CUtensorMap x2_map) {
  constexpr int kStages = Config::kColumnStages;
  extern __shared__ __align__(16) unsigned char shared_raw[];
  const unsigned raw = shared_address(shared_raw);
  const unsigned aligned = (raw + kSwizzleAtomBytes - 1) & ~unsigned{kSwizzleAtomBytes - 1};
  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x & 31;
  const int64_t row_tiles = (a.strips + Config::kTileStrips - 1) / Config::kTileStrips;
  const int64_t tiles = row_tiles * a.chunks;
  const int64_t first = tiles * blockIdx.x / gridDim.x;
  const int64_t last = tiles * (blockIdx.x + 1) / gridDim.x;
  if (first >= last) return;
  const WalkBarriers<Config> barriers{aligned};
  if (threadIdx.x == 0) barriers.init();
  __syncthreads();  // the barriers are ready
  if (warp >= Config::kCopyWarp) {
    warpgroup_registers<RegisterMove::kRelease, Config::kCopyRegisters>();
    if (warp == Config::kCopyWarp && lane == 0) walk_copy_lane<Config, I>(a, &x1_map, &x2_map, barriers, first, last);
    return;
  }
  warpgroup_registers<RegisterMove::kClaim, Config::kMultiplyRegisters>();
  float* const results = reinterpret_cast<float*>(shared_raw + (aligned - raw) + Config::kResultOffset) +
                         warp * (kUnitRows * Config::Unit::kResultPitch);
  // Each stage's cell offsets (walk_copy_lane), this warp's first.
  const int64_t* const runs =
      reinterpret_cast<const int64_t*>(shared_raw + (aligned - raw) + Config::kRunOffset) + warp;
  WalkCursor now{first, first / a.chunks, first % a.chunks, 0, 0};  // tile j

  using Products = WalkProducts<Config>;
  const uint64_t b_descriptor = Products::first_stage(aligned);
  uint32_t rows[Products::kSteps][4];  // the warp's X1 rows (Products::load_rows)
  // The products' sums: with Config::kDoubleSums two sets, tile j's into one while tile j - 1's,
  // in the other, are staged; otherwise one, staged before the products start into it. The set
  // staged in the first step holds zeros (no branch: see start()) and is never written out. With
  // two sets ptxas waits for the first step's products before staging those zeros, and says so at
  // build time (info C7517): one tile a block; the loop's steps have no such wait (SASS).
  float d[Config::kDoubleSums ? 2 : 1][32] = {};
  // What a step keeps of a tile for the next: its first entries (and the rest of its run), loaded
  // during its products. The loop runs two steps at a time, one batch each, so that no step
  // copies a register whose load is still in flight (a copy waits for it: the second form of this
  // kernel, one batch copied forward each step, took 1.9 us a tile). The runs come through shared
  // memory, copied by copy warp 0 with the tile's columns: looked up by each warp two tiles
  // ahead, as this kernel's earlier forms did, they were loads whose registers ptxas moved between
  // the loop's two steps, and each move waited for every load in flight.
  using Batch = WalkBatch<Config, I>;
  Batch even, odd;  // tiles first, first + 2, ... and first + 1, first + 3, ...
  odd.load(WalkRun{}, 0, a, lane);  // no entries: what the first step writes out
  // Tile j (`now`) in two halves. start(): once tile j's copies are in (the stage's "full" and,
  // where a row tile starts, the X1 lines' barrier, whose phases `rows_phase` counts), the warp's
  // X1 rows are read where a row tile starts, tile j's products start into `sums`, and tile j - 1's
  // sums (`before`) are staged: before the products where they share registers, after them where
  // they do not (in the first step the batch before holds no entries).
  unsigned rows_phase = 0;
  const auto start = [&](float (&sums)[32], float (&before)[32]) {
    const bool row_tile_starts = now.starts_row_tile(first);
    if (row_tile_starts) {
      barrier_wait(barriers.rows(), rows_phase);
      rows_phase ^= 1u;
    }
    barrier_wait(barriers.full(now.stage), now.phase);
    if (row_tile_starts) Products::load_rows(rows, aligned, warp, lane);
    if constexpr (!Config::kDoubleSums) stage_unit_sums<Config::Unit::kResultPitch>(before, results, lane);
    const uint64_t b_stage = b_descriptor + static_cast<uint64_t>(now.stage * (Config::kColumnBytes >> 4));
    Products::issue(sums, rows, b_stage);
    // Tile j - 1's sums, in registers the products do not write.
    if constexpr (Config::kDoubleSums) stage_unit_sums<Config::Unit::kResultPitch>(before, results, lane);
  };
  // finish(): while the products run, tile j - 1's writes (`before`), then tile j's first entries
  // (`mine`); then the products' end and the thread's arrival at the stage's "empty". In this
  // order: every load of a warp counts on one scoreboard, so a value loaded in the step before,
  // used after this step's loads were issued, would wait for them too.
  const auto finish = [&](Batch& mine, const Batch& before, float (&sums)[32]) {
    // (A branch the compiler cannot decide keeps the writes, the first use of the loads of the step
    // before, after the products' start: ptxas otherwise moved that use above them.)
    if (a.out != nullptr) write_walk_entries<Config, I>(before, results, a, lane);
    const int64_t* const run = runs + now.stage * (Config::kRunSlotBytes / sizeof(int64_t));
    const int stage = now.stage;
    // The slot's 10 offsets start at the even cell at or before the tile's first (walk_copy_lane):
    // one cell earlier where chunk x strips is odd. A strip past the matrix has no run (the slot
    // holds the next chunk's offsets there).
    const int shift = static_cast<int>(now.chunk & a.strips & 1);
    const int64_t begin = run[shift];
    mine.load(WalkRun{begin, now.row_tile * Config::kTileStrips + warp < a.strips ? run[shift + 1] : begin}, 0, a,
              lane);
    now.advance(a.chunks, kStages);
    wgmma_wait<0>(sums);
    barrier_arrive(barriers.empty(stage));  // done with the stage
  };
  const auto write_last = [&](const Batch& last_tile, float (&sums)[32]) {
    stage_unit_sums<Config::Unit::kResultPitch>(sums, results, lane);
    write_walk_entries<Config, I>(last_tile, results, a, lane);
  };
  // The loop turns between start() and finish(): ptxas waits for the loads in flight where a loop
  // begins, and there finish() uses the batch of the step before anyway (with the loop at start(),
  // each second step waited for them before its products, not after).
  float (&sums_even)[32] = d[0];
  float (&sums_odd)[32] = d[Config::kDoubleSums ? 1 : 0];
  start(sums_even, sums_odd);
  while (true) {
    finish(even, odd, sums_even);
    if (now.tile == last) {
      write_last(even, sums_even);
      return;
    }
    start(sums_odd, sums_even);
    finish(odd, even, sums_odd);
    if (now.tile == last) {
      write_last(odd, sums_odd);
      return;
    }
    start(sums_even, sums_odd);
  }
}

}  // namespace sddmm::cuda
