// The Hopper-only SDDMM kernels (sddmm_hopper.cuh): built for compute_90a alone.
#include "cuda/sddmm/sddmm_hopper.cuh"

#include <cuda.h>  // the tensor map's types; the driver itself through driver_entry.hpp

#include <type_traits>

#include "cuda/driver_entry.hpp"
#include "cuda/occupancy.cuh"
#include "cuda/runtime.cuh"
#include "cuda/sddmm/sddmm_wgmma_square_kernel.cuh"
#include "cuda/sddmm/sddmm_wgmma_walk_entry_warps_kernel.cuh"
#include "cuda/sddmm/sddmm_wgmma_walk_kernel.cuh"

namespace sddmm::cuda {
namespace {

// Calls fn(SddmmWgmmaSquareConfig<Precision<V, V, V>, K>{}) where K is one of WgmmaSquareKs; false
// where it is none.
template <typename V, int... kKs, typename Fn>
bool with_wgmma_square_config(std::integer_sequence<int, kKs...>, int64_t k, Fn&& fn) {
  return ((k == kKs ? (fn(SddmmWgmmaSquareConfig<Precision<V, V, V>, kKs>{}), true) : false) || ...);
}

// Calls fn(SddmmWgmmaSquareConfig<Precision<V, V, V>, K>{}) for every K of WgmmaSquareKs.
template <typename V, int... kKs, typename Fn>
void for_each_wgmma_square_config(std::integer_sequence<int, kKs...>, Fn&& fn) {
  (fn(SddmmWgmmaSquareConfig<Precision<V, V, V>, kKs>{}), ...);
}

using EncodeTensorMap = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                     const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                     CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

// The driver's cuTensorMapEncodeTiled (through the runtime: no libcuda link), looked up once a
// process; null where the driver has none.
EncodeTensorMap tensor_map_encoder() {
  static const EncodeTensorMap encode =
      reinterpret_cast<EncodeTensorMap>(driver_function("cuTensorMapEncodeTiled", 12000));
  return encode;
}

// The walk kernel's maps of its operands for its tensor copies: X1 (rows x K, row-major) and X2
// (K x cols, column-major), each a `lines` x K array of 16-bit elements, `ld` apart, in boxes of 64
// K elements (one 128-byte swizzled line) x `box_lines` lines (X1: a row tile's 128, X2: a tile's
// 64 columns), swizzled by 128 bytes as wgmma reads them; lines past the matrix land as zeros.
// Encoded on the host at each call (the operands' addresses are the call's); the plans that take
// the walk have both operands 16-byte aligned with leading dimensions of whole 16 bytes, as a map
// needs (the tensor-core paths ask it: sddmm.cu).
template <typename Config>
CUtensorMap walk_operand_map(const typename Config::Feature* operand, int64_t ld, int64_t lines, int box_lines,
                             const char* name) {
  const EncodeTensorMap encode = tensor_map_encoder();
  if (encode == nullptr) {
    fail(SDDMM_STATUS_CUDA_ERROR, "SDDMM: the CUDA driver offers no cuTensorMapEncodeTiled through the runtime");
  }
  if (lines >= (int64_t{1} << 31)) {  // a box's line coordinate is a 32-bit integer
    fail(SDDMM_STATUS_NOT_SUPPORTED, "SDDMM: ", name, " has 2^31 lines or more on the wgmma walk kernel");
  }
  using F = typename Config::Feature;
  const cuuint64_t extent[2] = {static_cast<cuuint64_t>(Config::kK), static_cast<cuuint64_t>(lines)};
  const cuuint64_t pitch[1] = {static_cast<cuuint64_t>(ld) * sizeof(F)};
  const cuuint32_t box[2] = {static_cast<cuuint32_t>(Config::kSliceElements), static_cast<cuuint32_t>(box_lines)};
  const cuuint32_t step[2] = {1, 1};
  CUtensorMap map;
  const CUresult status = encode(&map, CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, const_cast<F*>(operand), extent, pitch, box,
                                 step, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                 CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (status != CUDA_SUCCESS) {
    fail(SDDMM_STATUS_INTERNAL_ERROR, "SDDMM: cuTensorMapEncodeTiled refused the walk kernel's map of ", name,
         " (CUresult ", static_cast<int>(status), ")");
  }
  return map;
}

}  // namespace

// The walk's form at K: at K = 256 the one with warps of its own for the entries, at K = 128 the
// one whose multiplying warps write them (sddmm_config.cuh, SddmmWgmmaWalkShape). Measured side by
// side in one call (H200, 2026-12-01, float16, uniform 8000^2 at 3 / 4 / 5 / 10 %, medians of two
// rounds, us; bench/RESULTS.md): K = 256 65.3 / 66.1 / 66.9 / 70.85 -> 61.6 / 63.1 / 63.7 / 70.0
// with entry warps (bfloat16 alike); K = 128 53.1 / 54.8 / 55.3 / 62.1 -> 55.1 / 56.7 / 57.8 /
// 64.3, slower: there the products are half as long, and the hand-over of each tile's results
// costs more than the multiplying warps' own writes.
template <typename V, int kK>
using WalkConfig = std::conditional_t<kK >= 256, SddmmWgmmaWalkEntryWarpsConfig<Precision<V, V, V>, kK>,
                                      SddmmWgmmaWalkConfig<Precision<V, V, V>, kK>>;

template <typename I, typename P, int kK>
constexpr auto walk_kernel_of(SddmmWgmmaWalkConfig<P, kK>) {
  return sddmm_wgmma_walk_kernel<SddmmWgmmaWalkConfig<P, kK>, I>;
}
template <typename I, typename P, int kK>
constexpr auto walk_kernel_of(SddmmWgmmaWalkEntryWarpsConfig<P, kK>) {
  return sddmm_wgmma_walk_entry_warps_kernel<SddmmWgmmaWalkEntryWarpsConfig<P, kK>, I>;
}

// The walk kernel: a block a multiprocessor (as many as run at once), each a run of the tiles.
template <typename Config, typename I>
void launch_walk(const SddmmTensorArgs<typename Config::Types, I>& args, cudaStream_t stream) {
  constexpr auto kKernel = walk_kernel_of<I>(Config{});
  const int64_t row_tiles = (args.strips + Config::kTileStrips - 1) / Config::kTileStrips;
  const int64_t tiles = row_tiles * args.chunks;
  const int resident = resident_grid<kKernel>(Config::kThreadsPerBlock, Config::kSharedBytes);
  const int64_t blocks = tiles < resident ? tiles : resident;
  if (blocks <= 0) return;
  const CUtensorMap x1_map = walk_operand_map<Config>(args.x1, args.x1_ld, args.rows, Config::kTileRows, "X1");
  const CUtensorMap x2_map = walk_operand_map<Config>(args.x2, args.x2_ld, args.cols, kUnitCols, "X2");
  kKernel<<<static_cast<unsigned>(blocks), Config::kThreadsPerBlock, Config::kSharedBytes, stream>>>(args, x1_map,
                                                                                                     x2_map);
  check_launch(Config::kKernelName);
}

template <typename V, typename I>
bool launch_wgmma_squares(const SddmmTensorArgs<Precision<V, V, V>, I>& args, int64_t k, bool walk,
                          cudaStream_t stream) {
  return with_wgmma_square_config<V>(WgmmaSquareKs{}, k, [&](auto config) {
    using Config = decltype(config);
    if (walk) {
      launch_walk<WalkConfig<V, Config::kK>, I>(args, stream);
      return;
    }
    const int64_t blocks = square_blocks<Config>(args.strips, args.chunks);
    if (blocks >= (int64_t{1} << 31)) {
      fail(SDDMM_STATUS_NOT_SUPPORTED, "SDDMM: too many blocks for one launch of sddmm_wgmma_square_kernel");
    }
    sddmm_wgmma_square_kernel<Config, I>
        <<<static_cast<unsigned>(blocks), Config::kThreadsPerBlock, Config::kSharedBytes, stream>>>(args);
    check_launch("sddmm_wgmma_square_kernel");
  });
}

template <typename V, typename I>
void prepare_wgmma_squares() {
  for_each_wgmma_square_config<V>(WgmmaSquareKs{}, [](auto config) {
    using Config = decltype(config);
    using Walk = WalkConfig<V, Config::kK>;
    check(cudaFuncSetAttribute(sddmm_wgmma_square_kernel<Config, I>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(Config::kSharedBytes)),
          "cudaFuncSetAttribute (sddmm_wgmma_square_kernel)");
    check(cudaFuncSetAttribute(walk_kernel_of<I>(Walk{}), cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(Walk::kSharedBytes)),
          "cudaFuncSetAttribute (the wgmma walk kernel)");
  });
}

#define SDDMM_INSTANTIATE_HOPPER(V, I)                                                                             \
  template bool launch_wgmma_squares<V, I>(const SddmmTensorArgs<Precision<V, V, V>, I>&, int64_t, bool,           \
                                           cudaStream_t);                                                         \
  template void prepare_wgmma_squares<V, I>();
SDDMM_INSTANTIATE_HOPPER(__half, int32_t)
SDDMM_INSTANTIATE_HOPPER(__half, int64_t)
SDDMM_INSTANTIATE_HOPPER(__nv_bfloat16, int32_t)
SDDMM_INSTANTIATE_HOPPER(__nv_bfloat16, int64_t)
#undef SDDMM_INSTANTIATE_HOPPER

}  // namespace sddmm::cuda
