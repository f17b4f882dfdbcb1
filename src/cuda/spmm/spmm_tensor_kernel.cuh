// SpMM on tensor cores for 16-bit plans whose dense 16 x 64 units (cuda/tiles.cuh) are full
// enough (tuning.hpp, kSpmmTensorMinFill). A warp takes one strip of 16 rows of Y and
// kWarpCols of its columns, and sums, in chunk order, each of the strip's dense units as one
// m16n8k16 product: the unit's entries scattered into a 16 x 64 tile A in shared memory, the 64
// rows of X under its chunk staged by cp.async (the next unit's while this one's A is built), both
// read by ldmatrix. The strip's other entries are then added one by one on the CUDA cores (in
// plan order) to the float32 results staged in shared memory, and the rows are written out. Every
// row of Y is written by exactly one warp, in a fixed order of sums: deterministic. Which calls
// take it: choose_spmm_kernel in spmm.cu.
#pragma once

#include <cstdint>

#include "cuda/mma.cuh"
#include "cuda/precision.cuh"
#include "cuda/spmm/spmm_config.cuh"
#include "cuda/tiles.cuh"

namespace sddmm::cuda {

// The byte offset of 16-byte piece `piece` of row `row` in a tile of kPieces pieces per row, the
// piece index XOR-ed with (row >> kShift): the 8 rows one ldmatrix matrix reads then fall in 8
// distinct groups of 4 banks (A: 128-byte rows, kShift 0; X: 64-byte rows, two per 128 bytes,
// kShift 1).
template <int kPieces, int kShift>
__device__ __forceinline__ unsigned swizzled_piece(int row, int piece) {
  return static_cast<unsigned>(row * kPieces * 16 + ((piece ^ ((row >> kShift) % kPieces)) * 16));
}

// Copies rows chunk * 64 .. + 63 of X, columns col0 .. + kWarpCols, into a stage (zeros past X's
// last row: a partial last chunk). In flight until the warp waits for them.
template <typename Config, typename I>
__device__ __forceinline__ void stage_x_rows(const SpmmTensorArgs<typename Config::Types, I>& a, int64_t chunk,
                                             int64_t col0, unsigned stage, int lane) {
  constexpr int kPieces = Config::kXRowBytes / 16;
  constexpr int kPerLane = Config::kUnitK * kPieces / 32;
#pragma unroll
  for (int j = 0; j < kPerLane; ++j) {
    const int q = lane + 32 * j;
    const int r = q / kPieces, piece = q % kPieces;
    const int64_t row = chunk * Config::kUnitK + r;
    const bool inside = row < a.x_rows;
    const typename Config::Feature* from = a.x + (inside ? row * a.x_ld + col0 + piece * 8 : 0);
    copy_16_async(stage + swizzled_piece<kPieces, 1>(r, piece), from, inside);
  }
}

// Eight consecutive unit entries' places or values: one 16-byte load.
template <typename T>
struct alignas(16) EightOf {
  T v[8];
};

// Unit `unit`'s 16 x 64 tile of values in shared memory (zeros where it holds no entry). The plan
// lists a unit for this kernel only if no two of its entries share a cell (build_strip_order).
// The entries are read in groups of 8 at multiples of 8 (the arrays are 256-byte aligned), each
// lane loading kTileGroups groups' places and values in 16-byte loads before it stores any; the
// groups at the unit's two ends, which hold entries of other units too, are read entry by entry.
template <typename Config, typename I>
__device__ __forceinline__ void build_unit_tile(const SpmmTensorArgs<typename Config::Types, I>& a, int64_t unit,
                                                unsigned char* tile, int lane) {
  using F = typename Config::Feature;
  constexpr int kPieces = Config::kARowBytes / 16;
  constexpr int kGroups = Config::kTileGroups;
  constexpr uint16_t kNone = 0xFFFF;  // past any place (at most 63 * 16 + 15)
#pragma unroll
  for (int j = 0; j < Config::kABytes / 16 / 32; ++j) reinterpret_cast<uint4*>(tile)[lane + 32 * j] = uint4{0, 0, 0, 0};
  __syncwarp();
  const int64_t begin = a.unit_entries[unit], end = a.unit_entries[unit + 1];
  const F one = narrow<F>(1.0f);
  for (int64_t round = begin / 8; round < (end + 7) / 8; round += 32 * kGroups) {
    EightOf<uint16_t> places[kGroups];
    EightOf<F> values[kGroups];
#pragma unroll
    for (int u = 0; u < kGroups; ++u) {
      const int64_t first = 8 * (round + lane + 32 * u);
      if (first >= begin && first + 8 <= end) {
        places[u] = *reinterpret_cast<const EightOf<uint16_t>*>(a.local + first);
        if (a.unit_value != nullptr) values[u] = *reinterpret_cast<const EightOf<F>*>(a.unit_value + first);
      } else {
#pragma unroll
        for (int i = 0; i < 8; ++i) {
          const bool inside = first + i >= begin && first + i < end;
          places[u].v[i] = inside ? a.local[first + i] : kNone;
          if (a.unit_value != nullptr) values[u].v[i] = inside ? a.unit_value[first + i] : one;
        }
      }
      if (a.unit_value == nullptr) {
#pragma unroll
        for (int i = 0; i < 8; ++i) values[u].v[i] = one;
      }
    }
#pragma unroll
    for (int u = 0; u < kGroups; ++u) {
#pragma unroll
      for (int i = 0; i < 8; ++i) {
        const uint16_t place = places[u].v[i];
        if (place == kNone) continue;
        const int row = place % 16, col = place / 16;
        *reinterpret_cast<F*>(tile + swizzled_piece<kPieces, 0>(row, col / 8) + (col % 8) * 2) = values[u].v[i];
      }
    }
  }
}

// acc += A (16 x 64) * staged X (64 x kWarpCols): 4 k-steps of 16, each one ldmatrix of A and
// kTiles / 2 transposed ones of X (two 8-column tiles each: b0, b1 of tile 2p, then of 2p + 1).
template <typename Config>
__device__ __forceinline__ void multiply_unit(float (&acc)[Config::kTiles][4], unsigned tile, unsigned stage,
                                              int lane) {
  constexpr int kAPieces = Config::kARowBytes / 16, kXPieces = Config::kXRowBytes / 16;
  const int row = lane % 16, high = lane / 16;
#pragma unroll
  for (int step = 0; step < Config::kUnitK / 16; ++step) {
    uint32_t a[4];
    load_matrices(a, tile + swizzled_piece<kAPieces, 0>(row, 2 * step + high));
#pragma unroll
    for (int p = 0; p < Config::kTiles / 2; ++p) {
      uint32_t b[4];
      load_matrices_transposed(b, stage + swizzled_piece<kXPieces, 1>(16 * step + row, 2 * p + high));
      mma_16x8x16<typename Config::Feature>(acc[2 * p], a, b[0], b[1]);
      mma_16x8x16<typename Config::Feature>(acc[2 * p + 1], a, b[2], b[3]);
    }
  }
}

// The strip's entries outside dense units, added to its staged results row by row in plan order:
// lane l owns column l; 32 entries' coordinates are loaded at once and handed round by shuffles,
// 4 rows of X loaded before any is added.
template <typename Config, typename I>
__device__ __forceinline__ void add_other_entries(const SpmmTensorArgs<typename Config::Types, I>& a, int64_t strip,
                                                  int64_t col0, float* results, int lane) {
  static_assert(Config::kWarpCols == 32, "a lane per column");
  const int64_t begin = a.strip_rest_begin[strip], end = a.strip_rest_begin[strip + 1];
  for (int64_t first = begin; first < end; first += 32) {
    int row = 0;
    int64_t col = 0;
    float value = 0.0f;
    if (first + lane < end) {
      const int64_t at = static_cast<int64_t>(a.rest[first + lane]);
      row = static_cast<int>(static_cast<int64_t>(a.entry_row[at]) - strip * kUnitRows);
      col = static_cast<int64_t>(a.entry_col[at]);
      value = a.entry_value != nullptr ? widen(a.entry_value[at]) : 1.0f;
    }
    const int count = end - first < 32 ? static_cast<int>(end - first) : 32;
    constexpr int kInFlight = 4;
    for (int j0 = 0; j0 < count; j0 += kInFlight) {
      int rows[kInFlight];
      float values[kInFlight], xs[kInFlight];
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        const int j = (j0 + u) % 32;
        rows[u] = __shfl_sync(0xFFFFFFFFu, row, j);
        values[u] = __shfl_sync(0xFFFFFFFFu, value, j);
        const int64_t c = __shfl_sync(0xFFFFFFFFu, col, j);
        xs[u] = j0 + u < count ? widen(a.x[c * a.x_ld + col0 + lane]) : 0.0f;
      }
#pragma unroll
      for (int u = 0; u < kInFlight; ++u) {
        if (j0 + u < count) results[rows[u] * Config::kResultPitch + lane] += values[u] * xs[u];
      }
    }
  }
}

