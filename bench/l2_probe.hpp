// The rate at which the L2 delivers data to the multiprocessors: the bound of a kernel whose
// gathers hit the L2 (the dense operands of a case that fits it), as the copy bandwidth is the
// bound of one that streams from DRAM.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace sddmm::bench {

// Bytes read per second / 1e9 by every resident thread reading 16-byte pieces of one buffer that
// the L2 holds (a quarter of it, at most 16 MiB) past L1 (ld.global.cg), median of 20 runs.
double measure_l2_read_gbs(int64_t l2_bytes, cudaStream_t stream);

}  // namespace sddmm::bench
