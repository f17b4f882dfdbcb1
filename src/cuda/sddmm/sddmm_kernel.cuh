// SDDMM, entry-parallel: a grid of warps (whole waves of resident blocks: sddmm.cu), each walking
// one contiguous, equal share of the entries in plan (row) order, a lane group per entry. Work per
// entry is K no matter how skewed the rows are, so power-law graphs balance by construction.
//  - Each iteration loads the next one's rows and columns, so that its own gathers need not wait
//    for them, and its own values and output positions before its gathers.
//  - Vector path (16-byte loads along K): a group holds its entry's X1 row in registers and loads it
//    again only when the row changes, which in row order is once per row per warp; each lane issues
//    all its X2 loads (kStepsPerLane vectors) before any arithmetic, and sums each step's products
//    apart, then the steps, so that no long chain of dependent additions ends the entry. Where K
//    fills the group's vectors exactly (every power-of-two K) a second copy of that pass has no
//    bound checks. K longer than one pass of the group (group * kStepsPerLane vectors) loads both
//    operands pass by pass instead.
//  - Strided path (any layout): kEntriesPerGroup entries per group at once, scalar loads.
// Each group splits K across its lanes and reduces by shuffles.
// Measured (H200, 2026-11-21, side by side, geomean time against the form before each):
//  - coordinates, values and positions ahead: float32 0.954 (12 matrices x K = 32/128/256; uniform
//    8000^2 640k K = 32 0.0245 -> 0.0222 ms, SBM 0.294 -> 0.251, R-MAT K = 128 1.305 -> 1.180);
//  - the unchecked copy and per-step sums: float32 0.947 (14 matrices; uniform-8000-640k K = 256
//    0.0963 -> 0.0854 ms: ncu had it issue-bound, 77 % of issue slots, 73M instructions against
//    cuSPARSE's 16M);
//  - 16-bit features took neither while they spilled (they lost 9 % and 2 %); held as 32-bit words
//    (cuda/precision.cuh) they fit 64 registers, and with both, the straight-line group sum and 4
//    blocks per multiprocessor (SddmmConfig): float16 0.756, bfloat16 0.664 (5 matrices x K =
//    32/128/256: uniform 685000^2 K = 256 1.184 -> 0.993 ms and 1.343 -> 0.989; R-MAT K = 128 1.026
//    -> 0.652 and 1.217 -> 0.621), of which the words alone 0.850 and 0.817.
#pragma once

#include <type_traits>

#include "cuda/entry_index.cuh"
#include "cuda/precision.cuh"
#include "cuda/sddmm/sddmm_config.cuh"
#include "cuda/vector.cuh"

