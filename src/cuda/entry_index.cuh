// The type the CUDA-core SDDMM kernel counts plan entries in (its warps' shares of the entries). The
// SpMM kernel keeps 64-bit counters: unsigned 32-bit ones lost there (bench/RESULTS.md log).
#pragma once

#include <cstdint>
#include <type_traits>

namespace sddmm::cuda {

// 32-bit where the plan's indices are: then rows, cols and nnz are all below 2^31 (plan.cu), and a
// kernel's entry arithmetic is one register and one instruction wide instead of two. Unsigned: an
// SDDMM warp's last iteration counts up to nnz + (warps in the grid) * (entries per iteration),
// which stays below 2^32. ncu (H200, SDDMM uniform-8000-640k K = 256, issue-bound): 60.0M -> 52.2M
// warp instructions against 64-bit counters.
template <typename I>
using EntryIndex = std::conditional_t<sizeof(I) == 4, uint32_t, int64_t>;

}  // namespace sddmm::cuda
