// SDDMM on Hopper's warpgroup tensor-core instructions, walking tiles with the X1 rows held
// (SddmmWgmmaWalkConfig; sm_90a, 16-bit features, the plans the square kernels take:
// TensorTiles::cell_entries). A tile is 8 strips x 1 chunk (128 x 64 cells); tiles are numbered
// row-major (row tile r = strips 8 r .. 8 r + 7, chunk c: tile r * chunks + c) and each block, one
// a multiprocessor, takes a run of consecutive ones. A block is 8 multiplying warps and 4 copy
// warps, which stage the row tile's 128 X1 rows once (whole K) and per tile its units' runs and
// the chunk's 64 X2 columns, in the 128-byte swizzle wgmma reads, ahead of the products: at K = 128
// the four warps by cp.async, kColumnStages - 1 tiles ahead, meeting the multiplying warps at a
// block barrier a tile (walk_copy_warp); at K = 256 one lane by tensor and bulk copies, a stage
// handed over by a "full" and an "empty" mbarrier (walk_copy_lane; Config::kTensorCopies). The
// copy warps keep few registers (setmaxnreg), and the multiplying warps take the rest. Each multiplying
// warp reads its 16 X1 rows into registers once a row tile and keeps them while the block walks the
// row's chunks. Warpgroup g multiplies rows 64 g .. + 63 by the 64 columns (wgmma.m64n64k16, A from
// registers, K / 16 of them), so that warp w holds unit (strip w, chunk) in the unit kernel's
// accumulator layout. Each warp stages tile j - 1's float32 results in shared memory of its own
// (after tile j's products start, from a second set of registers, at K = 256; before, from the same
// registers, at K = 128) and writes out tile j - 1's entries from there while they run (no
// instruction reads a register the tensor cores are writing: ptxas otherwise waits for them): the
// cell's run of the unit-ordered arrays, empty where the plan left the unit to the CUDA cores
// (computed, dropped) or past the matrix (zeros staged). Its first kEntryBatch x 32 entries were
// loaded while tile j - 1 was multiplied.
#pragma once

#include <cuda.h>  // CUtensorMap, the type alone (the map is encoded on the host)

#include <cstdint>

#include "cuda/bulk_copy.cuh"
#include "cuda/sddmm/sddmm_tensor_kernel.cuh"
#include "cuda/sddmm/sddmm_tensor_square_kernel.cuh"
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

  // Whether the run, which began at tile `first`, enters a new row tile here: where the copy warps
  // replace the X1 lines and the multiplying warps wait for them (the first row tile's come with
  // the run's first group).
  __device__ __forceinline__ bool enters_row_tile(int64_t first) const { return tile != first && chunk == 0; }
};

// The mbarriers of a walk by tensor copies (Config::kTensorCopies), at their shared addresses, the
// layout starting at `aligned`: stage s's "full" (one arrival, the copy lane's, and the bytes of
// the tile's columns and cell offsets: they have landed) and "empty" (an arrival of each of the
// multiplying warps' threads once its products have read the stage and it has read the offsets),
// and the X1 lines' "full" (one arrival and their bytes).
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

// The barrier the copy warps and the multiplying warps meet at, from their own code: barrier 1 with
// an explicit count of threads, in its unaligned form (barrier.sync; bar.sync is
// barrier.sync.aligned, which promises that the warps of a generation execute one and the same
// instruction: compute-sanitizer's synccheck reports each of them as a divergent barrier, as it
// does __syncthreads reached so).
template <int kThreads>
__device__ __forceinline__ void walk_barrier() {
#if defined(__CUDA_ARCH__)
  asm volatile("barrier.sync 1, %0;\n" ::"n"(kThreads) : "memory");
#endif
}

