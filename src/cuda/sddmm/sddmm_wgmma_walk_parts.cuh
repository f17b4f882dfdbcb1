// The parts of the wgmma walk kernels (SddmmWgmmaWalkShape: sddmm_wgmma_walk_kernel.cuh at K = 128,
// sddmm_wgmma_walk_entry_warps_kernel.cuh at K = 256) that both take as they are: a unit's run of
// entries, a batch of them loaded a tile ahead of their writes, the cursor over the walk's tiles,
// and the copy lane. Tiles are 8 strips x 1 chunk (128 x 64 cells), numbered row-major (row tile r
// = strips 8 r .. 8 r + 7, chunk c: tile r * chunks + c); each block, one a multiprocessor, takes a
// run of consecutive ones.
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

// Hands a loaded value over as if it were computed here (an empty asm statement, ordered after a
// barrier wait, which is one too), so that the compiler computes nothing from it earlier: NVVM
// hoisted the output addresses of a batch loaded a tile ahead above the wait for the tile's
// results, and a use of a loaded register waits for every load of the warp still in flight.
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
  static constexpr unsigned kNone = 0x10000;  // no entry: beyond any 16-bit place
  unsigned local[kBatch];
  I position[kBatch];
  V value[kBatch];
  // The run's entries after these, computed where the batch is loaded: a step that kept the run
  // itself for the writes copied a loaded register, and a copy waits for every load in flight.
  WalkRun rest;

  __device__ __forceinline__ void load(const WalkRun& run, int64_t base,
                                       const SddmmTensorArgs<typename Config::Types, I>& a, int lane) {
    rest = WalkRun{run.begin + base + 32 * kBatch, run.end};
    const int64_t start = run.begin + base + lane;
    // The lane's entries of the batch (from its first on, at most the batch's): counted in 32 bits,
    // so that each slot tests one comparison and predicates its loads, where the 64-bit count took
    // two comparisons and a branch region a slot. With the places unsigned (store()), 2.6-3.1 %
    // faster at K = 128 and 0.1-1.6 % at 256 (H200, 2026-12-01, float16 and bfloat16, uniform
    // 8000^2 at 3 / 4 / 5 / 10 %, means of three rounds; bench/RESULTS.md): the writing warps' path
    // through a tile is part of the tile's time (a fifth, empty slot cost about 4 us at K = 256).
    const int64_t after = run.end - start;
    const int left = after <= 0 ? 0 : static_cast<int>(after < 32 * kBatch ? after : 32 * kBatch);
    const uint16_t* const local_at = a.local + start;
    const I* const position_at = a.out_position + start;
    const bool values = a.value != nullptr;
    const V* const value_at = values ? a.value + start : a.value;
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      const bool here = 32 * j < left;
      local[j] = here ? local_at[32 * j] : kNone;
      if (here) position[j] = position_at[32 * j];
      if (here && values) value[j] = value_at[32 * j];
    }
  }

  // A place's staged result in a unit's results (place: column * 16 + row, unsigned: its row and
  // column by a mask and a shift).
  static __device__ __forceinline__ unsigned result_index(unsigned place) {
    return (place % kUnitRows) * Config::Unit::kResultPitch + place / kUnitRows;
  }

  // Writes each loaded entry: A's value (1 without values) times its staged result. The staged
  // result is read for every slot (place 0 where there is no entry) so that only the store is
  // predicated.
  __device__ __forceinline__ void store(const float* results,
                                        const SddmmTensorArgs<typename Config::Types, I>& a) const {
    using O = typename Config::Types::Output;
#pragma unroll
    for (int j = 0; j < kBatch; ++j) {
      const unsigned here = pinned(local[j]);
      const bool entry = here != kNone;
      const float result = results[result_index(entry ? here : 0u)];
      const float scale = a.value != nullptr ? widen(pinned(value[j])) : 1.0f;
      if (entry) a.out[static_cast<int64_t>(pinned(position[j]))] = narrow<O>(scale * result);
    }
  }
};

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

  // The run of the tile's strip `strip_in_tile` (of `tile_strips`) in the plan's cell index
  // (TensorTiles::cell_entries); none past the matrix.
  template <typename P, typename I>
  __device__ __forceinline__ WalkRun unit_run(const SddmmTensorArgs<P, I>& a, int strip_in_tile,
                                              int tile_strips) const {
    const int64_t strip = row_tile * tile_strips + strip_in_tile;
    if (strip >= a.strips) return WalkRun{};
    const int64_t* const cell = a.cell_entries + chunk * a.strips + strip;
    return WalkRun{cell[0], cell[1]};
  }
};

