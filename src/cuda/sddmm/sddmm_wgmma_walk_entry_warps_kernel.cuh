// SDDMM on Hopper's warpgroup tensor-core instructions, walking tiles with the X1 rows held, with
// warps of their own for the entries (SddmmWgmmaWalkEntryWarpsConfig; sm_90a, 16-bit features,
// K = 256, the plans the square kernels take: TensorTiles::cell_entries; the walk's tiles, runs
// and copy lane: sddmm_wgmma_walk_parts.cuh). A block has three roles, a warpgroup or two each,
// the registers moved between them by setmaxnreg:
//  - the copy lane (lane 0 of the copy warpgroup, whose other threads leave) stages each row
//    tile's 128 X1 rows (whole K) and per tile the chunk's 64 X2 columns, in the 128-byte swizzle
//    wgmma reads, by tensor copies, ahead of the products; each stage of columns is handed over by
//    a "full" and an "empty" mbarrier, the X1 lines by a third (WalkEntryWarpsBarriers);
//  - 8 multiplying warps: each reads its 16 X1 rows into registers once a row tile and keeps them
//    while the block walks the row's chunks; warpgroup g multiplies rows 64 g .. + 63 by the 64
//    columns (wgmma.m64n64k16, A from registers, K / 16 of them), so that warp w holds unit (strip
//    w, chunk) in the unit kernel's accumulator layout, and stages tile j - 1's float32 results in
//    shared memory of its own after tile j's products start, from a second set of registers;
//  - 8 entry warps, entry warp w writing out multiplying warp w's unit: the cell's run of the
//    unit-ordered arrays (empty where the plan left the unit to the CUDA cores, or past the
//    matrix), each entry A's value times its staged result. It loads a tile's first kEntryBatch x
//    32 entries while the tile is multiplied, and hands each staging of results back once read: a
//    "staged" and a "read" mbarrier a warp.
// No instruction of a multiplying warp reads a register the tensor cores are writing (ptxas
// otherwise waits for them), and no warp waits at a block barrier.
#pragma once

#include <cuda.h>  // CUtensorMap, the type alone (the map is encoded on the host)

#include <cstdint>
#include <cstring>

#include "cuda/sddmm/sddmm_wgmma_walk_parts.cuh"

namespace sddmm::cuda {

// The walk's mbarriers, at their shared addresses, the layout starting at `aligned`: stage s's
// "full" (one arrival, the copy lane's, and the bytes of the tile's columns: they have landed) and
// "empty" (an arrival of each of the multiplying warps' threads once its products have read the
// stage), the X1 lines' "full" (one arrival and their bytes), and for each multiplying warp w its
// results' "staged" (an arrival of each of its threads once it has stored them) and "read" (an
// arrival of each of entry warp w's threads once it has read them).
template <typename Config>
struct WalkEntryWarpsBarriers {
  unsigned aligned;
  __device__ __forceinline__ unsigned full(int stage) const { return at(stage); }
  __device__ __forceinline__ unsigned empty(int stage) const { return at(Config::kColumnStages + stage); }
  __device__ __forceinline__ unsigned rows() const { return at(2 * Config::kColumnStages); }
  __device__ __forceinline__ unsigned staged(int warp) const { return at(2 * Config::kColumnStages + 1 + warp); }
  __device__ __forceinline__ unsigned read(int warp) const {
    return at(2 * Config::kColumnStages + 1 + Config::kWarps + warp);
  }
  // By one thread, before a block barrier.
  __device__ __forceinline__ void init() const {
    for (int s = 0; s < Config::kColumnStages; ++s) {
      barrier_init(full(s), 1);
      barrier_init(empty(s), 32 * Config::kWarps);
    }
    barrier_init(rows(), 1);
    for (int w = 0; w < Config::kWarps; ++w) {
      barrier_init(staged(w), 32);
      barrier_init(read(w), 32);
    }
  }

 private:
  static_assert(2 * Config::kColumnStages + 1 + 2 * Config::kWarps == Config::kBarriers, "every barrier of the layout");
  __device__ __forceinline__ unsigned at(int barrier) const {
    return aligned + static_cast<unsigned>(Config::kBarrierOffset + barrier * Config::kBarrierBytes);
  }
};

// A batch's writes as the entry warps make them (WalkBatch::store is the K = 128 walk's): computed
// from the loaded entries before the next batch's loads are issued and before the tile's results
// are staged, so that after the "staged" wait a slot is a shared read, a multiplication and a
// store, none of them waiting for a load in flight (a use of a loaded register waits for every
// load of the warp in flight: the form before loaded the next batch after the writes, and each
// tile's first write waited out the rest of that load's latency).
template <typename Config, typename I>
struct WalkWrites {
  using V = typename Config::Types::Value;
  using O = typename Config::Types::Output;
  static_assert(sizeof(V) == 2, "16-bit values: a slot's word holds one");
  static constexpr int kBatch = Config::kEntryBatch;
  static constexpr unsigned kNoEntry = 0x8000;  // above any index of a unit's results
  // A slot's word: A's value's bits (1 without values) above the staged result's index in the
  // unit's results, or kNoEntry where the slot holds no entry (index 0 then: read, never stored).
  // One word, not three registers: with the index, value and entry apart the entry warps spilled.
  unsigned slot[kBatch];
  I position[kBatch];  // in the output

