// The SpMM kernel. It walks a row's entries in plan order and reduces in a fixed order: results are
// deterministic, with no atomics and no workspace. One launch, two kinds of block:
//  - heavy_row: one block per (heavy row, column tile); its lane groups take contiguous slices of
//    the row, their partial sums are added by shuffles in each warp, then in warp order.
//  - light_rows: a persistent grid, one lane group per light row (several rows per warp when N is
//    small), or a warp per row when the rows are few and long.
#pragma once

#include "cuda/l2_hints.cuh"
#include "cuda/line_address.cuh"
#include "cuda/precision.cuh"
#include "cuda/spmm/spmm_config.cuh"
#include "cuda/vector.cuh"

namespace sddmm::cuda {

// x(i, j .. j + kVec) for the strided and the vector path.
template <typename Config, typename I>
__device__ __forceinline__ HeldVector<typename Config::Feature, Config::kVec> load_x(
    const SpmmArgs<typename Config::Types, I>& a, int64_t i, int64_t j) {
  using F = typename Config::Feature;
  if constexpr (Config::kLineAddresses) {
    return load_held<F, Config::kVec>(line_at(a.x + j, static_cast<I>(i), a.x_row_stride, a.x_row_pitch));
  }
  const F* xr = a.x + i * a.x_row_stride;
  if constexpr (Config::kStrided) {
    return HeldVector<F, 1>{{xr[j * a.x_col_stride]}};
  } else {
    return load_held<F, Config::kVec>(xr + j);
  }
}

// A lane's kVec running sums of one output row.
template <typename Config>
using AccVector = Vector<typename Config::Accumulator, Config::kVec>;

// acc += scale * x.
template <typename Config>
__device__ __forceinline__ void add_scaled(AccVector<Config>& acc, typename Config::Accumulator scale,
                                           const HeldVector<typename Config::Feature, Config::kVec>& x) {
  const AccVector<Config> w = widen_held<typename Config::Accumulator, typename Config::Feature, Config::kVec>(x);
#pragma unroll
  for (int t = 0; t < Config::kVec; ++t) acc.v[t] += scale * w.v[t];
}

// The lanes of this lane's group (a.group lanes, aligned) as a shuffle mask.
__device__ __forceinline__ unsigned group_mask(int group) {
  const int first = (threadIdx.x & 31) & ~(group - 1);
  return group == 32 ? 0xffffffffu : ((1u << group) - 1u) << first;
}

// Bit u set where entry e + u's X row is hot (kL2Hints configurations; 0 in the others).
template <typename Config, int kN, typename I>
__device__ __forceinline__ unsigned hot_bits(const SpmmArgs<typename Config::Types, I>& a, int64_t e) {
  unsigned bits = 0;
  if constexpr (Config::kL2Hints) {
#pragma unroll
    for (int u = 0; u < kN; ++u) {
      bits |= static_cast<unsigned>(load_class(a.x_class + e + u, make_l2_policies().pass) >= a.hot_class) << u;
    }
  }
  return bits;
}

// acc += scale[u] * x(index[u], j .. j + kVec) for u < count (kN unless a round is masked), in
// that order: the X rows are all gathered before the arithmetic, so that up to kN gathers are
// outstanding per lane instead of one. Every path below ends its round here, whatever loaded the
// round's indices and scales; entries from `count` on are neither read nor added. kL2Hints
// configurations load row u evict_last where bit u of `hot` is set, else evict_first.
template <typename Config, int kN, typename I, typename Index>
__device__ __forceinline__ void gather_and_add(const SpmmArgs<typename Config::Types, I>& a, const Index (&index)[kN],
                                               const typename Config::Accumulator (&scale)[kN], unsigned hot, int64_t j,
                                               AccVector<Config>& acc, int count = kN) {
  using F = typename Config::Feature;
  HeldVector<F, Config::kVec> xv[kN];
  if constexpr (Config::kL2Hints) {
    const L2Policies policy = make_l2_policies();
#pragma unroll
    for (int u = 0; u < kN; ++u) {
      const F* row = a.x + static_cast<int64_t>(index[u]) * a.x_row_stride + j;
      if (u < count) xv[u] = load_held_hinted<F, Config::kVec>(row, (hot >> u) & 1u ? policy.keep : policy.pass);
    }
  } else {
#pragma unroll
    for (int u = 0; u < kN; ++u) {
      if (u < count) xv[u] = load_x<Config, I>(a, static_cast<int64_t>(index[u]), j);
    }
  }
#pragma unroll
  for (int u = 0; u < kN; ++u) {
    if (u < count) add_scaled<Config>(acc, scale[u], xv[u]);
  }
}

// Entry e's scale: A's value, or 1 where the plan stores no values.
template <typename Config, typename I>
__device__ __forceinline__ typename Config::Accumulator entry_scale(const SpmmArgs<typename Config::Types, I>& a,
                                                                    int64_t e) {
  using Acc = typename Config::Accumulator;
  return a.value != nullptr ? Acc(widen(a.value[e])) : Acc(1);
}

// acc += value[e + u] * x(index[e + u], j .. j + kVec) for u < kN, in that order: the kN entries'
// indices and values loaded first, then gather_and_add.
template <typename Config, int kN, typename I>
__device__ __forceinline__ void add_entries_in_flight(const SpmmArgs<typename Config::Types, I>& a, int64_t e,
                                                      int64_t j, AccVector<Config>& acc) {
  int64_t idx[kN];
  typename Config::Accumulator scale[kN];
#pragma unroll
  for (int u = 0; u < kN; ++u) {
    idx[u] = static_cast<int64_t>(a.index[e + u]);
    scale[u] = entry_scale<Config, I>(a, e + u);
  }
  gather_and_add<Config, kN, I>(a, idx, scale, hot_bits<Config, kN, I>(a, e), j, acc);
}

// The rounds of add_entries_in_flight from e while a whole round is left, each round's successor's
// indices loaded before this round's X rows are gathered (SpmmConfig::kPrefetchIndices): a round's
// gathers then wait on one load (the X row) instead of two (its index, then the X row). The same
// additions in the same order. Returns the first entry not added.
template <typename Config, typename I>
__device__ __forceinline__ int64_t add_rounds_prefetched(const SpmmArgs<typename Config::Types, I>& a, int64_t e,
                                                         int64_t end, int64_t j, AccVector<Config>& acc) {
  constexpr int kU = Config::kEntriesInFlight;
  if (e + kU > end) return e;
  I next[kU];
#pragma unroll
  for (int u = 0; u < kU; ++u) next[u] = a.index[e + u];
  for (; e + kU <= end; e += kU) {
    I idx[kU];
#pragma unroll
    for (int u = 0; u < kU; ++u) idx[u] = next[u];
    if (e + 2 * kU <= end) {
#pragma unroll
      for (int u = 0; u < kU; ++u) next[u] = a.index[e + kU + u];
    }
    typename Config::Accumulator scale[kU];
#pragma unroll
    for (int u = 0; u < kU; ++u) scale[u] = entry_scale<Config, I>(a, e + u);
    gather_and_add<Config, kU, I>(a, idx, scale, hot_bits<Config, kU, I>(a, e), j, acc);
  }
  return e;
}

// kN consecutive elements from p in 16-byte loads (p 16-byte aligned, kN * sizeof(T) a multiple
// of 16).
template <typename T, int kN>
__device__ __forceinline__ void load_run(const T* p, T (&out)[kN]) {
  constexpr int kPerLoad = 16 / static_cast<int>(sizeof(T));
  static_assert(16 % sizeof(T) == 0 && kN % kPerLoad == 0, "whole 16-byte pieces");
#pragma unroll
  for (int c = 0; c < kN / kPerLoad; ++c) {
    const Vector<T, kPerLoad> piece = load_vector<T, kPerLoad>(p + c * kPerLoad);
#pragma unroll
    for (int t = 0; t < kPerLoad; ++t) out[c * kPerLoad + t] = piece.v[t];
  }
}

// Entries in 16 bytes of the narrower of the index and value arrays: a round that starts at a
// multiple of it loads its indices and values in 16-byte pieces (the plan's arrays are carved
// 256-byte aligned, cuda/carved.cuh, Carver::kPieceAlignment).
template <typename Config, typename I>
constexpr int vector_round_alignment() {
  constexpr size_t value = sizeof(typename Config::Types::Value);
  return static_cast<int>(16 / (sizeof(I) < value ? sizeof(I) : value));
}

// The first `count` (< kN) of the kN entries from e in one round, entries past `count` masked:
// every group of a warp runs the same instructions, whatever its count.
template <typename Config, int kN, typename I>
__device__ __forceinline__ void add_first_entries(const SpmmArgs<typename Config::Types, I>& a, int64_t e, int count,
                                                  int64_t j, AccVector<Config>& acc) {
  I idx[kN];
  typename Config::Accumulator scale[kN];
#pragma unroll
  for (int u = 0; u < kN; ++u) {
    if (u < count) {
      idx[u] = a.index[e + u];
      scale[u] = entry_scale<Config, I>(a, e + u);
    }
  }
  gather_and_add<Config, kN, I>(a, idx, scale, 0u, j, acc, count);
}

// The sum of the few-rows form for long rows (SpmmConfig::kVectorRounds), in entry order: the
// entries before the first index that is a multiple of vector_round_alignment in one masked round,
// then whole rounds of kU whose indices and values come in 16-byte loads, each round's successor's
// indices loaded before this round's X rows are gathered, then rounds of 4 and single entries as in
// accumulate_entries. For int32 indices and float32 values a round issues 4 + 4 index and value
// loads where accumulate_entries issues 16 + 16; every lane of a group loads the same addresses, so
// those were most of the few-rows kernel's L1 wavefronts (ncu: bench/RESULTS.md).
template <typename Config, typename I>
__device__ __forceinline__ AccVector<Config> accumulate_entries_vector(const SpmmArgs<typename Config::Types, I>& a,
                                                                       int64_t begin, int64_t end, int64_t j) {
  using Acc = typename Config::Accumulator;
  constexpr int kU = Config::kEntriesInFlight;
  constexpr int kAlign = vector_round_alignment<Config, I>();
  static_assert(Config::kPrefetchIndices && kAlign > 1 && kU % kAlign == 0, "whole rounds keep their alignment");
  AccVector<Config> acc;
#pragma unroll
  for (int t = 0; t < Config::kVec; ++t) acc.v[t] = Acc(0);
  int64_t e = begin;
  if (e + kU <= end) {
    const int head = static_cast<int>((kAlign - (e & (kAlign - 1))) & (kAlign - 1));
    add_first_entries<Config, kAlign, I>(a, e, head, j, acc);
    e += head;
  }
  if (e + kU <= end) {
    I next[kU];
    load_run<I, kU>(a.index + e, next);
    for (; e + kU <= end; e += kU) {
      I idx[kU];
#pragma unroll
      for (int u = 0; u < kU; ++u) idx[u] = next[u];
      if (e + 2 * kU <= end) load_run<I, kU>(a.index + e + kU, next);
      Acc scale[kU];
      if (a.value != nullptr) {
        typename Config::Types::Value v[kU];
        load_run<typename Config::Types::Value, kU>(a.value + e, v);
#pragma unroll
        for (int u = 0; u < kU; ++u) scale[u] = Acc(widen(v[u]));
      } else {
#pragma unroll
        for (int u = 0; u < kU; ++u) scale[u] = Acc(1);
      }
      gather_and_add<Config, kU, I>(a, idx, scale, 0u, j, acc);
    }
  }
  for (; e + 4 <= end; e += 4) add_entries_in_flight<Config, 4, I>(a, e, j, acc);
  for (; e < end; ++e) add_entries_in_flight<Config, 1, I>(a, e, j, acc);
  return acc;
}

// Sum of value[e] * x(index[e], j .. j + kVec) over e in [begin, end), in entry order, entries
// kEntriesInFlight at a time (add_entries_in_flight, or add_rounds_prefetched; the few-rows form
// for long rows accumulate_entries_vector).
template <typename Config, typename I>
__device__ __forceinline__ AccVector<Config> accumulate_entries(const SpmmArgs<typename Config::Types, I>& a,
                                                                int64_t begin, int64_t end, int64_t j) {
  if constexpr (Config::kVectorRounds) return accumulate_entries_vector<Config, I>(a, begin, end, j);
  using Acc = typename Config::Accumulator;
  constexpr int kVec = Config::kVec;
  constexpr int kU = Config::kEntriesInFlight;
  AccVector<Config> acc;
#pragma unroll
  for (int t = 0; t < kVec; ++t) acc.v[t] = Acc(0);
  int64_t e = begin;
  if constexpr (Config::kPrefetchIndices) e = add_rounds_prefetched<Config, I>(a, e, end, j, acc);
  for (; e + kU <= end; e += kU) add_entries_in_flight<Config, kU, I>(a, e, j, acc);
  if constexpr (Config::kDeep) {
    // The deep configuration's tail: four at a time before one at a time. (Only there: the same loop
    // in the whole-warp configuration, 8 entries in flight, moved its registers and cost up to 47 %
    // at N = 128, block-diagonal; H200, 2026-11-27.)
    for (; e + 4 <= end; e += 4) add_entries_in_flight<Config, 4, I>(a, e, j, acc);
  }
  for (; e < end; ++e) {
    const Acc scale[1] = {entry_scale<Config, I>(a, e)};
    const I idx[1] = {a.index[e]};
    gather_and_add<Config, 1, I>(a, idx, scale, hot_bits<Config, 1, I>(a, e), j, acc);
  }
  return acc;
}

// The same sum where the lane group shares its index loads (SpmmConfig::kSharedIndices, taken when
// shares_indices; spmm.cu chooses the configuration): the group loads a batch of a.group entries'
// indices and values at once, one per lane (coalesced), and hands them round by shuffles, instead
// of every lane loading every entry's index and value (one address across the group: a load per
// entry). The same additions in the same order. Every lane of the group must call it with the same
// begin and end; a lane whose columns lie past N (in_range false) takes part in the shuffles and
// sums nothing.
template <typename Config, typename I>
__device__ __forceinline__ AccVector<Config> accumulate_entries_shared(const SpmmArgs<typename Config::Types, I>& a,
                                                                       int64_t begin, int64_t end, int64_t j,
                                                                       bool in_range) {
  using Acc = typename Config::Accumulator;
  constexpr int kVec = Config::kVec;
  constexpr int kU = Config::kEntriesInFlight;
  AccVector<Config> acc;
#pragma unroll
  for (int t = 0; t < kVec; ++t) acc.v[t] = Acc(0);
  const unsigned mask = group_mask(a.group);
  const int group_lane = threadIdx.x & (a.group - 1);
  for (int64_t batch = begin; batch < end; batch += a.group) {
    const int64_t mine = batch + group_lane;
    const I index = mine < end ? a.index[mine] : I(0);
    const Acc value = mine < end && a.value != nullptr ? Acc(widen(a.value[mine])) : Acc(1);
    const int count = end - batch < a.group ? static_cast<int>(end - batch) : a.group;
    // Bit u: the batch's entry u is hot (kL2Hints configurations).
    unsigned batch_hot = 0;
    if constexpr (Config::kL2Hints) {
      const bool hot = mine < end && load_class(a.x_class + mine, make_l2_policies().pass) >= a.hot_class;
      batch_hot = __ballot_sync(mask, hot) >> ((threadIdx.x & 31) & ~(a.group - 1));
    }
    int u0 = 0;
    for (; u0 + kU <= count; u0 += kU) {
      I idx[kU];
      Acc scale[kU];
#pragma unroll
      for (int u = 0; u < kU; ++u) {
        idx[u] = __shfl_sync(mask, index, u0 + u, a.group);
        scale[u] = __shfl_sync(mask, value, u0 + u, a.group);
      }
      if (in_range) gather_and_add<Config, kU, I>(a, idx, scale, batch_hot >> u0, j, acc);
    }
    for (; u0 < count; ++u0) {
      const I idx[1] = {__shfl_sync(mask, index, u0, a.group)};
      const Acc scale[1] = {__shfl_sync(mask, value, u0, a.group)};
      if (in_range) gather_and_add<Config, 1, I>(a, idx, scale, batch_hot >> u0, j, acc);
    }
  }
  return acc;
}

// Whether this launch's lane groups share their index loads: configs made for it
// (SpmmConfig::kSharedIndices), whose groups hold at least kEntriesInFlight lanes (a batch holds at
// least one round of entries in flight; whole warps always do).
template <typename Config, typename I>
__device__ __forceinline__ bool shares_indices(const SpmmArgs<typename Config::Types, I>& a) {
  return Config::kSharedIndices && a.group >= Config::kEntriesInFlight;
}

// The sum for a lane whose columns may lie past N (zeros there), every lane of the group calling it.
template <typename Config, typename I>
__device__ __forceinline__ AccVector<Config> accumulate_tile(const SpmmArgs<typename Config::Types, I>& a,
                                                             int64_t begin, int64_t end, int64_t j, bool shares) {
  if constexpr (Config::kSharedIndices) {
    if (shares) return accumulate_entries_shared<Config, I>(a, begin, end, j, j < a.n);
  }
  AccVector<Config> acc;
  if (j < a.n) {
    acc = accumulate_entries<Config, I>(a, begin, end, j);
  } else {
#pragma unroll
    for (int t = 0; t < Config::kVec; ++t) acc.v[t] = typename Config::Accumulator(0);
  }
  return acc;
}

template <typename Config, typename I>
__device__ __forceinline__ void store_row_slice(const SpmmArgs<typename Config::Types, I>& a, int64_t o, int64_t j,
                                                const AccVector<Config>& acc) {
  using O = typename Config::Types::Output;
  O* yr = a.y + o * a.y_row_stride;
  if constexpr (Config::kL2Hints) {
    store_float4_hinted(yr + j, acc.v, make_l2_policies().pass);  // float32, kVec = 4 (SpmmConfig)
  } else if constexpr (Config::kStrided) {
    yr[j * a.y_col_stride] = narrow<O>(acc.v[0]);
  } else {
    store_narrowed<O, Config::kVec>(yr + j, acc.v);
  }
}

// Adds acc over the 32 / group lane groups of the warp by a fixed butterfly of shuffles (the same
// order every run); every lane of the warp must call it, and each ends with the warp's sum.
template <typename Config>
__device__ __forceinline__ void sum_across_groups(AccVector<Config>& acc, int group) {
  for (int offset = group; offset < 32; offset *= 2) {
#pragma unroll
    for (int t = 0; t < Config::kVec; ++t) acc.v[t] += __shfl_xor_sync(0xffffffffu, acc.v[t], offset);
  }
}

// Light row `item` by one lane group, this lane's columns of it.
template <typename Config, typename I>
__device__ __forceinline__ void light_row(const SpmmArgs<typename Config::Types, I>& a, int64_t item, int group_lane,
                                          bool shares) {
  constexpr int kVec = Config::kVec;
  const int64_t o = a.light[item];
  const int64_t begin = a.offsets[o];
  const int64_t end = a.offsets[o + 1];
  if (shares) {
    // Column tiles in step across the group (the shared loads need all of its lanes).
    for (int64_t tile = 0; tile < a.n; tile += int64_t{a.group} * kVec) {
      const int64_t j = tile + int64_t{group_lane} * kVec;
      const AccVector<Config> acc = accumulate_tile<Config, I>(a, begin, end, j, true);
      if (j < a.n) store_row_slice<Config, I>(a, o, j, acc);
    }
  } else {
    for (int64_t j = int64_t{group_lane} * kVec; j < a.n; j += int64_t{a.group} * kVec) {
      store_row_slice<Config, I>(a, o, j, accumulate_entries<Config, I>(a, begin, end, j));
    }
  }
}

// Light row `item` by one warp (whole-warp configurations), its column tiles first, first + step,
// first + 2 step, ...: the other warps of the row take the tiles in between.
template <typename Config, typename I>
__device__ __forceinline__ void light_row_tiles(const SpmmArgs<typename Config::Types, I>& a, int64_t item, int first,
                                                int step, bool shares) {
  constexpr int64_t kTileColumns = 32 * Config::kVec;
  const int lane = threadIdx.x & 31;
  const int64_t o = a.light[item];
  const int64_t begin = a.offsets[o];
  const int64_t end = a.offsets[o + 1];
  for (int64_t tile = first * kTileColumns; tile < a.n; tile += step * kTileColumns) {
    const int64_t j = tile + int64_t{lane} * Config::kVec;
    const AccVector<Config> acc = accumulate_tile<Config, I>(a, begin, end, j, shares);
    if (j < a.n) store_row_slice<Config, I>(a, o, j, acc);
  }
}

// Light rows, block `block` of `blocks` running them: one lane group per row (kSliced = false), or a
// whole warp per row (kSliced = true): then each of its 32 / group groups sums a contiguous slice of
// the row and the slices are combined by sum_across_groups, every lane running the same loops. Two
// instantiations rather than one runtime path: the sliced loop's extra bookkeeping cost 8-22 % on
// matrices that use one slice (banded, block-diagonal, SBM; H200, bench/RESULTS.md). The few-rows
// configuration's blocks take a.light_per_block rows each (launch() in spmm.cu spreads them evenly
// over the blocks that run at once), their other groups none. kSplitTiles (whole-warp
// configurations): a warp per row and share of its column tiles (SpmmArgs::light_tile_shift), taken
// row by row or share by share (SpmmArgs::light_tiles_outer), an instantiation of its own too: the
// same loop compiled into the plain kernel took its registers from 48 to 40 and it ran 13 % slower
// unsplit (H200, uniform-8000-1.28M N = 256).
template <typename Config, typename I, bool kSliced, bool kSplitTiles>
__device__ __forceinline__ void light_rows(const SpmmArgs<typename Config::Types, I>& a, int64_t block,
                                           int64_t blocks) {
  const bool shares = shares_indices<Config, I>(a);
  constexpr int kVec = Config::kVec;
  if constexpr (!kSliced && Config::kFewRows) {
    const int group_id = threadIdx.x / a.group;
    if (group_id >= a.light_per_block) return;
    const int group_lane = threadIdx.x & (a.group - 1);
    const int64_t stride = blocks * a.light_per_block;
    for (int64_t item = block * a.light_per_block + group_id; item < a.light_count; item += stride) {
      light_row<Config, I>(a, item, group_lane, shares);
    }
  } else if constexpr (kSplitTiles) {
    // A warp per (row, 2^light_tile_shift-th of its column tiles): warp item takes row item >> shift,
    // its tiles t with t mod 2^shift = item mod 2^shift; share-major (light_tiles_outer), row
    // item mod rows and share item / rows, so that the warps in flight at any time read one share
    // of X's columns.
    const int shift = a.light_tile_shift;
    const int step = 1 << shift;
    const int64_t items = a.light_count << shift;
    const int64_t stride = blocks * Config::kThreadsPerBlock / 32;
    for (int64_t item = (block * Config::kThreadsPerBlock + threadIdx.x) / 32; item < items; item += stride) {
      int64_t row = item >> shift;
      int share = static_cast<int>(item) & (step - 1);
      if (a.light_tiles_outer) {
        share = static_cast<int>(item / a.light_count);
        row = item - share * a.light_count;
      }
      light_row_tiles<Config, I>(a, row, share, step, shares);
    }
  } else if constexpr (!kSliced) {
    const int group_lane = threadIdx.x & (a.group - 1);
    const int64_t stride = blocks * Config::kThreadsPerBlock / a.group;
    for (int64_t item = (block * Config::kThreadsPerBlock + threadIdx.x) / a.group; item < a.light_count;
         item += stride) {
      light_row<Config, I>(a, item, group_lane, shares);
    }
  } else {
    const int lane = threadIdx.x & 31;
    const int slice = lane / a.group;
    const int group_lane = lane & (a.group - 1);
    const int slice_shift = __ffs(32 / a.group) - 1;  // log2(slices); slices = 32 / group
    const int64_t stride = blocks * Config::kThreadsPerBlock / 32;
    for (int64_t item = (block * Config::kThreadsPerBlock + threadIdx.x) / 32; item < a.light_count; item += stride) {
      const int64_t o = a.light[item];
      const int64_t begin = a.offsets[o];
      const int64_t length = a.offsets[o + 1] - begin;
      const int64_t per_slice = (length + (32 / a.group) - 1) >> slice_shift;
      const int64_t slice_begin = begin + min(length, slice * per_slice);
      const int64_t slice_end = begin + min(length, (slice + 1) * per_slice);
      for (int64_t tile = 0; tile < a.n; tile += int64_t{a.group} * kVec) {
        const int64_t j = tile + int64_t{group_lane} * kVec;
        AccVector<Config> acc = accumulate_tile<Config, I>(a, slice_begin, slice_end, j, shares);
        sum_across_groups<Config>(acc, a.group);
        if (slice == 0 && j < a.n) store_row_slice<Config, I>(a, o, j, acc);
      }
    }
  }
}

// One (heavy row, column tile) per block: block `block` takes heavy row block / heavy_tiles, tile
// block % heavy_tiles of group * kVec columns. The block's lane groups each sum a contiguous slice
// of the row; each warp adds its groups' sums by shuffles, then the first group adds the warps' sums
// in warp order from shared memory.
template <typename Config, typename I>
__device__ __forceinline__ void heavy_row(const SpmmArgs<typename Config::Types, I>& a, int block) {
  constexpr int kVec = Config::kVec;
  constexpr int kWarps = Config::kThreadsPerBlock / 32;
  __shared__ AccVector<Config> warp_sum[kWarps * 32];  // (warp, lane of its first group)

  const int item = block / a.heavy_tiles;
  const int tile = block - item * a.heavy_tiles;
  const int groups = Config::kThreadsPerBlock / a.group;
  const int group_id = threadIdx.x / a.group;
  const int group_lane = threadIdx.x & (a.group - 1);
  const int warp = threadIdx.x / 32;

  const int64_t o = a.heavy[item];
  const int64_t begin = a.offsets[o];
  const int64_t length = a.offsets[o + 1] - begin;
  const int64_t slice = (length + groups - 1) / groups;
  const int64_t slice_begin = begin + min(length, group_id * slice);
  const int64_t slice_end = begin + min(length, (group_id + 1) * slice);
  const int64_t j = (int64_t{tile} * a.group + group_lane) * kVec;
  const bool in_range = j < a.n;

  AccVector<Config> acc = accumulate_tile<Config, I>(a, slice_begin, slice_end, j, shares_indices<Config, I>(a));
  sum_across_groups<Config>(acc, a.group);
  if (group_id * a.group == warp * 32) warp_sum[warp * 32 + group_lane] = acc;  // the warp's first group
  __syncthreads();
  if (group_id == 0 && in_range) {
    AccVector<Config> sum = warp_sum[group_lane];
    for (int w = 1; w < kWarps; ++w) {
      const AccVector<Config> p = warp_sum[w * 32 + group_lane];
#pragma unroll
      for (int t = 0; t < kVec; ++t) sum.v[t] += p.v[t];
    }
    store_row_slice<Config, I>(a, o, j, sum);
  }
}

// The one SpMM kernel: blocks [0, heavy_blocks) take a heavy row's column tile each (heavy rows in
// the split's order: longest first, so the longest starts first), the rest run the light rows as a
// persistent grid; both kinds in one launch, so that light rows fill the GPU beside the long rows
// instead of after them.
template <typename Config, typename I, bool kSliced, bool kSplitTiles = false>
__global__ void __launch_bounds__(Config::kThreadsPerBlock, Config::kMinBlocks)
    spmm_kernel(const SpmmArgs<typename Config::Types, I> a) {
  static_assert(!kSplitTiles || (Config::kWholeWarp && !kSliced), "column tiles split over whole warps only");
  if (static_cast<int64_t>(blockIdx.x) < a.heavy_blocks) {
    heavy_row<Config, I>(a, static_cast<int>(blockIdx.x));
  } else {
    light_rows<Config, I, kSliced, kSplitTiles>(a, blockIdx.x - a.heavy_blocks, gridDim.x - a.heavy_blocks);
  }
}

}  // namespace sddmm::cuda