// The copy lane: lane 0 of the copy warpgroup issues every copy of the block's run (the
// warpgroup's other threads have left), each completing on an mbarrier of `barriers` (the
// kernel's: full(stage), empty(stage), rows()). A row tile's X1 lines: a 2-D tensor copy a slice
// (`x1_map`: 64 K elements x 128 rows a box, swizzled by the copy engine; a row past the matrix
// lands as zeros) on the rows' barrier; each tile's X2 columns (`x2_map`: 64 x 64 a box) and, with
// Config::kRunSlotBytes, its cell offsets (a 1-D bulk copy of 10 int64: whole 16-byte pieces,
// from the even cell at or before the tile's first) on its stage's "full". The first kStages tiles
// are copied at once; a stage is filled again once its "empty" says that every multiplying warp is
// done with the tile before in it. The next row tile's X1 lines are copied as
// soon as every warp is done with the first tile of the current one (it read the lines into
// registers there), a row tile ahead: against copying them where the run enters the row tile,
// 0.4-1.7 % faster at K = 256 and 0.75-1.1 % at 128 (H200, float16, uniform 8000^2 at 3 / 4 / 5 /
// 10 %, one build, the two ways chosen at run time; bench/RESULTS.md). Every copy writes through
// the async proxy that wgmma reads through: no proxy fence. (Four copy warps' cp.async, meeting the
// multiplying warps at a block barrier a tile, took 3.6-4.1 % longer at K = 256 than this lane
// without the X1 lines ahead, and 1.4-2.2 % longer at K = 128 than this lane with them.)
template <typename Config, typename I, typename Barriers>
__device__ __forceinline__ void walk_copy_lane(const SddmmTensorArgs<typename Config::Types, I>& a,
                                               const CUtensorMap* x1_map, const CUtensorMap* x2_map,
                                               const Barriers& barriers, int64_t first, int64_t last) {
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
    if constexpr (Config::kRunSlotBytes > 0) {
      const int64_t cell = (at.chunk * a.strips + at.row_tile * Config::kTileStrips) & ~int64_t{1};
      bulk_copy_to_shared(aligned + static_cast<unsigned>(Config::kRunOffset + at.stage * Config::kRunSlotBytes),
                          a.cell_entries + cell, static_cast<unsigned>(Config::kRunSlotBytes), full);
    }
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

// A multiplying warp's X1 rows and products. `aligned`: the walk's shared memory, whose X1 lines
// (slice-major: slice s holds the row tile's 128 rows' 128-byte lines) and X2 stages
// (Config::kColumnOffset on) lie where SddmmWgmmaWalkShape says.
template <typename Config>
struct WalkProducts {
  using F = typename Config::Feature;
  static constexpr int kSteps = Config::kSlices * Config::kStepsPerSlice;  // wgmma k16 steps

  // The wgmma descriptor of the first stage's columns; a step of the products adds its offset
  // (bytes / 16) to it instead of building each descriptor from its address. With the copies'
  // offsets computed once, the first product setting d (no zeroing) and the entries' loads from one
  // pointer each, this took the kernel from about 610 to 460 warp instructions a tile (K = 256) and
  // 1.55 to 1.43 us a tile at K = 128.
  static __device__ __forceinline__ uint64_t first_stage(unsigned aligned) {
    return wgmma_descriptor(aligned + static_cast<unsigned>(Config::kColumnOffset));
  }

  // Warp `warp`'s 16 rows of the row tile's staged X1 lines (its strip), whole K, in the products'
  // A fragments, read once a row tile (ldmatrix: lane l gives row l % 16's address of 16-byte piece
  // 2 k + l / 16 of step k, where the swizzle put it). The products then read only X2 from shared
  // memory: with both operands there they took all of its bandwidth (128 bytes a cycle at one
  // m64n64k16 each 32 cycles), and the staging, the entries' reads and the copies queued behind
  // them. Held in registers (setmaxnreg: the configs' kMultiplyRegisters), 1.04-1.10x faster on
  // uniform 8000^2 at 3-10 %, K = 128 and 256 (bench/RESULTS.md).
  static __device__ __forceinline__ void load_rows(uint32_t (&rows)[kSteps][4], unsigned aligned, int warp, int lane) {
    const int line = 16 * warp + (lane & 15);
#pragma unroll
    for (int s = 0; s < Config::kSlices; ++s) {
#pragma unroll
      for (int k = 0; k < Config::kStepsPerSlice; ++k) {
        const int piece = 2 * k + (lane >> 4);
        load_matrices(rows[s * Config::kStepsPerSlice + k],
                      aligned + static_cast<unsigned>(s * Config::kTileRows * kSwizzleLineBytes +
                                                      swizzled_offset(line, piece)));
      }
    }
  }

  // The warpgroup's products of a tile into `sums` (the first step sets them): its rows by the 64
  // columns of the stage at descriptor `b_stage`, K / 16 wgmma.m64n64k16 in one committed group.
  static __device__ __forceinline__ void issue(float (&sums)[32], const uint32_t (&rows)[kSteps][4], uint64_t b_stage) {
    wgmma_fence();
#pragma unroll
    for (int s = 0; s < Config::kSlices; ++s) {
#pragma unroll
      for (int k = 0; k < Config::kStepsPerSlice; ++k) {
        constexpr int kStepBytes = 32;  // 16 elements of K
        const uint64_t b_step = b_stage + ((s * kUnitCols * kSwizzleLineBytes + k * kStepBytes) >> 4);
        wgmma_64x64x16<F>(sums, rows[s * Config::kStepsPerSlice + k], b_step, s + k > 0);
      }
    }
    wgmma_commit();
  }
};

}  // namespace sddmm::cuda