template <typename Config, typename I>
__global__ void __launch_bounds__(Config::kThreads, Config::kMinBlocks)
    spmm_tensor_kernel(const SpmmTensorArgs<typename Config::Types, I> a) {
  using F = typename Config::Feature;
  __shared__ __align__(128) unsigned char shared[Config::kWarps * Config::kWarpBytes];
  const int lane = static_cast<int>(threadIdx.x % 32), warp = static_cast<int>(threadIdx.x / 32);
  const int64_t column_tiles = a.n / Config::kWarpCols;
  const int64_t job = blockIdx.x * int64_t{Config::kWarps} + warp;
  if (job >= a.strips * column_tiles) return;  // no block-wide barrier below: warps work alone
  const int64_t strip = job / column_tiles, col0 = job % column_tiles * Config::kWarpCols;
  unsigned char* mine = shared + warp * Config::kWarpBytes;
  const unsigned stages = shared_address(mine);
  unsigned char* tile = mine + 2 * Config::kXStageBytes;

  float acc[Config::kTiles][4] = {};
  const int64_t first = a.strip_unit_begin[strip], last = a.strip_unit_begin[strip + 1];
  if (first < last) {
    int64_t unit = a.strip_units[first];
    stage_x_rows<Config, I>(a, a.unit_key[unit] / a.strips, col0, stages, lane);
    commit_copies();
    for (int64_t i = first; i < last; ++i) {
      const unsigned stage = stages + static_cast<unsigned>((i - first) % 2) * Config::kXStageBytes;
      const bool more = i + 1 < last;
      int64_t next = unit;
      if (more) {
        next = a.strip_units[i + 1];
        const unsigned other = stages + static_cast<unsigned>((i + 1 - first) % 2) * Config::kXStageBytes;
        stage_x_rows<Config, I>(a, a.unit_key[next] / a.strips, col0, other, lane);
        commit_copies();
      }
      build_unit_tile<Config, I>(a, unit, tile, lane);
      if (more) {
        wait_copies<1>();
      } else {
        wait_copies<0>();
      }
      __syncwarp();  // every lane's copies and tile stores before any lane reads them
      multiply_unit<Config>(acc, shared_address(tile), stage, lane);
      __syncwarp();  // every lane's reads before the next tile and copies overwrite them
      unit = next;
    }
  }

  // The results, staged over the first stage of X (no copy in flight any more), then the other
  // entries, then the rows out in 16-byte stores.
  float* results = reinterpret_cast<float*>(mine);
  const int g = lane / 4, q = lane % 4;
#pragma unroll
  for (int t = 0; t < Config::kTiles; ++t) {
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      results[g * Config::kResultPitch + t * 8 + 2 * q + i] = acc[t][i];
      results[(g + 8) * Config::kResultPitch + t * 8 + 2 * q + i] = acc[t][2 + i];
    }
  }
  __syncwarp();
  add_other_entries<Config, I>(a, strip, col0, results, lane);
  __syncwarp();
  constexpr int kPer = 16 / static_cast<int>(sizeof(F));
  constexpr int kPieces = Config::kWarpCols / kPer;
#pragma unroll
  for (int p = lane; p < 16 * kPieces; p += 32) {
    const int r = p / kPieces, piece = p % kPieces;
    const int64_t row = strip * kUnitRows + r;
    if (row >= a.rows) continue;
    float v[kPer];
#pragma unroll
    for (int t = 0; t < kPer; ++t) v[t] = results[r * Config::kResultPitch + piece * kPer + t];
    store_narrowed<F, kPer>(a.y + row * a.y_ld + col0 + piece * kPer, v);
  }
}

}  // namespace sddmm::cuda
