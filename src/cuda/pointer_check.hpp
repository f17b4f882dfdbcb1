// Checks of a caller's pointer before a launch: that it is memory the handle's device can use, and
// that the memory at and after it reaches as far as the descriptor says it does.
#pragma once

#include <cstdint>

namespace sddmm::cuda {

// Throws INVALID_POINTER unless `ptr` is device or managed memory usable on `device` (or host
// memory registered with CUDA) and the `bytes` from `ptr` on lie inside its allocation: a buffer
// shorter than its descriptor's extent, or a pointer into a buffer whose extent runs past the
// buffer's end, is rejected before a kernel reads or writes past it. Memory of another device is
// rejected, naming both devices. NULL is accepted (emptiness is checked elsewhere), as is any
// pointer with `bytes` = 0 that passes the location check. Virtual memory (a reservation mapped in
// pieces, as caching allocators make it) counts where it is mapped: an extent may run over
// several mappings of one reservation, each of which must pass the location check. A failing
// query other than "not a pointer" is CUDA_ERROR.
//
// One driver query (cuPointerGetAttributes, through the runtime's driver entry point) for memory
// from cudaMalloc, pools, pinned and managed memory; one more for each further mapping an extent
// in virtual memory runs into. What it does not see: an extent that runs into another tensor
// inside the same allocation (a caching allocator's block).
void require_device_memory(const void* ptr, int64_t bytes, int device, const char* name);

}  // namespace sddmm::cuda
