#include "ours.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

#include "convert.hpp"
#include "device.hpp"

namespace sddmm::bench {
namespace {

sddmm_dense_t dense(const void* data, int64_t rows, int64_t cols, sddmm_layout_t layout, sddmm_dtype_t dtype) {
  const int64_t ld = layout == SDDMM_LAYOUT_ROW_MAJOR ? cols : rows;
  // The API takes void* for inputs and outputs alike; it does not write X1, X2 or X.
  return sddmm_dense_t{const_cast<void*>(data), rows, cols, ld, layout, dtype};
}

}  // namespace

OurPlans::OurPlans(const HostMatrix& m, sddmm_dtype_t value_dtype, uint32_t flags, int sets, int device,
                   cudaStream_t stream) {
  const DeviceBuffer row = upload(m.row.data(), m.row.size() * sizeof(int32_t), stream);
  const DeviceBuffer col = upload(m.col.data(), m.col.size() * sizeof(int32_t), stream);
  const DeviceBuffer val = upload_as(m.val, value_dtype, stream);
  BENCH_CUDA(cudaStreamSynchronize(stream));  // the clock below must not count the uploads

  std::vector<double> ms;
  const int creations = std::max(sets, kMinPlanTimings);
  try {
    for (int i = 0; i < creations; ++i) {
      sddmm_matrix_t handle = nullptr;
      const auto start = std::chrono::steady_clock::now();
      BENCH_SDDMM(sddmm_create_coo(&handle, m.rows, m.cols, m.nnz, row.get(), col.get(), SDDMM_INDEX_INT32, val.get(),
                                   value_dtype, SDDMM_BACKEND_CUDA, device, flags, stream));
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      if (i < sets) {
        handles_.push_back(handle);
      } else {
        BENCH_SDDMM(sddmm_destroy(handle));
      }
    }
    int64_t rows = 0, cols = 0, nnz = 0;
    BENCH_SDDMM(sddmm_get_shape(handles_.at(0), &rows, &cols, &nnz));
    if (rows != m.rows || cols != m.cols || nnz != m.nnz) {
      throw LibraryError("sddmm_get_shape disagrees with the matrix given to sddmm_create_coo: " +
                         std::to_string(rows) + " x " + std::to_string(cols) + ", nnz " + std::to_string(nnz));
    }
  } catch (...) {
    for (sddmm_matrix_t handle : handles_) sddmm_destroy(handle);
    throw;
  }
  std::sort(ms.begin(), ms.end());
  plan_ms_ = ms[ms.size() / 2];
}

OurPlans::~OurPlans() {
  for (sddmm_matrix_t handle : handles_) sddmm_destroy(handle);  // NULL-safe; nothing to do on failure
}

void our_sddmm(sddmm_matrix_t handle, const HostMatrix& m, int64_t k, const Precision& precision, const void* x1,
               const void* x2, void* out, cudaStream_t stream) {
  const sddmm_dense_t d1 = dense(x1, m.rows, k, SDDMM_LAYOUT_ROW_MAJOR, precision.features);
  const sddmm_dense_t d2 = dense(x2, k, m.cols, SDDMM_LAYOUT_COL_MAJOR, precision.features);
  BENCH_SDDMM(sddmm_execute(handle, &d1, &d2, out, precision.output, stream));
}

void our_spmm(sddmm_matrix_t handle, const HostMatrix& m, int64_t n, const Precision& precision, const void* x, void* y,
              cudaStream_t stream) {
  const sddmm_dense_t dx = dense(x, m.cols, n, SDDMM_LAYOUT_ROW_MAJOR, precision.features);
  const sddmm_dense_t dy = dense(y, m.rows, n, SDDMM_LAYOUT_ROW_MAJOR, precision.output);
  BENCH_SDDMM(spmm_execute(handle, &dx, &dy, SDDMM_OPERATION_NON_TRANSPOSE, stream));
}

}  // namespace sddmm::bench
