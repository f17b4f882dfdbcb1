// Whether a tile kernel lifts float32 SDDMM at K = 32 on uniform 8000^2: a stand-alone prototype, not
// built by CMake. Built against a CUDA build of the library (build-gpu, as scripts/gpu-check.sh
// makes it) and run from the repository's root:
//
//   nvcc -O3 -std=c++17 -arch=sm_90 -Iinclude -Itestkit bench/experiments/sddmm-tile-k32.cu \
//     build-gpu/src/libsddmm.a build-gpu/testkit/libsddmm_testkit.a -lcusparse -Xcompiler -fopenmp \
//     -o sddmm-tile-k32 && ./sddmm-tile-k32
//
// The line kernel (the library's choice at K = 32) gathers a 128-byte X2 column from the L2 for
// every entry, and X1's row about once every four entries: on uniform 8000^2 both operands sit in
// the L2 and it runs at the L2's gather rate (bench/RESULTS.md: 0.97-1.2x cuSPARSE there). Here a
// block takes one tile, a panel of kPanelRows rows by a slab of kSlabCols columns: it copies the
// slab's X2 columns and the panel's X1 rows into shared memory once (cp.async), then every entry of
// the tile reads both from there. X2 then crosses the L2 once a panel (8000 / kPanelRows times 1 MB)
// instead of once an entry: at 10 % density a 64 x 512 tile holds ~3300 entries for its 64 KB of
// X2. The entries go in tile order (panel, slab, row, column), each with its position in the
// caller's order (its output place), its value, and (row - panel start) << 16 | (column - slab
// start).
//
// Each lane group of 8 takes kU consecutive entries a step (one row, mostly: X1's piece is read
// once and again only where the row changes), lane j the 16-byte piece j of each line, and the
// group sums its kU partial sums by halving, as the line kernel does. Prints, per matrix and form:
// the median of 30 calls (CUDA events, 5 warm-ups, inputs rotated over sets past 3x the L2) of the
// tile kernel, the library's sddmm_execute and cusparseSDDMM on the same entries, and the largest
// error of each against a float64 reference on the host.
#include <cuda_runtime.h>
#include <cusparse.h>
#include <sddmm.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "generators.hpp"

namespace {

constexpr int kK = 32;      // float32 elements of an X1 row and an X2 column: one 128-byte line
constexpr int kPieces = 8;  // 16-byte pieces a line
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

#define CHECK_CUDA(call)                                                                         \
  do {                                                                                           \
    const cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                                     \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)
#define CHECK_CUSPARSE(call)                                                                         \
  do {                                                                                               \
    const cusparseStatus_t s_ = (call);                                                              \
    if (s_ != CUSPARSE_STATUS_SUCCESS) {                                                             \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cusparseGetErrorString(s_)); \
      std::exit(1);                                                                                  \
    }                                                                                                \
  } while (0)
#define CHECK_SDDMM(call)                                                                    \
  do {                                                                                       \
    const sddmm_status_t s_ = (call);                                                        \
    if (s_ != SDDMM_STATUS_SUCCESS) {                                                        \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, sddmm_last_error()); \
      std::exit(1);                                                                          \
    }                                                                                        \
  } while (0)

__device__ __forceinline__ void copy_piece_async(float4* shared, const float* global) {
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(address), "l"(global) : "memory");
}

__device__ __forceinline__ void wait_copies() {
  asm volatile("cp.async.wait_all;\n" ::: "memory");
}

__device__ __forceinline__ float dot4(float4 a, float4 b) {
  return fmaf(a.x, b.x, fmaf(a.y, b.y, fmaf(a.z, b.z, a.w * b.w)));
}