  __device__ __forceinline__ WalkWrites(const WalkBatch<Config, I>& batch,
                                        const SddmmTensorArgs<typename Config::Types, I>& a) {
    using Batch = WalkBatch<Config, I>;
    static_assert(kUnitRows * Config::Unit::kResultPitch <= kNoEntry, "a result's index below kNoEntry");
    const bool values = a.value != nullptr;
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      const unsigned place = batch.local[j];
      const unsigned index = place != Batch::kNone ? Batch::result_index(place) : kNoEntry;
      const unsigned value = bits_of(values ? batch.value[j] : narrow<V>(1.0f));
      // Pinned: computed here, where the batch has landed, not after the next batch's loads.
      slot[j] = pinned(value << 16 | index);
      position[j] = pinned(batch.position[j]);
    }
  }

  __device__ __forceinline__ void store(const float* results, O* out) const {
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      const float staged = results[slot[j] & (kNoEntry - 1)];
      const float scale = widen(value_of_bits(slot[j] >> 16));
      if ((slot[j] & kNoEntry) == 0) out[static_cast<int64_t>(position[j])] = narrow<O>(scale * staged);
    }
  }

 private:
  static __device__ __forceinline__ unsigned bits_of(V v) {
    uint16_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits;
  }
  static __device__ __forceinline__ V value_of_bits(unsigned word) {
    const auto bits = static_cast<uint16_t>(word);
    V v;
    memcpy(&v, &bits, sizeof v);
    return v;
  }
};

// Entry warp `warp` (0-7): writes out multiplying warp `warp`'s unit of each tile of the run from
// its staged results. The multiplying warp stages last - first + 1 times: zeros first (its first
// step has no tile before it), then each tile's sums; the entry warp waits for each staging on
// "staged", writes the tile's entries (the first batch loaded a tile before, the rest of a long
// run a batch at a time), and arrives on "read". Each tile's writes are computed from its batch
// before that wait (WalkWrites), and the next tile's batch and the run after it are loaded between
// the two, so that the loads have a whole tile's time to land.
template <typename Config, typename I>
__device__ __forceinline__ void walk_entry_warp(const SddmmTensorArgs<typename Config::Types, I>& a,
                                                const WalkEntryWarpsBarriers<Config>& barriers, const float* results,
                                                int warp, int lane, int64_t first, int64_t last) {
  using Batch = WalkBatch<Config, I>;
  using Writes = WalkWrites<Config, I>;
  const unsigned staged = barriers.staged(warp);
  const unsigned read = barriers.read(warp);
  WalkCursor next{first, first / a.chunks, first % a.chunks, 0, 0};  // the tile whose run is held
  const auto run_of = [&](const WalkCursor& at) {
    return at.tile < last ? at.unit_run(a, warp, Config::kTileStrips) : WalkRun{};
  };
  Batch batch;
  batch.load(run_of(next), 0, a, lane);
  next.advance(a.chunks, 1);
  WalkRun next_run = run_of(next);  // tile first + 1's
  barrier_wait(staged, 0);  // the zeros of the multiplying warp's first step
  barrier_arrive(read);
  // With 64-bit positions a batch in flight beside a tile's writes does not fit the entry warps'
  // registers (ptxas spilled 52 bytes, and a spill store of a loaded register waits for its load):
  // there the next batch is loaded after the writes, as the form before did.
  constexpr bool kLoadEarly = sizeof(I) == 4;
  const auto load_next = [&] {
    batch.load(next_run, 0, a, lane);  // the next tile's
    next.advance(a.chunks, 1);
    next_run = run_of(next);  // the one after's
  };
  // The loop counts by `next` (the tile after this one) alone: a second 64-bit counter spilled.
  for (bool more_tiles = true; more_tiles;) {
    const unsigned parity = static_cast<unsigned>(next.tile - first) & 1u;
    const Writes writes(batch, a);
    const WalkRun rest = batch.rest;
    more_tiles = next.tile < last;
    if (kLoadEarly && more_tiles) load_next();
    barrier_wait(staged, parity);
    if (a.out != nullptr) {
      writes.store(results, a.out);
      // The rest of a run longer than the batch (about one unit in 250 at 10 %): each batch of it
      // waits for its loads, the next tile's batch in flight included.
      for (int64_t base = 0; rest.begin + base < rest.end; base += 32 * Batch::kBatch) {
        Batch more;
        more.load(rest, base, a, lane);
        Writes(more, a).store(results, a.out);
      }
    }
    barrier_arrive(read);
    if (!kLoadEarly && more_tiles) load_next();
  }
}

