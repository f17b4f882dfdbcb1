// The SDDMM kernel family's compile-time configuration and run-time arguments.
#pragma once

#include <cstdint>

namespace sddmm::cuda {

// P: the call's element types (cuda/precision.cuh). kVectorBytes: bytes each lane loads per step
// along K from X1 and X2 (16 = one 128-bit load; 0 = scalar loads with arbitrary strides, for
// layouts or alignments the vector path cannot take).
template <typename P, int kVectorBytes>
struct SddmmConfig {
  using Types = P;
  using Feature = typename P::Feature;
  using Accumulator = typename P::Accumulator;
  static constexpr int kVec = kVectorBytes == 0 ? 1 : kVectorBytes / static_cast<int>(sizeof(Feature));
  static constexpr bool kStrided = kVectorBytes == 0;
  static constexpr int kThreadsPerBlock = 256;
  // Entries each lane group carries per iteration, their loads all issued before any arithmetic:
  // memory-level parallelism for a gather whose every load misses L1.
  static constexpr int kEntriesPerGroup = 4;
  static_assert(kVectorBytes == 0 || kVectorBytes == 16, "vector loads are 16 bytes or none");
  static_assert(kEntriesPerGroup >= 1 && kEntriesPerGroup <= 8, "entries in flight per group");
  static_assert(kVec >= 1 && (kVec & (kVec - 1)) == 0, "vector width must be a power of two");
  static_assert(kThreadsPerBlock % 32 == 0, "blocks hold whole warps");
};

// One launch: every stored entry e (in plan order) gets out[caller_position[e]] =
// value[e] * dot(x1[entry_row[e], :], x2[:, entry_col[e]]), computed by `group` lanes.
template <typename P, typename I>
struct SddmmArgs {
  using F = typename P::Feature;
  using V = typename P::Value;
  using O = typename P::Output;
  int64_t nnz = 0;
  int64_t k = 0;
  const I* entry_row = nullptr;        // (nnz)
  const I* entry_col = nullptr;        // (nnz)
  const V* entry_value = nullptr;      // (nnz) or nullptr: ones
  const I* caller_position = nullptr;  // (nnz) or nullptr: identity
  const F* x1 = nullptr;               // x1(i, k) = x1[i * x1_row_stride + k * x1_k_stride]
  int64_t x1_row_stride = 0;
  int64_t x1_k_stride = 0;
  const F* x2 = nullptr;               // x2(k, j) = x2[k * x2_k_stride + j * x2_col_stride]
  int64_t x2_k_stride = 0;
  int64_t x2_col_stride = 0;
  O* out = nullptr;                    // (nnz) caller order
  int group = 32;                      // lanes per entry: a power of two <= 32
};

}  // namespace sddmm::cuda