namespace sddmm::cuda {

// The plan entry at `entry` of this launch's work (past its end: the last one, loaded, never stored).
template <typename Config, typename I>
__device__ __forceinline__ EntryIndex<I> plan_entry_at(const SddmmArgs<typename Config::Types, I>& a, EntryIndex<I> nnz,
                                                       EntryIndex<I> entry) {
  const EntryIndex<I> w = entry < nnz ? entry : nnz - 1;
  return a.entry_list != nullptr ? static_cast<EntryIndex<I>>(a.entry_list[w]) : w;
}

// Entry i of a lane group's kU in the iteration at `base`: a warp's groups take its entries in turn.
template <typename E>
__device__ __forceinline__ E group_entry(E base, int i, int groups_per_warp, int group_in_warp) {
  return base + E(i) * groups_per_warp + group_in_warp;
}

// Rows and columns of a lane group's kU entries (group_entry). The loop loads them one iteration
// ahead, so that they arrive while the previous entries' features are gathered instead of delaying
// their own gathers.
template <typename Config, typename I>
struct EntryCoords {
  I row[Config::kEntriesPerGroup];
  I col[Config::kEntriesPerGroup];
};

template <typename Config, typename I>
__device__ __forceinline__ EntryCoords<Config, I> fetch_coords(const SddmmArgs<typename Config::Types, I>& a,
                                                               EntryIndex<I> nnz, EntryIndex<I> base,
                                                               int groups_per_warp, int group_in_warp) {
  using E = EntryIndex<I>;
  EntryCoords<Config, I> c;
#pragma unroll
  for (int i = 0; i < Config::kEntriesPerGroup; ++i) {
    const E e = plan_entry_at<Config, I>(a, nnz, group_entry(base, i, groups_per_warp, group_in_warp));
    c.row[i] = a.entry_row[e];
    c.col[i] = a.entry_col[e];
  }
  return c;
}

// This warp's entries of the launch: iterations at begin, begin + stride, ... below end, each of
// per_warp entries, so that `base` is the same for every lane of the warp and all lanes iterate
// together (the shuffles of the group sums need them). Either one contiguous, equal share (stride
// per_warp), or the launch's iterations taken in turn by all its warps (warp_turns). The grid is
// at most a few waves of resident blocks (sddmm.cu): its threads fit 32 bits.
template <typename E>
struct WarpShare {
  E begin;
  E end;
  E stride;
};

template <typename E>
__device__ __forceinline__ WarpShare<E> warp_share(E nnz, E per_warp) {
  const E warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const E warps = (gridDim.x * blockDim.x) / 32;
  const E share = ((nnz + warps - 1) / warps + per_warp - 1) / per_warp * per_warp;
  return {warp * share, (warp + 1) * share < nnz ? (warp + 1) * share : nnz, per_warp};
}

// The launch's iterations in turn (SddmmArgs::interleaved): warp w takes iterations w, w + warps,
// ... With the grid one wave of resident blocks (sddmm.cu), every warp runs from the start, and the
// entries in flight at any time are one band of the plan order, a few iterations per warp wide,
// instead of a piece of every share: the X1 rows and, where neighbouring rows share columns
// (clustered, banded graphs), the X2 columns of that band are what the caches hold.
template <typename E>
__device__ __forceinline__ WarpShare<E> warp_turns(E nnz, E per_warp) {
  const E warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const E warps = (gridDim.x * blockDim.x) / 32;
  return {warp * per_warp, nnz, warps * per_warp};
}

// This warp's entries when warps take whole rows (SddmmArgs::row_offsets): rows [r(w), r(w + 1)) of
// an even split, r(w) = w * (rows / warps) + min(w, rows % warps). In row order the warps then
// start their rows together and, rows of similar length sorted by column, reach shared columns of
// X2 at about the same time: where X2 exceeds the L2 the warps in flight sweep a window of it
// instead of all of it (uniform 300000 x 103000, K = 256: 16 % faster). Where X2 fits the L2 this
// gained nothing and lost 3-15 % (tuning.hpp, kSddmmRowSharesMinMeanRow), though ncu had
// cuSPARSE's warp-per-row kernel reading 19 % fewer L2 sectors than its gathers on uniform
// 8000^2, K = 256. A share's end is no multiple of the iteration's entries: past it, entries are
// computed (the next warp's) but not stored.
template <typename E>
__device__ __forceinline__ WarpShare<E> warp_rows_share(const int64_t* row_offsets, int64_t rows, E per_warp) {
  const int64_t warp = (int64_t{blockIdx.x} * blockDim.x + threadIdx.x) / 32;
  const int64_t warps = (int64_t{gridDim.x} * blockDim.x) / 32;
  const int64_t per = rows / warps, extra = rows % warps;
  const int64_t first = warp * per + (warp < extra ? warp : extra);
  const int64_t last = first + per + (warp < extra ? 1 : 0);
  return {static_cast<E>(row_offsets[first]), static_cast<E>(row_offsets[last]), per_warp};
}

// The launch's share for this warp: whole rows where the arguments give the row offsets, the
// iterations in turn where they say interleaved, else an equal share of the entries.
template <typename P, typename I, typename E>
__device__ __forceinline__ WarpShare<E> launch_share(const SddmmArgs<P, I>& a, E nnz, E per_warp) {
  if (a.row_offsets != nullptr) return warp_rows_share<E>(a.row_offsets, a.rows, per_warp);
  return a.interleaved ? warp_turns(nnz, per_warp) : warp_share(nnz, per_warp);
}

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreadsPerBlock, Config::kMinBlocksPerSm)
    sddmm_entry_kernel(const SddmmArgs<typename Config::Types, I> a) {
  using T = typename Config::Feature;
  using Acc = typename Config::Accumulator;
  using O = typename Config::Types::Output;
  using Vec = HeldVector<T, Config::kVec>;
  using E = EntryIndex<I>;
  constexpr int kVec = Config::kVec;
  constexpr int kU = Config::kEntriesPerGroup;
  constexpr int kSteps = Config::kStepsPerLane;
  const int lane = threadIdx.x & 31;
  const int group_lane = lane & (a.group - 1);
  const int group_in_warp = lane / a.group;
  const int groups_per_warp = 32 / a.group;
  const E nnz = static_cast<E>(a.nnz);
  const E per_warp = E(groups_per_warp) * kU;  // entries a warp takes per iteration
  const WarpShare<E> share = launch_share(a, nnz, per_warp);
  [[maybe_unused]] const int64_t vectors = a.k / kVec;  // vector path: K is a multiple of kVec
  [[maybe_unused]] const bool one_pass = vectors <= int64_t{a.group} * kSteps;
  [[maybe_unused]] const bool all_inside = vectors == int64_t{a.group} * kSteps;
  [[maybe_unused]] Vec x1_row[kSteps];         // vector path, one pass: this lane's part of the cached X1 row
  [[maybe_unused]] const T* cached = nullptr;  // ... and the row it holds

  if (a.nnz == 0) return;
  EntryCoords<Config, I> next = fetch_coords<Config, I>(a, nnz, share.begin, groups_per_warp, group_in_warp);
  for (E base = share.begin; base < share.end; base += share.stride) {
    const EntryCoords<Config, I> coords = next;
    next = fetch_coords<Config, I>(a, nnz, base + share.stride, groups_per_warp, group_in_warp);
    // Value and output position of each entry, loaded before the gathers.
    Acc scale[kU];
    E dst[kU];
    const T* u[kU];
    const T* v[kU];
#pragma unroll
    for (int i = 0; i < kU; ++i) {
      u[i] = a.x1 + static_cast<int64_t>(coords.row[i]) * a.x1_row_stride;
      v[i] = a.x2 + static_cast<int64_t>(coords.col[i]) * a.x2_col_stride;
      const E e = plan_entry_at<Config, I>(a, nnz, group_entry(base, i, groups_per_warp, group_in_warp));
      scale[i] = a.entry_value != nullptr ? Acc(widen(a.entry_value[e])) : Acc(1);
      dst[i] = a.caller_position != nullptr ? static_cast<E>(a.caller_position[e]) : e;
    }
    Acc acc[kU];
#pragma unroll
    for (int i = 0; i < kU; ++i) acc[i] = Acc(0);
    if constexpr (Config::kStrided) {
      for (int64_t k = group_lane; k < a.k; k += a.group) {
        T uu[kU], vv[kU];
#pragma unroll
        for (int i = 0; i < kU; ++i) uu[i] = u[i][k * a.x1_k_stride], vv[i] = v[i][k * a.x2_k_stride];
#pragma unroll
        for (int i = 0; i < kU; ++i) acc[i] += widen(uu[i]) * widen(vv[i]);
      }
    } else {
      static_assert(kU == 1, "the vector path carries one entry per group");
      // Vector `s` of a pass starting at vector `first`: first + group_lane + s * group; lanes past
      // K load zeros.
      const auto load = [&](const T* p, int64_t first, int s) {
        const int64_t at = first + group_lane + int64_t{s} * a.group;
        return at < vectors ? load_held<T, kVec>(p + at * kVec) : Vec{};
      };
      const auto accumulate = [&](const Vec& x, const Vec& y) {
        const Vector<Acc, kVec> wx = widen_held<Acc, T, kVec>(x), wy = widen_held<Acc, T, kVec>(y);
#pragma unroll
        for (int j = 0; j < kVec; ++j) acc[0] += wx.v[j] * wy.v[j];
      };
      if (one_pass) {
        // One pass: vector s of this lane is group_lane + s * group (fewer than 2^31 elements).
        // Where every lane's kSteps vectors lie inside K (K a multiple of group * kSteps vectors:
        // the power-of-two K), no load needs a bound check; each step's products sum apart, then
        // the steps, so that no long chain of dependent additions ends the entry.
        const auto one_pass_dot = [&](auto all_inside) {
          constexpr bool kAllInside = decltype(all_inside)::value;
          const auto load_step = [&](const T* p, int s) {
            const int at = group_lane + s * a.group;
            if constexpr (kAllInside) return load_held<T, kVec>(p + at * kVec);
            else return at < vectors ? load_held<T, kVec>(p + at * kVec) : Vec{};
          };
          if (u[0] != cached) {
#pragma unroll
            for (int s = 0; s < kSteps; ++s) x1_row[s] = load_step(u[0], s);
            cached = u[0];
          }
          Vec col[kSteps];
#pragma unroll
          for (int s = 0; s < kSteps; ++s) col[s] = load_step(v[0], s);
          Acc step_sum[kSteps];
#pragma unroll
          for (int s = 0; s < kSteps; ++s) step_sum[s] = held_dot<Acc, T, kVec>(x1_row[s], col[s]);
#pragma unroll
          for (int s = 0; s < kSteps; ++s) acc[0] += step_sum[s];
        };
        if (all_inside) {
          one_pass_dot(std::true_type{});
        } else {
          one_pass_dot(std::false_type{});
        }
      } else {
        for (int64_t first = 0; first < vectors; first += int64_t{a.group} * kSteps) {
          Vec row[kSteps], col[kSteps];
#pragma unroll
          for (int s = 0; s < kSteps; ++s) row[s] = load(u[0], first, s), col[s] = load(v[0], first, s);
#pragma unroll
          for (int s = 0; s < kSteps; ++s) accumulate(row[s], col[s]);
        }
      }
    }
#pragma unroll
    for (int i = 0; i < kU; ++i) acc[i] = group_sum<Config::kStraightLineSum>(acc[i], a.group);
    if (group_lane == 0) {
#pragma unroll
      for (int i = 0; i < kU; ++i) {
        if (group_entry(base, i, groups_per_warp, group_in_warp) < share.end) {
          if constexpr (Config::kAddsPartial) acc[i] += Acc(a.out[dst[i]]);  // the first half's sum
          a.out[dst[i]] = narrow<O>(scale[i] * acc[i]);
        }
      }
    }
  }
}

}  // namespace sddmm::cuda
