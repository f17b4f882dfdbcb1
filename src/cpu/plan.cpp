// The CPU backend's Plan: owns the pattern, forwards to the kernels.
#include <memory>

#include "core/error.hpp"
#include "core/matrix.hpp"
#include "cpu/kernels.hpp"
#include "cpu/pattern.hpp"

namespace sddmm {
namespace cpu {
namespace {

template <typename T>
class CpuPlan final : public Plan {
 public:
  CpuPlan(const MatrixInfo& info, const SparseInput& input) : pattern_(build_pattern<T>(info, input)) {}

  void sddmm(const DenseView& x1, const DenseView& x2, void* out, sddmm_dtype_t /*out_dtype*/,
             void* /*stream*/) const override {
    cpu::sddmm(pattern_, x1, x2, static_cast<T*>(out));
  }

  void spmm(const DenseView& x, const DenseView& y, bool transpose, void* /*stream*/) const override {
    if (transpose) {
      cpu::spmm(pattern_.by_col, pattern_.cols, x, y);
    } else {
      cpu::spmm(pattern_.by_row, pattern_.rows, x, y);
    }
  }

 private:
  Pattern<T> pattern_;
};

}  // namespace
}  // namespace cpu

std::unique_ptr<Plan> make_cpu_plan(const MatrixInfo& info, const SparseInput& input) {
  switch (info.value_dtype) {
    case SDDMM_DTYPE_FLOAT32: return std::make_unique<cpu::CpuPlan<float>>(info, input);
    case SDDMM_DTYPE_FLOAT64: return std::make_unique<cpu::CpuPlan<double>>(info, input);
    default: fail(SDDMM_STATUS_NOT_SUPPORTED, "the CPU backend does not support value dtype ", int(info.value_dtype));
  }
}

}  // namespace sddmm
