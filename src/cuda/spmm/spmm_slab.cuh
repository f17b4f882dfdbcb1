// The SpMM slab kernel's launch (spmm_slab_kernel.cuh), in a translation unit of its own.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "cuda/spmm/spmm_config.cuh"

namespace sddmm::cuda {

// The slab kernel's shape on the current device for X rows of row_bytes: one block per
// multiprocessor, two slabs and a row of zeros filling the shared memory a block may take. blocks
// is 0 where the kernel cannot run: row_bytes not one it is built for (128, 256, 512, 1024), a
// device before sm_80 (no cp.async), or room for fewer than 8 rows a slab.
struct SlabGeometry {
  int blocks = 0;
  int64_t slab_rows = 0;
  size_t shared_bytes = 0;
};
// The device's compute capability (10 x major + minor) and the shared memory a block may take
// (opt-in) come from the plan, which asked the device at creation.
template <typename I>
SlabGeometry slab_geometry(int64_t row_bytes, int compute_capability, int64_t shared_optin);

// One launch on `stream`, args.rows_per_block and args.slab_rows filled from `g` here; requires
// g.blocks > 0 and outer <= slab_outer_capacity(g.blocks).
template <typename I>
void launch_spmm_slabs(SpmmSlabArgs<I> args, int64_t row_bytes, const SlabGeometry& g, cudaStream_t stream);

// Outer indices the slab kernel takes at most with `blocks` blocks.
inline int64_t slab_outer_capacity(int blocks) {
  return int64_t{blocks} * SpmmSlabConfig<128>::kWarps * SpmmSlabConfig<128>::kRowsPerWarp;
}

}  // namespace sddmm::cuda
