// The CPU backend's Plan: owns the pattern, forwards to the kernels.
#include <memory>
#include <type_traits>

#include "core/dtype.hpp"
#include "core/error.hpp"
#include "core/matrix.hpp"
#include "cpu/element.hpp"
#include "cpu/kernels.hpp"
#include "cpu/pattern.hpp"

namespace sddmm {
namespace cpu {
namespace {

// A kernel instantiation's element types: A's values, the dense operands (features), the output.
template <typename V, typename F, typename O>
struct Types {
  using Value = V;
  using Feature = F;
  using Output = O;
};

constexpr int key(sddmm_dtype_t values, sddmm_dtype_t features, sddmm_dtype_t output) {
  return (static_cast<int>(values) * 4 + static_cast<int>(features)) * 4 + static_cast<int>(output);
}

// The one place where a call's dtypes become kernel template arguments: run(Types<V, F, O>{}) for
// each row of core/support.cpp's table, which has refused every other combination before this.
template <typename Run>
void dispatch(sddmm_dtype_t values, sddmm_dtype_t features, sddmm_dtype_t output, Run&& run) {
  constexpr auto f32 = SDDMM_DTYPE_FLOAT32, f64 = SDDMM_DTYPE_FLOAT64;
  constexpr auto f16 = SDDMM_DTYPE_FLOAT16, bf16 = SDDMM_DTYPE_BFLOAT16;
  switch (key(values, features, output)) {
    case key(f32, f32, f32):
      return run(Types<float, float, float>{});
    case key(f64, f64, f64):
      return run(Types<double, double, double>{});
    case key(f16, f16, f16):
      return run(Types<Float16, Float16, Float16>{});
    case key(bf16, bf16, bf16):
      return run(Types<BFloat16, BFloat16, BFloat16>{});
    case key(f32, f16, f32):
      return run(Types<float, Float16, float>{});
    case key(f32, bf16, f32):
      return run(Types<float, BFloat16, float>{});
    default:
      fail(SDDMM_STATUS_NOT_SUPPORTED, "the CPU backend has no kernel for ", name_of(values), " values, ",
           name_of(features), " features and ", name_of(output), " output");
  }
}

template <typename V>
class CpuPlan final : public Plan {
 public:
  CpuPlan(const MatrixInfo& info, const SparseInput& input) : pattern_(build_pattern<V>(info, input)) {}

  void sddmm(const DenseView& x1, const DenseView& x2, void* out, sddmm_dtype_t out_dtype,
             void* /*stream*/) const override {
    dispatch(kDtypeOf<V>, x1.dtype, out_dtype, [&](auto types) {
      using T = decltype(types);
      if constexpr (std::is_same_v<typename T::Value, V>) {
        cpu::sddmm<V, typename T::Feature, typename T::Output>(pattern_, x1, x2, static_cast<typename T::Output*>(out));
      }
    });
  }

  void spmm(const DenseView& x, const DenseView& y, bool transpose, void* /*stream*/) const override {
    dispatch(kDtypeOf<V>, x.dtype, y.dtype, [&](auto types) {
      using T = decltype(types);
      if constexpr (std::is_same_v<typename T::Value, V>) {
        const Compressed<V>& a = transpose ? pattern_.by_col : pattern_.by_row;
        cpu::spmm<V, typename T::Feature, typename T::Output>(a, transpose ? pattern_.cols : pattern_.rows, x, y);
      }
    });
  }

 private:
  Pattern<V> pattern_;
};

}  // namespace
}  // namespace cpu

std::unique_ptr<Plan> make_cpu_plan(const MatrixInfo& info, const SparseInput& input) {
  switch (info.value_dtype) {
    case SDDMM_DTYPE_FLOAT32:
      return std::make_unique<cpu::CpuPlan<float>>(info, input);
    case SDDMM_DTYPE_FLOAT64:
      return std::make_unique<cpu::CpuPlan<double>>(info, input);
    case SDDMM_DTYPE_FLOAT16:
      return std::make_unique<cpu::CpuPlan<Float16>>(info, input);
    case SDDMM_DTYPE_BFLOAT16:
      return std::make_unique<cpu::CpuPlan<BFloat16>>(info, input);
  }
  fail(SDDMM_STATUS_NOT_SUPPORTED, "the CPU backend does not support value dtype ", int(info.value_dtype));
}

}  // namespace sddmm