// Copy warp `copier` (warp Config::kCopyWarp + copier, of Config::kCopyWarps) where the copies are
// cp.async (K = 128): copies its share of the X1 lines of each row tile and of each tile's X2
// columns, kStages - 1 tiles ahead, in the 128-byte swizzle, and (copier 0) each tile's cell
// offsets. The other warps only multiply and write. The copy warps meet them at the same block
// barriers, step for step: where a row tile starts (every warpgroup done with the X1 lines) and
// before each tile (its columns and offsets in, the stage of the tile before free), each having
// waited for its own copies. cp.async writes do not go through the async proxy that wgmma reads
// through, so the copy warps fence them (fence.proxy.async: MEMBAR.ALL.CTA in SASS, which also
// waits for every load of the thread in flight: in this kernel's first form every warp copied,
// fenced and loaded entries).
// Copy instruction i of a group covers lines 4 i .. 4 i + 3, lane l piece l % 8 of line 4 i + l / 8;
// copier c issues a run of them, i = base + j, base even (kRowShare, kColumnShare below). Lines 4
// apart alternate between two places in the swizzle atom (lines 8 apart share one), hence the two
// offsets, picked by j's parity.
template <typename Config, typename I>
__device__ __forceinline__ void walk_copy_warp(const SddmmTensorArgs<typename Config::Types, I>& a, unsigned aligned,
                                               int64_t first, int64_t last, int lane, int copier) {
  using F = typename Config::Feature;
  constexpr int kSlices = Config::kSlices;
  constexpr int kStages = Config::kColumnStages;
  constexpr int kPieces = kSwizzleLineBytes / 16;  // 16-byte pieces of a staged line
  constexpr int kPieceElements = 16 / static_cast<int>(sizeof(F));
  constexpr int kLineStep = 32 / kPieces;          // lines a copy instruction of the warp covers
  static_assert(kLineStep == 4, "lines 4 apart: two places in the swizzle atom");
  const int piece = lane % kPieces;
  const int line = lane / kPieces;
  const unsigned offset[2] = {static_cast<unsigned>(swizzled_offset(line, piece)),
                              static_cast<unsigned>(swizzled_offset(line + kLineStep, piece))};
  // Copy i = base + j (base even) takes line line + 4 i: offset[j % 2] + (i / 2) atoms from the start.
  const auto line_target = [&](unsigned start, int base, int j) {
    return start + offset[j % 2] + static_cast<unsigned>((base / 2 + j / 2) * kSwizzleAtomBytes);
  };
  constexpr int kRowShare = Config::kTileRows / kLineStep / Config::kCopyWarps;  // copies of a group
  constexpr int kColumnShare = kUnitCols / kLineStep / Config::kCopyWarps;
  const int row_base = copier * kRowShare;
  const int column_base = copier * kColumnShare;
  // This warp's share of an operand's lines, slice-major: `lines` lines a slice at shared address
  // `start`, line `first` + i of the operand (its pointer and leading dimension) at line i, lines
  // from `limit` on past the matrix (nothing read: the source stays the operand's first element).
  const auto copy_lines = [&](unsigned start, int lines, const F* operand, int64_t ld, int64_t first_line,
                              int64_t limit, int share, int base) {
    const int64_t my_line = first_line + line + base * kLineStep;
    const F* const source = operand + my_line * ld + piece * kPieceElements;
#pragma unroll 4
    for (int j = 0; j < share; ++j) {
      const bool inside = my_line + j * kLineStep < limit;
      const F* const from = inside ? source + j * kLineStep * ld : operand;
#pragma unroll
      for (int s = 0; s < kSlices; ++s) {
        copy_16_async(line_target(start + static_cast<unsigned>(s * lines * kSwizzleLineBytes), base, j),
                      from + (inside ? s * Config::kSliceElements : 0), inside);
      }
    }
  };
  const auto copy_rows = [&](int64_t row_tile) {  // the row tile's X1 lines
    copy_lines(aligned, Config::kTileRows, a.x1, a.x1_ld, row_tile * Config::kTileRows, a.rows, kRowShare, row_base);
  };
  // One group of copies, empty past the run: the offsets of the tile's 9 cells (chunk, strips 8 r ..
  // 8 r + 8; past the last strip, its end), from which warp w takes its unit's run [offset w,
  // offset w + 1) (copier 0); and the chunk's 64 X2 columns, slice-major (a column past the matrix
  // lands as zeros).
  const auto copy_columns = [&](const WalkCursor& at) {
    if (at.tile < last) {
      if (copier == 0 && lane <= Config::kTileStrips) {
        const int64_t strip = at.row_tile * Config::kTileStrips + lane;
        copy_8_async(aligned + static_cast<unsigned>(Config::kRunOffset + at.stage * Config::kRunSlotBytes +
                                                     lane * sizeof(int64_t)),
                     a.cell_entries + at.chunk * a.strips + (strip < a.strips ? strip : a.strips));
      }
      const unsigned stage = aligned + static_cast<unsigned>(Config::kColumnOffset + at.stage * Config::kColumnBytes);
      copy_lines(stage, kUnitCols, a.x2, a.x2_ld, at.chunk * kUnitCols, a.cols, kColumnShare, column_base);
    }
    commit_copies();
  };

  WalkCursor now{first, first / a.chunks, first % a.chunks, 0, 0};
  WalkCursor copy = now;
  // The first row tile's X1 lines join the first tile's group; kStages - 1 groups in flight.
  copy_rows(now.row_tile);
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    copy_columns(copy);
    copy.advance(a.chunks, kStages);
  }
  for (; now.tile < last; now.advance(a.chunks, kStages)) {
    if (now.enters_row_tile(first)) {
      // A new row tile: the columns in flight land first, so that the groups stay in order; then,
      // once every warpgroup is done with the X1 lines, this row tile's.
      wait_copies<0>();
      walk_barrier<Config::kThreadsPerBlock>();
      copy_rows(now.row_tile);
      commit_copies();
      wait_copies<0>();
    }
    // This tile's offsets and columns are in; after the barrier every warpgroup is done with tile
    // j - 1, whose stage the copies reuse.
    wait_copies<kStages - 2>();
    fence_proxy_async();
    walk_barrier<Config::kThreadsPerBlock>();
    copy_columns(copy);
    copy.advance(a.chunks, kStages);
  }
}