// Multiplying warp `warp` (0-7) of the block's run of tiles [first, last): see the file's header.
template <typename Config>
__device__ __forceinline__ void walk_multiply_warp(const WalkEntryWarpsBarriers<Config>& barriers, float* results,
                                                   int warp, int lane, int64_t chunks, int64_t first, int64_t last) {
  constexpr int kStages = Config::kColumnStages;
  const unsigned aligned = barriers.aligned;
  WalkCursor now{first, first / chunks, first % chunks, 0, 0};  // tile j

  using Products = WalkProducts<Config>;
  const uint64_t b_descriptor = Products::first_stage(aligned);
  uint32_t rows[Products::kSteps][4];  // the warp's X1 rows (Products::load_rows)
  // The products' sums: with Config::kDoubleSums two sets, tile j's into one while tile j - 1's,
  // in the other, are staged; otherwise one, staged before the products start into it. The set
  // staged in the first step holds zeros (no branch) and is never written out. With two sets
  // ptxas waits for the first step's products before staging those zeros, and says so at build
  // time (info C7517): one tile a block; the loop's steps have no such wait (SASS).
  float d[Config::kDoubleSums ? 2 : 1][32] = {};
  // Stages sums into the warp's results once the entry warp has read the stagings before
  // (stagings - 1 of them: on a fresh barrier the wait for parity 1 returns at once), and says so.
  unsigned stagings = 0;
  const unsigned staged = barriers.staged(warp);
  const unsigned read = barriers.read(warp);
  const auto hand_over = [&](const float(&sums)[32]) {
    barrier_wait(read, (stagings & 1u) ^ 1u);
    stage_unit_sums<Config::Unit::kResultPitch>(sums, results, lane);
    barrier_arrive(staged);
    ++stagings;
  };
  // Tile j (`now`) in two halves. start(): once tile j's copies are in (the stage's "full" and,
  // where a row tile starts, the X1 lines' barrier, whose phases `rows_phase` counts), the warp's
  // X1 rows are read where a row tile starts, tile j's products start into `sums`, and tile j - 1's
  // sums (`before`) are handed over: before the products where they share registers, after them
  // where they do not.
  unsigned rows_phase = 0;
  const auto start = [&](float(&sums)[32], float(&before)[32]) {
    const bool row_tile_starts = now.starts_row_tile(first);
    if (row_tile_starts) {
      barrier_wait(barriers.rows(), rows_phase);
      rows_phase ^= 1u;
    }
    barrier_wait(barriers.full(now.stage), now.phase);
    if (row_tile_starts) Products::load_rows(rows, aligned, warp, lane);
    if constexpr (!Config::kDoubleSums) hand_over(before);
    const uint64_t b_stage = b_descriptor + static_cast<uint64_t>(now.stage * (Config::kColumnBytes >> 4));
    Products::issue(sums, rows, b_stage);
    // Tile j - 1's sums, in registers the products do not write.
    if constexpr (Config::kDoubleSums) hand_over(before);
  };
  // finish(): the products' end and the thread's arrival at the stage's "empty".
  const auto finish = [&](float(&sums)[32]) {
    const int stage = now.stage;
    now.advance(chunks, kStages);
    wgmma_wait<0>(sums);
    barrier_arrive(barriers.empty(stage));  // done with the stage
  };
  float(&sums_even)[32] = d[0];
  float(&sums_odd)[32] = d[Config::kDoubleSums ? 1 : 0];
  start(sums_even, sums_odd);
  while (true) {
    finish(sums_even);
    if (now.tile == last) {
      hand_over(sums_even);
      return;
    }
    start(sums_odd, sums_even);
    finish(sums_odd);
    if (now.tile == last) {
      hand_over(sums_odd);
      return;
    }
    start(sums_even, sums_odd);
  }
}

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreadsPerBlock, Config::kMinBlocksPerSm)
    sddmm_wgmma_walk_entry_warps_kernel(const SddmmTensorArgs<typename Config::Types, I> a,
                                        const __grid_constant__ CUtensorMap x1_map,
                                        const __grid_constant__ CUtensorMap x2_map) {
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
  const WalkEntryWarpsBarriers<Config> barriers{aligned};
  if (threadIdx.x == 0) barriers.init();
  __syncthreads();  // the barriers are ready
  // Each multiplying warp's 16 x 64 float32 results, which entry warp w reads.
  float* const results_base = reinterpret_cast<float*>(shared_raw + (aligned - raw) + Config::kResultOffset);
  const auto results_of = [&](int w) { return results_base + w * (kUnitRows * Config::Unit::kResultPitch); };
  if (warp >= Config::kEntryWarp) {
    warpgroup_registers<RegisterMove::kRelease, Config::kEntryRegisters>();
    const int w = warp - Config::kEntryWarp;
    walk_entry_warp<Config, I>(a, barriers, results_of(w), w, lane, first, last);
  } else if (warp >= Config::kCopyWarp) {
    warpgroup_registers<RegisterMove::kRelease, Config::kCopyRegisters>();
    if (warp == Config::kCopyWarp && lane == 0) walk_copy_lane<Config, I>(a, &x1_map, &x2_map, barriers, first, last);
  } else {
    warpgroup_registers<RegisterMove::kClaim, Config::kMultiplyRegisters>();
    walk_multiply_warp<Config>(barriers, results_of(warp), warp, lane, a.chunks, first, last);
  }
}

}  // namespace sddmm::cuda
