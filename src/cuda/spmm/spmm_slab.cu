#include "cuda/spmm/spmm_slab.cuh"

#include "cuda/occupancy.cuh"
#include "cuda/runtime.cuh"
#include "cuda/spmm/spmm_slab_kernel.cuh"

namespace sddmm::cuda {
namespace {

// Calls fn(SpmmSlabConfig<R>{}) for the row size R == row_bytes; false where none is built.
template <typename Fn>
bool with_slab_config(int64_t row_bytes, Fn&& fn) {
  switch (row_bytes) {
    case 128: fn(SpmmSlabConfig<128>{}); return true;
    case 256: fn(SpmmSlabConfig<256>{}); return true;
    case 512: fn(SpmmSlabConfig<512>{}); return true;
    case 1024: fn(SpmmSlabConfig<1024>{}); return true;
    default: return false;
  }
}

}  // namespace

template <typename I>
SlabGeometry slab_geometry(int64_t row_bytes, int compute_capability, int64_t shared_optin) {
  SlabGeometry g;
  if (compute_capability < 80 || row_bytes <= 0) return g;
  with_slab_config(row_bytes, [&](auto config) {
    using Config = decltype(config);
    // Two slabs and a row of zeros, beside the kernel's static shared memory (its warps' entry
    // stages and two barriers).
    const int64_t slab_rows = (shared_optin - Config::kStaticSharedBytes - row_bytes) / 2 / row_bytes;
    if (slab_rows < 8) return;
    const size_t shared_bytes = static_cast<size_t>((2 * slab_rows + 1) * row_bytes);
    g.blocks = resident_grid<spmm_slab_kernel<Config, I>>(Config::kThreads, shared_bytes);
    g.slab_rows = slab_rows;
    g.shared_bytes = shared_bytes;
  });
  return g;
}

template <typename I>
void launch_spmm_slabs(SpmmSlabArgs<I> args, int64_t row_bytes, const SlabGeometry& g, cudaStream_t stream) {
  args.rows_per_block = (args.outer + g.blocks - 1) / g.blocks;
  args.slab_rows = g.slab_rows;
  const int64_t blocks = (args.outer + args.rows_per_block - 1) / args.rows_per_block;
  if (blocks == 0) return;
  const bool built = with_slab_config(row_bytes, [&](auto config) {
    using Config = decltype(config);
    if (args.rows_per_block > int64_t{Config::kWarps} * Config::kRowsPerWarp) {
      fail(SDDMM_STATUS_INTERNAL_ERROR, "SpMM slab kernel: more outer indices per block than its warps hold");
    }
    spmm_slab_kernel<Config, I><<<static_cast<unsigned>(blocks), Config::kThreads, g.shared_bytes, stream>>>(args);
    check_launch("spmm_slab_kernel");
  });
  if (!built) fail(SDDMM_STATUS_INTERNAL_ERROR, "SpMM slab kernel: no build for rows of ", row_bytes, " bytes");
}

#define SDDMM_INSTANTIATE_SLABS(I)                                   \
  template SlabGeometry slab_geometry<I>(int64_t, int, int64_t);     \
  template void launch_spmm_slabs<I>(SpmmSlabArgs<I>, int64_t, const SlabGeometry&, cudaStream_t);
SDDMM_INSTANTIATE_SLABS(int32_t)
SDDMM_INSTANTIATE_SLABS(int64_t)
#undef SDDMM_INSTANTIATE_SLABS

}  // namespace sddmm::cuda
