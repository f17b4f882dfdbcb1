// The rate at which the L2 delivers gathered rows to the multiprocessors: the reference for a
// case whose gathers the L2 holds and no kernel finds again on chip, as the copy bandwidth is for
// one that streams from DRAM. It is a measured rate of the access shape, not the hardware's
// peak: on an H200 (2026-12-02, e62: bench/experiments/l2-gather-probe.cu over 4 buffer sizes, 3
// row sizes, 4 and 8 rows in flight) random gathers read 9.4-9.6 TB/s over a sixteenth of the L2,
// 8.5-8.9 over a quarter to a half of it, and a grid-strided stream of 16-byte pieces (this
// probe's first form) 8.0-8.6 (7.2-7.9 in e64); ncu had the no-reuse SDDMM / SpMM cells at 85-88 %
// of its L2 peak.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace sddmm::bench {

// Bytes read per second / 1e9: the best of four shapes of l2_gather.cuh's kernel, rows of 128 and
// 1024 bytes gathered at random over buffers of a sixteenth and a quarter of the L2 (`l2_bytes`),
// every resident thread of the device's `sm_count` multiprocessors, 8 rows in flight a warp,
// median of 20 runs each.
double measure_l2_read_gbs(int64_t l2_bytes, int sm_count, cudaStream_t stream);

}  // namespace sddmm::bench
