// Plan creation, tensor-core SpMM part: the dense units, listed chunk by chunk for SDDMM
// (preprocess/tiles.cu), listed again strip by strip, since an SpMM output row sums its strip's
// units. A check that no unit holds two entries of one cell, a radix sort of the unit indices by
// (strip, chunk) key, then each strip's first unit and first other entry by binary search. Integer
// work only: deterministic.
#include <cub/device/device_radix_sort.cuh>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "cuda/preprocess/launch.cuh"
#include "cuda/preprocess/sorted.cuh"
#include "cuda/tiles.cuh"

namespace sddmm::cuda {
namespace {

// Unit u's key chunk x strips + strip becomes strip x chunks + chunk.
__global__ void strip_keys_kernel(const int64_t* unit_key, int64_t units, int64_t strips, int64_t chunks,
                                  int64_t* keys, int64_t* ids) {
  SDDMM_GRID_STRIDE(u, units) {
    const int64_t key = unit_key[u];
    keys[u] = key % strips * chunks + key / strips;
    ids[u] = u;
  }
}

// For s = 0 .. strips: its first unit among the sorted keys, its first entry among the CUDA-core
// entries (plan positions, ascending).
template <typename I>
__global__ void strip_begins_kernel(const int64_t* sorted_keys, int64_t units, int64_t chunks, const I* rest,
                                    int64_t rest_count, const int64_t* row_offsets, int64_t rows, int64_t strips,
                                    int64_t* unit_begin, int64_t* rest_begin) {
  SDDMM_GRID_STRIDE(s, strips + 1) {
    unit_begin[s] = first_not_below(sorted_keys, units, s * chunks);
    const int64_t row = s * kUnitRows < rows ? s * kUnitRows : rows;
    rest_begin[s] = first_not_below(rest, rest_count, row_offsets[row]);
  }
}

// Sets *found where two entries of one unit share a cell (duplicate COO entries, which SpMM sums
// and the kernel's tile of values cannot hold): a bit per cell, a block per unit.
__global__ void shared_cells_kernel(const int64_t* unit_entries, int64_t units, const uint16_t* local, int* found) {
  __shared__ unsigned cells[kUnitRows * kUnitCols / 32];
  for (int64_t u = blockIdx.x; u < units; u += gridDim.x) {
    for (int i = static_cast<int>(threadIdx.x); i < kUnitRows * kUnitCols / 32; i += static_cast<int>(blockDim.x)) {
      cells[i] = 0;
    }
    __syncthreads();
    for (int64_t e = unit_entries[u] + threadIdx.x; e < unit_entries[u + 1]; e += blockDim.x) {
      const unsigned cell = local[e], bit = 1u << (cell % 32);
      if ((atomicOr(&cells[cell / 32], bit) & bit) != 0) *found = 1;
    }
    __syncthreads();
  }
}

cudaError_t sort_units(void* temp, size_t& bytes, const int64_t* keys, int64_t* sorted_keys, const int64_t* ids,
                       int64_t* sorted_ids, int64_t units, int end_bit, cudaStream_t stream) {
  return cub::DeviceRadixSort::SortPairs(temp, bytes, keys, sorted_keys, ids, sorted_ids, units, 0, end_bit, stream);
}

}  // namespace

template <typename V, typename I>
bool build_strip_order(TensorTiles<V, I>& t, const int64_t* row_offsets, int64_t rows, void* scratch,
                       size_t scratch_bytes, cudaStream_t stream) {
  const int64_t units = t.unit_key.size();
  if (units == 0) return false;
  const int end_bit = significant_bits(t.strips * t.chunks);
  size_t sort_bytes = 0;
  check(sort_units(nullptr, sort_bytes, nullptr, nullptr, nullptr, nullptr, units, end_bit, stream),
        "cub (sizing the strip order)");
  int64_t *keys = nullptr, *sorted_keys = nullptr, *ids = nullptr;
  int* shared_cells = nullptr;
  void* sort_temp = nullptr;
  const auto lay_out = [&](Carver& c) {
    keys = c.take<int64_t>(units), sorted_keys = c.take<int64_t>(units), ids = c.take<int64_t>(units);
    shared_cells = c.take<int>(1);
    sort_temp = c.take<unsigned char>(static_cast<int64_t>(sort_bytes));
  };
  Carver measure;
  lay_out(measure);
  if (measure.used() > scratch_bytes) return false;
  Carver carver(scratch, scratch_bytes);
  lay_out(carver);

  // Units with duplicate entries keep SpMM on the CUDA cores (one read-back, synchronising).
  check(cudaMemsetAsync(shared_cells, 0, sizeof(int), stream), "cudaMemsetAsync");
  shared_cells_kernel<<<static_cast<unsigned>(units < 65535 * 8 ? units : 65535 * 8), 128, 0, stream>>>(
      t.unit_entries.get(), units, t.local.get(), shared_cells);
  check_launch("shared_cells_kernel");
  int found = 0;
  check(cudaMemcpyAsync(&found, shared_cells, sizeof(int), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (strip order)");
  if (found != 0) return false;

  t.strip_storage = carve([&](Carver& c) {
    t.strip_units = c.span<int64_t>(units);
    t.strip_unit_begin = c.span<int64_t>(t.strips + 1);
    t.strip_rest_begin = c.span<int64_t>(t.strips + 1);
  });
  strip_keys_kernel<<<preprocess_blocks(units), kPreprocessThreads, 0, stream>>>(t.unit_key.get(), units, t.strips,
                                                                               t.chunks, keys, ids);
  check_launch("strip_keys_kernel");
  check(sort_units(sort_temp, sort_bytes, keys, sorted_keys, ids, t.strip_units.get(), units, end_bit, stream),
        "cub::DeviceRadixSort::SortPairs (strip order)");
  strip_begins_kernel<<<preprocess_blocks(t.strips + 1), kPreprocessThreads, 0, stream>>>(
      sorted_keys, units, t.chunks, t.cuda_core_entries.get(), t.cuda_core_entries.size(), row_offsets, rows,
      t.strips, t.strip_unit_begin.get(), t.strip_rest_begin.get());
  check_launch("strip_begins_kernel");
  return true;
}

#define SDDMM_INSTANTIATE_STRIP_ORDER(V, I)                                                                        \
  template bool build_strip_order<V, I>(TensorTiles<V, I>&, const int64_t*, int64_t, void*, size_t, cudaStream_t);
SDDMM_INSTANTIATE_STRIP_ORDER(__half, int32_t)
SDDMM_INSTANTIATE_STRIP_ORDER(__half, int64_t)
SDDMM_INSTANTIATE_STRIP_ORDER(__nv_bfloat16, int32_t)
SDDMM_INSTANTIATE_STRIP_ORDER(__nv_bfloat16, int64_t)
#undef SDDMM_INSTANTIATE_STRIP_ORDER

}  // namespace sddmm::cuda
