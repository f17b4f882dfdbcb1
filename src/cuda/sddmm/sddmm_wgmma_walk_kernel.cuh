// SDDMM on Hopper's warpgroup tensor-core instructions, walking tiles with the X1 rows held
// (SddmmWgmmaWalkConfig; sm_90a, 16-bit features, the plans the square kernels take:
// TensorTiles::cell_entries). A tile is 8 strips x 1 chunk (128 x 64 cells); tiles are numbered
// row-major (row tile r = strips 8 r .. 8 r + 7, chunk c: tile r * chunks + c) and each block, one
// a multiprocessor, takes a run of consecutive ones. A block is 8 multiplying warps and a copy
// warpgroup, one lane of which (walk_copy_lane) stages each row tile's 128 X1 rows (whole K) and
// per tile its units' runs and the chunk's 64 X2 columns, in the 128-byte swizzle wgmma reads, by
// tensor and bulk copies, ahead of the products; each stage of columns is handed over by a "full"
// and an "empty" mbarrier, the X1 lines by a third (WalkBarriers), and no warp waits at a block
// barrier. The copy warpgroup keeps few registers (setmaxnreg), and the multiplying warps take the
// rest. Each multiplying warp reads its 16 X1 rows into registers once a row tile and keeps them
// while the block walks the row's chunks. Warpgroup g multiplies rows 64 g .. + 63 by the 64
// columns (wgmma.m64n64k16, A from registers, K / 16 of them), so that warp w holds unit (strip w,
// chunk) in the unit kernel's accumulator layout. Each warp stages tile j - 1's float32 results in
// shared memory of its own (after tile j's products start, from a second set of registers, at K =
// 256; before, from the same registers, at K = 128) and writes out tile j - 1's entries from there
// while they run (no instruction reads a register the tensor cores are writing: ptxas otherwise
// waits for them): the cell's run of the unit-ordered arrays, empty where the plan left the unit to
// the CUDA cores (computed, dropped) or past the matrix (zeros staged). Its first kEntryBatch x 32
// entries were loaded while tile j - 1 was multiplied.
#pragma once

#include <cuda.h>  // CUtensorMap, the type alone (the map is encoded on the host)

#include <cstdint>

#include "cuda/bulk_copy.cuh"
#include "cuda/sddmm/sddmm_tensor_kernel.cuh"
#include "cuda/sddmm/sddmm_wgmma.cuh"

namespace sddmm::cuda {

// A unit's run of entries: [begin, end) of the unit-ordered arrays.
struct WalkRun {
  int64_t begin = 0;
  int64_t end = 0;
};

// Hands a loaded value over as if it were computed here (an empty asm statement, ordered after the
// tile's barrier wait, which is one too), so that the compiler computes nothing from it earlier: NVVM
// hoisted the output addresses of a batch loaded in one step above the next step's barrier, and
// a use of a loaded register waits for every load of the warp still in flight, the step's own.
template <typename T>
__device__ __forceinline__ T pinned(T v) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8, "a 16-, 32- or 64-bit value");
  if constexpr (sizeof(T) == 8) {
    asm volatile("" : "+l"(reinterpret_cast<unsigned long long&>(v)));
  } else if constexpr (sizeof(T) == 4) {
    asm volatile("" : "+r"(reinterpret_cast<unsigned&>(v)));
  } else {
    asm volatile("" : "+h"(reinterpret_cast<unsigned short&>(v)));
  }
  return v;
}

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
  // The run's entries after these, computed where the batch is loaded: a step that kept the run
  // itself for the writes copied a loaded register, and a copy waits for every load in flight.
  WalkRun rest;

  __device__ __forceinline__ void load(const WalkRun& run, int64_t base,
                                       const SddmmTensorArgs<typename Config::Types, I>& a, int lane) {
    rest = WalkRun{run.begin + base + 32 * kBatch, run.end};
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
      const int here = pinned(local[j]);
      const bool entry = here != kNone;
      const int place = entry ? here : 0;
      const float result = results[(place % kUnitRows) * kPitch + place / kUnitRows];
      const float scale = a.value != nullptr ? widen(pinned(value[j])) : 1.0f;
      if (entry) a.out[static_cast<int64_t>(pinned(position[j]))] = narrow<O>(scale * result);
    }
  }
};

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

