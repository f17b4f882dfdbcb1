// The SpMM slab kernel (SpmmSlabConfig has the shape; spmm.cu says when it is taken). X's rows are
// streamed through shared memory, a slab of consecutive rows at a time, into two buffers: while the
// block adds the entries of one slab, the next is copied (bulk copies on sm_90, cp.async before).
// Each warp owns up to kRowsPerWarp outer indices of its block's range and keeps, for each, a
// running sum in registers and its place in the entries, with two batches of 32 entries loaded
// (one a lane: the current and the one ahead, so that a load is in flight while a batch is added);
// since an outer index's inner indices ascend, the entries of a slab are the next run of its
// entries, found by a ballot and written to a stage in shared memory. Lane groups of kGroup lanes
// take one entry each from the stage (its X row read from shared memory, 16 bytes a lane), so a
// warp instruction adds kEntriesPerStep entries; at the end
// the groups' sums are added by a fixed butterfly.
//
// Against the light-row kernel (spmm_kernel.cuh), which gathers every entry's X row from L1 or L2,
// each block reads all of X once from L2 and the entries' rows from shared memory: it pays where
// the entries per row of X are many times the blocks (spmm.cu, tuning.hpp). The sum of an output
// row runs in slab order, then batch order, then by group: a fixed order, deterministic.
#pragma once

#include "cuda/bulk_copy.cuh"
#include "cuda/mma.cuh"
#include "cuda/spmm/spmm_config.cuh"

