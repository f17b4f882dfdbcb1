// Plan creation, before the tensor-core listing: how many entries lie in dense 16 x 64 units,
// counted straight from the caller's validated input with one counter per unit (an atomic add per
// entry: integer sums, the same whatever the order). The listing (preprocess/tiles.cu) sorts every
// entry by unit to find the same number and keeps no unit when it is below the plan-wide minimum
// share; where the census finds that, the plan skips the listing and its scratch.
#include <algorithm>
#include <type_traits>

#include "cuda/preprocess/launch.cuh"
#include "cuda/preprocess/sorted.cuh"
#include "cuda/tiles.cuh"

namespace sddmm::cuda {
namespace {

__device__ __forceinline__ int64_t unit_of(int64_t row, int64_t col, int64_t strips) {
  return col / kUnitCols * strips + row / kUnitRows;
}

template <typename J>
__global__ void count_units_coo_kernel(const J* row, const J* col, int64_t nnz, int64_t strips, unsigned* counts) {
  batched_loop(
      nnz, [&](int64_t e) { return unit_of(row[e], col[e], strips); },
      [&](int64_t, int64_t unit) { atomicAdd(&counts[unit], 1u); });
}

// CSR: each entry's row is the last one whose offset is <= the entry (a binary search of the
// validated offsets; empty rows before it share its offset and are passed over).
template <typename J>
__global__ void count_units_csr_kernel(const J* offsets, int64_t rows, const J* col, int64_t nnz, int64_t strips,
                                       unsigned* counts) {
  batched_loop(
      nnz, [&](int64_t e) { return unit_of(row_holding(offsets, rows, e), col[e], strips); },
      [&](int64_t, int64_t unit) { atomicAdd(&counts[unit], 1u); });
}

// The entries of the units holding at least min_entries: a sum per warp, one atomic per warp.
__global__ void sum_dense_units_kernel(const unsigned* counts, int64_t units, unsigned min_entries,
                                       unsigned long long* total) {
  unsigned long long mine = 0;
  SDDMM_GRID_STRIDE(u, units) mine += counts[u] >= min_entries ? counts[u] : 0u;
  for (int offset = 16; offset > 0; offset /= 2) mine += __shfl_down_sync(0xffffffffu, mine, offset);
  if ((threadIdx.x & 31) == 0 && mine != 0) atomicAdd(total, mine);
}

}  // namespace

int64_t count_dense_unit_entries(const SparseInput& input, int64_t rows, int64_t cols, int64_t nnz,
                                 int64_t min_entries, void* counters, size_t counter_bytes, cudaStream_t stream) {
  if (nnz == 0 || rows == 0 || cols == 0) return 0;
  const int64_t strips = unit_strips(rows);
  const int64_t chunks = unit_chunks(cols);
  const auto total_bytes = static_cast<int64_t>(sizeof(unsigned long long));
  const int64_t fit = (static_cast<int64_t>(counter_bytes) - total_bytes) / int64_t{sizeof(unsigned)};
  if (fit <= 0 || strips > fit / chunks) return -1;
  const int64_t units = strips * chunks;
  // A unit holds at most 16 x 64 entries: a higher minimum is one no count reaches.
  const auto threshold = static_cast<unsigned>(std::clamp<int64_t>(min_entries, 1, kUnitRows * kUnitCols + 1));
  auto* total = static_cast<unsigned long long*>(counters);
  auto* counts = reinterpret_cast<unsigned*>(total + 1);
  check(cudaMemsetAsync(counters, 0, static_cast<size_t>(total_bytes + units * int64_t{sizeof(unsigned)}), stream),
        "cudaMemsetAsync (unit census)");
  launch_on_index_type(input.index_type, input.cols, nnz, [&](const auto* col, int blocks) {
    using J = std::remove_const_t<std::remove_pointer_t<decltype(col)>>;
    const J* row = static_cast<const J*>(input.rows);
    if (input.format == SparseInput::Format::kCsr) {
      count_units_csr_kernel<<<blocks, kPreprocessThreads, 0, stream>>>(row, rows, col, nnz, strips, counts);
    } else {
      count_units_coo_kernel<<<blocks, kPreprocessThreads, 0, stream>>>(row, col, nnz, strips, counts);
    }
  });
  check_launch("unit census");
  sum_dense_units_kernel<<<preprocess_blocks(units), kPreprocessThreads, 0, stream>>>(counts, units, threshold, total);
  check_launch("sum_dense_units_kernel");
  unsigned long long dense = 0;
  check(cudaMemcpyAsync(&dense, total, sizeof(dense), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync (unit census)");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (unit census)");
  return static_cast<int64_t>(dense);
}

}  // namespace sddmm::cuda