// A tile of the walk and where it lies, advanced one tile at a time: the kernel divides by the
// chunk count once, not in every step (a 64-bit division is a call of some 70 instructions; with
// four of them a step the third form of this kernel took 1.85 us a tile at K = 128, against 1.55
// without them).
struct WalkCursor {
  int64_t tile;
  int64_t row_tile;
  int64_t chunk;
  int stage;  // (tile - first) % stages: the tile's place among the staged column tiles
  unsigned phase;  // (tile - first) / stages % 2: the parity of its stage barrier's phase

  __device__ __forceinline__ void advance(int64_t chunks, int stages) {
    ++tile;
    if (++chunk == chunks) {
      chunk = 0;
      ++row_tile;
    }
    if (++stage == stages) {
      stage = 0;
      phase ^= 1u;
    }
  }

  // Whether the run, which began at tile `first`, starts a row tile here (its first, or a new one):
  // where the multiplying warps read the row tile's X1 lines into registers.
  __device__ __forceinline__ bool starts_row_tile(int64_t first) const { return tile == first || chunk == 0; }
};

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

// The copy lane: lane 0 of the copy warpgroup issues every copy of the block's run (the
// warpgroup's other threads have left), each completing on an mbarrier (WalkBarriers). A row
// tile's X1 lines: a 2-D tensor copy a slice (`x1_map`: 64 K elements x 128 rows a box, swizzled by
// the copy engine; a row past the matrix lands as zeros) on the rows' barrier; each tile's X2
// columns (`x2_map`: 64 x 64 a box) and its cell offsets (a 1-D bulk copy of 10 int64: whole
// 16-byte pieces, from the even cell at or before the tile's first) on its stage's "full". The
// first kStages tiles are copied at once; a stage is filled again once its "empty" says that every
// multiplying warp is done with the tile before in it. The next row tile's X1 lines are copied as
// soon as every warp is done with the first tile of the current one (it read the lines into
// registers there), a row tile ahead: against copying them where the run enters the row tile,
// 0.4-1.7 % faster at K = 256 and 0.75-1.1 % at 128 (H200, float16, uniform 8000^2 at 3 / 4 / 5 /
// 10 %, one build, the two ways chosen at run time; bench/RESULTS.md). Every copy writes through
// the async proxy that wgmma reads through: no proxy fence. (Four copy warps' cp.async, meeting the
// multiplying warps at a block barrier a tile, took 3.6-4.1 % longer at K = 256 than this lane
// without the X1 lines ahead, and 1.4-2.2 % longer at K = 128 than this lane with them.)
template <typename Config, typename I>
__device__ __forceinline__ void walk_copy_lane(const SddmmTensorArgs<typename Config::Types, I>& a,
                                               const CUtensorMap* x1_map, const CUtensorMap* x2_map,
                                               const WalkBarriers<Config>& barriers, int64_t first, int64_t last) {
  constexpr int kSlices = Config::kSlices;
  constexpr int kStages = Config::kColumnStages;
  const unsigned aligned = barriers.aligned;
  const auto copy_rows = [&](int64_t row_tile) {
    barrier_arrive_expect_bytes(barriers.rows(), static_cast<unsigned>(Config::kRowBytes));
#pragma unroll
    for (int s = 0; s < kSlices; ++s) {
      tensor_copy_to_shared(aligned + static_cast<unsigned>(s * Config::kTileRows * kSwizzleLineBytes), x1_map,
                            s * Config::kSliceElements, static_cast<int>(row_tile * Config::kTileRows),
                            barriers.rows());
    }
  };
  const auto copy_columns = [&](const WalkCursor& at) {
    const unsigned full = barriers.full(at.stage);
    barrier_arrive_expect_bytes(full, static_cast<unsigned>(Config::kColumnBytes + Config::kRunSlotBytes));
    const unsigned stage = aligned + static_cast<unsigned>(Config::kColumnOffset + at.stage * Config::kColumnBytes);
#pragma unroll
    for (int s = 0; s < kSlices; ++s) {
      tensor_copy_to_shared(stage + static_cast<unsigned>(s * kUnitCols * kSwizzleLineBytes), x2_map,
                            s * Config::kSliceElements, static_cast<int>(at.chunk * kUnitCols), full);
    }
    const int64_t cell = (at.chunk * a.strips + at.row_tile * Config::kTileStrips) & ~int64_t{1};
    bulk_copy_to_shared(aligned + static_cast<unsigned>(Config::kRunOffset + at.stage * Config::kRunSlotBytes),
                        a.cell_entries + cell, static_cast<unsigned>(Config::kRunSlotBytes), full);
  };
  WalkCursor done{first, first / a.chunks, first % a.chunks, 0, 0};  // tile j - 1, in the loop
  WalkCursor copy = done;
  copy_rows(done.row_tile);
  for (int s = 0; s < kStages && copy.tile < last; ++s) {
    copy_columns(copy);
    copy.advance(a.chunks, kStages);
  }
  // For each tile j after the first: once every warp is done with tile j - 1, the next row tile's
  // X1 lines if tile j - 1 started a row tile and the run reaches the next, and tile j + kStages -
  // 1's columns into tile j - 1's stage.
  for (WalkCursor now = done;; done = now) {
    now.advance(a.chunks, kStages);
    if (now.tile >= last) return;
    barrier_wait(barriers.empty(done.stage), done.phase);
    if (done.starts_row_tile(first) && (done.row_tile + 1) * a.chunks < last) copy_rows(done.row_tile + 1);
    if (copy.tile < last) {
      copy_columns(copy);
      copy.advance(a.chunks, kStages);
    }
  }
}

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreadsPerBlock, Config::kMinBlocksPerSm)
    sddmm_wgmma_walk_kernel(const SddmmTensorArgs<typename Config::Types, I> a,
                            const __grid_constant__ CUtensorMap x1_map, const __grid_constant__ CUtensorMap x2_map) {
  using F = typename Config::Feature;
  constexpr int kSlices = Config::kSlices;
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

  // The wgmma descriptor of the first stage's columns; a step of the products adds its offset
  // (bytes / 16) to it instead of building each descriptor from its address. With the copies'
  // offsets computed once, the first product setting d (no zeroing) and the entries' loads from one
  // pointer each, this took the kernel from about 610 to 460 warp instructions a tile (K = 256) and
  // 1.55 to 1.43 us a tile at K = 128.
  const uint64_t b_descriptor = wgmma_descriptor(aligned + static_cast<unsigned>(Config::kColumnOffset));
  // The warp's 16 rows of the row tile's staged X1 lines (its strip), whole K, in the products' A
  // fragments, read once a row tile (ldmatrix: lane l gives row l % 16's address of 16-byte piece
  // 2 k + l / 16 of step k, where the swizzle put it). The products then read only X2 from shared
  // memory: with both operands there they took all of its bandwidth (128 bytes a cycle at one
  // m64n64k16 each 32 cycles), and the staging, the entries' reads and the copies queued behind
  // them. Held in registers (setmaxnreg: SddmmWgmmaWalkConfig::kMultiplyRegisters), 1.04-1.10x
  // faster on uniform 8000^2 at 3-10 %, K = 128 and 256 (bench/RESULTS.md).
  constexpr int kSteps = kSlices * Config::kStepsPerSlice;
  uint32_t rows[kSteps][4];
  const auto load_rows = [&] {
    const int line = 16 * warp + (lane & 15);
#pragma unroll
    for (int s = 0; s < kSlices; ++s) {
#pragma unroll
      for (int k = 0; k < Config::kStepsPerSlice; ++k) {
        const int piece = 2 * k + (lane >> 4);
        load_matrices(rows[s * Config::kStepsPerSlice + k],
                      aligned + static_cast<unsigned>(s * Config::kTileRows * kSwizzleLineBytes +
                                                      swizzled_offset(line, piece)));
      }
    }
  };
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
    if (row_tile_starts) load_rows();
    if constexpr (!Config::kDoubleSums) stage_unit_sums<Config::Unit::kResultPitch>(before, results, lane);
    const uint64_t b_stage = b_descriptor + static_cast<uint64_t>(now.stage * (Config::kColumnBytes >> 4));
    wgmma_fence();
#pragma unroll
    for (int s = 0; s < kSlices; ++s) {
#pragma unroll
      for (int k = 0; k < Config::kStepsPerSlice; ++k) {
        constexpr int kStepBytes = 32;  // 16 elements of K
        const uint64_t b_step = b_stage + ((s * kUnitCols * kSwizzleLineBytes + k * kStepBytes) >> 4);
        wgmma_64x64x16<F>(sums, rows[s * Config::kStepsPerSlice + k], b_step, s + k > 0);
      }
    }
    wgmma_commit();
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