namespace sddmm::cuda {

// Queues the copy of x's rows [first, first + rows) into the buffer at shared address `target`.
// On sm_90, the first warp's bulk copies (one for the whole slab where X's rows are contiguous,
// else one a row), whose bytes complete on barrier `bar`; before sm_90, every thread's share of
// 16-byte cp.async copies, as one group. (Measured, H100, uniform-8000-6.4M, two calls whose
// light-row baselines agreed within 1 %: cp.async -> bulk copies N = 128 0.234 -> 0.211 ms, N =
// 256 0.426 -> 0.402.)
template <typename Config>
__device__ __forceinline__ void copy_slab(const float* x, int64_t x_ld, int64_t first, int rows, unsigned target,
                                          unsigned bar) {
#if SDDMM_BULK_COPY_DEVICE
  constexpr int kRowBytes = Config::kRowBytes;
  if (threadIdx.x < 32) {
    const int lane = threadIdx.x;
    if (lane == 0) barrier_arrive_expect_bytes(bar, static_cast<unsigned>(rows * kRowBytes));
    __syncwarp();  // the bytes are announced before any copy completes them
    if (x_ld * int64_t{sizeof(float)} == kRowBytes) {
      if (lane == 0 && rows > 0) bulk_copy_to_shared(target, x + first * x_ld, static_cast<unsigned>(rows * kRowBytes), bar);
    } else {
      for (int r = lane; r < rows; r += 32) {
        bulk_copy_to_shared(target + static_cast<unsigned>(r * kRowBytes), x + (first + r) * x_ld, kRowBytes, bar);
      }
    }
  }
#else
  (void)bar;
  constexpr int kRowVectors = Config::kRowVectors;
  for (int t = threadIdx.x; t < rows * kRowVectors; t += Config::kThreads) {
    const int r = t / kRowVectors, q = t % kRowVectors;
    copy_16_async(target + static_cast<unsigned>(t) * 16u, x + (first + r) * x_ld + q * 4, true);
  }
  commit_copies();
#endif
}

// Waits until slab s (in buffer s % 2; on sm_90 on barrier `bar`) has landed for every thread.
__device__ __forceinline__ void wait_slab(int64_t s, bool last, unsigned bar) {
#if SDDMM_BULK_COPY_DEVICE
  (void)last;
  barrier_wait(bar, static_cast<unsigned>((s >> 1) & 1));  // barrier s % 2's (s / 2)-th phase
#else
  (void)s;
  (void)bar;
  if (last) {
    wait_copies<0>();
  } else {
    wait_copies<1>();  // this thread's copies of slab s have landed (those of s + 1 may not) ...
  }
  __syncthreads();  // ... and every thread's
#endif
}

// acc += w * x, four lanes of a 16-byte piece.
__device__ __forceinline__ void add_scaled4(float4& acc, float w, const float4& x) {
  acc.x += w * x.x;
  acc.y += w * x.y;
  acc.z += w * x.z;
  acc.w += w * x.w;
}

// A batch of one outer index's entries, one a lane: entry base + lane's inner index and value
// (past the outer index's end: an inner index no slab reaches, value 0).
struct SlabBatch {
  int inner;  // rows of X fit int (the rule: spmm.cu)
  float value;
};

template <typename I>
__device__ __forceinline__ SlabBatch load_batch(const SpmmSlabArgs<I>& a, int64_t base, int64_t stop) {
  const int64_t e = base + (threadIdx.x & 31);
  if (e >= stop) return {static_cast<int>(a.inner), 0.0f};
  return {static_cast<int>(a.index[e]), a.value != nullptr ? a.value[e] : 1.0f};
}

// One outer index's place in its entries: the batch at base (current) and the one after it
// (ahead, loaded while the current is added), and next, the first entry not yet added.
struct SlabCursor {
  int64_t base, next, stop;
  SlabBatch current, ahead;
};

template <typename I>
__device__ __forceinline__ SlabCursor start_cursor(const SpmmSlabArgs<I>& a, int64_t begin, int64_t stop) {
  return {begin, begin, stop, load_batch(a, begin, stop), load_batch(a, begin + 32, stop)};
}

// Adds the outer index's entries whose inner index lies in the slab [first, last), from c.next on,
// and leaves c.next at the first entry past the slab; a batch used up moves on to the one ahead,
// and the batch after that is loaded. The slab's rows start at 16-byte piece `slab` of the shared
// storage at `storage` (a shared-memory address), and piece `zeros` starts a row of zeros. Each
// lane writes its entry into the warp's stage (32 + kEntriesPerStep pieces of 8 bytes, the last
// kEntriesPerStep always a row of zeros): the byte offset of its X row in the storage and its
// scale, or the row of zeros and 0 where its entry is not in the slab; a step's lane groups then
// read their entries from the stage, one 8-byte load each, with no shuffle and no branch (lane
// groups past the slab's entries read zeros). Every lane of the warp calls it with the same cursor.
template <typename Config, typename I>
__device__ __forceinline__ void add_slab_entries(const SpmmSlabArgs<I>& a, unsigned storage, int slab, int zeros,
                                                 int64_t first, int64_t last, SlabCursor& c, uint2* stage,
                                                 float4 (&acc)[Config::kVectorsPerLane]) {
  constexpr int kGroup = Config::kGroup;
  constexpr int kStep = Config::kEntriesPerStep;
  const int lane = threadIdx.x & 31;
  const int group = lane / kGroup;
  const unsigned lane_address = storage + static_cast<unsigned>(lane % kGroup) * 16u;
  while (c.next < c.stop) {
    const int from = static_cast<int>(c.next - c.base);  // the batch's lanes before it are added
    const bool in = lane >= from && c.current.inner < last;  // lanes from..from+count-1: inner indices ascend
    const int count = __popc(__ballot_sync(0xffffffffu, in));
    const int at = in ? slab + static_cast<int>(c.current.inner - first) * Config::kRowVectors : zeros;
    stage[lane] = make_uint2(static_cast<unsigned>(at) * 16u, __float_as_uint(in ? c.current.value : 0.0f));
    __syncwarp();  // the stage is written
#pragma unroll 4
    for (int u = 0; u < count; u += kStep) {
      const uint2 entry = stage[from + u + group];  // past the batch's count: a row of zeros, scale 0
      const unsigned address = lane_address + entry.x;
      const float scale = __uint_as_float(entry.y);
#pragma unroll
      for (int p = 0; p < Config::kVectorsPerLane; ++p) {
        add_scaled4(acc[p], scale, load_shared_16(address + p * kGroup * 16));
      }
    }
    __syncwarp();  // the stage is read before the next pass writes it
    c.next += count;
    if (c.next < c.base + 32) break;  // the rest of the batch lies past the slab (or the entries end)
    c.base += 32;
    c.current = c.ahead;
    c.ahead = load_batch(a, c.base + 32, c.stop);
  }
}

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreads, 1) spmm_slab_kernel(const SpmmSlabArgs<I> a) {
  constexpr int kRows = Config::kRowsPerWarp;
  constexpr int kPer = Config::kVectorsPerLane;
  constexpr int kGroup = Config::kGroup;
  extern __shared__ __align__(16) float4 slab_storage[];
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x / 32;
  const int64_t block_first = blockIdx.x * a.rows_per_block;

  SlabCursor cursor[kRows];
  float4 acc[kRows][kPer];
#pragma unroll
  for (int j = 0; j < kRows; ++j) {
    const int local = warp + j * Config::kWarps;
    const bool mine = local < a.rows_per_block && block_first + local < a.outer;
    const int64_t begin = mine ? a.offsets[block_first + local] : 0;
    cursor[j] = start_cursor(a, begin, mine ? a.offsets[block_first + local + 1] : 0);
#pragma unroll
    for (int p = 0; p < kPer; ++p) acc[j][p] = make_float4(0.f, 0.f, 0.f, 0.f);
  }

  __shared__ unsigned long long slab_barriers[2];  // sm_90: slab s completes on barrier s % 2
  __shared__ uint2 entry_stage[Config::kWarps][Config::kStageEntries];  // each warp's stage (add_slab_entries)
  const int64_t slabs = (a.inner + a.slab_rows - 1) / a.slab_rows;
  const int64_t slab_vectors = a.slab_rows * Config::kRowVectors;
  const unsigned storage = shared_address(slab_storage);
  const unsigned barriers = shared_address(slab_barriers);
  const int zeros = static_cast<int>(2 * slab_vectors);  // a row of zeros after the two slabs
  if (threadIdx.x < Config::kRowVectors) slab_storage[zeros + threadIdx.x] = make_float4(0.f, 0.f, 0.f, 0.f);
  if (lane < Config::kEntriesPerStep) entry_stage[warp][32 + lane] = make_uint2(static_cast<unsigned>(zeros) * 16u, 0u);
#if SDDMM_BULK_COPY_DEVICE
  if (threadIdx.x == 0) {
    barrier_init(barriers, 1);
    barrier_init(barriers + 8, 1);
  }
#endif
  __syncthreads();  // the row of zeros and the barriers are ready
  // Copies slab t into buffer t % 2.
  const auto copy = [&](int64_t t) {
    const int64_t from = t * a.slab_rows;
    const int64_t rows = a.inner - from < a.slab_rows ? a.inner - from : a.slab_rows;
    const unsigned buffer = static_cast<unsigned>(t & 1);
    copy_slab<Config>(a.x, a.x_ld, from, static_cast<int>(rows), storage + buffer * static_cast<unsigned>(slab_vectors * 16),
                      barriers + buffer * 8u);
  };
  if (slabs > 0) copy(0);
  for (int64_t s = 0; s < slabs; ++s) {
    if (s + 1 < slabs) copy(s + 1);  // into the buffer slab s - 1 used: every thread is past it
    const int64_t first = s * a.slab_rows;
    const int64_t last = first + a.slab_rows < a.inner ? first + a.slab_rows : a.inner;
    wait_slab(s, s + 1 == slabs, barriers + static_cast<unsigned>((s & 1) * 8));
    const int slab = static_cast<int>((s & 1) * slab_vectors);
#pragma unroll
    for (int j = 0; j < kRows; ++j) {
      add_slab_entries<Config, I>(a, storage, slab, zeros, first, last, cursor[j], entry_stage[warp], acc[j]);
    }
    __syncthreads();  // nobody reads this buffer when the next iteration's copy into it starts
  }

#pragma unroll
  for (int j = 0; j < kRows; ++j) {
    const int local = warp + j * Config::kWarps;
    const bool mine = local < a.rows_per_block && block_first + local < a.outer;  // the same in every lane
    if (!mine) continue;
#pragma unroll
    for (int p = 0; p < kPer; ++p) {
      for (int offset = kGroup; offset < 32; offset *= 2) {
        acc[j][p].x += __shfl_xor_sync(0xffffffffu, acc[j][p].x, offset);
        acc[j][p].y += __shfl_xor_sync(0xffffffffu, acc[j][p].y, offset);
        acc[j][p].z += __shfl_xor_sync(0xffffffffu, acc[j][p].z, offset);
        acc[j][p].w += __shfl_xor_sync(0xffffffffu, acc[j][p].w, offset);
      }
    }
    if (lane < kGroup) {
      float* yr = a.y + (block_first + local) * a.y_ld;
#pragma unroll
      for (int p = 0; p < kPer; ++p) *reinterpret_cast<float4*>(yr + (lane + p * kGroup) * 4) = acc[j][p];
    }
  }
}

}  // namespace sddmm::cuda