// One block a tile. Shared memory: the slab's X2 columns (kSlabCols lines), then the panel's X1
// rows (kPanelRows lines), each line 8 pieces of 16 bytes.
template <int kPanelRows, int kSlabCols, int kU, int kMinBlocks, int kAhead, bool kColumnSorted>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    tile_kernel(const float* __restrict__ x1, const float* __restrict__ x2, const int* __restrict__ tile_begin,
                const uint32_t* __restrict__ packed, const float* __restrict__ val, const int* __restrict__ pos,
                float* __restrict__ out, int rows, int cols, int slabs) {
  static_assert(kU == 2 || kU == 4 || kU == 8, "entries a group: 2, 4 or 8");
  extern __shared__ float4 lines[];
  float4* const x2s = lines;
  float4* const x1s = lines + kSlabCols * kPieces;
  const int tile = blockIdx.x;
  const int begin = tile_begin[tile];
  const int end = tile_begin[tile + 1];
  if (begin == end) return;
  const int r0 = tile / slabs * kPanelRows;
  const int c0 = tile % slabs * kSlabCols;
  const int slab_pieces = min(kSlabCols, cols - c0) * kPieces;
  const int panel_pieces = min(kPanelRows, rows - r0) * kPieces;
  // The slab's columns are contiguous in X2 (column-major, ld = K), the panel's rows in X1.
  const float* const x2_slab = x2 + static_cast<size_t>(c0) * kK;
  const float* const x1_panel = x1 + static_cast<size_t>(r0) * kK;
  for (int i = threadIdx.x; i < slab_pieces; i += kThreads) copy_piece_async(x2s + i, x2_slab + 4 * i);
  for (int i = threadIdx.x; i < panel_pieces; i += kThreads) copy_piece_async(x1s + i, x1_panel + 4 * i);

  constexpr int kPerWarp = 4 * kU;  // a warp's entries a step: 4 groups of kU
  constexpr int kSumShift = kU == 8 ? 0 : kU == 4 ? 1 : 2;
  const int lane = threadIdx.x & 31;
  const int warp = threadIdx.x >> 5;
  const int group_lane = lane & 7;
  const int group_first = (lane >> 3) * kU;                         // the warp's entry of the group's slot 0
  const int summed = (lane >> 3) * kU + (group_lane >> kSumShift);  // whose sum this lane ends with
  const bool stores = (group_lane & ((1 << kSumShift) - 1)) == 0;
  const int held = lane % kPerWarp;
  // The first kAhead steps' coordinates load while the copies land, and so do the value and
  // output place of the entry whose sum this lane ends with; each step then loads those of the
  // step kAhead further on (the tile's arrays come from DRAM: the bytes in flight set the pace).
  constexpr int kStride = kWarps * kPerWarp;
  const int e_first = begin + warp * kPerWarp;
  uint32_t ahead_packed[kAhead];
  float ahead_scale[kAhead];
  int ahead_dst[kAhead];
#pragma unroll
  for (int a = 0; a < kAhead; ++a) {
    const int e = e_first + a * kStride;
    ahead_packed[a] = e + held < end ? packed[e + held] : 0u;
    const bool v = stores && e + summed < end;
    ahead_scale[a] = v ? val[e + summed] : 0.f;
    ahead_dst[a] = v ? pos[e + summed] : 0;
  }
  wait_copies();
  __syncthreads();
  for (int e_base = e_first; e_base < end; e_base += kStride) {
    const uint32_t mine = ahead_packed[0];
    const float scale = ahead_scale[0];
    const int dst = ahead_dst[0];
    const bool valid = stores && e_base + summed < end;
#pragma unroll
    for (int a = 0; a + 1 < kAhead; ++a) {
      ahead_packed[a] = ahead_packed[a + 1];
      ahead_scale[a] = ahead_scale[a + 1];
      ahead_dst[a] = ahead_dst[a + 1];
    }
    const int e_later = e_base + kAhead * kStride;
    ahead_packed[kAhead - 1] = e_later + held < end ? packed[e_later + held] : 0u;
    const bool later_valid = stores && e_later + summed < end;
    ahead_scale[kAhead - 1] = later_valid ? val[e_later + summed] : 0.f;
    ahead_dst[kAhead - 1] = later_valid ? pos[e_later + summed] : 0;
    // Row-sorted tiles read an X1 piece where the row changes and an X2 piece an entry;
    // column-sorted ones (kColumnSorted: the library's panel order) the other way round.
    float4 row_piece[kU], col_piece[kU];
    uint32_t kept_before = 0xffffffffu;
#pragma unroll
    for (int u = 0; u < kU; ++u) {
      const uint32_t p = __shfl_sync(0xffffffffu, mine, group_first + u);
      const uint32_t r = p >> 16;
      const uint32_t c = p & 0xffffu;
      const uint32_t kept = kColumnSorted ? c : r;
      float4& kept_piece = kColumnSorted ? col_piece[u] : row_piece[u];
      if (u == 0 || kept != kept_before) {
        kept_piece = kColumnSorted ? x2s[c * kPieces + group_lane] : x1s[r * kPieces + group_lane];
      } else {
        kept_piece = kColumnSorted ? col_piece[u - 1] : row_piece[u - 1];
      }
      kept_before = kept;
      if (kColumnSorted) {
        row_piece[u] = x1s[r * kPieces + group_lane];
      } else {
        col_piece[u] = x2s[c * kPieces + group_lane];
      }
    }
    float partial[kU];
#pragma unroll
    for (int u = 0; u < kU; ++u) partial[u] = dot4(row_piece[u], col_piece[u]);
    // Halving: at each round a lane keeps the half of its entries its lane bit selects and adds the
    // partner's partial sums of that half; after log2(kU) rounds it holds one entry, whose sum the
    // remaining rounds complete.
    int count = kU;
#pragma unroll
    for (int offset = 4; offset >= 1; offset >>= 1) {
      const bool upper = (group_lane & offset) != 0;
      if (count > 1) {
        const int half = count / 2;
#pragma unroll
        for (int i = 0; i < half; ++i) {
          const float send = upper ? partial[i] : partial[i + half];
          const float keep = upper ? partial[i + half] : partial[i];
          partial[i] = keep + __shfl_xor_sync(0xffffffffu, send, offset);
        }
        count = half;
      } else {
        partial[0] += __shfl_xor_sync(0xffffffffu, partial[0], offset);
      }
    }
    if (valid) out[dst] = scale * partial[0];
  }
}

