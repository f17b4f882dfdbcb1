#include "cuda/sddmm/sddmm.cuh"

#include "cuda/sddmm/sddmm_kernel.cuh"

namespace sddmm::cuda {
namespace {

enum class SddmmKernel { kVector16, kStrided };

struct SddmmChoice {
  SddmmKernel kernel;
  int group;  // lanes per entry
};

// The one place that picks an SDDMM kernel for a call.
//  - kVector16 when K is contiguous in both operands (x1 row-major, x2 column-major), 16-byte
//    aligned, and K a multiple of the vector width: every lane loads 16 bytes per step.
//  - kStrided otherwise (any layout, odd K, offset pointers): scalar loads, correct everywhere.
//  - group: the fewest lanes that cover K in kStepsPerLane steps, capped at a warp: short K packs
//    several entries into a warp instead of idling lanes (K = 32 float: 4 lanes x 2 float4 steps),
//    and each lane has a couple of loads per entry besides the kEntriesPerGroup in flight.
//    Measured (H200, uniform 8000^2 640k, K = 128): 1 step per lane with 1 entry in flight
//    0.274 ms; 2 steps with 4 entries in flight 0.074 ms (bench/RESULTS.md, c3858c3).
template <typename F>
SddmmChoice choose_sddmm_kernel(const DenseView& x1, const DenseView& x2) {
  constexpr int64_t kStepsPerLane = 2;
  constexpr int kVec = 16 / static_cast<int>(sizeof(F));
  const int64_t k = x1.cols;
  const bool contiguous_k = x1.col_stride() == 1 && x2.row_stride() == 1;
  const bool aligned = is_aligned(x1.data, 16) && is_aligned(x2.data, 16) && (x1.ld * int64_t{sizeof(F)}) % 16 == 0 &&
                       (x2.ld * int64_t{sizeof(F)}) % 16 == 0;
  const bool vector = contiguous_k && aligned && k % kVec == 0;
  const int64_t steps = (vector ? k / kVec : k) / kStepsPerLane;
  const int group = lanes_covering(steps);
  return {vector ? SddmmKernel::kVector16 : SddmmKernel::kStrided, group};
}

// A persistent grid: as many blocks as fit on the GPU at once (fewer for small problems), each
// looping over the entries; millions of short-lived blocks cost more in scheduling than they do.
template <typename Config, typename I>
void launch(const SddmmArgs<typename Config::Types, I>& args, int resident_blocks, cudaStream_t stream) {
  constexpr int kThreads = Config::kThreadsPerBlock;
  const int64_t per_block = int64_t{kThreads / 32} * (32 / args.group) * Config::kEntriesPerGroup;
  const int64_t needed = (args.nnz + per_block - 1) / per_block;
  const int grid = static_cast<int>(needed < resident_blocks ? needed : resident_blocks);
  sddmm_entry_kernel<Config, I><<<grid, kThreads, 0, stream>>>(args);
  check_launch("sddmm_entry_kernel");
}

template <typename P, typename I>
void run_typed(const DevicePattern<typename P::Value, I>& a, const DenseView& x1, const DenseView& x2, void* out,
               cudaStream_t stream) {
  using F = typename P::Feature;
  SddmmArgs<P, I> args;
  args.nnz = a.nnz;
  args.k = x1.cols;
  args.entry_row = a.entry_row.get();
  args.entry_col = a.entry_col.get();
  args.entry_value = a.entry_value.get();
  args.caller_position = a.caller_position.get();
  args.x1 = static_cast<const F*>(x1.data);
  args.x1_row_stride = x1.row_stride();
  args.x1_k_stride = x1.col_stride();
  args.x2 = static_cast<const F*>(x2.data);
  args.x2_k_stride = x2.row_stride();
  args.x2_col_stride = x2.col_stride();
  args.out = static_cast<typename P::Output*>(out);
  const SddmmChoice choice = choose_sddmm_kernel<F>(x1, x2);
  args.group = choice.group;
  switch (choice.kernel) {
    case SddmmKernel::kVector16: launch<SddmmConfig<P, 16>, I>(args, a.resident_blocks, stream); return;
    case SddmmKernel::kStrided: launch<SddmmConfig<P, 0>, I>(args, a.resident_blocks, stream); return;
  }
  fail(SDDMM_STATUS_NOT_SUPPORTED, "no SDDMM kernel for this call");
}

}  // namespace

template <typename V, typename I>
void run_sddmm(const DevicePattern<V, I>& a, const DenseView& x1, const DenseView& x2, void* out, sddmm_dtype_t out_dtype,
               cudaStream_t stream) {
  dispatch_precision<V>(x1.dtype, out_dtype, [&](auto precision) {
    run_typed<decltype(precision), I>(a, x1, x2, out, stream);
  });
}

#define SDDMM_INSTANTIATE_RUN_SDDMM(V, I) \
  template void run_sddmm<V, I>(const DevicePattern<V, I>&, const DenseView&, const DenseView&, void*, sddmm_dtype_t, cudaStream_t);
SDDMM_INSTANTIATE_RUN_SDDMM(float, int32_t)
SDDMM_INSTANTIATE_RUN_SDDMM(float, int64_t)
SDDMM_INSTANTIATE_RUN_SDDMM(double, int32_t)
SDDMM_INSTANTIATE_RUN_SDDMM(double, int64_t)
SDDMM_INSTANTIATE_RUN_SDDMM(__half, int32_t)
SDDMM_INSTANTIATE_RUN_SDDMM(__half, int64_t)
SDDMM_INSTANTIATE_RUN_SDDMM(__nv_bfloat16, int32_t)
SDDMM_INSTANTIATE_RUN_SDDMM(__nv_bfloat16, int64_t)
#undef SDDMM_INSTANTIATE_RUN_SDDMM

}  // namespace sddmm::cuda
