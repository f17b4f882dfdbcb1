// The Hopper-only SDDMM kernels (sddmm_hopper.cuh): built for compute_90a alone.
#include "cuda/sddmm/sddmm_hopper.cuh"

#include "cuda/occupancy.cuh"
#include "cuda/runtime.cuh"
#include "cuda/sddmm/sddmm_wgmma_square_kernel.cuh"
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

}  // namespace

// The walk kernel: a block a multiprocessor (as many as run at once), each a run of the tiles.
template <typename Config, typename I>
void launch_walk(const SddmmTensorArgs<typename Config::Types, I>& args, cudaStream_t stream) {
  const int64_t row_tiles = (args.strips + Config::kTileStrips - 1) / Config::kTileStrips;
  const int64_t tiles = row_tiles * args.chunks;
  const int resident = resident_grid<sddmm_wgmma_walk_kernel<Config, I>>(Config::kThreadsPerBlock,
                                                                         Config::kSharedBytes);
  const int64_t blocks = tiles < resident ? tiles : resident;
  if (blocks <= 0) return;
  sddmm_wgmma_walk_kernel<Config, I>
      <<<static_cast<unsigned>(blocks), Config::kThreadsPerBlock, Config::kSharedBytes, stream>>>(args);
  check_launch("sddmm_wgmma_walk_kernel");
}

template <typename V, typename I>
bool launch_wgmma_squares(const SddmmTensorArgs<Precision<V, V, V>, I>& args, int64_t k, bool walk,
                          cudaStream_t stream) {
  return with_wgmma_square_config<V>(WgmmaSquareKs{}, k, [&](auto config) {
    using Config = decltype(config);
    if (walk) {
      launch_walk<SddmmWgmmaWalkConfig<Precision<V, V, V>, Config::kK>, I>(args, stream);
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
    using Walk = SddmmWgmmaWalkConfig<Precision<V, V, V>, Config::kK>;
    check(cudaFuncSetAttribute(sddmm_wgmma_square_kernel<Config, I>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(Config::kSharedBytes)),
          "cudaFuncSetAttribute (sddmm_wgmma_square_kernel)");
    check(cudaFuncSetAttribute(sddmm_wgmma_walk_kernel<Walk, I>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               static_cast<int>(Walk::kSharedBytes)),
          "cudaFuncSetAttribute (sddmm_wgmma_walk_kernel)");
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