struct Matrix {
  int rows = 0, cols = 0;
  std::vector<int> row, col;  // sorted by (row, col)
  std::vector<float> val;
};

struct TilePlan {
  int slabs = 0, tiles = 0;
  std::vector<int> tile_begin;
  std::vector<uint32_t> packed;
  std::vector<float> val;
  std::vector<int> pos;
};

TilePlan plan_tiles(const Matrix& m, int panel_rows, int slab_cols, bool column_sorted) {
  TilePlan t;
  const int panels = (m.rows + panel_rows - 1) / panel_rows;
  t.slabs = (m.cols + slab_cols - 1) / slab_cols;
  t.tiles = panels * t.slabs;
  const size_t nnz = m.row.size();
  std::vector<int> count(static_cast<size_t>(t.tiles) + 1, 0);
  for (size_t e = 0; e < nnz; ++e)
    ++count[static_cast<size_t>(m.row[e] / panel_rows * t.slabs + m.col[e] / slab_cols) + 1];
  std::partial_sum(count.begin(), count.end(), count.begin());
  t.tile_begin = count;
  t.packed.resize(nnz);
  t.val.resize(nnz);
  t.pos.resize(nnz);
  // Entries come in (row, column) order, so each tile's stay in it.
  for (size_t e = 0; e < nnz; ++e) {
    const int tile = m.row[e] / panel_rows * t.slabs + m.col[e] / slab_cols;
    const int at = count[static_cast<size_t>(tile)]++;
    t.packed[static_cast<size_t>(at)] =
        static_cast<uint32_t>(m.row[e] % panel_rows) << 16 | static_cast<uint32_t>(m.col[e] % slab_cols);
    t.val[static_cast<size_t>(at)] = m.val[e];
    t.pos[static_cast<size_t>(at)] = static_cast<int>(e);
  }
  if (column_sorted) {  // (column, row) within each tile, as the library's panel order has them
    std::vector<size_t> order;
    for (int tile = 0; tile < t.tiles; ++tile) {
      const size_t b = static_cast<size_t>(t.tile_begin[static_cast<size_t>(tile)]);
      const size_t e = static_cast<size_t>(t.tile_begin[static_cast<size_t>(tile) + 1]);
      order.resize(e - b);
      std::iota(order.begin(), order.end(), b);
      std::stable_sort(order.begin(), order.end(),
                       [&](size_t x, size_t y) { return (t.packed[x] & 0xffffu) < (t.packed[y] & 0xffffu); });
      const std::vector<uint32_t> packed(t.packed.begin() + b, t.packed.begin() + e);
      const std::vector<float> val(t.val.begin() + b, t.val.begin() + e);
      const std::vector<int> pos(t.pos.begin() + b, t.pos.begin() + e);
      for (size_t i = 0; i < order.size(); ++i) {
        t.packed[b + i] = packed[order[i] - b];
        t.val[b + i] = val[order[i] - b];
        t.pos[b + i] = pos[order[i] - b];
      }
    }
  }
  return t;
}

