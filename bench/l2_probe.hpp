// The rate at which the L2 delivers data to the multiprocessors, meant as the bound of a kernel
// whose gathers hit the L2 (the dense operands of a case that fits it), as the copy bandwidth is
// of one that streams from DRAM. This form is short of that: on an H200 (2026-12-02) it read
// 7.7 TB/s where SDDMM and SpMM kernels without reuse moved 8.5-9.3 TB/s from the L2
// (bench/RESULTS.md); more loads in flight a thread, or the best of several buffer sizes, are
// the next things to measure.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace sddmm::bench {

// Bytes read per second / 1e9 by every resident thread reading 16-byte pieces of one buffer that
// the L2 holds (a quarter of it, at most 16 MiB) past L1 (ld.global.cg), median of 20 runs.
double measure_l2_read_gbs(int64_t l2_bytes, cudaStream_t stream);

}  // namespace sddmm::bench
