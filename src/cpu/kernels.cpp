#include "cpu/kernels.hpp"

#include <algorithm>

#include "cpu/element.hpp"

namespace sddmm::cpu {

template <typename V, typename F, typename O>
void sddmm(const Pattern<V>& a, const DenseView& x1, const DenseView& x2, O* out) {
  const F* d1 = static_cast<const F*>(x1.data);
  const F* d2 = static_cast<const F*>(x2.data);
  const int64_t k_dim = x1.cols;
  const int64_t rs1 = x1.row_stride(), ks1 = x1.col_stride();  // x1(i, k) = d1[i * rs1 + k * ks1]
  const int64_t ks2 = x2.row_stride(), cs2 = x2.col_stride();  // x2(k, j) = d2[k * ks2 + j * cs2]
  const int64_t nnz = static_cast<int64_t>(a.row.size());
  const bool has_values = !a.value.empty();
#pragma omp parallel for schedule(static)
  for (int64_t p = 0; p < nnz; ++p) {
    double acc = 0.0;
    if (k_dim > 0) {  // K = 0: the operands are empty, their data may be NULL and their ld anything
      const F* u = d1 + a.row[p] * rs1;
      const F* v = d2 + a.col[p] * cs2;
      for (int64_t k = 0; k < k_dim; ++k) acc += to_double(u[k * ks1]) * to_double(v[k * ks2]);
    }
    const double scale = has_values ? to_double(a.value[p]) : 1.0;
    out[p] = round_to<O>(scale * acc);
  }
}

template <typename V, typename F, typename O>
void spmm(const Compressed<V>& a, int64_t outer, const DenseView& x, const DenseView& y) {
  // Columns of Y are done in blocks of kBlock float64 accumulators that live on the stack.
  constexpr int64_t kBlock = 16;
  const F* dx = static_cast<const F*>(x.data);
  O* dy = static_cast<O*>(y.data);
  const int64_t n_dim = y.cols;
  const int64_t rsx = x.row_stride(), csx = x.col_stride();
  const int64_t rsy = y.row_stride(), csy = y.col_stride();
  const bool has_values = !a.value.empty();
#pragma omp parallel for schedule(dynamic, 64)
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t n0 = 0; n0 < n_dim; n0 += kBlock) {
      const int64_t width = std::min(kBlock, n_dim - n0);
      double acc[kBlock] = {};
      for (int64_t e = a.offsets[o]; e < a.offsets[o + 1]; ++e) {
        const double v = has_values ? to_double(a.value[e]) : 1.0;
        const F* xr = dx + a.index[e] * rsx + n0 * csx;
        for (int64_t j = 0; j < width; ++j) acc[j] += v * to_double(xr[j * csx]);
      }
      O* yr = dy + o * rsy + n0 * csy;
      for (int64_t j = 0; j < width; ++j) yr[j * csy] = round_to<O>(acc[j]);
    }
  }
}

// One instantiation per row of core/support.cpp's table: (values, features, output).
template void sddmm<float, float, float>(const Pattern<float>&, const DenseView&, const DenseView&, float*);
template void sddmm<double, double, double>(const Pattern<double>&, const DenseView&, const DenseView&, double*);
template void sddmm<Float16, Float16, Float16>(const Pattern<Float16>&, const DenseView&, const DenseView&, Float16*);
template void sddmm<BFloat16, BFloat16, BFloat16>(const Pattern<BFloat16>&, const DenseView&, const DenseView&,
                                                  BFloat16*);
template void sddmm<float, Float16, float>(const Pattern<float>&, const DenseView&, const DenseView&, float*);
template void sddmm<float, BFloat16, float>(const Pattern<float>&, const DenseView&, const DenseView&, float*);
template void spmm<float, float, float>(const Compressed<float>&, int64_t, const DenseView&, const DenseView&);
template void spmm<double, double, double>(const Compressed<double>&, int64_t, const DenseView&, const DenseView&);
template void spmm<Float16, Float16, Float16>(const Compressed<Float16>&, int64_t, const DenseView&, const DenseView&);
template void spmm<BFloat16, BFloat16, BFloat16>(const Compressed<BFloat16>&, int64_t, const DenseView&,
                                                 const DenseView&);
template void spmm<float, Float16, float>(const Compressed<float>&, int64_t, const DenseView&, const DenseView&);
template void spmm<float, BFloat16, float>(const Compressed<float>&, int64_t, const DenseView&, const DenseView&);

}  // namespace sddmm::cpu