template <typename T>
T* upload(const std::vector<T>& host) {
  T* device = nullptr;
  CHECK_CUDA(cudaMalloc(&device, std::max<size_t>(host.size(), 1) * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return device;
}

double median_ms(cudaStream_t stream, int sets, const std::function<void(int)>& run) {
  constexpr int kWarmup = 5, kReps = 30;
  for (int i = 0; i < kWarmup; ++i) run(i % sets);
  std::vector<cudaEvent_t> events(kReps + 1);
  for (auto& e : events) CHECK_CUDA(cudaEventCreate(&e));
  CHECK_CUDA(cudaEventRecord(events[0], stream));
  for (int i = 0; i < kReps; ++i) {
    run((kWarmup + i) % sets);
    CHECK_CUDA(cudaEventRecord(events[static_cast<size_t>(i) + 1], stream));
  }
  CHECK_CUDA(cudaEventSynchronize(events[kReps]));
  std::vector<double> ms(kReps);
  for (int i = 0; i < kReps; ++i) {
    float elapsed = 0;
    CHECK_CUDA(cudaEventElapsedTime(&elapsed, events[static_cast<size_t>(i)], events[static_cast<size_t>(i) + 1]));
    ms[static_cast<size_t>(i)] = elapsed;
  }
  for (auto& e : events) CHECK_CUDA(cudaEventDestroy(e));
  std::sort(ms.begin(), ms.end());
  return 0.5 * (ms[kReps / 2 - 1] + ms[kReps / 2]);
}

// Largest |got - ref| / (sum of |terms| * |value|) over the entries: float32 sums of 32 terms land
// near 1e-7.
double largest_error(const std::vector<float>& got, const std::vector<double>& ref, const std::vector<double>& mag) {
  double worst = 0;
  for (size_t e = 0; e < ref.size(); ++e) {
    const double err = std::fabs(static_cast<double>(got[e]) - ref[e]) / std::max(mag[e], 1e-30);
    if (!(err <= worst)) worst = err;  // NaN sticks
  }
  return worst;
}

std::vector<float> download(const float* device, size_t n) {
  std::vector<float> host(n);
  CHECK_CUDA(cudaMemcpy(host.data(), device, n * sizeof(float), cudaMemcpyDeviceToHost));
  return host;
}

struct Form {
  int panel_rows, slab_cols, u, min_blocks, ahead;
  bool column_sorted;
  void (*kernel)(const float*, const float*, const int*, const uint32_t*, const float*, const int*, float*, int, int,
                 int);
};

template <int kR, int kC, int kU, int kMinBlocks, int kAhead, bool kColumnSorted = false>
Form form() {
  return {kR, kC, kU, kMinBlocks, kAhead, kColumnSorted, tile_kernel<kR, kC, kU, kMinBlocks, kAhead, kColumnSorted>};
}

}  // namespace

int main() {
  cudaStream_t stream = nullptr;
  CHECK_CUDA(cudaStreamCreate(&stream));
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  const double l2 = static_cast<double>(prop.l2CacheSize);
  std::printf("%s, %d SMs, L2 %.0f MiB\n", prop.name, prop.multiProcessorCount, l2 / (1 << 20));
  // e67 (value and place loaded in the step): 64 x 512 u8 best at 3.2M / 6.4M (44.8 / 70.6 us),
  // 128 rows and 1024 columns slower (2 and 1 blocks a multiprocessor). e68 (loaded a step ahead):
  // 128 x 256 u8 at 3 blocks best everywhere (1.92M 29.5, 3.2M 40.1, 6.4M 67.3 us), 64 x 256 u8
  // 36.4 / 45.5 / 70.7, 64 x 128 and 32 x 256 slower still.
  // e69: two steps ahead no better (128 x 256 a2 30.1 / 35.0 / 40.3 / 68.3 against a1 29.5 / 34.6 /
  // 39.8 / 67.1); 256 x 256, 256 x 128, 128 x 128 and 128 x 512 slower. e71: row- against
  // column-sorted tiles (the library's panel order sorts them by column: its kernel lost, e70).
  const std::vector<Form> forms = {form<64, 256, 8, 4, 1>(), form<64, 256, 8, 4, 1, true>(), form<128, 256, 8, 3, 1>(),
                                   form<128, 256, 8, 3, 1, true>()};
  for (const Form& f : forms) {
    const int bytes = (f.slab_cols + f.panel_rows) * kPieces * 16;
    CHECK_CUDA(cudaFuncSetAttribute(f.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  }
  cusparseHandle_t sparse = nullptr;
  CHECK_CUSPARSE(cusparseCreate(&sparse));
  CHECK_CUSPARSE(cusparseSetStream(sparse, stream));
  const float one = 1.f, zero = 0.f;
  std::printf("%-20s %-22s %10s %10s %10s %8s %8s %9s %9s %9s\n", "matrix", "form", "tile_us", "ours_us", "cusp_us",
              "vs_ours", "vs_cusp", "err_tile", "err_ours", "err_cusp");
  for (const int64_t nnz_target : {1920000, 2560000, 3200000, 6400000}) {
    const int n = 8000;
    const auto coo = sddmm::testkit::uniform_random(n, n, nnz_target, 20261202);
    Matrix m;
    m.rows = m.cols = n;
    const size_t nnz = static_cast<size_t>(coo.nnz());
    std::vector<size_t> order(nnz);
    std::iota(order.begin(), order.end(), size_t{0});
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return coo.row[a] != coo.row[b] ? coo.row[a] < coo.row[b] : coo.col[a] < coo.col[b];
    });
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<float> uniform(0.5f, 1.5f);
    for (size_t i : order) {
      m.row.push_back(static_cast<int>(coo.row[i]));
      m.col.push_back(static_cast<int>(coo.col[i]));
      m.val.push_back(uniform(rng));
    }
    std::vector<float> x1(static_cast<size_t>(n) * kK), x2(static_cast<size_t>(n) * kK);  // X2 column-major
    for (auto& v : x1) v = uniform(rng);
    for (auto& v : x2) v = uniform(rng);
    std::vector<double> ref(nnz), mag(nnz);
    for (size_t e = 0; e < nnz; ++e) {
      double s = 0, a = 0;
      for (int k = 0; k < kK; ++k) {
        const double t = static_cast<double>(x1[static_cast<size_t>(m.row[e]) * kK + k]) *
                         static_cast<double>(x2[static_cast<size_t>(m.col[e]) * kK + k]);
        s += t;
        a += std::fabs(t);
      }
      ref[e] = s * m.val[e];
      mag[e] = a * std::fabs(m.val[e]);
    }
    // Sets of every array a call reads or writes, rotated so that each call starts from DRAM.
    const double footprint = static_cast<double>(nnz) * 16.0 + 2.0 * n * kK * 4.0;
    const int sets = static_cast<int>(std::min(16.0, std::ceil(3.0 * l2 / footprint)));
    std::vector<float*> d_x1(sets), d_x2(sets), d_out(sets);
    for (int s = 0; s < sets; ++s) {
      d_x1[s] = upload(x1);
      d_x2[s] = upload(x2);
      CHECK_CUDA(cudaMalloc(&d_out[s], nnz * sizeof(float)));
    }
    const std::string name = "uniform-8000-" + std::to_string(nnz);
    // The library, from the same COO (sorted by row and column), one handle a set.
    std::vector<sddmm_matrix_t> handles(sets);
    for (int s = 0; s < sets; ++s) {
      int* rows_d = upload(m.row);
      int* cols_d = upload(m.col);
      float* vals_d = upload(m.val);
      CHECK_SDDMM(sddmm_create_coo(&handles[s], n, n, static_cast<int64_t>(nnz), rows_d, cols_d, SDDMM_INDEX_INT32,
                                   vals_d, SDDMM_DTYPE_FLOAT32, SDDMM_BACKEND_CUDA, 0, 0, stream));
      CHECK_CUDA(cudaStreamSynchronize(stream));
      CHECK_CUDA(cudaFree(rows_d));
      CHECK_CUDA(cudaFree(cols_d));
      CHECK_CUDA(cudaFree(vals_d));
    }
    auto ours = [&](int s) {
      const sddmm_dense_t a{d_x1[s], n, kK, kK, SDDMM_LAYOUT_ROW_MAJOR, SDDMM_DTYPE_FLOAT32};
      const sddmm_dense_t b{d_x2[s], kK, n, kK, SDDMM_LAYOUT_COL_MAJOR, SDDMM_DTYPE_FLOAT32};
      CHECK_SDDMM(sddmm_execute(handles[s], &a, &b, d_out[s], SDDMM_DTYPE_FLOAT32, stream));
    };
    const double ours_us = 1e3 * median_ms(stream, sets, ours);
    ours(0);
    const double err_ours = largest_error(download(d_out[0], nnz), ref, mag);
    // cuSPARSE on a CSR of the same entries; it does not scale by A's values, so the check does.
    std::vector<int> offsets(static_cast<size_t>(n) + 1, 0);
    for (int r : m.row) ++offsets[static_cast<size_t>(r) + 1];
    std::partial_sum(offsets.begin(), offsets.end(), offsets.begin());
    struct CsSet {
      cusparseSpMatDescr_t c;
      cusparseDnMatDescr_t a, b;
      void* buffer;
    };
    std::vector<CsSet> cs(sets);
    for (int s = 0; s < sets; ++s) {
      CHECK_CUSPARSE(cusparseCreateCsr(&cs[s].c, n, n, static_cast<int64_t>(nnz), upload(offsets), upload(m.col),
                                       d_out[s], CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                       CUDA_R_32F));
      CHECK_CUSPARSE(cusparseCreateDnMat(&cs[s].a, n, kK, kK, d_x1[s], CUDA_R_32F, CUSPARSE_ORDER_ROW));
      CHECK_CUSPARSE(cusparseCreateDnMat(&cs[s].b, kK, n, kK, d_x2[s], CUDA_R_32F, CUSPARSE_ORDER_COL));
      size_t bytes = 0;
      CHECK_CUSPARSE(cusparseSDDMM_bufferSize(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                              CUSPARSE_OPERATION_NON_TRANSPOSE, &one, cs[s].a, cs[s].b, &zero, cs[s].c,
                                              CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT, &bytes));
      CHECK_CUDA(cudaMalloc(&cs[s].buffer, std::max<size_t>(bytes, 1)));
      CHECK_CUSPARSE(cusparseSDDMM_preprocess(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                              CUSPARSE_OPERATION_NON_TRANSPOSE, &one, cs[s].a, cs[s].b, &zero, cs[s].c,
                                              CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT, cs[s].buffer));
    }
    auto cusparse = [&](int s) {
      CHECK_CUSPARSE(cusparseSDDMM(sparse, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one,
                                   cs[s].a, cs[s].b, &zero, cs[s].c, CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT,
                                   cs[s].buffer));
    };
    const double cusp_us = 1e3 * median_ms(stream, sets, cusparse);
    cusparse(0);
    CHECK_CUDA(cudaStreamSynchronize(stream));
    std::vector<float> got = download(d_out[0], nnz);
    for (size_t e = 0; e < nnz; ++e) got[e] *= m.val[e];
    const double err_cusp = largest_error(got, ref, mag);
    for (const Form& f : forms) {
      const TilePlan t = plan_tiles(m, f.panel_rows, f.slab_cols, f.column_sorted);
      std::vector<int*> begin_d(sets), pos_d(sets);
      std::vector<uint32_t*> packed_d(sets);
      std::vector<float*> val_d(sets);
      for (int s = 0; s < sets; ++s) {
        begin_d[s] = upload(t.tile_begin);
        packed_d[s] = upload(t.packed);
        val_d[s] = upload(t.val);
        pos_d[s] = upload(t.pos);
      }
      const int bytes = (f.slab_cols + f.panel_rows) * kPieces * 16;
      auto tile = [&](int s) {
        f.kernel<<<t.tiles, kThreads, bytes, stream>>>(d_x1[s], d_x2[s], begin_d[s], packed_d[s], val_d[s], pos_d[s],
                                                       d_out[s], n, n, t.slabs);
        CHECK_CUDA(cudaGetLastError());
      };
      CHECK_CUDA(cudaMemsetAsync(d_out[0], 0xff, nnz * sizeof(float), stream));  // NaN: unwritten shows
      tile(0);
      CHECK_CUDA(cudaStreamSynchronize(stream));
      const double err_tile = largest_error(download(d_out[0], nnz), ref, mag);
      const double tile_us = 1e3 * median_ms(stream, sets, tile);
      int resident = 0;
      CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, f.kernel, kThreads, bytes));
      char label[40];
      std::snprintf(label, sizeof(label), "%dx%d u%d a%d b%d r%d %s", f.panel_rows, f.slab_cols, f.u, f.ahead,
                    f.min_blocks, resident, f.column_sorted ? "col" : "row");
      std::printf("%-20s %-22s %10.2f %10.2f %10.2f %8.2f %8.2f %9.1e %9.1e %9.1e\n", name.c_str(), label, tile_us,
                  ours_us, cusp_us, ours_us / tile_us, cusp_us / tile_us, err_tile, err_ours, err_cusp);
      std::fflush(stdout);
      for (int s = 0; s < sets; ++s) {
        CHECK_CUDA(cudaFree(begin_d[s]));
        CHECK_CUDA(cudaFree(packed_d[s]));
        CHECK_CUDA(cudaFree(val_d[s]));
        CHECK_CUDA(cudaFree(pos_d[s]));
      }
    }
    for (int s = 0; s < sets; ++s) {
      CHECK_SDDMM(sddmm_destroy(handles[s]));
      cusparseDestroySpMat(cs[s].c);
      cusparseDestroyDnMat(cs[s].a);
      cusparseDestroyDnMat(cs[s].b);
      CHECK_CUDA(cudaFree(cs[s].buffer));
      CHECK_CUDA(cudaFree(d_x1[s]));
      CHECK_CUDA(cudaFree(d_x2[s]));
      CHECK_CUDA(cudaFree(d_out[s]));
    }
  }
  cusparseDestroy(sparse);
  return 0;
}
