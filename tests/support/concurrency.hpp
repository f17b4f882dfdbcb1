// Concurrency and determinism, shared by the CPU and the GPU tests.
#pragma once

#include "sddmm.h"

namespace sddmm::test {

// `threads` threads share one handle, each with its own operands, outputs and stream (a CUDA stream
// of its own on the GPU), and each runs `iterations` executes: SDDMM, SpMM and SpMM^T in turn, its
// output poisoned before every call. Every result must be bitwise identical to what one thread
// produced alone before (which is itself checked against the float64 reference), and a second
// handle created from the same arrays must reproduce those bytes too.
void check_shared_handle_threads(sddmm_backend_t backend, int threads, int iterations);

}  // namespace sddmm::test