// The copy lane where the copies are tensor and bulk copies (K = 256: Config::kTensorCopies): lane 0
// of the first copy warp issues every copy of the run (the copy warps' other threads have left),
// each completing on an mbarrier (WalkBarriers). A row tile's X1 lines: a 2-D tensor copy a slice
// (`x1_map`: 64 K elements x 128 rows a box, swizzled by the copy engine) on the rows' barrier; each
// tile's X2 columns (`x2_map`: 64 x 64 a box; a column past the matrix lands as zeros) and its cell
// offsets (a 1-D bulk copy of 10 int64: whole 16-byte pieces, from the even cell at or before the
// tile's first) on its stage's "full". A stage is filled again once its "empty" says that every
// multiplying warp is done with the tile before in it; that also frees the X1 lines where the next
// tile starts a row tile (the warps read them into registers at their row tile's first tile).
// Every copy writes through the async proxy that wgmma reads through: no proxy fence; and no thread
// waits at a block barrier. The first kStages tiles are copied at once.
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
  // For each tile j after the first: once every warp is done with tile j - 1, its X1 lines where it
  // starts a row tile, and tile j + kStages - 1's columns into tile j - 1's stage.
  for (WalkCursor now = done;; done = now) {
    now.advance(a.chunks, kStages);
    if (now.tile >= last) return;
    barrier_wait(barriers.empty(done.stage), done.phase);
    if (now.chunk == 0) copy_rows(now.row_tile);
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
  if constexpr (Config::kTensorCopies) {
    if (threadIdx.x == 0) barriers.init();
    __syncthreads();  // the barriers are ready
  }
  if (warp >= Config::kCopyWarp) {
    warpgroup_registers<RegisterMove::kRelease, Config::kCopyRegisters>();
    if constexpr (Config::kTensorCopies) {
      if (warp == Config::kCopyWarp && lane == 0) walk_copy_lane<Config, I>(a, &x1_map, &x2_map, barriers, first, last);
    } else {
      walk_copy_warp<Config, I>(a, aligned, first, last, lane, warp - Config::kCopyWarp);
    }
    return;
  }
  warpgroup_registers<RegisterMove::kClaim, Config::kMultiplyRegisters>();
  float* const results = reinterpret_cast<float*>(shared_raw + (aligned - raw) + Config::kResultOffset) +
                         warp * (kUnitRows * Config::Unit::kResultPitch);
  // Each stage's cell offsets (walk_copy_warp, walk_copy_lane), this warp's first.
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
  // Tile j (`now`) in two halves. start(): once tile j's copies are in (cp.async: the block's
  // barriers, the copy warps', in walk_copy_warp, one for one; tensor copies: the stage's "full"
  // and, where a row tile starts, the X1 lines' barrier, whose phases `rows_phase` counts), the
  // warp's X1 rows are read where a row tile starts, tile j's products start into `sums`, and tile
  // j - 1's sums (`before`) are staged: before the products where they share registers, after them
  // where they do not (in the first step the batch before holds no entries).
  unsigned rows_phase = 0;
  const auto start = [&](float (&sums)[32], float (&before)[32]) {
    const bool row_tile_starts = now.tile == first || now.chunk == 0;  // the run's first row tile, or a new one
    if constexpr (Config::kTensorCopies) {
      if (row_tile_starts) {
        barrier_wait(barriers.rows(), rows_phase);
        rows_phase ^= 1u;
      }
      barrier_wait(barriers.full(now.stage), now.phase);
    } else {
      if (now.enters_row_tile(first)) walk_barrier<Config::kThreadsPerBlock>();  // X1 lines free
      walk_barrier<Config::kThreadsPerBlock>();  // tile j's columns (and rows) in, tile j - 1 done
    }
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
  // (`mine`); then the products' end (with tensor copies, the thread's arrival at the stage's
  // "empty"). In this order: every load of a warp counts on one scoreboard, so a value loaded in
  // the step before, used after this step's loads were issued, would wait for them too.
  const auto finish = [&](Batch& mine, const Batch& before, float (&sums)[32]) {
    // (A branch the compiler cannot decide keeps the writes, the first use of the loads of the step
    // before, after the products' start: ptxas otherwise moved that use above them.)
    if (a.out != nullptr) write_walk_entries<Config, I>(before, results, a, lane);
    const int64_t* const run = runs + now.stage * (Config::kRunSlotBytes / sizeof(int64_t));
    const int stage = now.stage;
    if constexpr (Config::kTensorCopies) {
      // The slot's 10 offsets start at the even cell at or before the tile's first (walk_copy_lane):
      // one cell earlier where chunk x strips is odd. A strip past the matrix has no run (the slot
      // holds the next chunk's offsets there).
      const int shift = static_cast<int>(now.chunk & a.strips & 1);
      const int64_t begin = run[shift];
      mine.load(WalkRun{begin, now.row_tile * Config::kTileStrips + warp < a.strips ? run[shift + 1] : begin}, 0, a,
                lane);
    } else {
      mine.load(WalkRun{run[0], run[1]}, 0, a, lane);
    }
    now.advance(a.chunks, kStages);
    wgmma_wait<0>(sums);
    if constexpr (Config::kTensorCopies) barrier_arrive(barriers.empty(stage));  // done with the stage
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
