// Plan creation, the wgmma walk kernel's part: each dense unit's entry as one record (position,
// place, value: cuda/tiles.cuh, WalkEntry), copied from the unit-ordered arrays the listing made
// (preprocess/tiles.cu), so that the walk reads an entry in one load instead of three.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "cuda/preprocess/launch.cuh"
#include "cuda/tiles.cuh"

namespace sddmm::cuda {
namespace {

template <typename V, typename I>
__global__ void walk_entries_kernel(int64_t entries, const I* out_position, const uint16_t* local, const V* value,
                                    WalkEntry<V, I>* walk_entry) {
  SDDMM_GRID_STRIDE(e, entries) {
    WalkEntry<V, I> entry;
    entry.position = out_position[e];
    entry.local = local[e];
    entry.value = value != nullptr ? value[e] : V(1.0f);
    walk_entry[e] = entry;
  }
}

}  // namespace

template <typename V, typename I>
void add_walk_entries(TensorTiles<V, I>& t, cudaStream_t stream) {
  static_assert(sizeof(V) == 2, "the walk's 16-bit values");
  static_assert(sizeof(WalkEntry<V, I>) == (sizeof(I) == 4 ? 8 : 16), "one 8- or 16-byte load an entry");
  if (t.entries == 0) return;
  DeviceArray<WalkEntry<V, I>> records(t.entries);  // throws OUT_OF_MEMORY
  walk_entries_kernel<V, I><<<preprocess_blocks(t.entries), kPreprocessThreads, 0, stream>>>(
      t.entries, t.out_position.get(), t.local.get(), t.value.get(), records.get());
  check_launch("walk_entries_kernel");
  t.walk_entry = std::move(records);
}

template void add_walk_entries<__half, int32_t>(TensorTiles<__half, int32_t>&, cudaStream_t);
template void add_walk_entries<__half, int64_t>(TensorTiles<__half, int64_t>&, cudaStream_t);
template void add_walk_entries<__nv_bfloat16, int32_t>(TensorTiles<__nv_bfloat16, int32_t>&, cudaStream_t);
template void add_walk_entries<__nv_bfloat16, int64_t>(TensorTiles<__nv_bfloat16, int64_t>&, cudaStream_t);

}  // namespace sddmm::cuda
